"""Multisets as sorted tuples: hands, piles, pools and mats hold interchangeable pieces."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T", bound=int)


def added(items: tuple[T, ...], new: Iterable[T]) -> tuple[T, ...]:
    """``items`` with ``new`` put in, sorted."""
    return tuple(sorted((*items, *new)))


def removed(items: tuple[T, ...], gone: Iterable[T]) -> tuple[T, ...]:
    """``items`` with one copy of each of ``gone`` taken out (each must be there)."""
    out = list(items)
    for x in gone:
        out.remove(x)
    return tuple(out)


def contains(items: tuple[T, ...], wanted: Iterable[T]) -> bool:
    """Whether ``items`` holds every piece of ``wanted`` (counting copies)."""
    out = list(items)
    for x in wanted:
        if x not in out:
            return False
        out.remove(x)
    return True


def distinct(items: Iterable[T]) -> tuple[T, ...]:
    return tuple(sorted(set(items)))
