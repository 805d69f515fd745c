"""Retries of one command id return the first result, however they interleave with the first try."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MemoryEventStore
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import RaceState, Roll

RULES = race_rules()
CODEC = JsonCodec([*RULES.event_types, *RULES.command_types])


class LateStore(MemoryEventStore):
    """A store whose first meta read (a load's) lets ``meanwhile`` (the other try) run first, as a
    switch to another coroutine right there would, and then answers with the meta as it is after it."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: Any = None

    async def get_meta(self, match_id: str) -> dict[str, str]:
        if self.meanwhile is not None:
            other, self.meanwhile = self.meanwhile, None
            await other()
        return await super().get_meta(match_id)


def test_a_retry_that_loads_after_the_first_try_appended_gets_the_first_result() -> None:
    store = LateStore()
    version = wait(MatchRunner(RULES, CODEC, store).create("m1", 2, {}, seed=1)).version
    # another instance: nothing cached, so both tries take the checked path (load, decide)
    runner: MatchRunner[RaceState] = MatchRunner(RULES, CODEC, store)
    first: list[Any] = []

    async def first_try() -> None:
        first.append(await runner.submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))

    store.meanwhile = first_try
    retry = wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))
    (done,) = first
    assert not done.duplicate and retry.duplicate
    assert (retry.first_version, retry.last_version) == (done.first_version, done.last_version)
    assert wait(store.version("m1")) == version + 1  # one append


def test_a_later_retry_after_other_moves_still_gets_the_first_result() -> None:
    runner: MatchRunner[RaceState] = MatchRunner(RULES, CODEC, MemoryEventStore())
    version = wait(runner.create("m1", 2, {}, seed=1)).version
    done = wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "cmd-2"))
    retry = wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))
    assert retry.duplicate and (retry.first_version, retry.last_version) == (done.first_version, version + 1)


def test_a_retry_decided_on_a_stale_cache_gets_the_first_result_and_writes_nothing() -> None:
    store = MemoryEventStore()
    first_instance: MatchRunner[RaceState] = MatchRunner(RULES, CODEC, store)
    version = wait(first_instance.create("m1", 2, {}, seed=1)).version
    other: MatchRunner[RaceState] = MatchRunner(RULES, CODEC, store)
    assert wait(other.load("m1")).version == version  # cached at the version the command is sent at
    done = wait(first_instance.submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))
    retry = wait(other.submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))
    assert retry.duplicate and retry.first_version == done.first_version
    assert retry.last_version == done.last_version
    assert retry.state == done.state and wait(store.version("m1")) == done.last_version


def test_many_concurrent_retries_on_several_instances_all_get_the_first_result() -> None:
    store = MemoryEventStore()
    runners: list[MatchRunner[RaceState]] = [MatchRunner(RULES, CODEC, store) for _ in range(4)]
    version = wait(runners[0].create("m1", 2, {}, seed=1)).version
    for runner in runners[1:3]:  # two more instances cached at the head, the last one cold
        wait(runner.load("m1"))
    start = threading.Barrier(16)

    def retry(n: int) -> tuple[int, int, bool]:
        start.wait()
        done = wait(runners[n % 4].submit("m1", Actor.of_seat(0), Roll(), version, "cmd-1"))
        return done.first_version, done.last_version, done.duplicate

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(retry, range(16)))
    assert len({(first, last) for first, last, _ in results}) == 1
    assert sum(not duplicate for _, _, duplicate in results) == 1
    assert wait(store.version("m1")) == version + 1
