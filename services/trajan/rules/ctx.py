"""The decision context: the events of one decision, folded into a working state as they are emitted."""

from __future__ import annotations

from services.trajan.rules.content_types import Content
from services.trajan.rules.events import Event
from services.trajan.rules.evolve import evolve
from services.trajan.rules.model import State
from shared.core.event_context import EventContext
from shared.core.folds import Folds
from shared.core.rng import Rng

# decide's folds, looked up by ``rules.evolve`` (shared.core.folds)
FOLDS: Folds[State, Event] = Folds(evolve)


class Ctx(EventContext[Content, State, Event]):
    """The events of one ``decide`` call, folded as they are emitted, and its ``rng``."""

    __slots__ = ("rng",)
    folds = FOLDS

    def __init__(self, content: Content, state: State, rng: Rng) -> None:
        super().__init__(content, state)
        self.rng = rng
