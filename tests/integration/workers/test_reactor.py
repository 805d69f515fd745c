"""The reactor in-process against real Redis: consumer groups, recovery, dead letters, sharding."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from services.workers.planner import Job, JobKind
from services.workers.reactor import GROUP, Reactor, dead_letter_key, owned_shards
from services.workers.settings import WorkerSettings
from shared.decider import Actor
from shared.runner import MatchRunner
from shared.store import shard_of
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import create_match
from tests.support.race import Roll

SETTINGS = dataclasses.replace(
    WorkerSettings.from_env({}), reactor_claim_idle_ms=0, reactor_max_deliveries=2, reactor_block_ms=10
)


class Dispatch:
    def __init__(self, failures: int = 0) -> None:
        self.jobs: list[Job] = []
        self.failures = failures

    def __call__(self, job: Job) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("broker down")
        self.jobs.append(job)


def _reactor(store: RedisEventStore, runner: MatchRunner[Any], dispatch: Dispatch, **kw: Any) -> Reactor:
    reactor = Reactor(store, lambda game: runner, dispatch, dataclasses.replace(SETTINGS, **kw))
    reactor.ensure_groups()
    return reactor


def test_a_notice_becomes_a_bot_job(store: RedisEventStore, race_runner: MatchRunner[Any]) -> None:
    version = create_match(race_runner, "r1", 2, {0: "greedy"})
    dispatch = Dispatch()
    _reactor(store, race_runner, dispatch).poll(">")
    assert dispatch.jobs == [Job(JobKind.BOT, "r1", "race", version, 0, "greedy")]


def test_a_restarted_reactor_handles_what_it_read_but_never_acknowledged(
    store: RedisEventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "r2", 2, {0: "greedy"})
    crashed = Dispatch(failures=1)
    _reactor(store, race_runner, crashed).poll(">")  # read, failed, left pending
    assert crashed.jobs == []
    restarted = Dispatch()
    assert _reactor(store, race_runner, restarted).recover_pending() == 1
    assert [j.match_id for j in restarted.jobs] == ["r2"]


def test_a_notice_that_keeps_failing_goes_to_the_dead_letter_stream(
    store: RedisEventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "r3", 2, {0: "greedy"})
    dispatch = Dispatch(failures=100)
    reactor = _reactor(store, race_runner, dispatch)
    reactor.poll(">")
    for _ in range(3):
        reactor.reclaim()
    outbox = store.outbox_key(shard_of("r3", store.shards))
    dead = store.client.xrange(dead_letter_key(outbox))
    assert [fields[b"match"] for _, fields in dead] == [b"r3"]
    assert store.client.xpending(outbox, GROUP)["pending"] == 0


def test_a_crashed_consumer_s_entries_are_claimed_by_another(
    store: RedisEventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "r4", 2, {0: "random"})
    _reactor(store, race_runner, Dispatch(failures=1)).poll(">")
    other = Dispatch()
    survivor = _reactor(store, race_runner, other)
    survivor.consumer = "reactor-survivor"
    assert survivor.reclaim() == 1
    assert [j.match_id for j in other.jobs] == ["r4"]


def test_a_superseded_notice_enqueues_nothing(store: RedisEventStore, race_runner: MatchRunner[Any]) -> None:
    version = create_match(race_runner, "r5", 2, {})
    race_runner.submit("r5", Actor.of_seat(0), Roll(), version, "a")
    dispatch = Dispatch()
    _reactor(store, race_runner, dispatch).poll(">")
    assert dispatch.jobs == []  # seat 1 is human, no clock; the create notice is superseded


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_reactor_instances_split_the_shards_between_them(count: int) -> None:
    owned = [owned_shards(16, i, count) for i in range(count)]
    assert sorted(s for shards in owned for s in shards) == list(range(16))
