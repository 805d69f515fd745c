"""Chat's pure part: channel names (a direct channel's ids sorted), the text cleaned and bounded."""

from __future__ import annotations

import pytest

from services.lobby.domain import chat
from services.lobby.domain.chat import MAX_TEXT, ChannelKind
from shared.serving.errors import Conflict, InvalidArgument


def test_channel_names_parse_and_a_direct_channel_is_one_for_both() -> None:
    assert chat.channel("room:r1").kind is ChannelKind.ROOM
    assert chat.channel("spectators:m-1").name == "spectators:m-1"
    assert chat.channel("dm:g-b:g-a").name == chat.channel("dm:g-a:g-b").name == "dm:g-a:g-b"
    assert chat.channel("dm:g-b:g-a").pair == ("g-a", "g-b")


@pytest.mark.parametrize(
    "raw",
    ["", "room", "room:", "lounge:x", "room:a:b", "dm:a", "dm:a:a", "dm:a:b:c", "match:a b", "room:{lobby}"],
)
def test_other_names_are_refused(raw: str) -> None:
    with pytest.raises(InvalidArgument):
        chat.channel(raw)


def test_the_text_is_cleaned_then_bounded() -> None:
    assert chat.text("  two\nlines\u200b\x1b[31m ") == "two\nlines[31m"
    assert chat.text("é" * MAX_TEXT) == "é" * MAX_TEXT
    for raw, reason in ((" \t\x00 ", "chat_empty"), ("x" * (MAX_TEXT + 1), "chat_too_long")):
        with pytest.raises(Conflict) as err:
            chat.text(raw)
        assert err.value.reason == reason


def test_message_ids_and_client_ids_have_their_shapes() -> None:
    assert chat.message_id("", "after") == "" and chat.message_id("17-0", "after") == "17-0"
    for bad in ("17", "a-0", "1-0-0"):
        with pytest.raises(InvalidArgument):
            chat.message_id(bad, "after")
    with pytest.raises(InvalidArgument):
        chat.client_message_id("")
