"""The members of a game's rules that a state of the usual shape answers (shared/core/ranked_rules.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.core.decider import Outcome
from shared.core.ranked_rules import RankedRules, settled


@dataclass(frozen=True)
class _Score:
    total: int


@dataclass(frozen=True)
class _State:
    phase: str = "play"
    players: tuple[int, ...] = ()
    final: tuple[_Score, ...] = ()
    placings: tuple[int, ...] = ()


class _Rules(RankedRules):
    finished = "over"


def test_outcome_and_seats_come_from_the_state_once_it_is_over() -> None:
    over = _State("over", (0, 1), (_Score(7), _Score(9)), (2, 1))
    assert _Rules(None).outcome(_State("play", (0, 1))) is None
    assert _Rules(None).outcome(over) == Outcome((7, 9), (2, 1))
    assert _Rules(None).seat_count(over) == 2


def test_settled_scores_are_zeros_before_setup_the_totals_at_the_end_and_none_in_play() -> None:
    state: Any = _State("play", (0, 1))
    assert settled(_State(), 3, "over") == (0.0, 0.0, 0.0)
    assert settled(state, 2, "over") is None
    assert settled(_State("over", (0, 1), (_Score(7), _Score(9))), 2, "over") == (7.0, 9.0)
