"""Resigning (shared/core/resign.py, docs/workers.md "Resigning") in every registered game, and in the
test games registered as a later game would be (Nim, the race), over real gRPC and a private Redis.

A seat token's ``Resign`` appends the platform's ``SeatResigned`` event, which ExportLog and Replay
show; a retry with the same command id answers the first result; a refused call writes nothing. In a
match of two people it ends the match at once, the other first. With more people the match goes on:
the reactor (in process, with no game code) plans the resigned seat's turns as bot jobs and the
workers' job functions play them, and the outcome places the resigned seat last.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from rich.console import Console

from services.client.presentation import presentation_for
from services.client.rpc import GameClient
from services.client.session import Player
from services.games import GAMES, LoadedGame, load_game
from services.workers.planner import JobKind
from shared.core.codec import union_field
from shared.core.decider import Actor
from shared.core.resign import SEAT_RESIGNED
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.errors import error_info
from shared.serving.tokens import TokenSigner
from shared.store import MatchMeta
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Dispatch, FakeClock, fast_settings, planning_reactor, run_job
from tests.support.game_protos import compile_game
from tests.support.game_server import Callers, bearer, served_stub
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.race.manifest import MANIFEST as RACE

GAME_NAMES = (*(m.name for m in GAMES), NIM.name, RACE.name)
LATER_GAMES = "tests.support.nim.manifest:MANIFEST,tests.support.race.manifest:MANIFEST"
SIGNER = TokenSigner(b"resign-test-secret-0123456789abcdefgh")


@pytest.fixture(scope="module")
def later_games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Nim's and the race's generated code (no committed .proto), importable from then on."""
    return [compile_game(tmp_path_factory.mktemp(m.name), m) for m in (NIM, RACE)]


