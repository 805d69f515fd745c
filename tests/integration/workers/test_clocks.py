"""Durable turn clocks, on the in-memory store and a private Redis: kept by the store per shard,
fired once when due, across reactor restarts; on Redis a sorted set per shard, kept across a Redis
restart on the same AOF and in the shard's slot on a cluster. Time is a fake clock, moved by hand."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import pytest
from redis.crc import key_slot

from services.games import load_game
from services.workers.planner import Job, JobKind
from services.workers.reactor import Reactor, celery_dispatch, follower_settings
from services.workers.settings import WorkerSettings
from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.runtime.redis_server import start_redis
from shared.store import EventStore, TurnClock, shard_of
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import (
    Dispatch,
    FakeClock,
    create_match,
    no_game_code,
    planning_reactor,
)
from tests.support.race.rules import Roll
from tests.support.redis_cluster import RedisCluster
from tests.support.stores import cluster_client

DAY = 24 * 3600
SETTINGS = dataclasses.replace(
    WorkerSettings.from_env({}), reactor_claim_idle_ms=0, reactor_block_ms=10, clock_tick=0.0
)


@pytest.fixture
def store(in_process_store: EventStore) -> EventStore:
    return in_process_store


def _reactor(store: EventStore, dispatch: Dispatch, clock: FakeClock) -> Reactor:
    return planning_reactor(store, dispatch, clock, SETTINGS)


def _clocks(reactor: Reactor, match_id: str) -> list[TurnClock]:
    return reactor.clocks.pending(shard_of(match_id, reactor.store.shards))


def test_a_clock_of_days_is_kept_in_the_store_and_fired_once_when_due(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "long", 2, {1: "random"}, turn_seconds=3 * DAY)
    clock, dispatch = FakeClock(), Dispatch()
    reactor = _reactor(store, dispatch, clock)
    reactor.follower.poll(">")
    assert dispatch.sent == []  # no Celery task is waiting for three days
    (pending,) = _clocks(reactor, "long")
    assert (pending.match_id, pending.version, pending.seat) == ("long", version, 0)
    assert abs(pending.due_ms - (clock.t + 3 * DAY) * 1000) <= 1
    clock.t = pending.due_ms / 1000 - 1
    assert reactor.fire_clocks() == 0 and dispatch.sent == []
    clock.t = pending.due_ms / 1000
    assert reactor.fire_clocks() == 1
    assert dispatch.sent == [Job(JobKind.TIMER, "long", "race", version, 0)]
    clock.t += DAY
    assert reactor.fire_clocks() == 0 and _clocks(reactor, "long") == []  # fired once


def test_timeout_tasks_are_sent_without_a_countdown() -> None:
    class App:
        def __init__(self) -> None:
            self.calls: list[dict[str, Any]] = []

        def send_task(self, name: str, **options: Any) -> None:
            self.calls.append({"name": name, **options})

        @contextmanager
        def producer_or_acquire(self) -> Iterator[Any]:
            yield producer

    class Producer:
        def batch(self) -> AbstractContextManager[None]:
            return nullcontext()

    app, producer = App(), Producer()
    celery_dispatch(app)([Job(JobKind.TIMER, "m1", "race", 4, 1, countdown=7 * DAY)])
    (call,) = app.calls
    assert call["name"] == "tabula.turn_timeout" and call["task_id"] == "timer:m1:4:1"
    assert "countdown" not in call and "eta" not in call
    assert call["producer"] is producer and call["argsrepr"] == repr(["m1", "race", 1, 4])


def test_a_clock_planned_by_one_reactor_is_fired_by_its_successor_once_across_instances(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "handover", 2, {}, turn_seconds=60)
    clock = FakeClock()
    _reactor(store, Dispatch(), clock).follower.poll(">")  # plans the clocks, then is gone
    clock.t += 61
    first, second = Dispatch(), Dispatch()
    restarted = [_reactor(store, d, clock) for d in (first, second)]
    assert sum(r.fire_clocks() for r in restarted) == 1
    assert first.sent + second.sent == [Job(JobKind.TIMER, "handover", "race", version, 0)]


def test_a_clock_survives_a_redis_restart_on_the_same_aof(tmp_path: Path, env: dict[str, str]) -> None:
    folder = tmp_path / "redis"
    folder.mkdir()
    # "always": each write is in the AOF before its reply. With "everysec" a crash may lose the last
    # second or two (Redis postpones a write while an fsync runs); the reactor's XACK is then lost
    # with it and the notice, read again after the restart, sets the clock again.
    server = start_redis(folder=folder, appendfsync="always")
    try:
        store = RedisEventStore(server.client())
        game = load_game("race")
        runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, store)
        version = create_match(runner, "aof", 2, {1: "random"}, turn_seconds=7 * DAY)
        clock = FakeClock()
        _reactor(store, Dispatch(), clock).follower.poll(">")
        planned = _clocks(_reactor(store, Dispatch(), clock), "aof")
        assert len(planned) == 1
        server.process.send_signal(signal.SIGKILL)  # a crash, not a clean shutdown
        server.process.wait(10)
    finally:
        server.stop()
    server = start_redis(folder=folder, appendfsync="always")  # a new port, the same AOF
    try:
        dispatch = Dispatch()
        reactor = _reactor(RedisEventStore(server.client()), dispatch, clock)
        assert _clocks(reactor, "aof") == planned
        clock.t = planned[0].due_ms / 1000
        assert reactor.fire_clocks() == 1
        assert dispatch.sent == [Job(JobKind.TIMER, "aof", "race", version, 0)]
    finally:
        server.stop()


def test_the_clocks_of_a_version_the_match_left_are_dropped(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "moved", 2, {}, turn_seconds=30)
    clock, dispatch = FakeClock(), Dispatch()
    reactor = _reactor(store, dispatch, clock)
    reactor.follower.poll(">")
    assert [(c.version, c.seat) for c in _clocks(reactor, "moved")] == [(version, 0)]
    wait(race_runner.submit("moved", Actor.of_seat(0), Roll(), version, "in-time"))
    reactor.follower.poll(">")
    assert [(c.version, c.seat) for c in _clocks(reactor, "moved")] == [(version + 1, 1)]
    reactor.clocks.set(TurnClock("moved", version, 0, 0))  # one left behind all the same
    clock.t += 31
    assert reactor.fire_clocks() == 1
    assert dispatch.sent == [Job(JobKind.TIMER, "moved", "race", version + 1, 1)]  # only the head's
    assert store.clocks().pending(shard_of("moved", store.shards)) == []


def test_a_notice_handled_again_keeps_the_first_due_time(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "again", 2, {}, turn_seconds=3600)
    clock = FakeClock()
    reactor = _reactor(store, Dispatch(), clock)
    (notice,) = wait(store.read_outbox(shard_of("again", store.shards)))
    reactor.handle(notice)
    before = _clocks(reactor, "again")
    clock.t += 600
    reactor.handle(notice)  # redelivered after a crash: the clock does not start over
    assert _clocks(reactor, "again") == before


@pytest.mark.parametrize("seconds", [10, 7 * DAY])
def test_clocks_from_ten_seconds_to_seven_days_fire_at_their_time(
    store: EventStore, race_runner: MatchRunner[Any], seconds: int
) -> None:
    version = create_match(race_runner, "span", 2, {1: "random"}, turn_seconds=seconds)
    clock, dispatch = FakeClock(), Dispatch()
    start = clock.t
    reactor = _reactor(store, dispatch, clock)
    reactor.follower.poll(">")
    clock.t = start + seconds - 0.5
    assert reactor.fire_clocks() == 0
    clock.t = start + seconds + 0.5
    assert reactor.fire_clocks() == 1 and dispatch.sent[0].version == version


def test_clocks_work_on_a_redis_cluster_in_their_shard_s_slot(redis_cluster: RedisCluster) -> None:
    client = cluster_client(redis_cluster)
    try:
        store = RedisEventStore(client)
        clocks, shard = store.clocks(), shard_of("c1", store.shards)
        assert key_slot(store.clocks_key(shard).encode()) == key_slot(store.outbox_key(shard).encode())
        clocks.set(TurnClock("c1", 4, 0, 1_000))
        clocks.set(TurnClock("c1", 4, 0, 5_000))  # planned again later: keeps the earlier time
        clocks.set(TurnClock("c1", 4, 1, 9_000))
        assert clocks.take_due(shard, 2_000) == [TurnClock("c1", 4, 0, 1_000)]
        clocks.cancel("c1", 4, seats=2)
        assert clocks.pending(shard) == []
    finally:
        client.close()


def test_clocks_taken_while_the_broker_refuses_are_put_back_and_fire_at_the_next_tick(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "refused", 2, {}, turn_seconds=60)  # seat 0's clock
    create_match(race_runner, "refused2", 2, {}, turn_seconds=60)
    clock = FakeClock()
    sent: list[Job] = []
    down = [True]

    def broker(jobs: Sequence[Job]) -> None:
        if down[0]:
            raise ConnectionError("broker down")
        sent.extend(jobs)

    reactor = Reactor(store, no_game_code, broker, SETTINGS, follower_settings(SETTINGS), now=clock)
    reactor.follower.ensure_groups()
    reactor.follower.poll(">")
    clock.t += 61
    reactor.tick()  # logged, not raised: the loop goes on
    assert sent == [] and {c.match_id for s in reactor.shards for c in reactor.clocks.pending(s)} == {
        "refused",
        "refused2",
    }
    down[0] = False
    clock.t += 1
    reactor.tick()
    assert sorted(job.match_id for job in sent) == ["refused", "refused2"]
