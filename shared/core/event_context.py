"""The decision context every game's ``decide`` writes into: the events of one decision, each folded
into a working state as it is emitted (through the game's :class:`shared.core.folds.Folds`, so the
caller's later fold of the same events is a lookup)."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from shared.core.folds import Folds

C = TypeVar("C")
S = TypeVar("S")
E = TypeVar("E")


class EventContext(Generic[C, S, E]):
    """Accumulates the events of one decision; ``state`` is always the fold of them so far.

    A game subclasses it once, with its ``folds`` (the ``Folds`` its ``evolve`` looks up)."""

    folds: ClassVar[Folds[Any, Any]]
    __slots__ = ("content", "events", "state")

    def __init__(self, content: C, state: S) -> None:
        self.content = content
        self.state = state
        self.events: list[E] = []

    def emit(self, event: E) -> None:
        self.events.append(event)
        self.state = self.folds.emit(self.state, event)