@pytest.fixture
def game(
    request: pytest.FixtureRequest, later_games: list[Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[LoadedGame]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", LATER_GAMES)
    load_game.cache_clear()
    yield load_game(request.param)
    load_game.cache_clear()


@pytest.fixture
def stub(game: LoadedGame, redis_client: redis.Redis) -> Iterator[Any]:
    with served_stub(game, redis_client, SIGNER) as served:
        yield served


def create(stub: Any, game: LoadedGame, callers: Callers, match_id: str, seats: int) -> int:
    names = [f"Player {seat}" for seat in range(seats)]
    request = game.modules.pb2.CreateMatchRequest(
        match_id=match_id, seats=seats, seed=7, players=[f"p{s}" for s in range(seats)], display_names=names
    )
    version: int = stub.CreateMatch(request, metadata=callers.service, timeout=10).version
    return version


def resign(
    stub: Any, game: LoadedGame, auth: Any, match_id: str, command_id: str, expected: int | None = None
) -> Any:
    request = game.modules.pb2.ResignRequest(match_id=match_id, command_id=command_id)
    if expected is not None:
        request.expected_version = expected
    return stub.Resign(request, metadata=auth, timeout=10)


def view(stub: Any, game: LoadedGame, auth: Any, match_id: str) -> Any:
    return stub.GetView(game.modules.pb2.GetViewRequest(match_id=match_id), metadata=auth, timeout=10)


def refused(call: Any, code: grpc.StatusCode, reason: str) -> None:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == code, err.value.details()
    info = error_info(err.value)
    assert info is not None and info.reason == reason


def stored(redis_client: redis.Redis, match_id: str) -> tuple[list[Any], dict[str, str]]:
    """The match's log and meta as Redis holds them: what a refused call must leave as it was."""
    store = RedisEventStore(redis_client)
    return wait(store.read(match_id)), dict(wait(store.get_meta(match_id)))


def folded_outcome(game: LoadedGame, log: Any) -> Any:
    """The rules' own outcome of an exported log, the platform's events left out."""
    state = game.rules.initial_state()
    for item in log.events:
        if item.envelope.type != SEAT_RESIGNED:
            state = game.rules.evolve(state, game.codec.from_message(union_field(item.event)))
    return game.rules.outcome(state)


@pytest.mark.parametrize("game", GAME_NAMES, indirect=True)
def test_in_a_match_of_two_a_resignation_ends_it_at_once_the_other_first(
    game: LoadedGame, stub: Any, redis_client: redis.Redis
) -> None:
    callers, pb2 = Callers(SIGNER, game.manifest.name), game.modules.pb2
    head = create(stub, game, callers, "two", 2)
    done = resign(stub, game, callers.seat("two", 0), "two", "quit-1", head)
    assert (done.first_version, done.last_version, done.duplicate) == (head + 1, head + 1, False)

    again = resign(stub, game, callers.seat("two", 0), "two", "quit-1", head)  # a retry: its first answer
    assert (again.first_version, again.last_version, again.duplicate) == (head + 1, head + 1, True)
    before = stored(redis_client, "two")
    refused(
        lambda: resign(stub, game, callers.seat("two", 1), "two", "quit-2"),
        grpc.StatusCode.FAILED_PRECONDITION,
        "match_over",
    )
    assert stored(redis_client, "two") == before

    seen = view(stub, game, callers.seat("two", 1), "two")
    assert list(seen.resigned) == [0] and seen.HasField("outcome")
    assert list(seen.outcome.placings) == [2, 1] and list(seen.outcome.scores) == [0, 0]
    assert list(seen.seats_to_act) == [] and not seen.system_to_act and list(seen.legal_commands) == []
    meta = MatchMeta.of(before[1])
    assert meta.finished and meta.progress is not None and meta.progress.outcome is not None
    assert meta.progress.outcome.placings == (2, 1) and meta.progress.resigned == (0,)

    log = stub.ExportLog(pb2.ExportLogRequest(match_id="two"), metadata=callers.seat("two", 1), timeout=10)
    last = log.events[-1]
    assert (last.envelope.type, last.envelope.actor, last.envelope.version) == (
        SEAT_RESIGNED,
        "seat:0",
        head + 1,
    )
    assert not last.HasField("event")
    assert last.platform.seat_resigned.seat == 0 and last.actor_seat.label == "Player 0"
    assert folded_outcome(game, log) is None  # the rules never saw it: they are still mid-game

    replayed = stub.Replay(
        pb2.ReplayRequest(match_id="two", version=head + 1), metadata=callers.seat("two", 1), timeout=10
    )
    earlier = stub.Replay(
        pb2.ReplayRequest(match_id="two", version=head), metadata=callers.seat("two", 1), timeout=10
    )
    assert list(replayed.resigned) == [0] and list(earlier.resigned) == []
    assert replayed.view == earlier.view  # the game's state is the same on both sides of it


@pytest.mark.parametrize("game", [n for n in GAME_NAMES if n != NIM.name], indirect=True)
def test_a_resigned_seat_is_played_by_a_bot_and_the_others_match_goes_on(
    game: LoadedGame, stub: Any, redis_client: redis.Redis
) -> None:
    callers, pb2, name = Callers(SIGNER, game.manifest.name), game.modules.pb2, game.manifest.name
    head = create(stub, game, callers, "three", 3)
    create(stub, game, callers, "other", 3)
    before = stored(redis_client, "three")
    refusals = [
        (
            lambda: resign(stub, game, callers.seat("three", 0), "three", "q", head + 5),
            grpc.StatusCode.ABORTED,
            "stale_version",
        ),
        (
            lambda: resign(stub, game, callers.spectator("three"), "three", "q"),
            grpc.StatusCode.PERMISSION_DENIED,
            "forbidden",
        ),
        (
            lambda: resign(stub, game, callers.service, "three", "q"),
            grpc.StatusCode.PERMISSION_DENIED,
            "forbidden",
        ),
        (
            lambda: resign(stub, game, callers.seat("other", 0), "three", "q"),
            grpc.StatusCode.PERMISSION_DENIED,
            "forbidden",
        ),
        (
            lambda: resign(stub, game, bearer("forged"), "three", "q"),
            grpc.StatusCode.UNAUTHENTICATED,
            "bad_token",
        ),
    ]
    for call, code, reason in refusals:
        refused(call, code, reason)
    assert stored(redis_client, "three") == before

    resigner = next(iter(view(stub, game, callers.service, "three").seats_to_act), 0)  # its turn: a bot's now
    done = resign(stub, game, callers.seat("three", resigner), "three", "quit", None)
    assert done.first_version == head + 1 and not done.duplicate
    after = stored(redis_client, "three")
    refused(
        lambda: resign(stub, game, callers.seat("three", resigner), "three", "quit-again"),
        grpc.StatusCode.FAILED_PRECONDITION,
        "seat_resigned",
    )
    mine = view(stub, game, callers.seat("three", resigner), "three")
    assert (
        list(mine.resigned) == [resigner] and not mine.HasField("outcome") and list(mine.legal_commands) == []
    )
    command = game.rules.legal_commands(
        wait(_runner(game, redis_client).load("three")).state, Actor.of_seat(resigner)
    )
    if command:
        request = pb2.SubmitCommandRequest(match_id="three", expected_version=mine.version, command_id="mine")
        game.codec.fill_union(request.command, command[0])
        refused(
            lambda: stub.SubmitCommand(request, metadata=callers.seat("three", resigner), timeout=10),
            grpc.StatusCode.FAILED_PRECONDITION,
            "seat_resigned",
        )
    assert stored(redis_client, "three") == after

    # the others play on; the reactor plans the resigned seat's turns (and system steps) without game
    # code, and the workers' job functions play them
    store, dispatch = RedisEventStore(redis_client), Dispatch()
    reactor = planning_reactor(store, dispatch, FakeClock(), fast_settings())
    runner, rng, bot_moves = _runner(game, redis_client), Rng(3), 0
    whole = name == RACE.name  # the race is played to its end; the long games until the bot moved twice
    for n in range(3000):
        seen = view(stub, game, callers.service, "three")
        if seen.HasField("outcome") or (not whole and bot_moves >= 2):
            break
        people = [s for s in seen.seats_to_act if s != resigner]
        if people and not seen.system_to_act:
            seat = rng.choice(people)
            mine = view(stub, game, callers.seat("three", seat), "three")
            request = pb2.SubmitCommandRequest(
                match_id="three", expected_version=mine.version, command_id=f"c{n}"
            )
            request.command.CopyFrom(rng.choice(list(mine.legal_commands)))
            stub.SubmitCommand(request, metadata=callers.seat("three", seat), timeout=10)
            continue
        reactor.follower.poll(">")
        jobs, dispatch.sent = dispatch.sent, []
        assert jobs, f"nothing planned at version {seen.version}"
        for job in jobs:
            assert job.kind is not JobKind.TIMER
            if job.kind is JobKind.BOT:
                assert (job.seat, job.level) == (resigner, "greedy")
            bot_moves += run_job(runner, job) == "applied" and job.kind is JobKind.BOT
    events = wait(store.read("three"))
    played = [
        e.actor for e in events if e.version > done.first_version and e.actor.endswith(f":{resigner}:greedy")
    ]
    assert len(played) >= 2 and all(a == f"bot:{resigner}:greedy" for a in played)
    assert not any(e.actor == f"seat:{resigner}" for e in events if e.version > done.first_version)
    if whole:
        assert seen.HasField("outcome")
        placings = list(seen.outcome.placings)
        assert placings[resigner] == 3 and sorted(placings) in ([1, 2, 3], [1, 1, 3])
        log = stub.ExportLog(
            pb2.ExportLogRequest(match_id="three"), metadata=callers.seat("three", 0), timeout=10
        )
        assert list(folded_outcome(game, log).scores) == list(seen.outcome.scores)  # the rules' scores, kept
        meta = MatchMeta.of(dict(wait(store.get_meta("three"))))
        assert meta.progress is not None and meta.progress.outcome is not None
        assert list(meta.progress.outcome.placings) == placings  # what ratings and MATCH_ENDED read


def _runner(game: LoadedGame, redis_client: redis.Redis) -> MatchRunner[Any]:
    return MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))


