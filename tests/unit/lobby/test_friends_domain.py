"""Presence as a friend sees it, and the friends' notices as the notice stream stores them."""

from __future__ import annotations

from services.lobby.domain.friends import Presence, Seen
from services.lobby.domain.notices import Notice, NoticeKind

NOW = 1_800_000_000_000
TTL_S = 60


def test_a_player_renewed_within_the_time_is_online_with_their_game_and_the_match_only_if_watchable() -> None:
    seen = Seen(NOW - 59_000, "trajan", "m1")
    assert seen.shown(NOW, may_watch=True, ttl_s=TTL_S) == Presence(True, "trajan", "m1", NOW - 59_000)
    assert seen.shown(NOW, may_watch=False, ttl_s=TTL_S) == Presence(True, "trajan", "", NOW - 59_000)


def test_a_player_gone_quiet_is_offline_with_their_last_seen_and_no_game() -> None:
    seen = Seen(NOW - 60_000, "trajan", "m1")
    assert seen.shown(NOW, may_watch=True, ttl_s=TTL_S) == Presence(False, last_seen_ms=NOW - 60_000)
    assert Seen(0).shown(NOW, may_watch=False, ttl_s=TTL_S) == Presence(False)


def test_the_friends_notices_keep_their_fields_and_are_not_about_a_match() -> None:
    notice = Notice(
        NoticeKind.FRIEND_PRESENCE,
        from_player_id="g-1",
        from_name="Ada",
        online=1,
        playing_game="race",
        playing_match="m1",
        last_seen_ms=NOW,
    )
    assert Notice.parse(notice.fields()) == notice
    assert not notice.is_about_a_match and not Notice(NoticeKind.FRIEND_REQUEST).is_about_a_match
    old = {"kind": "invited", "room_id": "r1", "from_player_id": "g-2", "from_name": "Bob"}  # stored before
    assert Notice.parse(old) == Notice(
        NoticeKind.INVITED, room_id="r1", from_player_id="g-2", from_name="Bob"
    )
    assert Notice(NoticeKind.YOUR_TURN, "race", "m1", 0).is_about_a_match
