"""The sync edge: a coroutine of the async API run from synchronous code on the process's one loop."""

from __future__ import annotations

import asyncio
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from types import FrameType

import pytest

from shared.runtime.edge import edge_loop, wait


async def _loop_and_thread() -> tuple[asyncio.AbstractEventLoop, str]:
    return asyncio.get_running_loop(), threading.current_thread().name


def test_every_caller_of_a_process_runs_on_its_one_loop() -> None:
    with ThreadPoolExecutor(4) as pool:
        seen = set(pool.map(lambda _: wait(_loop_and_thread()), range(8)))
    assert seen == {(edge_loop(), "tabula-edge")} and wait(_loop_and_thread()) in seen


def test_what_the_coroutine_raises_reaches_the_caller() -> None:
    async def refused() -> None:
        raise LookupError("no match")

    with pytest.raises(LookupError, match="no match"):
        wait(refused())


def test_a_wait_on_the_edge_loop_itself_is_refused() -> None:
    async def nested() -> None:
        wait(asyncio.sleep(0))

    with pytest.raises(RuntimeError, match="await the coroutine instead"):
        wait(nested())


def test_a_wait_interrupted_by_a_signal_cancels_its_coroutine() -> None:
    """As the solo workers' hard time limit does (SIGALRM raises in the waiting main thread): the
    caller gets the exception and the coroutine stops at once, not when it would have ended."""
    stopped = threading.Event()

    async def long() -> None:
        try:
            await asyncio.sleep(30)
        finally:
            stopped.set()

    def expired(_signum: int, _frame: FrameType | None) -> None:
        raise TimeoutError("time limit")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(TimeoutError, match="time limit"):
            wait(long())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert stopped.wait(5)
