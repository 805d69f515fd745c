"""``TABULA_WORKER_POOL=processes`` (the default): a worker of N single-process Celery workers.

Celery's prefork pool puts a main process in front of its pool processes: it reads every message
from the broker, hands it to a pool process over a pipe, gets the outcome back and acknowledges
it. Under bot load that main process used a third of a core on its own (bench/README.md, "Fifth
pass"). Here each of the N processes is a whole Celery worker with the solo pool: it reads,
runs and acknowledges its own messages, and N of them share a queue as any Celery workers do.

This module is the small parent that keeps them: it starts ``concurrency`` children (the same
command with ``TABULA_WORKER_CONCURRENCY=1``), starts one again after it exits on its own (after 1,
2, 4 ... 30 s while it keeps failing), and on SIGTERM or SIGINT asks each to stop (SIGTERM: Celery's
warm shutdown, the task in hand finishes) and waits for them. A child is sent SIGTERM by the kernel
if the parent dies (``PR_SET_PDEATHSIG``), so a SIGKILLed worker leaves no consumer behind.

The solo pool has no time limits of its own; :func:`hard_limit` gives its tasks the same hard limit
the prefork pool enforces (``TABULA_TASK_TIME_LIMIT``).
"""

from __future__ import annotations

import ctypes
import logging
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from celery.exceptions import TimeLimitExceeded

from shared.observability import log_fields

log = logging.getLogger(__name__)
STABLE_S = 30.0  # a child up this long counts as recovered: its next exit waits 1 s again
MAX_BACKOFF_S = 30.0
PR_SET_PDEATHSIG = 1


def backoff(crashes: int) -> float:
    """Seconds before starting a child again after ``crashes`` exits in a row: 1, 2, 4 ... 30."""
    return min(2.0 ** (crashes - 1), MAX_BACKOFF_S)


def child_env(env: dict[str, str], index: int) -> dict[str, str]:
    """Child ``index``'s environment: one process, and its own metrics port when one is set."""
    out = {**env, "TABULA_WORKER_CONCURRENCY": "1"}
    port = int(env.get("TABULA_METRICS_PORT", "-1"))
    if port > 0:
        out["TABULA_METRICS_PORT"] = str(port + index)
    return out


def _die_with_parent() -> None:  # runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class _Child:
    index: int
    popen: subprocess.Popen[bytes]
    started: float
    crashes: int = 0
    restart_at: float | None = None


def supervise(count: int, command: list[str], env: dict[str, str], grace_s: float) -> int:
    """Run ``count`` children of ``command`` until SIGTERM or SIGINT; then stop them, waiting up to
    ``grace_s`` for each before killing it. Returns 0."""
    stopping: list[int] = []

    def on_signal(signum: int, _: FrameType | None) -> None:
        stopping.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}

    def start(index: int) -> subprocess.Popen[bytes]:
        preexec = _die_with_parent if sys.platform == "linux" else None
        return subprocess.Popen(command, env=child_env(env, index), preexec_fn=preexec)

    children = [_Child(i, start(i), time.monotonic()) for i in range(count)]
    log.info("worker processes started", extra=log_fields(pids=[c.popen.pid for c in children]))
    try:
        while not stopping:
            for child in children:
                _check(child, start, time.monotonic())
            time.sleep(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _stop([c.popen for c in children], grace_s)
    return 0


def _check(child: _Child, start: Callable[[int], subprocess.Popen[bytes]], now: float) -> None:
    if child.restart_at is not None:
        if now >= child.restart_at:
            child.popen, child.started, child.restart_at = start(child.index), now, None
            log.warning("worker process restarted", extra=log_fields(index=child.index, pid=child.popen.pid))
        return
    code = child.popen.poll()
    if code is None:
        return
    child.crashes = child.crashes + 1 if now - child.started < STABLE_S else 1
    delay = backoff(child.crashes)
    child.restart_at = now + delay
    log.error("worker process exited", extra=log_fields(index=child.index, code=code, restart_in_s=delay))


def _stop(popens: list[subprocess.Popen[bytes]], grace_s: float) -> None:
    for popen in popens:
        if popen.poll() is None:
            popen.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for popen in popens:
        try:
            popen.wait(max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait()


# ---------------------------------------------------------------- the solo pool's hard time limit

_limit_s: float = 0.0  # set in a solo worker process by install_hard_limit; 0: not enforced here


def install_hard_limit(seconds: float) -> None:
    """In a process whose tasks run in its main thread (the solo pool): :func:`hard_limit` arms a
    timer of ``seconds`` around each task, and SIGALRM raises ``TimeLimitExceeded`` in it."""
    global _limit_s
    _limit_s = seconds

    def expired(_signum: int, _frame: FrameType | None) -> None:
        raise TimeLimitExceeded(_limit_s)

    signal.signal(signal.SIGALRM, expired)


@contextmanager
def hard_limit() -> Iterator[None]:
    """The task inside raises ``TimeLimitExceeded`` once it has run the limit (solo processes only;
    the prefork pool kills its own process instead)."""
    if not _limit_s:
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, _limit_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
