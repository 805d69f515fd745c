"""Profiles, pure: who sees a player's ratings and matches, the avatars, a deleted account's seats."""

from __future__ import annotations

import pytest

from services.lobby.domain.profiles import (
    AVATARS,
    DELETED_NAME,
    Visibility,
    avatar_id,
    may_see,
    scrubbed_names,
)
from shared.serving.errors import InvalidArgument


def test_only_everyone_shows_others_until_friends_are_given() -> None:
    assert may_see(Visibility.EVERYONE, "a", "b")
    assert not may_see(Visibility.FRIENDS, "a", "b") and not may_see(Visibility.NOBODY, "a", "b")
    assert all(may_see(v, "a", "a") for v in Visibility), "the owner always"
    assert may_see(Visibility.FRIENDS, "a", "b", friends={"b"})
    assert not may_see(Visibility.NOBODY, "a", "b", friends={"b"})


def test_avatar_ids_are_the_declared_ones() -> None:
    assert len({a.avatar_id for a in AVATARS}) == len(AVATARS)
    assert avatar_id(AVATARS[-1].avatar_id) == AVATARS[-1].avatar_id
    with pytest.raises(InvalidArgument):
        avatar_id("smiley")


def test_only_the_players_seats_are_renamed() -> None:
    assert scrubbed_names(["a", "", "b", "a"], ["Ada", "", "Bob", "Ada"], "a") == [
        DELETED_NAME,
        "",
        "Bob",
        DELETED_NAME,
    ]
    assert scrubbed_names(["a", "b"], ["Ada"], "b") == ["Ada", DELETED_NAME], "a short list of names"
    assert scrubbed_names(["a", "b"], ["Ada", "Bob"], "c") is None
    assert scrubbed_names(["a"], [DELETED_NAME], "a") is None, "done already"
