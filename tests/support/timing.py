"""Waiting in tests without guessing how fast the machine is.

A test waits for a condition (polling it), never for a fixed time, and every deadline it waits
against is generous for a loaded 2-core machine and scaled by ``TABULA_TEST_SLOWDOWN`` (a factor,
default 1) for slower ones. A deadline only bounds a failure: a passing test never waits for it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

SLOWDOWN = max(1.0, float(os.environ.get("TABULA_TEST_SLOWDOWN", "1") or "1"))


def scaled(seconds: float) -> float:
    """A deadline of ``seconds`` on the reference machine, stretched by TABULA_TEST_SLOWDOWN."""
    return seconds * SLOWDOWN


def wait_until(condition: Callable[[], T], timeout: float, what: str, interval: float = 0.05) -> T:
    """Poll ``condition`` until it returns something true and return that; fail after ``timeout``
    (scaled) seconds naming ``what``."""
    limit = scaled(timeout)
    deadline = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {limit:g} s waiting for {what}")
        time.sleep(interval)
