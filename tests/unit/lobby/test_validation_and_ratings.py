"""Input checks and rating updates, without any I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from services.lobby.domain import validation
from services.lobby.domain.ratings import FinishedMatch, SkillRating, rate
from shared.core.decider import RuleViolation
from shared.serving.errors import InvalidArgument
from tests.support.race.manifest import MANIFEST, race_rules
from tests.support.race.rules import RaceRules

RULES = race_rules()


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
    assert validation.seat_counts([], MANIFEST) == (2, 3, 4)
    with pytest.raises(InvalidArgument, match="2 to 4 seats"):
        validation.seat_count(5, MANIFEST)
    with pytest.raises(InvalidArgument, match="bad option for race: option goal"):
        validation.game_options({"goal": "x"}, 2, MANIFEST, RULES)
    with pytest.raises(InvalidArgument, match="unknown option"):
        validation.game_options({"speed": "9"}, 2, MANIFEST, RULES)
    with pytest.raises(InvalidArgument):
        validation.game_options({"k" * 65: "v"}, 2, MANIFEST, RULES)
    with pytest.raises(InvalidArgument, match="unknown game"):
        validation.game_name("chess", ["race"])


def test_options_come_back_canonical_with_the_defaults_filled_in() -> None:
    assert validation.game_options({}, 2, MANIFEST, RULES) == {"goal": "20"}
    assert validation.game_options({"goal": " 07 "}, 3, MANIFEST, RULES) == {"goal": "7"}


def test_the_rules_still_have_the_last_word_on_options() -> None:
    class Stricter(RaceRules):
        def make_config(self, seats: int, options: Mapping[str, str]) -> Any:
            raise RuleViolation("bad_option", "no races today")

    with pytest.raises(InvalidArgument, match="no races today"):
        validation.game_options({"goal": "9"}, 2, MANIFEST, Stricter())


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
