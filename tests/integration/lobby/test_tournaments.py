"""Tournaments end to end: real lobbies over gRPC on a private Redis, in front of the race game's real
rule service. Matches are ended by the test resigning the seat that should lose (docs/workers.md,
"Resigning"); the no-show test runs a real worker and reactor so a turn clock really runs out."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import grpc
import redis
from tabula.lobby.v1 import lobby_pb2_grpc
from tabula.lobby.v1 import tournaments_pb2 as tpb
from typer.testing import CliRunner

from services.cli.main import app
from services.games import load_game
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.domain.notices import NoticeKind
from services.lobby.server import Lobby
from shared.runtime.edge import wait
from shared.store import MatchMeta
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import (
    ROOT,
    Guest,
    LobbyFactory,
    auth,
    fails,
    sign_in,
    state_size,
)
from tests.integration.workers.conftest import Processes
from tests.support.timing import wait_until

FAST = {"TABULA_TOURNAMENT_TICK_S": "0.1"}
SWISS = tpb.TOURNAMENT_FORMAT_SWISS


def stub_of(lobby: Lobby) -> tuple[Any, grpc.Channel]:
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    return lobby_pb2_grpc.LobbyServiceStub(channel), channel


def create(stub: Any, who: Guest, start_in_ms: int = 2500, **fields: Any) -> Any:
    request = tpb.CreateTournamentRequest(
        name="Cup",
        game="race",
        format=fields.pop("format", SWISS),
        seats_per_table=fields.pop("seats_per_table", 2),
        round_count=fields.pop("round_count", 2),
        turn_seconds=fields.pop("turn_seconds", 600),
        start_at_ms=int(time.time() * 1000) + start_in_ms,
        **fields,
    )
    return stub.CreateTournament(request, metadata=who.md, timeout=5).tournament


def get(stub: Any, who: Guest, tournament_id: str) -> Any:
    return stub.GetTournament(
        tpb.GetTournamentRequest(tournament_id=tournament_id), metadata=who.md, timeout=5
    )


def round_on(stub: Any, who: Guest, tournament_id: str, number: int) -> Any:
    """The tournament once round ``number`` runs with every match created."""

    def ready() -> Any:
        seen = get(stub, who, tournament_id)
        if seen.tournament.current_round != number:
            return None
        tables = seen.rounds[-1].tables
        playing = all(t.status == tpb.TABLE_STATUS_PLAYING or not t.match_id for t in tables)
        return seen if playing else None

    return wait_until(ready, 30, f"round {number}")


def resign_losers(stub: Any, race_stub: Any, players: dict[str, Guest], seen: Any) -> None:
    """At every table of the current round the second seat resigns: the first seat wins."""
    race = load_game("race").modules.pb2
    for table in seen.rounds[-1].tables:
        if not table.match_id:
            continue
        loser = players[table.seats[1].player_id]
        mine = get(stub, loser, seen.tournament.tournament_id)
        assert (mine.my_match_id, mine.my_seat) == (table.match_id, 1)
        request = race.ResignRequest(match_id=table.match_id, command_id="lose")
        race_stub.Resign(request, metadata=auth(mine.my_seat_token), timeout=5)


def round_notices(client: redis.Redis, player_id: str) -> list[tuple[str, str]]:
    notices = NoticeRepository(client).read(player_id, "0", 1)
    return [
        (n.tournament_id, n.match_id) for _, n in notices if n.kind is NoticeKind.TOURNAMENT_ROUND_STARTED
    ]


def test_a_swiss_tournament_is_played_out_across_two_lobbies_and_a_restart(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis
) -> None:
    first, second = make_lobby(env=FAST), make_lobby(env=FAST)  # two directors race on every step
    stub, channel = stub_of(first)
    names = ["Ada", "Bob", "Cy", "Di"]
    guests = [sign_in(stub, n) for n in names]
    players = {g.player_id: g for g in guests}
    t = create(stub, guests[0], round_count=2)
    for g in guests:
        stub.RegisterForTournament(
            tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id), metadata=g.md, timeout=5
        )
    listed = stub.ListTournaments(tpb.ListTournamentsRequest(game="race"), metadata=guests[1].md, timeout=5)
    assert [x.tournament_id for x in listed.tournaments] == [t.tournament_id]
    assert listed.tournaments[0].registered == 4

    one = round_on(stub, guests[0], t.tournament_id, 1)
    pairs = [[s.player_id for s in table.seats] for table in one.rounds[0].tables]
    ids = [g.player_id for g in guests]
    assert pairs == [ids[0:2], ids[2:4]]  # registration order ranks the first round
    assert [table.match_id for table in one.rounds[0].tables] == [
        f"{t.tournament_id}-r1-t1",
        f"{t.tournament_id}-r1-t2",
    ]
    # the lobbies stop; the matches end meanwhile; a new lobby carries on
    first.stop(0)
    second.stop(0)
    channel.close()
    third = make_lobby(env=FAST)
    stub, channel = stub_of(third)
    resign_losers(stub, race_stub, players, one)
    two = round_on(stub, guests[0], t.tournament_id, 2)
    assert [table.status for table in two.rounds[0].tables] == [tpb.TABLE_STATUS_DONE] * 2
    pairs2 = [[s.player_id for s in table.seats] for table in two.rounds[1].tables]
    assert pairs2 == [[ids[0], ids[2]], [ids[1], ids[3]]]  # winners meet winners, no repeat
    resign_losers(stub, race_stub, players, two)
    done = wait_until(
        lambda: (
            (s := get(stub, guests[1], t.tournament_id)).tournament.status == tpb.TOURNAMENT_STATUS_FINISHED
            and s
        ),
        30,
        "finished",
    )
    # Ada 2 points; Bob and Cy 1 each, equal on every tie-break (Buchholz 2, no game score, one win):
    # one rank, registration order; Di 0
    table = [(r.display_name, r.rank, r.points, r.buchholz, r.wins, r.played) for r in done.standings]
    assert table == [
        ("Ada", 1, 2.0, 2.0, 2, 2),
        ("Bob", 2, 1.0, 2.0, 1, 2),
        ("Cy", 2, 1.0, 2.0, 1, 2),
        ("Di", 4, 0.0, 2.0, 0, 2),
    ]
    store = RedisEventStore(redis_client)
    for r in done.rounds:
        for tb in r.tables:
            assert MatchMeta.of(wait(store.get_meta(tb.match_id))).finished
    for g in guests:  # one notice per round, whoever opened it
        assert [m for _, m in round_notices(redis_client, g.player_id)] == [
            next(
                tb.match_id for tb in done.rounds[n].tables if g.player_id in [s.player_id for s in tb.seats]
            )
            for n in range(2)
        ]
    channel.close()


def test_two_directors_racing_open_each_round_once(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis
) -> None:
    lobbies = [make_lobby(background=False), make_lobby(background=False)]
    stub, channel = stub_of(lobbies[0])
    guests = [sign_in(stub, n) for n in ("Ada", "Bob", "Cy")]  # odd: a bye each round
    players = {g.player_id: g for g in guests}
    t = create(stub, guests[0], start_in_ms=2000, round_count=3)
    for g in guests:
        stub.RegisterForTournament(
            tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id), metadata=g.md, timeout=5
        )

    def race_ticks() -> None:
        barrier = threading.Barrier(2)

        def run(lobby: Lobby) -> None:
            barrier.wait()
            for _ in range(5):
                assert lobby.director is not None
                lobby.director.tick()

        threads = [threading.Thread(target=run, args=(lobby,)) for lobby in lobbies]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    byes = []
    for number in (1, 2, 3):
        wait_until(
            lambda n=number: (
                race_ticks() or get(stub, guests[0], t.tournament_id).tournament.current_round == n
            ),
            30,
            "round",
        )
        race_ticks()
        seen = round_on(stub, guests[0], t.tournament_id, number)
        byes += [tb.seats[0].player_id for tb in seen.rounds[-1].tables if not tb.match_id]
        resign_losers(stub, race_stub, players, seen)
    wait_until(
        lambda: (
            race_ticks()
            or get(stub, guests[0], t.tournament_id).tournament.status == tpb.TOURNAMENT_STATUS_FINISHED
        ),
        30,
        "end",
    )
    assert sorted(byes) == sorted(players)  # three rounds, three players: each sat out once
    for g in guests:
        assert len(round_notices(redis_client, g.player_id)) == 3
    channel.close()


def test_refusals_change_nothing(make_lobby: LobbyFactory, redis_client: redis.Redis) -> None:
    lobby = make_lobby(env=FAST, limits=False)
    stub, channel = stub_of(lobby)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    bad = grpc.StatusCode.INVALID_ARGUMENT
    before = state_size(redis_client)
    for fields, reason in [
        ({"format": tpb.TOURNAMENT_FORMAT_UNSPECIFIED}, "tournament_format"),
        ({"round_count": 0}, "tournament_rounds"),
        ({"round_count": 21}, "tournament_rounds"),
        ({"format": tpb.TOURNAMENT_FORMAT_ROUND_ROBIN, "round_count": 3}, "tournament_rounds"),
        (
            {"format": tpb.TOURNAMENT_FORMAT_SINGLE_ELIMINATION, "round_count": 0, "seats_per_table": 3},
            "tournament_seats",
        ),
        ({"seats_per_table": 5}, "invalid_argument"),  # the race takes 2 to 4
        ({"seats_per_table": 1}, "invalid_argument"),
        ({"turn_seconds": 0}, "invalid_argument"),
        ({"start_in_ms": -60_000}, "invalid_argument"),
        ({"game": "chess"}, "invalid_argument"),
        ({"options": {"goal": "x"}}, "invalid_argument"),
        ({"bot_level": "genius"}, "invalid_argument"),
        ({"max_players": 1}, "invalid_argument"),
    ]:
        start = fields.pop("start_in_ms", 60_000)
        if "game" in fields:
            request = tpb.CreateTournamentRequest(
                name="Cup",
                game=fields["game"],
                format=SWISS,
                seats_per_table=2,
                round_count=1,
                turn_seconds=60,
                start_at_ms=int(time.time() * 1000) + start,
            )
            fails(lambda r=request: stub.CreateTournament(r, metadata=ada.md, timeout=5), bad, reason)
            continue
        fails(lambda f=fields, s=start: create(stub, ada, start_in_ms=s, **f), bad, reason)
    assert state_size(redis_client) == before

    t = create(stub, ada, start_in_ms=2000, round_count=1)
    join = tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id)
    leave = tpb.WithdrawFromTournamentRequest(tournament_id=t.tournament_id)
    stub.RegisterForTournament(join, metadata=ada.md, timeout=5)
    kept = redis_client.hgetall(f"{{lobby}}:tournament:{t.tournament_id}")
    fails(
        lambda: stub.RegisterForTournament(join, metadata=ada.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "already_registered",
    )
    fails(
        lambda: stub.WithdrawFromTournament(leave, metadata=bob.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "not_registered",
    )
    cancel = tpb.CancelTournamentRequest(tournament_id=t.tournament_id)
    fails(
        lambda: stub.CancelTournament(cancel, metadata=bob.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "not_creator",
    )
    fails(lambda: get(stub, ada, "no-such"), grpc.StatusCode.NOT_FOUND)
    fails(lambda: get(stub, ada, "bad id!"), bad, "invalid_argument")
    assert redis_client.hgetall(f"{{lobby}}:tournament:{t.tournament_id}") == kept
    stub.RegisterForTournament(join, metadata=bob.md, timeout=5)
    round_on(stub, ada, t.tournament_id, 1)
    carol = sign_in(stub, "Carol")
    fails(
        lambda: stub.RegisterForTournament(join, metadata=carol.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "tournament_running",
    )
    stub.CancelTournament(cancel, metadata=ada.md, timeout=5)
    fails(
        lambda: stub.CancelTournament(cancel, metadata=ada.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "tournament_cancelled",
    )
    fails(
        lambda: stub.WithdrawFromTournament(leave, metadata=bob.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "tournament_cancelled",
    )
    channel.close()


def test_too_few_players_cancel_at_the_start_and_watchers_see_it(make_lobby: LobbyFactory) -> None:
    lobby = make_lobby(env=FAST)
    stub, channel = stub_of(lobby)
    ada = sign_in(stub, "Ada")
    t = create(stub, ada, start_in_ms=2000, round_count=1)
    stub.RegisterForTournament(
        tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id), metadata=ada.md, timeout=5
    )
    seen = []
    for item in stub.WatchTournament(
        tpb.WatchTournamentRequest(tournament_id=t.tournament_id), metadata=ada.md, timeout=30
    ):
        if item.HasField("tournament"):
            seen.append(item.tournament.tournament.status)
    assert seen[0] == tpb.TOURNAMENT_STATUS_REGISTERING
    assert seen[-1] == tpb.TOURNAMENT_STATUS_CANCELLED
    ended = get(stub, ada, t.tournament_id).tournament
    assert ended.ended_reason == "too_few_players"
    channel.close()


def test_a_no_show_forfeits_when_the_turn_clock_runs_out(
    make_lobby: LobbyFactory, race_pb: Any, redis_url: str, redis_client: redis.Redis, tmp_path: Path
) -> None:
    """Ada registers and never plays; Bob is there. Her seat 0 acts first; its clock (the shortest, 10 s)
    runs out, the lobby resigns it: Bob wins, Ada's line says forfeit and 0 points."""
    race_gen = Path(race_pb.__file__).parents[3]
    env = {
        "REDIS_URL": redis_url,
        "PYTHONPATH": f"{ROOT}:{ROOT / 'gen'}:{race_gen}",
        "TABULA_EXTRA_GAMES": "tests.support.race.manifest:MANIFEST",
        "TABULA_WORKER_POOL": "solo",
        "TABULA_REACTOR_BLOCK_MS": "100",
        "TABULA_METRICS_PORT": "-1",
        "PATH": "/usr/bin:/bin",
    }
    workers = Processes(env, tmp_path)
    workers.start("worker")
    workers.start("reactor")
    try:
        lobby = make_lobby(env=FAST)
        stub, channel = stub_of(lobby)
        ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
        t = create(stub, ada, start_in_ms=2000, round_count=1, turn_seconds=10, options={"goal": "100"})
        for g in (ada, bob):
            stub.RegisterForTournament(
                tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id), metadata=g.md, timeout=5
            )
        done = wait_until(
            lambda: (
                (s := get(stub, bob, t.tournament_id)).tournament.status == tpb.TOURNAMENT_STATUS_FINISHED
                and s
            ),
            60,
            "the forfeit",
        )
        (table,) = done.rounds[0].tables
        assert [(s.display_name, s.forfeited, s.placing, s.points) for s in table.seats] == [
            ("Ada", True, 2, 0.0),
            ("Bob", False, 1, 1.0),
        ]
        assert [(r.display_name, r.points, r.forfeits) for r in done.standings] == [
            ("Bob", 1.0, 0),
            ("Ada", 0.0, 1),
        ]
        meta = MatchMeta.of(wait(RedisEventStore(redis_client).get_meta(table.match_id)))
        assert meta.progress is not None and meta.progress.resigned == (0,)
        channel.close()
    except BaseException:
        print(workers.logs())
        raise
    finally:
        workers.stop_all()


