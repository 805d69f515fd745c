"""The supervision of one child (``shared.runtime.supervision``, as `tabula run` and a worker's processes use
it): restarted after a back-off that doubles while it keeps crashing, back to 1 s once it has stayed
up; a child that could not start is tried again."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from shared.runtime.supervision import MAX_BACKOFF, STABLE, Child, backoff


class FakeProcess:
    """A child process that is running until the test kills it."""

    pid_counter = 100

    def __init__(self) -> None:
        FakeProcess.pid_counter += 1
        self.pid = FakeProcess.pid_counter
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code


class Starter:
    def __init__(self, failures: int = 0) -> None:
        self.started: list[FakeProcess] = []
        self.failures = failures

    def __call__(self) -> subprocess.Popen[bytes]:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("port still taken")
        self.started.append(FakeProcess())
        process: Any = self.started[-1]
        return process  # type: ignore[no-any-return]


def _child(starter: Starter) -> Child:
    return Child("worker", starter, starter(), started=0.0)


def test_the_back_off_doubles_up_to_its_cap() -> None:
    assert [backoff(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]
    assert MAX_BACKOFF == 30


def test_a_running_child_is_left_alone(capsys: pytest.CaptureFixture[str]) -> None:
    starter = Starter()
    child = _child(starter)
    for t in range(100):
        child.check(float(t))
    assert len(starter.started) == 1 and capsys.readouterr().err == ""


def test_a_killed_child_is_started_again_after_one_second_and_logged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    starter = Starter()
    child = _child(starter)
    starter.started[0].code = -9
    child.check(40.0)
    assert "worker     exited (killed by SIGKILL); restarting in 1 s" in capsys.readouterr().err
    child.check(40.9)
    assert len(starter.started) == 1
    child.check(41.0)
    assert len(starter.started) == 2 and child.popen.pid == starter.started[1].pid
    assert f"worker     restarted (pid {starter.started[1].pid})" in capsys.readouterr().err


def test_a_child_that_keeps_crashing_waits_longer_each_time_until_it_stays_up() -> None:
    starter = Starter()
    child = _child(starter)
    now, waits = 100.0, []
    for _ in range(4):  # crashes right after each start
        starter.started[-1].code = 1
        child.check(now)
        assert child.restart_at is not None
        waits.append(child.restart_at - now)
        now = child.restart_at
        child.check(now)
    assert waits == [1, 2, 4, 8]
    now += STABLE  # this time it stayed up
    starter.started[-1].code = 1
    child.check(now)
    assert child.restart_at == now + 1


def test_a_child_that_cannot_start_again_is_retried_later(capsys: pytest.CaptureFixture[str]) -> None:
    starter = Starter()
    child = _child(starter)
    starter.failures = 1
    starter.started[0].code = -9
    child.check(50.0)
    child.check(51.0)
    assert "did not start again (port still taken)" in capsys.readouterr().err
    assert child.restart_at == 51.0 + 2  # counted as the second crash in a row
    child.check(53.0)
    assert len(starter.started) == 2 and child.restart_at is None
