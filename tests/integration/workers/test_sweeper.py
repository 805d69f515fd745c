"""The reactor's sweeper on the in-memory store and a private Redis: a lost task does not leave a
match stuck, and a task planned twice is applied once. Jobs run in-process through the workers'
plain functions; time is a fake clock, moved by hand."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from services.workers.jobs import Result
from services.workers.planner import Job, JobKind
from services.workers.reactor import Reactor
from services.workers.settings import WorkerSettings
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import EventStore
from tests.integration.workers.conftest import (
    Dispatch,
    FakeClock,
    command_ids,
    create_match,
    planning_reactor,
    run_job,
)

STALL = 3.0
SETTINGS = dataclasses.replace(
    WorkerSettings.from_env({}),
    reactor_claim_idle_ms=0,
    reactor_block_ms=10,
    clock_tick=0.0,
    sweep_interval=1.0,
    sweep_stall=STALL,
)


@pytest.fixture
def store(in_process_store: EventStore) -> EventStore:
    return in_process_store


def _reactor(store: EventStore, dispatch: Dispatch, clock: FakeClock) -> Reactor:
    return planning_reactor(store, dispatch, clock, SETTINGS)


def _drive(
    reactor: Reactor, runner: MatchRunner[Any], dispatch: Dispatch, clock: FakeClock, match_id: str
) -> list[Result]:
    """Reactor and 'worker' in turns until the match is over; time moves only when nothing else does."""
    results: list[Result] = []
    for _ in range(500):
        if wait(runner.store.get_meta(match_id)).get("status") == "finished":
            return results
        reactor.follower.poll(">")
        reactor.tick()
        if dispatch.sent:
            results.append(run_job(runner, dispatch.sent.pop(0)))
        else:
            clock.t += 1.0
    raise AssertionError(f"{match_id} did not finish; results so far {results}")


def test_a_dropped_bot_task_still_gets_the_match_to_the_end(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "lost", 2, {0: "random", 1: "greedy"}, goal=8)
    clock, dispatch = FakeClock(), Dispatch(lose=1)
    reactor = _reactor(store, dispatch, clock)
    _drive(reactor, race_runner, dispatch, clock, "lost")
    assert dispatch.lost == [Job(JobKind.BOT, "lost", "race", version, 0, "random", reply=True)]
    ids = command_ids(store, "lost")
    assert ids[1] == f"bot:lost:{version}:0"  # the lost move was planned again and played
    assert [i for i, n in Counter(ids).items() if n > 1] == []


def test_a_sweep_while_the_first_task_is_only_slow_applies_the_move_once(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "slow", 2, {0: "greedy"})
    clock, dispatch = FakeClock(), Dispatch()
    reactor = _reactor(store, dispatch, clock)
    reactor.follower.poll(">")
    clock.t += STALL + 1  # the first task is still queued behind others
    reactor.tick()
    first, again = dispatch.sent  # both replies: the creation's notice, then the sweeper's plan
    assert first == again and first.task_id == f"bot:slow:{version}:0" and first.reply
    assert [run_job(race_runner, first), run_job(race_runner, again)] == [Result.APPLIED, Result.STALE]
    assert wait(store.version("slow")) == version + 1
    assert command_ids(store, "slow").count(f"bot:slow:{version}:0") == 1


def test_a_fired_clock_whose_task_was_lost_fires_again(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "timer", 2, {1: "random"}, turn_seconds=60)
    clock, dispatch = FakeClock(), Dispatch(lose=1)
    reactor = _reactor(store, dispatch, clock)
    reactor.follower.poll(">")
    start = clock.t  # the match was created just before: its clock runs out a little before start + 60
    clock.t = start + 60.5
    reactor.tick()
    assert dispatch.lost == [Job(JobKind.TIMER, "timer", "race", version, 0)] and dispatch.sent == []
    clock.t = start + 60 + STALL - 1
    reactor.tick()
    assert dispatch.sent == []  # not yet overdue
    clock.t = start + 60 + STALL + 1
    reactor.tick()  # the sweep finds the clock overdue, plans it at once, and the clock loop fires it
    assert dispatch.sent == [Job(JobKind.TIMER, "timer", "race", version, 0)]
    assert run_job(race_runner, dispatch.sent[0]) is Result.APPLIED
    assert wait(store.read("timer", version + 1))[0].actor == "timeout:0:greedy"
