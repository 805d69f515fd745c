"""A bounded memory of the most recently used: an ``OrderedDict``, newest last."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: OrderedDict[K, V], key: K, value: V, most: int) -> None:
    """Put ``value`` at ``key`` as the newest entry, then forget the oldest beyond ``most``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > most:
        cache.popitem(last=False)