def test_the_terminal_client_creates_registers_shows_and_withdraws(make_lobby: LobbyFactory) -> None:
    """``tabula tournaments`` against the lobby: create, register, list, show the standings and the
    player's table once round 1 runs, and refusals said with their reason; in Portuguese with
    ``--lang pt-BR`` and in Chinese with ``LANG=zh_CN.UTF-8``, the lobby's refusals too."""
    lobby = make_lobby(env=FAST)
    stub, channel = stub_of(lobby)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    cli = CliRunner()

    def run(who: Guest, *args: str, code: int = 0, lang: str = "C.UTF-8") -> str:
        done = cli.invoke(
            app,
            ["tournaments", *args, "--token", who.token, "--lobby", f"127.0.0.1:{lobby.port}"],
            env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": lang},
        )
        assert done.exit_code == code, done.output
        return str(done.output)

    made = run(ada, "create", "--game", "race", "--name", "Spring Cup", "--rounds", "1", "--start-in", "2")
    tournament_id = made.split()[1]
    assert "Spring Cup  race  swiss  registering  0/64 players  round 0/1" in made
    assert run(ada, "register", tournament_id).strip() == "registered for Spring Cup"
    assert "already_registered" in run(ada, "register", tournament_id, code=1)
    refused = run(ada, "register", tournament_id, "--lang", "pt-BR", code=1)
    assert "already_registered" in refused and "o jogador já está inscrito" in refused
    assert "该玩家已经报名" in run(ada, "register", tournament_id, code=1, lang="zh_CN.UTF-8")
    assert run(bob, "register", tournament_id).strip() == "registered for Spring Cup"
    assert tournament_id in run(bob, "list")
    round_on(stub, ada, tournament_id, 1)
    shown = run(bob, "show", tournament_id)
    assert "running  2/64 players  round 1/1" in shown
    assert "1. Ada" in shown and "1. Bob" in shown  # nobody has points yet: one rank
    assert f"table 1: Ada, Bob  (playing) {tournament_id}-r1-t1" in shown
    assert f"Your match: {tournament_id}-r1-t1 (seat 1)" in shown
    shown = run(bob, "show", tournament_id, "--lang", "pt-BR")
    assert "Spring Cup  race  suíço  em andamento  2/64 jogadores  rodada 1/1  começa " in shown
    assert "Classificação:" in shown and "Buchholz 0  placar 0  vitórias 0  partidas 0" in shown
    assert f"mesa 1: Ada, Bob  (em jogo) {tournament_id}-r1-t1" in shown
    assert f"Sua partida: {tournament_id}-r1-t1 (lugar 1)" in shown
    assert "Standings" not in shown and "players" not in shown
    shown = run(bob, "show", tournament_id, lang="zh_CN.UTF-8")
    assert (
        "瑞士制  进行中  2/64 名玩家  第 1/1 轮" in shown
        and f"你的对局：{tournament_id}-r1-t1（座位 1）" in shown
    )
    assert run(bob, "withdraw", tournament_id).strip() == "withdrew from Spring Cup"
    assert "(withdrawn)" in run(ada, "show", tournament_id)
    assert "not_creator" in run(bob, "cancel", tournament_id, code=1)
    assert run(ada, "cancel", tournament_id).strip() == "cancelled Spring Cup"
    watched = run(bob, "watch", tournament_id)  # the tournament as it is, then the stream ends: it is over
    assert "cancelled  2/64 players  round 1/1" in watched and "ended: cancelled" in watched
    assert "tournament_format" not in run(ada, "create", "--game", "race", "--format", "knockout", code=2)
    channel.close()


