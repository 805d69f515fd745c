"""The sync edge: a coroutine of the async API run from synchronous code on the process's one loop."""

from __future__ import annotations

import asyncio
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from types import FrameType

import pytest

from shared.runtime import edge
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


@pytest.fixture
def inline(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test process's main thread runs its waits inline (as a solo worker's does), until the end."""
    monkeypatch.setattr(edge, "_inline", None)
    edge.run_inline()


def test_inline_the_main_thread_runs_each_coroutine_itself_other_threads_use_the_edge(inline: None) -> None:
    here, thread = wait(_loop_and_thread())
    assert thread == threading.main_thread().name and here is not edge_loop()
    assert wait(_loop_and_thread()) == (here, thread)  # the same loop every call: its connections kept
    with ThreadPoolExecutor(2) as pool:
        assert set(pool.map(lambda _: wait(_loop_and_thread()), range(4))) == {(edge_loop(), "tabula-edge")}


def test_inline_what_the_coroutine_raises_reaches_the_caller_a_nested_wait_is_refused(inline: None) -> None:
    async def refused() -> None:
        raise LookupError("no match")

    async def nested() -> None:
        wait(asyncio.sleep(0))

    with pytest.raises(LookupError, match="no match"):
        wait(refused())
    with pytest.raises(RuntimeError, match="await the coroutine instead"):
        wait(nested())
    assert wait(asyncio.sleep(0, "after")) == "after"


def test_inline_a_wait_interrupted_by_a_signal_cancels_its_coroutine(inline: None) -> None:
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
    assert stopped.is_set()  # cancelled before wait() returned
    assert wait(asyncio.sleep(0, "next")) == "next"  # the loop serves the next call
