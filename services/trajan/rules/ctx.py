"""The decision context: the events of one decision, folded into a working state as they are emitted."""

from __future__ import annotations

from services.trajan.rules.content_types import Content
from services.trajan.rules.events import Event
from services.trajan.rules.evolve import evolve
from services.trajan.rules.model import State
from shared.rng import Rng

FOLDS_KEPT = 1024  # emitted events whose fold is remembered (a caller folds them again right away)

# id(event) -> (the state it was emitted on, the event, the state after it). An entry holds the event, so its
# id cannot be reused while the entry is there.
_folds: dict[int, tuple[State, Event, State]] = {}


class Ctx:
    """Accumulates the events of one ``decide`` call; ``state`` is always the fold of them so far."""

    __slots__ = ("content", "events", "rng", "state")

    def __init__(self, content: Content, state: State, rng: Rng) -> None:
        self.content = content
        self.state = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        before = self.state
        self.events.append(event)
        self.state = evolve(before, event)
        if len(_folds) >= FOLDS_KEPT:
            _folds.clear()
        _folds[id(event)] = (before, event, self.state)


def fold(state: State, event: Event) -> State:
    """``evolve``, without doing it twice: whoever asked ``decide`` folds the events it returned onto the
    state it was given, and ``decide`` already folded each of them onto that very state object. Those
    (state, event) pairs get the state ``decide`` made (states are immutable, so sharing it is safe); any
    other pair is evolved."""
    found = _folds.pop(id(event), None)
    if found is not None and found[0] is state and found[1] is event:
        return found[2]
    return evolve(state, event)
