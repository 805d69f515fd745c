"""A second game plugged in by one package and one registry line, played end to end.

The dice race (``tests/support/race/``: rules, bot hooks, manifest; no presentation, no spectator
module) is registered the way the tests register a game, ``TABULA_EXTRA_GAMES`` naming its manifest:
the test-time form of the one line a game adds to ``services/games.py``. Its ``.proto`` is generated
from its rules and compiled into a temporary folder on the stack's ``PYTHONPATH``; nothing else
changes. Then the whole stack (`tabula run`: its rule service, lobby, gateway, worker, reactor):

* the lobby lists the game with its option, and `tabula play --game race` (a guest: private room,
  two bot seats, start) plays the human seat to the end on the generic board;
* the bots' rolls come from the workers (actor ``bot:<seat>:<level>``) and every round end from the
  scoring worker (actor ``system``), planned by the reactor from the recorded progress;
* the final outcome is the fold of the exported log, and it is what the client printed, what the
  gateway's HTTP API serves for the match and what the lobby's history records;
* the gateway lists the game without a spectator module (the page draws its view as a tree).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as lobby_pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.cli.stack import STATE_DIR
from services.client.saved import MATCHES_FILE, find
from services.games import GAMES, load_game
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.support.race.manifest import MANIFEST
from tests.support.race.protos import compile_race
from tests.support.race.rules import RaceConfig, RaceRules, RaceState, RaceView
from tests.support.tabula_run import play_as_ada, run_with_game

ROOT = Path(__file__).resolve().parents[2]
REGISTRATION = "tests.support.race.manifest:MANIFEST"  # the one registry line, as tests give it
GOAL = "30"
BOTS = ("greedy", "mcts")  # seats 1 and 2; the human (the room's host) is seat 0


@pytest.fixture(scope="module")
def race_gen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game's .proto rendered from its rules and compiled, outside the repository."""
    return compile_race(tmp_path_factory.mktemp("race-e2e"), source=MANIFEST.source)


@dataclass(frozen=True)
class Stack:
    env: dict[str, str]
    output: str  # what `tabula run` printed up to "all services up"
    redis_url: str

    def port(self, service: str) -> int:
        return int(self.env[f"TABULA_{service.upper()}_PORT"])

    def address(self, service: str) -> str:
        return f"127.0.0.1:{self.port(service)}"


