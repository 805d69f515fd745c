"""Chat, the pure part: channel names, the text's rules and bounds, a stored message (docs/chat.md).

A channel is ``room:<room>``, ``match:<match>``, ``spectators:<match>`` or ``dm:<player>:<player>``
(a direct channel's two ids sorted, so both players name one channel). Who reads and writes which is
decided in ``service_layer/chat.py``.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass

from shared.serving.errors import Conflict, InvalidArgument

MAX_TEXT = 200  # characters of a message (and of a report's reason), once trimmed; below the
# floor of every string field (shared/serving/bounds.py: 256), so a longer one is `chat_too_long`
HISTORY = 500  # messages kept per channel (approximately: XADD MAXLEN ~)
CONTEXT = 20  # messages before a reported one recorded with the report
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class ChannelKind(enum.StrEnum):
    ROOM = "room"
    MATCH = "match"  # the players'
    SPECTATORS = "spectators"
    DM = "dm"


@dataclass(frozen=True, slots=True)
class Channel:
    kind: ChannelKind
    target: str  # the room or match id; for a direct channel the smaller player id
    other: str = ""  # a direct channel's larger player id

    @property
    def name(self) -> str:
        if self.kind is ChannelKind.DM:
            return f"dm:{self.target}:{self.other}"
        return f"{self.kind.value}:{self.target}"

    @property
    def pair(self) -> tuple[str, str]:
        return self.target, self.other


def channel(raw: str) -> Channel:
    """A channel name parsed (INVALID_ARGUMENT when it is none); a direct channel's ids are sorted."""
    kind, _, rest = raw.partition(":")
    parts = rest.split(":")
    if kind not in {k.value for k in ChannelKind} or not all(_ID.fullmatch(p) for p in parts):
        raise InvalidArgument(
            "channel must be room:<id>, match:<id>, spectators:<id> or dm:<player>:<player>", "channel"
        )
    if kind == ChannelKind.DM:
        if len(parts) != 2 or parts[0] == parts[1]:
            raise InvalidArgument("a direct channel is dm:<player>:<player>, two players", "channel")
        low, high = sorted(parts)
        return Channel(ChannelKind.DM, low, high)
    if len(parts) != 1:
        raise InvalidArgument("a {kind} channel is {kind}:<id>", "channel", kind=kind)
    return Channel(ChannelKind(kind), parts[0])


def clean(raw: str) -> str:
    """The text as stored: control and format characters dropped (line breaks kept), trimmed."""
    kept = "".join(c for c in raw if c == "\n" or unicodedata.category(c) not in ("Cc", "Cf"))
    return kept.strip()


def text(raw: str) -> str:
    """A message's text, cleaned; refused when empty (``chat_empty``) or too long (``chat_too_long``)."""
    cleaned = clean(raw)
    if not cleaned:
        raise Conflict("chat_empty", "a message needs some text")
    if len(cleaned) > MAX_TEXT:
        raise Conflict(
            "chat_too_long",
            "a message is at most {most} characters, not {count}",
            most=MAX_TEXT,
            count=len(cleaned),
        )
    return cleaned


def client_message_id(raw: str) -> str:
    if not _ID.fullmatch(raw):
        raise InvalidArgument(
            "client_message_id must be 1 to 64 letters, digits, '-' or '_'", "client_message_id"
        )
    return raw


_MESSAGE_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")


def message_id(raw: str, what: str) -> str:
    """A stream entry id ("1700000000000-0"), or "" when none is given."""
    if raw and not _MESSAGE_ID.fullmatch(raw):
        raise InvalidArgument("{what} must be a message id like 1700000000000-0", what, what=what)
    return raw


@dataclass(frozen=True, slots=True)
class Message:
    """One stored message of a channel."""

    message_id: str
    player_id: str
    name: str
    text: str
    client_id: str

    @property
    def sent_ms(self) -> int:
        return int(self.message_id.partition("-")[0])

    def fields(self) -> dict[str, str]:
        return {"from": self.player_id, "name": self.name, "text": self.text, "cid": self.client_id}

    @staticmethod
    def parse(message_id: str, fields: dict[str, str]) -> Message:
        return Message(message_id, fields["from"], fields["name"], fields["text"], fields["cid"])
