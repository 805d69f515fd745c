"""Shape checks on what clients send: names, emails, passwords, codes, ids, seat counts, options,
turn clocks.

Each check raises ``InvalidArgument`` with a message a player can act on and the request field
it blames (the ``BadRequest`` detail of the answer). Seat ranges and
options come from the game's manifest (options parsed, defaults filled in, values made
canonical); the game's own pure ``rules.make_config`` then checks them too, so the lobby never
starts a match the rule service would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from shared.core.decider import RuleViolation
from shared.core.manifest import GameManifest
from shared.core.undo import game_options as platform_free
from shared.serving.errors import InvalidArgument

MAX_NAME = 32
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes are read aloud
INVITE_LENGTH = 8
MAX_TURN_SECONDS = 7 * 24 * 3600
MIN_TURN_SECONDS = 10
MAX_OPTIONS = 16
MAX_OPTION_TEXT = 64
MAX_EMAIL = 254  # RFC 5321's limit of a forward path
MIN_PASSWORD, MAX_PASSWORD = 8, 128
_EMAIL = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def display_name(raw: str) -> str:
    name = " ".join(raw.split())
    if not name:
        raise InvalidArgument("display_name must not be empty", "display_name")
    if len(name) > MAX_NAME:
        raise InvalidArgument(
            "display_name must be at most {most} characters, not {count}",
            "display_name",
            most=MAX_NAME,
            count=len(name),
        )
    if not name.isprintable():
        raise InvalidArgument("display_name must be printable text", "display_name")
    return name


def name_key(name: str) -> str:
    """What makes two display names the same for uniqueness among accounts: case and width aside."""
    return name.casefold()


def email(raw: str, field: str = "email") -> str:
    """An email address, trimmed and lower-cased (one account per address, whatever its case)."""
    address = raw.strip().lower()
    if not address:
        raise InvalidArgument("{field_name} is required", field, field_name=field)
    if len(address) > MAX_EMAIL or not address.isprintable() or not _EMAIL.fullmatch(address):
        raise InvalidArgument(
            "{field_name} must be an email address like ada@example.org", field, field_name=field
        )
    return address


def new_password(raw: str, field: str = "password") -> str:
    """A password being set: :data:`MIN_PASSWORD` to :data:`MAX_PASSWORD` characters, not all spaces.
    The message never repeats it."""
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD or not raw.strip():
        raise InvalidArgument(
            "{field_name} must be {least} to {most} characters (not only spaces)",
            field,
            field_name=field,
            least=MIN_PASSWORD,
            most=MAX_PASSWORD,
        )
    return raw


def given_password(raw: str, field: str = "password") -> str:
    """A password being checked: any, but not none (a wrong one is a wrong password, not a bad request)."""
    if not raw:
        raise InvalidArgument("{field_name} is required", field, field_name=field)
    return raw


def invite_code(raw: str) -> str:
    code = raw.strip().upper()
    if len(code) != INVITE_LENGTH or any(c not in INVITE_ALPHABET for c in code):
        raise InvalidArgument(
            "an invite code is {length} letters and digits, e.g. K7QX2MPA",
            "invite_code",
            length=INVITE_LENGTH,
        )
    return code


def identifier(raw: str, what: str) -> str:
    if not _ID.fullmatch(raw):  # fullmatch: '$' alone would let a trailing newline through
        raise InvalidArgument("{what} must be 1 to 64 letters, digits, '-' or '_'", what, what=what)
    return raw


def game_name(raw: str, known: Iterable[str]) -> str:
    names = sorted(known)
    if raw not in names:
        raise InvalidArgument(
            "unknown game {game!r}; known: {known}", "game", game=raw[:64], known=", ".join(names)
        )
    return raw


def seat_count(seats: int, game: GameManifest, field: str = "seats") -> int:
    if not game.min_seats <= seats <= game.max_seats:
        raise InvalidArgument(
            "{name} takes {min_seats} to {max_seats} seats, not {seats}",
            field,
            name=game.name,
            min_seats=game.min_seats,
            max_seats=game.max_seats,
            seats=seats,
        )
    return seats


def seat_counts(counts: Iterable[int], game: GameManifest) -> tuple[int, ...]:
    """Acceptable player counts for matchmaking; none given means every count the game allows."""
    chosen = tuple(sorted(set(counts))) or tuple(range(game.min_seats, game.max_seats + 1))
    for count in chosen:
        seat_count(count, game, "seat_counts")
    return chosen


def turn_seconds(value: int) -> int:
    if value != 0 and not MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS:
        raise InvalidArgument(
            "turn_seconds is 0 (no clock) or {least} to {most}",
            "turn_seconds",
            least=MIN_TURN_SECONDS,
            most=MAX_TURN_SECONDS,
        )
    return value


def game_options(options: Mapping[str, str], seats: int, game: GameManifest, rules: Any) -> dict[str, str]:
    """Bounded in size, parsed by the manifest (every option, canonical), then checked by the rules."""
    if len(options) > MAX_OPTIONS:
        raise InvalidArgument("at most {most} options", "options", most=MAX_OPTIONS)
    for key, value in options.items():
        if not key or len(key) > MAX_OPTION_TEXT or len(value) > MAX_OPTION_TEXT:
            raise InvalidArgument(
                "option names and values are 1 to {most} characters", "options", most=MAX_OPTION_TEXT
            )
    try:
        parsed = game.parse_options(options)
    except ValueError as err:
        raise InvalidArgument("bad option for {name}: {err}", "options", name=game.name, err=err) from err
    try:
        rules.make_config(seats, platform_free(parsed))
    except RuleViolation as err:
        raise InvalidArgument(
            "bad option for {name}: {error}", "options", name=game.name, error=err.message
        ) from err
    return parsed


def limit(value: int, default: int, most: int) -> int:
    if value < 0:
        raise InvalidArgument("limit must not be negative", "limit")
    return min(value or default, most)


_NOTICE_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")


def notice_id(raw: str, what: str) -> str:
    """A notice id as WatchMyNotices returns it ("1700000000000-0"), or "" for "only new ones"."""
    if raw and not _NOTICE_ID.fullmatch(raw):
        raise InvalidArgument("{what} is a notice id like 1700000000000-0, or empty", what, what=what)
    return raw
