"""The sweeper finds matches that wait on the workers with no progress, from the index and meta alone."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from services.workers.planner import Job, JobKind
from services.workers.sweeper import MAX_BACKOFF, Sweeper, overdue
from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import EventStore, shard_of
from tests.support.race.rules import Roll
from tests.unit.workers.conftest import create

STALL = 10.0


class FakeClock:
    """Seconds since the epoch, moved by hand; starts at the real time (the store stamps appends with it)."""

    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


class CountingStore:
    """The store, counting the meta reads (each one is a look at a match)."""

    def __init__(self, store: EventStore) -> None:
        self.store, self.looks = store, 0
        self.shards = store.shards

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def get_meta(self, match_id: str) -> dict[str, str]:
        self.looks += 1
        return await self.store.get_meta(match_id)


def _sweeper(
    runner: MatchRunner[Any], clock: FakeClock, replies: bool = True
) -> tuple[Sweeper, CountingStore]:
    store = CountingStore(runner.store)
    shard = shard_of("m1", store.shards)
    return Sweeper(store, [shard], STALL, away_seconds=5, now=clock, replies=replies), store


@pytest.mark.parametrize("replies", [True, False])
def test_a_bot_turn_with_no_progress_past_the_stall_time_is_planned_again(
    runner: MatchRunner[Any], replies: bool
) -> None:
    """As a reply (taken first: it has waited longest), unless replies are off."""
    version = create(runner, bots={"0": "greedy"})
    clock = FakeClock()
    sweeper, _ = _sweeper(runner, clock, replies)
    assert sweeper.sweep() == []  # just appended: the reactor's notice path has it
    clock.t += STALL + 1
    assert sweeper.sweep() == [Job(JobKind.BOT, "m1", "race", version, 0, "greedy", reply=replies)]


def test_a_pending_system_step_is_planned_again(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))
    clock = FakeClock()
    clock.t += STALL + 1
    assert _sweeper(runner, clock)[0].sweep() == [Job(JobKind.SYSTEM, "m1", "race", version + 2)]


def test_a_re_planned_match_waits_twice_as_long_each_time_up_to_a_cap_until_it_moves(
    runner: MatchRunner[Any],
) -> None:
    version = create(runner, bots={"0": "random"})
    clock = FakeClock()
    start = clock.t
    sweeper, _ = _sweeper(runner, clock)
    replanned = []
    for _ in range(2000):  # 2000 s in steps of one second
        clock.t += 1
        replanned += [round(clock.t - start) for _ in sweeper.sweep()]
    gaps = [b - a for a, b in itertools.pairwise(replanned)]
    assert replanned[0] == STALL and MAX_BACKOFF == 600
    assert gaps == [10, 20, 40, 80, 160, 320, 600, 600]
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "moved"))  # the match moves on
    clock.t += STALL + 1
    assert sweeper.sweep() == []  # seat 1 is human, no clock: nothing due


def test_a_human_seat_without_a_clock_is_looked_at_once_until_the_match_moves(
    runner: MatchRunner[Any],
) -> None:
    version = create(runner, players=["p0", "p1"])
    clock = FakeClock()
    sweeper, store = _sweeper(runner, clock)
    for _ in range(5):
        clock.t += STALL + 1
        assert sweeper.sweep() == []
    assert store.looks == 1
    time.sleep(0.002)  # the index time is in ms: let the move get a later one
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))  # p1's turn: an append that notifies
    clock.t += STALL + 1
    assert sweeper.sweep() == [] and store.looks == 2
    clock.t += MAX_BACKOFF
    assert sweeper.sweep() == [] and store.looks == 3  # looked at again after the longest wait anyway


def test_a_quiet_move_leaves_the_match_unlooked_at_until_the_longest_wait(runner: MatchRunner[Any]) -> None:
    """A move no follower acts on (people nobody signed in for) leaves the index time as it was."""
    version = create(runner)
    clock = FakeClock()
    sweeper, store = _sweeper(runner, clock)
    clock.t += STALL + 1
    assert sweeper.sweep() == [] and store.looks == 1
    time.sleep(0.002)
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    clock.t += STALL + 1
    assert sweeper.sweep() == [] and store.looks == 1
    clock.t += MAX_BACKOFF
    assert sweeper.sweep() == [] and store.looks == 2


def test_a_clock_is_planned_again_only_once_it_ran_out_and_then_to_fire_at_once(
    runner: MatchRunner[Any],
) -> None:
    version = create(runner, turn_seconds=60)
    clock = FakeClock()
    sweeper, _ = _sweeper(runner, clock)
    clock.t += 60 + STALL - 1
    assert sweeper.sweep() == []  # ran out, but the timer loop may just be sending it
    clock.t += 2
    assert sweeper.sweep() == [Job(JobKind.TIMER, "m1", "race", version, 0, countdown=0.0)]


def test_a_finished_match_is_never_swept(runner: MatchRunner[Any]) -> None:
    version = create(runner, goal="1", bots={"1": "random"})
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    clock = FakeClock()
    clock.t += 3600
    sweeper, store = _sweeper(runner, clock)
    assert sweeper.sweep() == [] and store.looks == 0


def test_overdue_keeps_late_jobs_only() -> None:
    bot = Job(JobKind.BOT, "m1", "race", 4, 0, "random")
    timer = Job(JobKind.TIMER, "m1", "race", 4, 1, countdown=30.0)
    assert overdue([bot, timer], last_append=100.0, now=109.0, stall=10.0) == []
    assert overdue([bot, timer], last_append=100.0, now=110.0, stall=10.0) == [bot]
    late_timer = Job(JobKind.TIMER, "m1", "race", 4, 1, countdown=0.0)
    assert overdue([bot, timer], last_append=100.0, now=140.0, stall=10.0) == [bot, late_timer]
