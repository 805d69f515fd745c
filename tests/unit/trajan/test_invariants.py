"""``invariant_violations`` finds what the playouts check after every step."""

from __future__ import annotations

from dataclasses import replace

from services.trajan.rules.content_types import Action
from services.trajan.rules.model import ProvinceState

from .helpers import RULES, Y, bowls, game, with_player


def test_a_sound_state_has_no_violation() -> None:
    assert RULES.invariant_violations(game(3)) == []


def test_a_missing_marker_is_found() -> None:
    s = with_player(game(2), 1, bowls=bowls((Y,), (), (), (), (), ()))
    assert any("markers" in v for v in RULES.invariant_violations(s))


def test_lost_or_negative_figures_are_found() -> None:
    assert any("conserved" in v for v in RULES.invariant_violations(with_player(game(2), 0, supply=3)))
    problems = RULES.invariant_violations(with_player(game(2), 0, camp=-1, supply=14))
    assert any("negative" in v for v in problems)


def test_a_lost_card_is_found() -> None:
    s = game(2)
    assert RULES.invariant_violations(replace(s, deck=s.deck[1:])) == ["59 commodity cards, not 60"]


def test_two_legionnaires_of_a_seat_in_a_province_and_a_bad_arch_are_found() -> None:
    s = game(2)
    provinces = (ProvinceState(1, None, (0, 0)), *s.provinces[1:])
    s = with_player(
        replace(s, provinces=provinces), 0, camp=-1, arch=2, plus_two=(Action.FORUM, Action.FORUM)
    )
    problems = " ".join(RULES.invariant_violations(s))
    assert "province 1" in problems and "arch" in problems and "[+2]" in problems
