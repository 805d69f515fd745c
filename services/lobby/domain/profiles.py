"""Profiles and privacy, pure: the avatars, who may see a player's ratings and matches, and the name a
deleted account's seats show.

The avatars are a fixed set, declared here once (the lobby serves it: ``ListAvatars``); a profile
names one by id. A player's **visibility** says who besides them sees their ratings and matches
(``GetProfile``, ``GetMatchHistory``, the names on ``GetLeaderboard``): everyone, their friends, or
nobody (:func:`may_see` is given the owner's friends who ask). Guests have no settings:
their profile is everyone's to see, with the default avatar. Docs: docs/accounts.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from shared.serving.errors import InvalidArgument

DELETED_NAME = "deleted player"  # what a deleted account's seats, rooms and lists show
HIDDEN_NAME = "hidden player"  # a leaderboard entry of a player who does not show their profile


@dataclass(frozen=True, slots=True)
class Avatar:
    avatar_id: str
    description: str
    shape: str  # circle, square, diamond, hexagon, triangle
    colour: str  # "#rrggbb"


AVATARS = (
    Avatar("initials", "initials on a grey circle", "circle", "#6b7280"),
    Avatar("red-circle", "initials on a red circle", "circle", "#dc2626"),
    Avatar("orange-square", "initials on an orange square", "square", "#ea580c"),
    Avatar("yellow-diamond", "initials on a yellow diamond", "diamond", "#ca8a04"),
    Avatar("green-hexagon", "initials on a green hexagon", "hexagon", "#16a34a"),
    Avatar("teal-triangle", "initials on a teal triangle", "triangle", "#0d9488"),
    Avatar("blue-circle", "initials on a blue circle", "circle", "#2563eb"),
    Avatar("purple-square", "initials on a purple square", "square", "#7c3aed"),
)
DEFAULT_AVATAR = AVATARS[0].avatar_id  # an account's until it chooses one, and every guest's


def avatar_id(raw: str) -> str:
    """An avatar id of :data:`AVATARS` (InvalidArgument naming the field otherwise)."""
    if raw not in {a.avatar_id for a in AVATARS}:
        known = ", ".join(a.avatar_id for a in AVATARS)
        raise InvalidArgument("avatar_id must be one of ListAvatars' ids: {known}", "avatar_id", known=known)
    return raw


class Visibility(Enum):
    EVERYONE = "everyone"
    FRIENDS = "friends"
    NOBODY = "nobody"


DEFAULT_VISIBILITY = Visibility.EVERYONE


def may_see(visibility: Visibility, owner: str, viewer: str, friends: Collection[str] = frozenset()) -> bool:
    """Whether ``viewer`` sees ``owner``'s ratings and matches. ``friends``: the owner's (those of them
    who ask suffice)."""
    if viewer == owner or visibility is Visibility.EVERYONE:
        return True
    return visibility is Visibility.FRIENDS and viewer in friends


def scrubbed_names(players: Sequence[str], names: Sequence[str], player_id: str) -> list[str] | None:
    """A match's names per seat with ``player_id``'s seats shown as :data:`DELETED_NAME`; None when
    the player holds no seat whose name is not that already."""
    out = [names[seat] if seat < len(names) else "" for seat in range(len(players))]
    out += list(names[len(players) :])
    changed = False
    for seat, player in enumerate(players):
        if player == player_id and out[seat] != DELETED_NAME:
            out[seat], changed = DELETED_NAME, True
    return out if changed else None
