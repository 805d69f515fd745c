"""What the reactor enqueues for a match at its head."""

from __future__ import annotations

from typing import Any

from services.workers.planner import Job, JobKind, plan, seats_back
from shared.runner import MatchRunner
from shared.store import StoredEvent
from tests.unit.workers.conftest import create


def _plan(runner: MatchRunner[Any], away_seconds: int = 5) -> list[Job]:
    loaded = runner.load("m1")
    return plan(runner.rules, loaded.state, loaded.version, loaded.meta, "m1", away_seconds)


def _roll(runner: MatchRunner[Any], seat: int) -> None:
    from shared.decider import Actor
    from tests.support.race import Roll

    version = runner.load("m1").version
    runner.submit("m1", Actor.of_seat(seat), Roll(), version, f"c{version}")


def test_a_bot_seat_to_act_gets_a_bot_job(runner: MatchRunner[Any]) -> None:
    version = create(runner, bots={"0": "greedy"})
    assert _plan(runner) == [Job(JobKind.BOT, "m1", "race", version, 0, "greedy")]


def test_a_pending_round_end_gets_a_scoring_job(runner: MatchRunner[Any]) -> None:
    create(runner)
    _roll(runner, 0)
    _roll(runner, 1)
    (job,) = _plan(runner)
    assert (job.kind, job.queue, job.task_name) == (JobKind.SYSTEM, "scoring", "tabula.system_step")
    assert job.args() == ["m1", "race", runner.load("m1").version]


def test_a_human_seat_with_a_clock_gets_a_timer_due_when_it_runs_out(runner: MatchRunner[Any]) -> None:
    version = create(runner, turn_seconds=30)
    assert _plan(runner) == [Job(JobKind.TIMER, "m1", "race", version, 0, countdown=30.0)]


def test_an_away_seat_gets_the_short_clock(runner: MatchRunner[Any]) -> None:
    create(runner, turn_seconds=30)
    runner.store.set_meta("m1", {"away:0": "1"})
    assert [j.countdown for j in _plan(runner, away_seconds=4)] == [4.0]


def test_a_human_seat_without_a_clock_needs_nothing(runner: MatchRunner[Any]) -> None:
    create(runner)
    assert _plan(runner) == []


def test_a_finished_match_needs_nothing(runner: MatchRunner[Any]) -> None:
    create(runner, goal="1", bots={"0": "random"})
    _roll(runner, 0)
    assert _plan(runner) == []


def test_task_ids_are_deterministic() -> None:
    job = Job(JobKind.BOT, "m1", "race", 5, 2, "mcts")
    assert job.task_id == "bot:m1:5:2" and job.args() == ["m1", "race", 2, 5, "mcts"]


def test_a_seat_command_from_an_away_seat_brings_it_back() -> None:
    meta = {"away:1": "1", "away:0": "0"}
    human = StoredEvent(9, "DieRolled", b"", "public", "c", "seat:1", 0, 1)
    bot = StoredEvent(9, "DieRolled", b"", "public", "c", "timeout:1:greedy", 0, 1)
    assert seats_back(meta, [human]) == {1}
    assert seats_back(meta, [bot]) == set()
