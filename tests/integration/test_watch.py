"""Watch streams: 100 watchers see the same sequence; a reconnect resumes with no gaps or repeats."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from services.games import LoadedGame, load_game
from shared.core.decider import SPECTATOR, Actor, Visibility
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.tokens import Scope, TokenSigner
from shared.store import EventStore
from tests.support.stores import STORES, store_of
from tests.support.timing import scaled

SIGNER = TokenSigner(b"watch-test-secret-0123456789abcdef")


def auth(scope: Scope, match_id: str = "w", seat: int = -1) -> list[tuple[str, str]]:
    token = (
        SIGNER.seat("lorenzo", match_id, seat, "x")
        if scope is Scope.SEAT
        else SIGNER.spectator("lorenzo", match_id, "x")
    )
    return [("authorization", "Bearer " + token)]


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    """Every store: the watch hub reads each through its own ``stream_reader``."""
    yield from store_of(request)


@pytest.fixture
def setup(store: EventStore) -> Iterator[tuple[MatchRunner[Any], Any, LoadedGame]]:
    game = load_game("lorenzo")
    runner = MatchRunner(game.rules, game.codec, store)
    running: RunningServer = start_server(
        [GameServicer(runner, game.modules, SIGNER, keepalive_s=0.3).registration()]
    )
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    wait(runner.create("w", 2, {"advanced": "true"}, seed=8))
    yield runner, game.modules.pb2_grpc.LorenzoServiceStub(channel), game
    channel.close()
    running.stop(0)


def advance(runner: MatchRunner[Any], commands: int, seed: int) -> int:
    rng, rules = Rng(seed), runner.rules
    loaded = wait(runner.load("w"))
    for n in range(commands):
        actor = rng.choice(rules.to_act(loaded.state))
        wait(
            runner.submit(
                "w",
                actor,
                rng.choice(rules.legal_commands(loaded.state, actor)),
                loaded.version,
                f"s{seed}-{n}",
            )
        )
        loaded = wait(runner.load("w"))
    return loaded.version


def collect(
    stub: Any,
    pb2: Any,
    metadata: list[tuple[str, str]],
    start: int,
    until: Callable[[], int],
    out: list[int],
    ready: threading.Event | None = None,
) -> None:
    """Append the versions of streamed events to ``out`` until the head reaches ``until()``."""
    stream = stub.WatchMatch(
        pb2.WatchMatchRequest(match_id="w", from_version=start), metadata=metadata, timeout=120
    )
    for item in stream:
        if ready is not None:
            ready.set()
        if item.WhichOneof("item") == "event":
            out.append(item.event.envelope.version)
            if item.event.envelope.version >= until():
                break
        elif item.keepalive.head_version >= until():
            break
    stream.cancel()


def visible_versions(runner: MatchRunner[Any], viewer: Actor, start: int = 1) -> list[int]:
    return [
        e.version
        for e in wait(runner.store.read("w", start))
        if Visibility.decode(e.visibility).visible_to(viewer)
    ]


def test_a_hundred_watchers_all_see_the_same_sequence(
    setup: tuple[MatchRunner[Any], Any, LoadedGame],
) -> None:
    runner, stub, game = setup
    pb2 = game.modules.pb2
    stop_at = [10**9]
    seen: list[list[int]] = [[] for _ in range(100)]
    ready = [threading.Event() for _ in range(100)]
    threads = [
        threading.Thread(
            target=collect, args=(stub, pb2, auth(Scope.SPECTATOR), 1, lambda: stop_at[0], seen[i], ready[i])
        )
        for i in range(100)
    ]
    for t in threads:
        t.start()
    assert all(r.wait(scaled(30)) for r in ready)
    stop_at[0] = advance(runner, 60, seed=1)
    for t in threads:
        t.join(scaled(60))
    assert not any(t.is_alive() for t in threads), "a watcher is still reading"
    expected = visible_versions(runner, SPECTATOR)
    assert len(expected) > 60
    assert {len(s) for s in seen} == {len(expected)}, "no watcher misses or repeats an event"
    assert all(s == expected for s in seen), "every watcher sees the same public sequence"


def test_a_reconnecting_watcher_gets_exactly_what_it_missed(
    setup: tuple[MatchRunner[Any], Any, LoadedGame],
) -> None:
    runner, stub, game = setup
    pb2, seat = game.modules.pb2, Actor.of_seat(1)
    middle = advance(runner, 25, seed=2)
    first: list[int] = []
    collect(stub, pb2, auth(Scope.SEAT, seat=1), 1, lambda: middle, first)
    last_seen = first[-1]
    head = advance(runner, 25, seed=3)
    rest: list[int] = []
    collect(stub, pb2, auth(Scope.SEAT, seat=1), last_seen + 1, lambda: head, rest)
    assert first + rest == visible_versions(runner, seat)
    assert len(set(first + rest)) == len(first + rest)
