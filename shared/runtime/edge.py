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

A process whose main thread makes every call (a solo Celery worker) may call :func:`run_inline`:
from then on its main thread runs each coroutine itself, on a loop of its own, to its end, with no
handoff to the edge thread and back (two thread switches and a wake-up write a call). Other threads
of such a process still go through the edge thread, with connections of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_guard = threading.Lock()
_current: tuple[int, asyncio.AbstractEventLoop] | None = None
_inline: tuple[int, asyncio.AbstractEventLoop] | None = None


def edge_loop() -> asyncio.AbstractEventLoop:
    """This process's edge loop, running on its own thread (made on first use, and after a fork)."""
    global _current
    with _guard:
        if _current is None or _current[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="tabula-edge", daemon=True).start()
            _current = (os.getpid(), loop)
        return _current[1]


def run_inline() -> None:
    """From now on this process's main thread runs the coroutines it waits for itself (module docstring)."""
    global _inline
    with _guard:
        if _inline is None or _inline[0] != os.getpid():
            _inline = (os.getpid(), asyncio.new_event_loop())


def _run_here(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T]) -> T:
    if loop.is_running():  # a coroutine on this loop called wait()
        coroutine.close()
        raise RuntimeError("wait() on the inline loop itself: await the coroutine instead")
    task = loop.create_task(coroutine)
    try:
        return loop.run_until_complete(task)
    except BaseException:  # interrupted (a task's time limit): the coroutine stops too
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                loop.run_until_complete(task)
        raise


def wait(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on the edge loop (or inline, :func:`run_inline`) and return what it returns
    (or raise what it raises)."""
    inline = _inline
    here = threading.current_thread() is threading.main_thread()
    if inline is not None and inline[0] == os.getpid() and here:
        return _run_here(inline[1], coroutine)
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