def resign_all_but_first(stub: Any, race_stub: Any, players: dict[str, Guest], seen: Any) -> None:
    """At every table of the current round every human but the first seated resigns: the match ends
    (at most one human left) with the first human first."""
    race = load_game("race").modules.pb2
    for table in seen.rounds[-1].tables:
        humans = [s.player_id for s in table.seats if s.player_id]
        for player in humans[1:] if table.match_id else []:
            mine = get(stub, players[player], seen.tournament.tournament_id)
            request = race.ResignRequest(match_id=table.match_id, command_id=f"lose-{mine.my_seat}")
            race_stub.Resign(request, metadata=auth(mine.my_seat_token), timeout=5)


def finished(stub: Any, who: Guest, tournament_id: str) -> Any:
    return wait_until(
        lambda: (
            (s := get(stub, who, tournament_id)).tournament.status == tpb.TOURNAMENT_STATUS_FINISHED and s
        ),
        30,
        "finished",
    )


def test_tables_of_three_by_score_groups_with_a_bye_or_with_bots(
    make_lobby: LobbyFactory, race_stub: Any
) -> None:
    lobby = make_lobby(env=FAST, limits=False)
    stub, channel = stub_of(lobby)
    for bots in (False, True):
        guests = [sign_in(stub, n) for n in ("Ada", "Bob", "Cy", "Di")]  # new players: equal ratings
        players = {g.player_id: g for g in guests}
        ids = [g.player_id for g in guests]
        expected = [[*ids[0:2], ""], [*ids[2:4], ""]] if bots else [ids[0:3], ids[3:4]]
        t = create(stub, guests[0], start_in_ms=2000, round_count=1, seats_per_table=3, allow_bots=bots)
        for g in guests:
            stub.RegisterForTournament(
                tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id), metadata=g.md, timeout=5
            )
        seen = round_on(stub, guests[0], t.tournament_id, 1)
        assert [[s.player_id for s in tb.seats] for tb in seen.rounds[0].tables] == expected
        resign_all_but_first(stub, race_stub, players, seen)
        done = finished(stub, guests[0], t.tournament_id)
        points = {r.display_name: r.points for r in done.standings}
        if bots:  # the first human first, the bot next, the resigned human last: 1 and 0
            assert points == {"Ada": 1.0, "Bob": 0.0, "Cy": 1.0, "Di": 0.0}
        else:  # Ada first of three; Bob resigned before Cy: placed last; Di's bye is 1 point
            assert points == {"Ada": 1.0, "Bob": 0.0, "Cy": 0.5, "Di": 1.0}
            assert [r.byes for r in done.standings if r.display_name == "Di"] == [1]
    channel.close()


