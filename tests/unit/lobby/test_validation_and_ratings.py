"""Input checks and rating updates, without any I/O."""

from __future__ import annotations

import pytest

from services.lobby.domain import validation
from services.lobby.domain.ratings import FinishedMatch, SkillRating, rate
from shared.errors import InvalidArgument
from tests.support.race import RaceRules

RULES = RaceRules()


@pytest.mark.parametrize("raw", ["", "   ", "x" * 33, "tab\x07bell"])
def test_bad_display_names_are_refused(raw: str) -> None:
    with pytest.raises(InvalidArgument):
        validation.display_name(raw)


def test_display_names_are_trimmed() -> None:
    assert validation.display_name("  Lorenzo   de' Medici ") == "Lorenzo de' Medici"


@pytest.mark.parametrize("raw", ["", "ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCD EFG"])
def test_bad_invite_codes_are_refused(raw: str) -> None:
    with pytest.raises(InvalidArgument):
        validation.invite_code(raw)


def test_invite_codes_are_case_insensitive() -> None:
    assert validation.invite_code(" k7qx2mpa ") == "K7QX2MPA"


def test_seats_and_options_are_checked_by_the_game() -> None:
    assert validation.seat_counts([], RULES) == (2, 3, 4)
    with pytest.raises(InvalidArgument, match="2 to 4 seats"):
        validation.seat_count(5, RULES)
    with pytest.raises(InvalidArgument, match="bad option"):
        validation.game_options({"goal": "x"}, 2, RULES)
    with pytest.raises(InvalidArgument):
        validation.game_options({"k" * 65: "v"}, 2, RULES)
    with pytest.raises(InvalidArgument, match="unknown game"):
        validation.game_name("chess", ["race"])


def test_winners_gain_and_losers_lose() -> None:
    a, b, c = rate([SkillRating(), SkillRating(), SkillRating()], [1, 2, 3])
    assert a.mu > b.mu > c.mu and a.matches == b.matches == c.matches == 1
    assert a.sigma < SkillRating().sigma


def test_tied_players_move_together() -> None:
    a, b = rate([SkillRating(), SkillRating()], [1, 1])
    assert a.mu == pytest.approx(b.mu)


def test_only_matches_with_two_humans_are_rated() -> None:
    match = FinishedMatch("m", "race", (2, 1, 3), ("ada", "", "bob"))
    assert [(h.player_id, h.seat, h.placing) for h in match.humans] == [("ada", 0, 2), ("bob", 2, 3)]
    assert match.is_rated
    assert not FinishedMatch("m", "race", (1, 2), ("ada", "")).is_rated
