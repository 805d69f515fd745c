"""A task that meets a Redis error is retried (with the same ids), never dropped as failed.

The tasks run eagerly here (``Task.apply``): a retry then runs again at once, in the same call.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import redis.exceptions as redis_errors

from services.workers import celery_app, context, jobs
from services.workers.bots import Budget
from shared.matches.runner import MatchRunner
from shared.serving.errors import STORE_UNAVAILABLE
from tests.unit.workers.conftest import create


class Flaky:
    """A job that fails ``failures`` times with ``error``, then does its work."""

    def __init__(self, error: Exception, failures: int = 2) -> None:
        self.error, self.failures = error, failures
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any) -> jobs.Result:
        self.calls.append(args[1:])
        if len(self.calls) <= self.failures:
            raise self.error
        return jobs.Result.APPLIED


@pytest.fixture(autouse=True)
def no_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = SimpleNamespace(runner=lambda game: None, settings=SimpleNamespace(mcts=None, bot_chain=1))
    monkeypatch.setattr(context, "current", lambda: fake)


TRANSIENT = [
    redis_errors.ConnectionError("Connection refused"),
    redis_errors.BusyLoadingError("LOADING Redis is loading the dataset in memory"),
    redis_errors.TimeoutError("Timeout reading from socket"),
    redis_errors.ClusterDownError("CLUSTERDOWN The cluster is down"),
    redis_errors.TryAgainError("TRYAGAIN"),
    redis_errors.ReadOnlyError("READONLY You can't write against a read only replica."),
]


@pytest.mark.parametrize("error", TRANSIENT, ids=lambda e: type(e).__name__)
def test_every_task_retries_a_transient_redis_error_with_the_same_arguments(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    cases = [
        ("apply_system_step", celery_app.system_step, ("m1", "race", 3)),
        ("play_bot_turn", celery_app.bot_turn, ("m1", "race", 0, 3, "greedy")),
        ("expire_turn", celery_app.turn_timeout, ("m1", "race", 1, 3)),
    ]
    for job, task, args in cases:
        flaky = Flaky(error)
        monkeypatch.setattr(jobs, job, flaky)
        assert task.apply(args=args).get() == "applied", job
        assert len(flaky.calls) == 3 and len(set(flaky.calls)) == 1, job  # same match, seat, version


def test_the_tasks_retry_exactly_the_errors_the_services_answer_unavailable() -> None:
    for task in (celery_app.bot_turn, celery_app.system_step, celery_app.turn_timeout):
        assert set(task.autoretry_for) == set(STORE_UNAVAILABLE)


def test_a_redis_error_that_no_retry_cures_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    flaky = Flaky(redis_errors.ResponseError("ERR Error running script"))
    monkeypatch.setattr(jobs, "apply_system_step", flaky)
    result = celery_app.system_step.apply(args=("m1", "race", 3))
    assert result.failed() and len(flaky.calls) == 1


def test_a_job_lets_a_redis_error_through_to_its_task(runner: MatchRunner[Any]) -> None:
    """Jobs never swallow a store error (that would drop the work): the task's retry needs it."""
    version = create(runner, bots={"0": "greedy"})

    def down(*_: Any, **__: Any) -> Any:
        raise redis_errors.ConnectionError("Connection refused")

    runner.store.append = down  # type: ignore[method-assign]
    with pytest.raises(redis_errors.ConnectionError):
        jobs.play_bot_turn(runner, "m1", 0, version, "greedy", Budget(seconds=1.0, iterations=5))


def test_a_batch_runs_every_job_in_order_and_retries_whole_on_a_transient_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flaky = Flaky(redis_errors.ConnectionError("Connection refused"), failures=1)
    monkeypatch.setattr(jobs, "play_bot_turn", flaky)
    monkeypatch.setattr(jobs, "apply_system_step", lambda *args: jobs.Result.STALE)
    work = [
        ["tabula.bot_turn", ["m1", "race", 0, 3, "greedy"]],
        ["tabula.system_step", ["m2", "race", 5]],
        ["tabula.bot_turn", ["m3", "race", 1, 8, "random"]],
    ]
    assert celery_app.run_jobs.apply(args=(work,)).get() == ["applied", "stale", "applied"]
    # the first attempt failed on m1; the retry ran every job again with the same arguments
    # None: the fake's budget; 1: its bot chain
    first, last = ("m1", 0, 3, "greedy", None, 1), ("m3", 1, 8, "random", None, 1)
    assert flaky.calls == [first, first, last]
    assert set(celery_app.run_jobs.autoretry_for) == set(STORE_UNAVAILABLE)


def test_a_job_of_a_batch_that_fails_for_good_does_not_stop_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flaky = Flaky(ValueError("a bot bug"), failures=1)
    monkeypatch.setattr(jobs, "play_bot_turn", flaky)
    work = [
        ["tabula.bot_turn", ["m1", "race", 0, 3, "greedy"]],
        ["tabula.bot_turn", ["m2", "race", 0, 4, "greedy"]],
    ]
    assert celery_app.run_jobs.apply(args=(work,)).get() == ["failed", "applied"]
