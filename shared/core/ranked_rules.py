"""The members of a game's rules that a state of the usual shape answers alone.

Rules over one validated ``Content`` (what ``conventional_hooks`` builds them with, kept as
``content``) and a state with ``players`` (one a seat), a ``phase`` and, once the game is over,
``final`` (each seat's score with its ``total``) and ``placings`` get their constructor, ``evolve``
(through the game's :class:`shared.core.folds.Folds`), ``outcome`` and ``seat_count`` from
:class:`RankedRules`, mixed in ahead of ``BaseRules``::

    class ChessRules(RankedRules[Content], BaseRules[Config, State, Command, Event, ChessView]):
        folds = FOLDS
        finished = Phase.FINISHED
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from shared.core.decider import Outcome
from shared.core.folds import Folds

ContentT = TypeVar("ContentT")


class RankedRules(Generic[ContentT]):
    folds: ClassVar[Folds[Any, Any]]  # the Folds the game's decide emits through
    finished: ClassVar[Any]  # the phase the game is over in

    def __init__(self, content: ContentT) -> None:
        self.content = content

    def evolve(self, state: Any, event: Any) -> Any:
        return self.folds.fold(state, event)

    def outcome(self, state: Any) -> Outcome | None:
        if state.phase is not self.finished:
            return None
        return Outcome(tuple(f.total for f in state.final), state.placings)

    def seat_count(self, state: Any) -> int:
        return len(state.players)


def settled(state: Any, seats: int, finished: Any) -> tuple[float, ...] | None:
    """What a bot need not estimate for ``seats`` seats: nothing yet (zeros) before the setup, the
    final totals once the game is in ``finished``; None while it is being played."""
    if not state.players:
        return (0.0,) * seats
    if state.phase is finished and state.final:
        return tuple(float(state.final[seat].total) for seat in range(seats))
    return None
