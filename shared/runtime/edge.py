"""The one sync edge: a coroutine of the async API (the event store, the runner) run from synchronous
code, to its end.

The store and the runner are asynchronous (a rule service awaits them on its serving loop). Celery
tasks, the reactor, the lobby's handlers and the command-line tools are synchronous: they call
:func:`wait`, which runs the coroutine on this process's event loop (one daemon thread, started on
first use and again in a forked child) and blocks until it is done. Every synchronous caller of a
process shares that loop, so the Redis connections it opens are shared too. Code that runs on an
event loop awaits instead; calling :func:`wait` on the edge's own loop is an error.

The caller's own work stays in the caller's thread: a Celery task waits here for each store or
runner call and computes its bot's move itself, so the solo pool's hard time limit (a signal in the
main thread, ``services.workers.processes``) still stops it; a wait it interrupts cancels its
coroutine.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_guard = threading.Lock()
_current: tuple[int, asyncio.AbstractEventLoop] | None = None


def edge_loop() -> asyncio.AbstractEventLoop:
    """This process's edge loop, running on its own thread (made on first use, and after a fork)."""
    global _current
    with _guard:
        if _current is None or _current[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="tabula-edge", daemon=True).start()
            _current = (os.getpid(), loop)
        return _current[1]


def wait(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on the edge loop and return what it returns (or raise what it raises)."""
    loop = edge_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        coroutine.close()
        raise RuntimeError("wait() on the edge loop itself: await the coroutine instead")
    future = asyncio.run_coroutine_threadsafe(coroutine, loop)
    try:
        return future.result()
    except BaseException:  # the caller was interrupted (a task's time limit): the coroutine stops too
        future.cancel()
        raise
