"""``TABULA_WORKER_POOL=processes`` (the default): a worker of N single-process Celery workers.

Celery's prefork pool puts a main process in front of its pool processes: it reads every message
from the broker, hands it to a pool process over a pipe, gets the outcome back and acknowledges
it. Under bot load that main process used a third of a core on its own (bench/README.md, "Fifth
pass"). Here each of the N processes is a whole Celery worker with the solo pool: it reads,
runs and acknowledges its own messages, and N of them share a queue as any Celery workers do.

This module is the small parent that keeps them: it starts ``concurrency`` children (the same
command with ``TABULA_WORKER_CONCURRENCY=1``) and starts one again after it exits on its own (after
1, 2, 4 ... 30 s while it keeps failing, as ``tabula run`` does: ``shared.runtime.supervision``). On SIGTERM
or SIGINT it asks each to stop (SIGTERM: Celery's warm shutdown, the task in hand finishes) and
waits for them. A child is sent SIGTERM by the kernel if the parent dies (``PR_SET_PDEATHSIG``),
so a SIGKILLed worker leaves no consumer behind.

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
from types import FrameType

from celery.exceptions import TimeLimitExceeded

from shared.runtime.observability import log_fields
from shared.runtime.supervision import Child, stop

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1


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


def supervise(count: int, command: list[str], env: dict[str, str], grace_s: float) -> int:
    """Run ``count`` children of ``command`` (``shared.runtime.supervision``: restarted with a back-off)
    until SIGTERM or SIGINT; then stop them, waiting up to ``grace_s`` for each before killing it.
    Returns 0."""
    stopping: list[int] = []

    def on_signal(signum: int, _: FrameType | None) -> None:
        stopping.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}

    def starter(index: int) -> Callable[[], subprocess.Popen[bytes]]:
        preexec = _die_with_parent if sys.platform == "linux" else None
        return lambda: subprocess.Popen(command, env=child_env(env, index), preexec_fn=preexec)

    children = []
    for index in range(count):
        start = starter(index)
        children.append(Child(f"worker-{index}", start, start(), time.monotonic(), report=log.warning))
    log.info("worker processes started", extra=log_fields(pids=[c.popen.pid for c in children]))
    try:
        while not stopping:
            for child in children:
                child.check(time.monotonic())
            time.sleep(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stop([c.popen for c in children], grace_s)
    return 0


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
