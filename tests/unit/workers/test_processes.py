"""The worker's processes (``services.workers.processes``): their environment (their restarts are
``shared.runtime.supervision``'s, tests/unit/cli/test_run_supervisor.py), the liveness ping, and the hard
time limit that a solo process enforces itself."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from celery.exceptions import TimeLimitExceeded

from services.workers import celery_app, context, jobs, processes


def test_each_child_is_one_process_with_its_own_metrics_port() -> None:
    base = {"REDIS_URL": "redis://x", "TABULA_WORKER_CONCURRENCY": "4", "TABULA_METRICS_PORT": "9100"}
    assert processes.child_env(base, 0)["TABULA_METRICS_PORT"] == "9100"
    assert processes.child_env(base, 3) == {
        **base,
        "TABULA_WORKER_CONCURRENCY": "1",
        "TABULA_METRICS_PORT": "9103",
    }
    for port in ("-1", "0"):  # off, or a free port each: nothing to share out
        assert processes.child_env({"TABULA_METRICS_PORT": port}, 2)["TABULA_METRICS_PORT"] == port
    assert "TABULA_METRICS_PORT" not in processes.child_env({}, 1)


@pytest.fixture
def limit() -> Iterator[None]:
    """SIGALRM and the real timer to these tests alone (pytest-timeout's, if armed, given back after)."""
    handler, (left, _) = signal.getsignal(signal.SIGALRM), signal.setitimer(signal.ITIMER_REAL, 0)
    started = time.monotonic()
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, handler)
    processes._limit_s = 0.0
    if left:
        signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - started), 0.01))


def test_without_the_limit_installed_a_task_runs_as_long_as_it_takes(limit: None) -> None:
    with processes.hard_limit():
        time.sleep(0.3)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_task_over_the_hard_limit_raises_and_a_task_under_it_leaves_no_timer(limit: None) -> None:
    processes.install_hard_limit(0.2)
    started = time.monotonic()
    with pytest.raises(TimeLimitExceeded), processes.hard_limit():
        time.sleep(5)
    assert time.monotonic() - started < 2
    with processes.hard_limit():
        time.sleep(0.05)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # disarmed: nothing fires later


def test_a_batch_out_of_time_stops_instead_of_going_on_to_its_next_job(
    limit: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = SimpleNamespace(runner=lambda game: None, settings=SimpleNamespace(mcts=None, bot_chain=1))
    monkeypatch.setattr(context, "current", lambda: fake)
    played: list[str] = []

    def slow(runner: object, match_id: str, *args: object) -> jobs.Result:
        played.append(match_id)
        time.sleep(5)
        return jobs.Result.APPLIED

    monkeypatch.setattr(jobs, "play_bot_turn", slow)
    processes.install_hard_limit(0.2)
    work = [
        ["tabula.bot_turn", ["m1", "race", 0, 3, "greedy"]],
        ["tabula.bot_turn", ["m2", "race", 0, 4, "greedy"]],
    ]
    with pytest.raises(TimeLimitExceeded):
        celery_app.run_jobs.apply(args=(work,)).get()
    assert played == ["m1"]


def test_the_liveness_ping_wants_a_worker_of_this_host(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[float] = []

    def answers(timeout: float) -> list[dict[str, dict[str, str]]]:
        asked.append(timeout)
        return [{"tabula-11@pod-b": {"ok": "pong"}}, {"tabula-12@pod-c": {"ok": "pong"}}]

    monkeypatch.setattr(celery_app.app.control, "ping", answers)
    assert celery_app.ping(30.0, host="pod-b") == 0
    assert celery_app.ping(30.0, host="pod-a") == 1  # other pods' workers answering is not enough
    assert celery_app.ping(30.0, host="pod") == 1
    assert asked == [30.0, 30.0, 30.0]
