"""The decision context: the events of one decision, folded into a working state as they are emitted."""

from __future__ import annotations

from services.trajan.rules.content_types import Content
from services.trajan.rules.events import Event
from services.trajan.rules.evolve import evolve
from services.trajan.rules.model import State
from shared.core.folds import Folds
from shared.core.rng import Rng

FOLDS: Folds[State, Event] = Folds(
    evolve
)  # decide's folds, looked up by ``rules.evolve`` (shared.core.folds)


class Ctx:
    """Accumulates the events of one ``decide`` call; ``state`` is always the fold of them so far."""

    __slots__ = ("content", "events", "rng", "state")

    def __init__(self, content: Content, state: State, rng: Rng) -> None:
        self.content = content
        self.state = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = FOLDS.emit(self.state, event)