@pytest.mark.parametrize("game", ["lorenzo"], indirect=True)
def test_the_terminal_client_resigns_once_the_player_says_yes(game: LoadedGame, stub: Any) -> None:
    """``tabula play``'s loop: ``resign`` asks first; ``no`` plays on, ``resign`` then ``yes`` resigns
    (a match of two: it ends, the other first, and the loop returns its outcome)."""
    callers = Callers(SIGNER, game.manifest.name)
    create(stub, game, callers, "cli", 2)
    seat = next(iter(view(stub, game, callers.service, "cli").seats_to_act))  # a seat whose input is read
    token = callers.seat("cli", seat)[0][1].removeprefix("Bearer ")
    client = GameClient(stub, game.modules.pb2, "cli", token, deadline_s=10)
    lines = iter(["resign", "no", "resign", "yes"])
    console = Console(width=200, record=True, no_color=True)
    player = Player(
        client, presentation_for("lorenzo"), console, seat=seat, read_line=lambda: next(lines, None)
    )
    outcome = player.play()
    text = console.export_text()
    assert "Not resigned: play on." in text and "You resigned: a bot plays your seat." in text
    assert outcome is not None and outcome.placings[seat] == 2 and outcome.placings[1 - seat] == 1
    assert f"Player {seat} resigned" in text  # the event in words, as the stream brought it


@pytest.mark.parametrize("game", [RACE.name], indirect=True)
def test_in_a_match_with_a_turn_clock_a_resigned_seat_to_act_has_no_clock(
    game: LoadedGame, stub: Any
) -> None:
    callers, pb2 = Callers(SIGNER, game.manifest.name), game.modules.pb2
    request = pb2.CreateMatchRequest(
        match_id="clocked", seats=3, seed=7, turn_seconds=60, options={"goal": "20"}
    )
    stub.CreateMatch(request, metadata=callers.service, timeout=10)
    (seat,) = view(stub, game, callers.service, "clocked").seats_to_act
    assert [c.seat for c in view(stub, game, callers.service, "clocked").clocks] == [seat]
    resign(stub, game, callers.seat("clocked", seat), "clocked", "quit")
    after = view(stub, game, callers.service, "clocked")
    assert list(after.seats_to_act) == [seat] and list(after.clocks) == []  # a bot moves at once
