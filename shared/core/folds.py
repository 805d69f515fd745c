"""Evolve each decided event once, not twice.

A game's ``decide`` folds every event it emits onto a working state (the next check needs it), and
whoever asked ``decide`` (the runner, a simulation, a bot's search) then folds the returned events onto
the state it passed in: the same (state, event) pairs again. :class:`Folds` remembers the state each
emitted event made, keyed by the event's identity; ``fold`` of a remembered pair is a lookup, any other
pair (a replay, a decoded event) is evolved.

States and events are immutable, so sharing the remembered state is safe. An entry holds its event, so
the event's id cannot be reused while the entry is there; ``fold`` checks the state and the event by
identity besides. The table is bounded (cleared when full) and shared by every thread of a process: a
lookup that misses (cleared, or taken by a fold of the same pair elsewhere) just evolves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
E = TypeVar("E")

KEPT = 1024  # emitted events whose state is remembered (a caller folds them again right away)


class Folds(Generic[S, E]):
    __slots__ = ("_kept", "_made", "evolve")

    def __init__(self, evolve: Callable[[S, E], S], kept: int = KEPT) -> None:
        self.evolve = evolve
        self._kept = kept
        # id(event) -> (the state it was emitted on, the event, the state after it)
        self._made: dict[int, tuple[S, E, S]] = {}

    def emit(self, state: S, event: E) -> S:
        """``evolve(state, event)``, remembered for a later ``fold`` of the same pair."""
        after = self.evolve(state, event)
        if len(self._made) >= self._kept:
            self._made.clear()
        self._made[id(event)] = (state, event, after)
        return after

    def fold(self, state: S, event: E) -> S:
        """``evolve(state, event)``: the remembered state when ``emit`` made it from these very objects."""
        found = self._made.pop(id(event), None)
        if found is not None and found[0] is state and found[1] is event:
            return found[2]
        return self.evolve(state, event)
