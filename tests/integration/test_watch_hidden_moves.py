"""A move the watcher may not see (another seat's draft pick) still tells the watcher the match
moved, at once: a keepalive with the new head, not after the idle keepalive interval. The terminal
client refreshes its prompt on it (services/client/session.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from services.games import load_game
from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore

SIGNER = TokenSigner(b"hidden-moves-secret-0123456789abcdef")
IDLE_KEEPALIVE_S = 30.0


@pytest.fixture
def served(redis_client: redis.Redis) -> Iterator[tuple[MatchRunner[Any], Any, Any]]:
    game = load_game("lorenzo")
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))
    running: RunningServer = start_server(
        [GameServicer(runner, game.modules, SIGNER, keepalive_s=IDLE_KEEPALIVE_S).registration()]
    )
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    wait(runner.create("h", 2, {"advanced": "true"}, seed=8))
    yield runner, game.modules.pb2_grpc.LorenzoServiceStub(channel), game.modules.pb2
    channel.close()
    running.stop(0)


def _to_the_draft(runner: MatchRunner[Any]) -> int:
    """Play the bonus tile choices (and any system step) until both seats must draft a leader."""
    loaded = wait(runner.load("h"))
    n = 0
    while loaded.state.phase.name != "DRAFT_LEADERS":
        actor = runner.rules.to_act(loaded.state)[0]
        command = runner.rules.legal_commands(loaded.state, actor)[0]
        wait(runner.submit("h", actor, command, loaded.version, f"setup-{n}"))
        loaded, n = wait(runner.load("h")), n + 1
    return loaded.version


def test_another_seats_hidden_pick_reaches_the_watcher_as_a_keepalive_at_once(served: Any) -> None:
    runner, stub, pb2 = served
    head = _to_the_draft(runner)
    token = SIGNER.seat("lorenzo", "h", 0, "p0")
    stream = stub.WatchMatch(
        pb2.WatchMatchRequest(match_id="h", from_version=head + 1),
        metadata=[("authorization", f"Bearer {token}")],
        timeout=20,
    )
    seen: list[Any] = []

    def read() -> None:
        for item in stream:
            seen.append(item)
            if item.WhichOneof("item") == "keepalive" and item.keepalive.head_version > head:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.5)  # the watch is open before the pick
    loaded = wait(runner.load("h"))
    other = Actor.of_seat(1)
    wait(
        runner.submit(
            "h", other, runner.rules.legal_commands(loaded.state, other)[0], loaded.version, "pick-1"
        )
    )
    started = time.monotonic()
    reader.join(timeout=10)
    stream.cancel()
    assert not reader.is_alive(), f"no news of the hidden pick after 10 s: {seen}"
    assert time.monotonic() - started < IDLE_KEEPALIVE_S / 3
    assert all(item.WhichOneof("item") == "keepalive" for item in seen)  # the pick itself stays hidden
    assert seen[-1].keepalive.head_version == wait(runner.load("h")).version
