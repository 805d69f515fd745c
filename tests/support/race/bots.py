"""Dice race's bot hooks: the heuristic that ``greedy`` and the leaves of ``mcts`` score with.

Reached only through the manifest (``MANIFEST.bots()``). Every turn offers one command (roll, or
the system's round end), so the levels play alike; the hook is here because every game brings
one and it shows the shape: a pure function of the (determinized) state, on the score scale.
"""

from __future__ import annotations

from typing import Any

from tests.support.race.rules import RaceState


def evaluate(rules: Any, state: RaceState, seat: int) -> float:
    """The seat's score if the race ended now: its space plus its bonus (rulebook, 5. Scoring).

    Bots see a determinized state (``rules.determinize``), so another seat's bonus here is a
    sample, never the real one; the seat's own is real. Before setup there is nothing to score.
    """
    if not state.positions:
        return 0.0
    return float(state.positions[seat] + state.secrets[seat])