def test_single_elimination_of_three_gives_the_top_seed_a_bye_and_crowns_one(
    make_lobby: LobbyFactory, race_stub: Any
) -> None:
    lobby = make_lobby(env=FAST, limits=False)
    stub, channel = stub_of(lobby)
    guests = [sign_in(stub, n) for n in ("Ada", "Bob", "Cy")]
    players = {g.player_id: g for g in guests}
    ids = [g.player_id for g in guests]
    t = create(
        stub, guests[0], start_in_ms=2000, round_count=0, format=tpb.TOURNAMENT_FORMAT_SINGLE_ELIMINATION
    )
    for g in guests:
        stub.RegisterForTournament(
            tpb.RegisterForTournamentRequest(tournament_id=t.tournament_id), metadata=g.md, timeout=5
        )
    one = round_on(stub, guests[0], t.tournament_id, 1)
    assert one.tournament.round_count == 2
    assert [[s.player_id for s in tb.seats] for tb in one.rounds[0].tables] == [[ids[0]], [ids[1], ids[2]]]
    resign_losers(stub, race_stub, players, one)
    two = round_on(stub, guests[0], t.tournament_id, 2)
    assert [[s.player_id for s in tb.seats] for tb in two.rounds[1].tables] == [[ids[0], ids[1]]]
    resign_losers(stub, race_stub, players, two)
    done = finished(stub, guests[0], t.tournament_id)
    assert [(r.display_name, r.eliminated) for r in done.standings] == [
        ("Ada", False),
        ("Bob", True),
        ("Cy", True),
    ]
    channel.close()
