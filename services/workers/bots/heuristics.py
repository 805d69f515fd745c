"""Per-game evaluation functions for ``greedy`` and for the leaves of ``mcts``.

A game registers ``"module:function"`` here; a game without one is judged only by its
final outcome (fine for tiny test games, useless for real ones).
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, cast

from services.workers.bots.base import Heuristic

HEURISTICS: dict[str, str] = {
    "lorenzo": "services.workers.bots.lorenzo:evaluate",
}


def outcome_only(rules: Any, state: Any, seat: int) -> float:
    """The final score once the match is over, else 0."""
    outcome = rules.outcome(state)
    return 0.0 if outcome is None else float(outcome.scores[seat])


@functools.cache
def heuristic_for(game: str) -> Heuristic:
    target = HEURISTICS.get(game)
    if target is None:
        return outcome_only
    module, _, attr = target.partition(":")
    return cast(Heuristic, getattr(importlib.import_module(module), attr))


def seat_values(rules: Any, state: Any, seats: int, heuristic: Heuristic) -> tuple[float, ...]:
    """Every seat's value; the true final scores once the match is over."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return tuple(float(s) for s in outcome.scores)
    return tuple(heuristic(rules, state, seat) for seat in range(seats))