@pytest.fixture(scope="module")
def stack(race_gen: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    secret = "e2e-second-game-secret-0123456789"
    settings = {"TABULA_SECRET": secret, "TABULA_MCTS_ITERATIONS": "20"}
    with run_with_game(MANIFEST, REGISTRATION, race_gen, tmp_path_factory, **settings) as running:
        yield Stack(*running)


@dataclass(frozen=True)
class Played:
    match_id: str
    seat: int
    output: str


@pytest.fixture(scope="module")
def played(stack: Stack) -> Played:
    """`tabula play --game race`: lobby and rule service found through the registry and the ports."""
    play = ("--game", "race", "--seats", "3", "--bots", ",".join(BOTS), "--option", f"goal={GOAL}")
    # every prompt: the first legal command (a roll is the only one)
    return Played(*play_as_ada(stack.env, *play, answers="1\n" * 500))


def _auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


@pytest.fixture(scope="module")
def lobby(stack: Stack) -> Iterator[Any]:
    channel = grpc.insecure_channel(stack.address("lobby"))
    yield lobby_pb2_grpc.LobbyServiceStub(channel)
    channel.close()


@pytest.fixture(scope="module")
def guest(lobby: Any) -> list[tuple[str, str]]:
    return _auth(lobby.SignInGuest(lobby_pb.SignInGuestRequest(display_name="Eve"), timeout=10).token)


@pytest.fixture(scope="module")
def spectator_token(stack: Stack, lobby: Any, played: Played) -> str:
    """`tabula play` plays in a private room, whose match only its players may watch: Ada asks, with
    the guest token the client saved for rejoining."""
    saved = find(Path(stack.env[STATE_DIR]) / MATCHES_FILE, played.match_id)
    assert saved is not None and saved.seat == played.seat
    request = lobby_pb.GetSpectatorTokenRequest(match_id=played.match_id)
    reply = lobby.GetSpectatorToken(request, metadata=_auth(saved.guest_token), timeout=10)
    assert reply.game == "race"
    return str(reply.token)


@dataclass(frozen=True)
class Log:
    events: list[Any]  # MatchEvent messages, version order
    state: RaceState  # the fold of their decoded events with the pure rules


@pytest.fixture(scope="module")
def log(stack: Stack, played: Played, spectator_token: str) -> Log:
    """The whole log (revealed once the match is over), folded again here with the game's rules."""
    game = load_game("race")
    pb2, rules = game.modules.pb2, game.rules
    with grpc.insecure_channel(stack.address("race")) as channel:
        stub = game.modules.pb2_grpc.RaceServiceStub(channel)
        request = pb2.ExportLogRequest(match_id=played.match_id)
        events = list(stub.ExportLog(request, metadata=_auth(spectator_token), timeout=10).events)
    state = rules.initial_state()
    for item in events:
        envelope = item.envelope
        state = rules.evolve(
            state, game.codec.decode(envelope.type, envelope.payload, envelope.schema_version)
        )
    return Log(events, state)


def _final(rules: RaceRules, log: Log) -> tuple[list[int], list[int]]:
    outcome = rules.outcome(log.state)
    assert outcome is not None, log.state
    return list(outcome.scores), list(outcome.placings)


def _http(stack: Stack, path: str, body: dict[str, Any] | None = None, token: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://{stack.address('gateway')}{path}", data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            raw = reply.read()
            status = reply.status
            kind = reply.headers.get_content_type()
    except urllib.error.HTTPError as err:
        raw, status, kind = err.read(), err.code, err.headers.get_content_type()
    return status, json.loads(raw) if kind == "application/json" else raw.decode(errors="replace")


def _eventually(read: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = read()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def test_the_platform_names_neither_the_games_package_nor_its_types() -> None:
    """Plugging the game in changed nothing in shared/ or services/: no path, title or type of it
    there (the word "race" itself is ordinary English in the platform: "lost a race")."""
    needles = [
        "tests.support.race",
        "tests/support/race",
        MANIFEST.title,
        *(t.__name__ for t in (RaceRules, RaceState, RaceView, RaceConfig)),
    ]
    args = [arg for needle in needles for arg in ("-e", needle)]
    found = subprocess.run(
        ["git", "grep", "-n", "-I", "-F", *args, "--", "shared", "services"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode == 1 and not found.stdout, found.stdout + found.stderr  # 1: no match
    assert MANIFEST.name not in {m.name for m in GAMES}  # only the environment registers it
    assert not (ROOT / "proto" / "tabula" / MANIFEST.name).exists()  # its .proto is the test's own


def test_tabula_run_starts_the_games_rule_service(stack: Stack) -> None:
    assert re.search(rf"^race\s+grpc {re.escape(stack.address('race'))}\b", stack.output, re.M), stack.output


def test_the_lobby_lists_the_game_with_its_option(lobby: Any) -> None:
    games = {g.name: g for g in lobby.ListGames(lobby_pb.ListGamesRequest(), timeout=10).games}
    race = games["race"]
    assert (race.title, race.min_seats, race.max_seats) == (MANIFEST.title, 2, 4)
    goal, undo = race.options  # its own, then the platform's
    assert undo.name == "undo"
    assert (goal.name, goal.type, goal.default_value, goal.minimum, goal.maximum) == (
        "goal",
        lobby_pb.GAME_OPTION_TYPE_INT,
        "20",
        1,
        100,
    )


def test_the_lobby_refuses_an_option_outside_the_manifests_range(
    lobby: Any, guest: list[tuple[str, str]]
) -> None:
    request = lobby_pb.CreateRoomRequest(game="race", seats=2, options={"goal": "101"})
    with pytest.raises(grpc.RpcError) as err:
        lobby.CreateRoom(request, metadata=guest, timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "goal" in (err.value.details() or "")


def test_the_terminal_client_plays_the_seat_on_the_generic_board(played: Played) -> None:
    out = played.output
    assert played.seat == 0 and "players: Ada, greedy bot, mcts bot" in out
    lines = [" ".join(line.strip("│ ").split()) for line in out.splitlines()]
    assert re.search(rf"─ RaceView\s+match {played.match_id}\s+v\d+ ─", out), out[:3000]  # the board's title
    assert f"goal {GOAL}" in lines and any(re.fullmatch(r"my secret [123]", line) for line in lines)
    assert "The only possible command:" in lines and "1 Roll" in lines  # the client's step, one option
    assert re.search(r"Die rolled: greedy bot \(seat 1\); value [1-6]", out)
    assert re.search(r"\[system\] v\d+ Round ended: round \d+", out)
    assert "Final scores" in out


def test_bots_roll_in_the_workers_and_the_scoring_worker_ends_every_round(played: Played, log: Log) -> None:
    """Only the human's rolls come from the client: the bots' from the bot worker, the round ends
    from the scoring worker, each with the command id its task derives from the version it saw."""
    actors: dict[int, set[str]] = {}
    for e in log.events:
        if e.envelope.type == "DieRolled":
            actors.setdefault(e.event.die_rolled.seat, set()).add(e.envelope.actor)
    assert actors == {0: {"seat:0"}, 1: {"bot:1:greedy"}, 2: {"bot:2:mcts"}}
    ends = [e for e in log.events if e.envelope.type == "RoundEnded"]
    assert len(ends) >= 4  # 30 spaces take at least five rolls of at most 6 each
    for e in ends:
        assert e.envelope.actor == "system"
        assert e.envelope.command_id == f"system:{played.match_id}:{e.envelope.version - 1}"
    assert [e.event.round_ended.round for e in ends] == list(range(1, len(ends) + 1))


def test_the_log_folds_to_a_finished_race_with_the_chosen_goal(log: Log) -> None:
    state = log.state
    assert (state.seats, state.goal) == (3, int(GOAL))
    assert max(state.positions) >= state.goal and RaceRules().invariant_violations(state) == []
    assert sum(1 for e in log.events if e.envelope.type == "SecretDealt") == 3


def test_the_client_printed_the_outcome_of_the_log(played: Played, log: Log) -> None:
    scores, placings = _final(RaceRules(), log)
    final = played.output[played.output.index("Final scores") :]
    for seat, name in enumerate(("Ada", "greedy bot", "mcts bot")):
        assert re.search(rf"{placings[seat]}\W+{re.escape(name)}\W+{scores[seat]}\b", final), final


def test_the_gateway_serves_the_matchs_view_and_lists_the_game_without_a_module(
    stack: Stack, played: Played, spectator_token: str, log: Log
) -> None:
    status, listing = _http(stack, "/games")
    assert status == 200
    race = next(g for g in listing["games"] if g["name"] == "race")
    assert race["title"] == MANIFEST.title and race["module"] is False and race["content"] is False
    status, _ = _http(stack, "/games/race/race.js")
    assert status == 404  # so the spectator page draws the view as a tree
    status, page = _http(stack, f"/?match={played.match_id}&game=race&token={spectator_token}")
    assert status == 200 and "<html" in page.lower()

    status, api = _http(stack, "/api")
    assert status == 200
    routes = {m["method"]: m["route"] for m in api["services"]["tabula.race.v1.RaceService"]}
    status, reply = _http(stack, routes["GetView"], {"matchId": played.match_id}, spectator_token)
    assert status == 200, reply
    scores, placings = _final(RaceRules(), log)
    assert int(reply["version"]) == len(log.events)
    assert reply["view"]["positions"] == list(log.state.positions) and reply["view"]["goal"] == int(GOAL)
    assert reply["view"].get("mySecret") is None  # a spectator sees no bonus
    assert reply["outcome"]["placings"] == placings and reply["outcome"]["scores"] == scores


def test_the_final_outcome_is_in_the_lobbys_history(
    stack: Stack, lobby: Any, guest: list[tuple[str, str]], played: Played, log: Log
) -> None:
    meta = wait(RedisEventStore(redis.Redis.from_url(stack.redis_url)).get_meta(played.match_id))
    players = json.loads(meta["players"])
    ada = players[played.seat]
    assert ada and players[1:] == ["", ""]  # the bot seats have no player

    def entry() -> Any:
        request = lobby_pb.GetMatchHistoryRequest(player_id=ada)
        found = lobby.GetMatchHistory(request, metadata=guest, timeout=10).entries
        return next((e for e in found if e.match_id == played.match_id), None)

    recorded = _eventually(entry, "the match in Ada's history")
    _, placings = _final(RaceRules(), log)
    assert (recorded.game, recorded.seat, recorded.seats) == ("race", played.seat, 3)
    assert list(recorded.placings) == placings and recorded.placing == placings[played.seat]
