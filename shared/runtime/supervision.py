"""Supervising child processes: ``tabula run`` keeps every service up this way, and a worker its
solo Celery processes (``services.workers.processes``).

A :class:`Child` that exits on its own is started again after a back-off of 1, 2, 4 ... 30 s while
it keeps exiting within ``STABLE`` seconds of its start (one that stayed up that long starts again
after 1 s). :func:`stop` asks children to stop and kills those that do not in time.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

STABLE = 30.0  # seconds up after which a child counts as recovered: its next crash waits 1 s
MAX_BACKOFF = 30.0


def backoff(crashes: int) -> float:
    """Seconds before starting a child again after ``crashes`` crashes in a row: 1, 2, 4 ... 30."""
    return min(2.0 ** (crashes - 1), MAX_BACKOFF)


def exit_text(code: int) -> str:
    return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"


def to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@dataclass
class Child:
    """One supervised child process: started again, after a back-off, whenever it exits on its own.
    What happens to it is told to ``report`` (standard error by default)."""

    name: str
    start: Callable[[], subprocess.Popen[bytes]]
    popen: subprocess.Popen[bytes]
    started: float  # time.monotonic() of the last start
    crashes: int = 0  # in a row
    restart_at: float | None = None  # set while waiting to start again
    report: Callable[[str], None] = field(default=to_stderr, repr=False)

    def check(self, now: float) -> None:
        """Start again when the back-off is over; else notice an exit and set the back-off."""
        if self.restart_at is not None:
            if now >= self.restart_at:
                self._restart(now)
            return
        code = self.popen.poll()
        if code is None:
            return
        self.crashes = self.crashes + 1 if now - self.started < STABLE else 1
        delay = backoff(self.crashes)
        self.restart_at = now + delay
        self.report(f"{self.name:<10} exited ({exit_text(code)}); restarting in {delay:g} s")

    def _restart(self, now: float) -> None:
        self.restart_at = None
        try:
            self.popen = self.start()
        except (OSError, RuntimeError) as err:  # e.g. Redis could not take its port back yet
            self.crashes += 1
            self.restart_at = now + backoff(self.crashes)
            self.report(f"{self.name:<10} did not start again ({err}); retrying")
            return
        self.started = now
        self.report(f"{self.name:<10} restarted (pid {self.popen.pid})")


def stop(processes: Sequence[subprocess.Popen[bytes]], wait_s: float) -> None:
    """SIGTERM to each live process, then wait up to ``wait_s`` for each; kill those still running."""
    for child in processes:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in processes:
        try:
            child.wait(wait_s)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
