"""The platform's resignation rule (shared/core/resign.py): placings, the early end, who acts."""

from __future__ import annotations

from shared.core.decider import SYSTEM, Actor, Outcome
from shared.core.resign import Seating, placings_with


def test_resigned_seats_place_last_the_later_resigner_above_the_earlier_whatever_the_scores() -> None:
    # seat 2 won on points, seat 0 resigned first, then seat 2: 1 and 3 keep their order above them
    assert placings_with((3, 4, 1, 2), (0, 2)) == (4, 2, 3, 1)
    assert placings_with((1, 1, 3), (2,)) == (1, 1, 3)  # ties among those who stayed are kept
    assert placings_with((1, 1, 3), (0,)) == (3, 1, 2)
    assert placings_with((2, 1), ()) == (2, 1)


def test_the_rules_outcome_keeps_its_scores_with_resigned_seats_placed_last() -> None:
    rules = Outcome((50, 40, 30), (1, 2, 3))
    seating = Seating(3, frozenset(), (0,))
    assert seating.outcome(rules) == Outcome((50, 40, 30), (3, 1, 2))
    assert Seating(3).outcome(rules) is rules and Seating(3).outcome(None) is None


def test_a_match_ends_once_at_most_one_human_has_not_resigned_bots_never_resign() -> None:
    assert not Seating(3, frozenset(), (0,)).ended  # two people play on
    two = Seating(2, frozenset(), (1,))
    assert two.ended and two.outcome(None) == Outcome((0, 0), (1, 2))
    with_bot = Seating(3, frozenset({2}), (0,))  # one human left and a bot: the human first
    assert with_bot.ended and with_bot.outcome(None) == Outcome((0, 0, 0), (3, 1, 2))
    alone = Seating(2, frozenset({1}), (0,))  # the only human resigned: the bot wins
    assert alone.ended and alone.outcome(None) == Outcome((0, 0), (2, 1))
    assert alone.to_act((Actor.of_seat(1), SYSTEM)) == ()
    assert Seating(3, frozenset(), (0,)).to_act((SYSTEM,)) == (SYSTEM,)
    assert not Seating(2, frozenset({1})).ended  # nobody resigned: the rules decide


def test_resigning_twice_changes_nothing() -> None:
    once = Seating(3).resign(1)
    assert once.resign(1) == once and once.resign(0).resigned == (1, 0)
