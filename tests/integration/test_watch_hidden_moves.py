"""A move the watcher may not see (another seat's draft pick) still tells the watcher the match
moved, at once: a keepalive with the new head, not after the idle keepalive interval. The terminal
client refreshes its prompt on it (services/client/session.py). And what a seat may not see stays out
of its stream and its view: Florenza's hidden certificates (docs/rules/florenza.md, D24)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from services.florenza.rules.commands import EndRound
from services.florenza.rules.events import PrestigeChanged
from services.florenza.rules.model import Phase, Source
from services.games import load_game
from shared.core.decider import SYSTEM, Actor
from shared.core.wire import schema_of
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.tokens import TokenSigner
from shared.store import NewEvent
from shared.store.redis_store import RedisEventStore
from tests.unit.florenza.helpers import game_events

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


class _Watch:
    """Seat 0's WatchMatch of "h" after version ``head``, read on a thread (open before the test moves
    the match on) until a keepalive at version ``until`` or later."""

    def __init__(self, stub: Any, pb2: Any, head: int, until: int) -> None:
        token = SIGNER.seat("lorenzo", "h", 0, "p0")
        self.stream = stub.WatchMatch(
            pb2.WatchMatchRequest(match_id="h", from_version=head + 1),
            metadata=[("authorization", f"Bearer {token}")],
            timeout=20,
        )
        self.seen: list[Any] = []
        self.reader = threading.Thread(target=self._read, args=(until,), daemon=True)
        self.reader.start()
        time.sleep(0.5)

    def _read(self, until: int) -> None:
        for item in self.stream:
            self.seen.append(item)
            if item.WhichOneof("item") == "keepalive" and item.keepalive.head_version >= until:
                return

    def ended(self) -> bool:
        """Whether that keepalive came within 10 s (the stream is cancelled either way)."""
        self.reader.join(timeout=10)
        self.stream.cancel()
        return not self.reader.is_alive()


def test_another_seats_hidden_pick_reaches_the_watcher_as_a_keepalive_at_once(served: Any) -> None:
    runner, stub, pb2 = served
    head = _to_the_draft(runner)
    watch = _Watch(stub, pb2, head, until=head + 1)
    loaded = wait(runner.load("h"))
    other = Actor.of_seat(1)
    wait(
        runner.submit(
            "h", other, runner.rules.legal_commands(loaded.state, other)[0], loaded.version, "pick-1"
        )
    )
    started = time.monotonic()
    assert watch.ended(), f"no news of the hidden pick after 10 s: {watch.seen}"
    assert time.monotonic() - started < IDLE_KEEPALIVE_S / 3
    assert all(item.WhichOneof("item") == "keepalive" for item in watch.seen)  # the pick itself stays hidden
    assert watch.seen[-1].keepalive.head_version == wait(runner.load("h")).version


def test_a_batch_that_ends_out_of_sight_is_followed_by_a_keepalive_with_its_last_version(served: Any) -> None:
    """Given one append whose first event the watcher may see and whose last it may not: the watcher
    gets the first, then at once a keepalive at the append's last version (its board may show it)."""
    runner, stub, pb2 = served
    head = wait(runner.load("h")).version
    first = wait(runner.store.read("h", 1, 1))[0]
    shown, hidden = (
        NewEvent(first.type, first.payload, visibility, "seat:1", first.schema_version)
        for visibility in ("public", "seat:1")
    )
    watch = _Watch(stub, pb2, head, until=head + 2)
    wait(runner.store.append("h", head, [shown, hidden], "mixed"))
    started = time.monotonic()
    assert watch.ended(), f"no keepalive after the hidden end of the batch: {watch.seen}"
    assert time.monotonic() - started < IDLE_KEEPALIVE_S / 3
    assert [item.event.envelope.version for item in watch.seen if item.HasField("event")] == [head + 1]
    assert watch.seen[-1].keepalive.head_version == head + 2


@pytest.fixture
def florenza(redis_client: redis.Redis) -> Iterator[tuple[MatchRunner[Any], Any, Any]]:
    """Given: a 3-seat Florenza match with hidden certificates at step 8, seat 1 alone ahead on
    prestige (9), stored as its events; the rule service serving it."""
    game = load_game("florenza")
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))
    given = game_events(3, phase=Phase.ROUND_END, round=3, hidden_certificates=True)
    given += [PrestigeChanged(seat, n, Source.ART_WORK) for seat, n in enumerate((4, 9, 2))]
    stored = [
        NewEvent(*game.codec.encode(e), game.rules.visibility(e).encode(), "system", schema_of(type(e)))
        for e in given
    ]
    meta = {"game": "florenza", "seats": "3", "seed": "5", "options": '{"hidden_certificates": "true"}'}
    wait(runner.store.append("fz", 0, stored, "create", meta=meta))
    running: RunningServer = start_server([GameServicer(runner, game.modules, SIGNER).registration()])
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    yield runner, game.modules.pb2_grpc.FlorenzaServiceStub(channel), game.modules.pb2
    channel.close()
    running.stop(0)


def _watched(stub: Any, pb2: Any, seat: int, after: int, head: int) -> list[Any]:
    """The events seat's watch stream carries after version ``after``, up to ``head``."""
    token = SIGNER.seat("florenza", "fz", seat, f"p{seat}")
    stream = stub.WatchMatch(
        pb2.WatchMatchRequest(match_id="fz", from_version=after + 1),
        metadata=[("authorization", f"Bearer {token}")],
        timeout=20,
    )
    events = []
    for item in stream:
        version = item.event.envelope.version if item.HasField("event") else item.keepalive.head_version
        if item.HasField("event"):
            events.append(item.event.event)
        if version >= head:
            break
    stream.cancel()
    return events


def test_another_seats_hidden_certificates_stay_out_of_the_watch_stream_and_the_view(florenza: Any) -> None:
    runner, stub, pb2 = florenza
    before = wait(runner.load("fz")).version
    wait(runner.submit("fz", SYSTEM, EndRound(), before, "end-round-3"))  # when: step 8 elects seat 1 Captain
    head = wait(runner.load("fz")).version
    kinds = {seat: [e.WhichOneof("kind") for e in _watched(stub, pb2, seat, before, head)] for seat in (0, 1)}
    assert "prestige_banked_hidden" in kinds[0] and "certificates_taken" not in kinds[0]
    assert "prestige_banked" not in kinds[0]  # the open event would carry the amount
    (taken,) = [
        e.certificates_taken for e in _watched(stub, pb2, 1, before, head) if e.HasField("certificates_taken")
    ]
    assert (taken.seat, taken.amount) == (1, 9)

    def certificates(seat: int) -> tuple[list[int], list[int]]:
        token = SIGNER.seat("florenza", "fz", seat, f"p{seat}")
        reply = stub.GetView(
            pb2.GetViewRequest(match_id="fz"), metadata=[("authorization", f"Bearer {token}")], timeout=5
        )
        return [p.certificates for p in reply.view.game.players], list(reply.view.hidden_certificates)

    assert certificates(0) == ([0, 0, 0], [1, 2])
    assert certificates(1) == ([0, 9, 0], [0, 2])
