"""The idempotent jobs behind the Celery tasks: a second delivery changes nothing."""

from __future__ import annotations

from typing import Any

from services.workers.bots import Budget
from services.workers.jobs import Result, apply_system_step, expire_turn, play_bot_turn
from shared.decider import Actor
from shared.runner import MatchRunner
from tests.support.race.rules import Roll
from tests.unit.workers.conftest import create

BUDGET = Budget(seconds=1.0, iterations=20)


def test_a_bot_turn_is_applied_once(runner: MatchRunner[Any]) -> None:
    version = create(runner, bots={"0": "greedy"})
    assert play_bot_turn(runner, "m1", 0, version, "greedy", BUDGET) is Result.APPLIED
    after = runner.store.version("m1")
    assert play_bot_turn(runner, "m1", 0, version, "greedy", BUDGET) is Result.STALE
    assert runner.store.version("m1") == after
    assert runner.store.read("m1", after)[0].actor == "bot:0:greedy"


def test_a_bot_job_for_a_seat_not_to_act_does_nothing(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    assert play_bot_turn(runner, "m1", 1, version, "random", BUDGET) is Result.NOT_TO_ACT
    assert runner.store.version("m1") == version


def test_the_system_step_ends_the_round_once(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    runner.submit("m1", Actor.of_seat(0), Roll(), version, "a")
    runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b")
    pending = version + 2
    assert apply_system_step(runner, "m1", pending) is Result.APPLIED
    assert runner.store.read("m1", pending + 1)[0].type == "RoundEnded"
    assert apply_system_step(runner, "m1", pending) is Result.STALE
    assert runner.store.version("m1") == pending + 1


def test_no_system_step_while_seats_are_to_act(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    assert apply_system_step(runner, "m1", version) is Result.NOT_TO_ACT


def test_a_clock_that_runs_out_plays_the_turn_and_marks_the_seat_away(runner: MatchRunner[Any]) -> None:
    version = create(runner, turn_seconds=10)
    assert expire_turn(runner, "m1", 0, version, BUDGET) is Result.APPLIED
    assert runner.store.get_meta("m1")["away:0"] == "1"
    assert runner.store.read("m1", version + 1)[0].actor == "timeout:0:greedy"
    runner.store.set_meta("m1", {"away:0": "0"})
    assert expire_turn(runner, "m1", 0, version, BUDGET) is Result.DUPLICATE  # redelivered: mark, no move
    assert runner.store.version("m1") == version + 1 and runner.store.get_meta("m1")["away:0"] == "1"


def test_a_player_who_moved_in_time_is_not_marked_away(runner: MatchRunner[Any]) -> None:
    version = create(runner, turn_seconds=10)
    runner.submit("m1", Actor.of_seat(0), Roll(), version, "human")
    assert expire_turn(runner, "m1", 0, version, BUDGET) is Result.STALE
    assert "away:0" not in runner.store.get_meta("m1")


def test_jobs_on_a_finished_match_do_nothing(runner: MatchRunner[Any]) -> None:
    version = create(runner, goal="1")
    runner.submit("m1", Actor.of_seat(0), Roll(), version, "a")
    assert play_bot_turn(runner, "m1", 1, version + 1, "random", BUDGET) is Result.FINISHED
