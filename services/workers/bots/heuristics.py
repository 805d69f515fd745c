"""Per-game evaluation functions for ``greedy`` and for the leaves of ``mcts``.

A game registers ``"module:function"`` here; a game without one is judged only by its
final outcome (fine for tiny test games, useless for real ones). Optional per game: an
every-seat version of the heuristic (one pass instead of one call per seat) and a pruner that
drops commands no better than another one (search spends its iterations elsewhere).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any, cast

from services.workers.bots.base import Heuristic

# (rules, state, seats) -> every seat's heuristic value
SeatValues = Callable[[Any, Any, int], tuple[float, ...]]
# (rules, state, seat, legal commands, coarse) -> the commands worth searching (a non-empty
# subset); coarse: the seat is not the searching one, only its likely choice matters
Pruner = Callable[[Any, Any, int, Sequence[Any], bool], Sequence[Any]]

HEURISTICS: dict[str, str] = {
    "lorenzo": "services.workers.bots.lorenzo:evaluate",
}
ALL_SEATS: dict[str, str] = {
    "lorenzo": "services.workers.bots.lorenzo:evaluate_all",
}
PRUNERS: dict[str, str] = {
    "lorenzo": "services.workers.bots.lorenzo:prune",
}


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def outcome_only(rules: Any, state: Any, seat: int) -> float:
    """The final score once the match is over, else 0."""
    outcome = rules.outcome(state)
    return 0.0 if outcome is None else float(outcome.scores[seat])


@functools.cache
def heuristic_for(game: str) -> Heuristic:
    target = HEURISTICS.get(game)
    return outcome_only if target is None else cast(Heuristic, _load(target))


@functools.cache
def all_seats_for(game: str) -> SeatValues | None:
    target = ALL_SEATS.get(game)
    return None if target is None else cast(SeatValues, _load(target))


@functools.cache
def pruner_for(game: str) -> Pruner | None:
    target = PRUNERS.get(game)
    return None if target is None else cast(Pruner, _load(target))


def seat_values(
    rules: Any, state: Any, seats: int, heuristic: Heuristic, all_seats: SeatValues | None = None
) -> tuple[float, ...]:
    """Every seat's value; the true final scores once the match is over."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return tuple(float(s) for s in outcome.scores)
    if all_seats is not None:
        return all_seats(rules, state, seats)
    return tuple(heuristic(rules, state, seat) for seat in range(seats))
