"""What the bot levels know of a game beyond its rules: its hooks, from the game's manifest.

A game's manifest offers ``bots()`` -> :class:`shared.core.manifest.BotHooks`: an evaluation
function for ``greedy`` and for the leaves of ``mcts``, optionally an every-seat version of
it (one pass instead of one call per seat) and a pruner that drops commands no better than
another one (search spends its iterations elsewhere). A game without an evaluation is judged
only by its final outcome (fine for tiny test games, useless for real ones).
"""

from __future__ import annotations

import functools
from typing import Any

from services.games import manifest
from services.workers.bots.base import Heuristic
from shared.core.manifest import BotHooks, EvaluateAll, Prune

# (rules, state, seats) -> every seat's heuristic value
SeatValues = EvaluateAll
# (rules, state, seat, legal commands, coarse) -> the commands worth searching (a non-empty
# subset); coarse: the seat is not the searching one, only its likely choice matters
Pruner = Prune


@functools.cache
def bot_hooks(game: str) -> BotHooks:
    """The game's hooks, loaded once per process through the registry."""
    return manifest(game).bots()


def outcome_only(rules: Any, state: Any, seat: int) -> float:
    """The final score once the match is over, else 0."""
    outcome = rules.outcome(state)
    return 0.0 if outcome is None else float(outcome.scores[seat])


def heuristic_for(game: str) -> Heuristic:
    return bot_hooks(game).evaluate or outcome_only


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
