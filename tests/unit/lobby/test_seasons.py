"""Seasons: the schedule's parsing, which season a moment falls in (at the boundaries), and the
rating matchmaking uses across a season's start."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.lobby.domain import seasons
from services.lobby.domain.matchmaking import queue_rating
from services.lobby.domain.ratings import SkillRating
from services.lobby.domain.seasons import Season


def ms(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp() * 1000)  # type: ignore[misc]


def test_quarters_turn_at_utc_midnight_of_their_first_day() -> None:
    quarterly = seasons.parse("quarterly")
    assert quarterly.at(ms(2027, 3, 31, 23, 59, 59) + 999) == Season(
        "2027-q1", ms(2027, 1, 1), ms(2027, 4, 1)
    )
    assert quarterly.at(ms(2027, 4, 1)) == Season("2027-q2", ms(2027, 4, 1), ms(2027, 7, 1))
    assert quarterly.at(ms(2027, 12, 31, 23)) == Season("2027-q4", ms(2027, 10, 1), ms(2028, 1, 1))
    assert quarterly.at(ms(2028, 1, 1)) == Season("2028-q1", ms(2028, 1, 1), ms(2028, 4, 1))


def test_months_and_years_are_named_by_their_calendar() -> None:
    assert seasons.parse("monthly").at(ms(2027, 2, 28, 23)) == Season(
        "2027-02", ms(2027, 2, 1), ms(2027, 3, 1)
    )
    assert seasons.parse("monthly").at(ms(2027, 12, 5)) == Season("2027-12", ms(2027, 12, 1), ms(2028, 1, 1))
    assert seasons.parse("yearly").at(ms(2027, 6, 1)) == Season("2027", ms(2027, 1, 1), ms(2028, 1, 1))


def test_the_default_schedule_is_quarterly() -> None:
    assert seasons.parse("") == seasons.parse("  ") == seasons.parse("quarterly")


def test_a_list_of_starts_names_each_season_by_its_start() -> None:
    listed = seasons.parse("2027-01-01, 2027-03-15T18:00:00Z")
    assert listed.at(ms(2026, 12, 31, 23, 59)) is None  # before the first start: no season
    assert listed.at(ms(2027, 1, 1)) == Season("2027-01-01", ms(2027, 1, 1), ms(2027, 3, 15, 18))
    assert listed.at(ms(2027, 3, 15, 18) - 1).id == "2027-01-01"  # type: ignore[union-attr]
    last = Season("2027-03-15T18:00:00Z", ms(2027, 3, 15, 18), 0)  # the last has no end yet
    assert listed.at(ms(2027, 3, 15, 18)) == last and listed.at(ms(2030, 1, 1)) == last


def test_a_season_is_found_by_its_id_only_once_it_has_begun() -> None:
    quarterly, now = seasons.parse("quarterly"), ms(2027, 5, 1)
    assert quarterly.get("2027-q2", now) == quarterly.at(now)
    assert quarterly.get("2026-q4", now) == Season("2026-q4", ms(2026, 10, 1), ms(2027, 1, 1))
    assert quarterly.get("2027-q3", now) is None  # not begun
    for unknown in ("2027-q5", "2027-q0", "2027-05", "2027", "q1", "all"):
        assert quarterly.get(unknown, now) is None
    assert seasons.parse("monthly").get("2027-13", now) is None
    listed = seasons.parse("2027-01-01,2027-06-01")
    assert listed.get("2027-01-01", now) == Season("2027-01-01", ms(2027, 1, 1), ms(2027, 6, 1))
    assert listed.get("2027-06-01", now) is None and listed.get("2027-02-01", now) is None


def test_a_season_id_is_well_formed_or_refused() -> None:
    assert seasons.well_formed("2027-q1") and seasons.well_formed("2027-03-15T18:00:00Z")
    for bad in ("", "2027 q1", "x" * 33, "2027/q1", "é"):
        assert not seasons.well_formed(bad)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("weekly", "neither a period"),
        ("2027-02-30", "not a date"),
        ("2027-03-01,2027-01-01", "not after"),
        ("2027-01-01,2027-01-01", "not after"),
        ("2027-01-01T18:00", "neither a period"),
        ("2027-01-01,", "neither a period"),
    ],
)
def test_a_bad_schedule_is_refused_with_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ValueError, match="TABULA_SEASONS") as refused:
        seasons.parse(text)
    assert says in str(refused.value)


def test_matchmaking_uses_the_season_rating_once_the_player_played_in_it() -> None:
    all_time = SkillRating(31.0, 4.0, 40)
    assert queue_rating(SkillRating(), all_time) == 31.0  # new season: nothing played yet
    assert queue_rating(None, all_time) == 31.0  # no season now
    assert queue_rating(SkillRating(27.5, 6.0, 1), all_time) == 27.5
