"""What an Undo may take back, read from a log (shared/core/undo.py), and the platform's undo option."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from services.games import manifest
from shared.core.decider import RuleViolation
from shared.core.resign import PLATFORM_TYPES, SEAT_RESIGNED
from shared.core.undo import COMMANDS_UNDONE, LogShort, game_options, undo_allowed, undo_payload, undo_target


@dataclass(frozen=True)
class Entry:
    version: int
    type: str
    command_id: str
    actor: str
    visibility: str = "public"
    payload: bytes = b""


def log(*batches: tuple[str, str, list[str]]) -> list[Entry]:
    """Entries from (command id, actor, event types) batches, numbered from 1."""
    out: list[Entry] = []
    for command_id, actor, types in batches:
        for kind in types:
            out.append(Entry(len(out) + 1, kind, command_id, actor))
    return out


def undone(entries: list[Entry], seat: int, to: int) -> list[Entry]:
    return [
        *entries,
        Entry(
            len(entries) + 1,
            COMMANDS_UNDONE,
            f"u{len(entries)}",
            f"seat:{seat}",
            "public",
            undo_payload(seat, to),
        ),
    ]


def target(entries: list[Entry], seat: int, low: int = 1) -> int | str:
    try:
        return undo_target([e for e in entries if e.version >= low], seat, {"Rolled"}, PLATFORM_TYPES, low)
    except RuleViolation as err:
        return err.code


SETUP = ("create", "system", ["Laid", "Laid"])


def test_one_command_at_a_time_back_over_undos_as_long_as_it_is_the_seats_own() -> None:
    entries = log(
        SETUP, ("a", "seat:1", ["Moved"]), ("b", "seat:0", ["Moved", "Paid"]), ("c", "seat:0", ["Moved"])
    )
    assert target(entries, 0) == 5 and target(entries, 1) == "undo_not_yours"
    entries = undone(entries, 0, 5)  # c taken back: b is the latest now
    assert target(entries, 0) == 3
    entries = undone(entries, 0, 3)  # b too: a (seat 1's) is the latest
    assert target(entries, 0) == "undo_not_yours" and target(entries, 1) == 2
    entries = undone(entries, 1, 2)
    assert target(entries, 0) == target(entries, 1) == "nothing_to_undo"  # the setup stays
    assert target(log(SETUP), 0) == "nothing_to_undo" and target([], 0) == "nothing_to_undo"


def test_what_revealed_a_bots_command_the_system_and_a_resignation_stand() -> None:
    assert target(log(SETUP, ("a", "seat:0", ["Moved", "Rolled"])), 0) == "undo_revealed"
    private = [*log(SETUP), Entry(3, "Drew", "a", "seat:0", "seat:0")]
    assert target(private, 0) == "undo_revealed"  # seen by its seat only: revealed to it
    assert target(log(SETUP, ("a", "bot:0:greedy", ["Moved"])), 0) == "undo_not_yours"
    assert target(log(SETUP, ("a", "seat:0", ["Moved"]), ("s", "system", ["Scored"])), 0) == "undo_not_yours"
    assert (
        target(log(SETUP, ("a", "seat:0", ["Moved"]), ("r", "seat:0", [SEAT_RESIGNED])), 0)
        == "undo_not_yours"
    )


def test_a_log_read_from_a_later_version_says_how_far_back_it_must_reach() -> None:
    entries = log(SETUP, ("a", "seat:0", ["Moved"] * 5))
    assert target(entries, 0) == 2
    with pytest.raises(LogShort) as short:
        undo_target([e for e in entries if e.version >= 5], 0, set(), PLATFORM_TYPES, 5)
    assert short.value.version == 4
    jumped = undone(entries, 0, 2)
    with pytest.raises(LogShort) as short:
        undo_target(jumped[-1:], 0, set(), PLATFORM_TYPES, len(jumped))
    assert short.value.version == 2


def test_the_undo_option_is_every_games_the_rules_never_see_it() -> None:
    lorenzo = manifest("lorenzo")
    assert [o.name for o in lorenzo.match_options] == ["advanced", "undo"]
    assert lorenzo.parse_options({}) == {"advanced": "true"}  # not given: on, and not written
    parsed = lorenzo.parse_options({"undo": " No "})
    assert parsed == {"advanced": "true", "undo": "false"} and not undo_allowed(parsed)
    assert undo_allowed({}) and undo_allowed({"undo": "true"})
    assert game_options(parsed) == {"advanced": "true"}
    with pytest.raises(ValueError, match="undo"):
        lorenzo.parse_options({"undo": "maybe"})
