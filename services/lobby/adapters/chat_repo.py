"""Chat in Redis: a capped stream per channel, the senders' client ids, mutes, and the moderators'
reports (docs/chat.md). All under the lobby's hash tag, apart from every match's own keys: chat is
never written into a match's stream.

A message is stored by one script that first looks up the sender's client message id in the
channel: a retry answers the first message's id and stores nothing. Readers block on ``XREAD`` from
the last message id they saw, so nothing written in between is missed.
"""

from __future__ import annotations

import json
from typing import Any

from services.lobby.adapters import keys
from services.lobby.domain.chat import HISTORY, Message

TTL_S = 7 * 24 * 3600  # a channel's messages, client ids and mutes: a week after its last change
REPORTS_KEPT = 10_000  # reports kept for moderators (approximately)

# KEYS: the channel's stream, the sender's client-id key. ARGV: from, name, text, client id, kept, ttl.
# Returns {1, new id}, or {0, the id stored before under this client id}.
SEND_LUA = """
local seen = redis.call('GET', KEYS[2])
if seen then return {0, seen} end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[5], '*',
  'from', ARGV[1], 'name', ARGV[2], 'text', ARGV[3], 'cid', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('SET', KEYS[2], id, 'EX', ARGV[6])
return {1, id}
"""


def _messages(entries: Any) -> list[Message]:
    return [
        Message.parse(keys.text(entry_id), {keys.text(k): keys.text(v) for k, v in fields.items()})
        for entry_id, fields in entries or []
    ]


class ChatRepository:
    def __init__(self, client: Any, kept: int = HISTORY, ttl_s: int = TTL_S) -> None:
        self.client, self.kept, self.ttl_s = client, kept, ttl_s
        self._send = client.register_script(SEND_LUA)

    def add(self, channel: str, message: Message) -> tuple[Message, bool]:
        """Store ``message`` (Redis gives its id) unless its sender's client id was stored before in the
        channel: the stored message, and whether it is new."""
        sent = keys.chat_sent(channel, message.player_id, message.client_id)
        args = [message.player_id, message.name, message.text, message.client_id, self.kept, self.ttl_s]
        new, raw_id = self._send(keys=[keys.chat(channel), sent], args=args)
        message_id = keys.text(raw_id)
        if int(new):
            return Message(message_id, message.player_id, message.name, message.text, message.client_id), True
        first = _messages(self.client.xrange(keys.chat(channel), message_id, message_id))
        stored = (
            first[0]
            if first
            else Message(message_id, message.player_id, message.name, message.text, message.client_id)
        )
        return stored, False

    def head(self, channel: str) -> str:
        """The channel's newest message id ("0-0" when none)."""
        last: Any = self.client.xrevrange(keys.chat(channel), count=1)
        return keys.text(last[0][0]) if last else "0-0"

    def after(self, channel: str, after: str, before: str, count: int) -> list[Message]:
        """Up to ``count`` messages after ``after`` ("": the oldest) and before ``before`` ("": the
        newest), oldest first."""
        low, high = f"({after}" if after else "-", f"({before}" if before else "+"
        return _messages(self.client.xrange(keys.chat(channel), low, high, count=count))

    def newest(self, channel: str, before: str, count: int) -> list[Message]:
        """Up to ``count`` messages before ``before`` ("": the newest), newest first."""
        high = f"({before}" if before else "+"
        return _messages(self.client.xrevrange(keys.chat(channel), high, "-", count=count))

    def read(self, channel: str, after: str, block_ms: int) -> list[Message]:
        """Messages after ``after``, waiting up to ``block_ms`` for one; empty when none came."""
        reply: Any = self.client.xread({keys.chat(channel): after}, block=block_ms, count=100)
        return [m for _, entries in reply or [] for m in _messages(entries)]

    def get(self, channel: str, message_id: str) -> Message | None:
        found = _messages(self.client.xrange(keys.chat(channel), message_id, message_id))
        return found[0] if found else None

    # ------------------------------------------------------------ mutes
    def muted_by(self, channel: str, player_id: str) -> set[str]:
        return {keys.text(p) for p in self.client.smembers(keys.chat_muted(channel, player_id))}

    def mute(self, channel: str, player_id: str, target: str, muted: bool) -> None:
        self._set(keys.chat_muted(channel, player_id), target, muted)

    def silenced(self, channel: str, player_id: str) -> bool:
        return bool(self.client.sismember(keys.chat_silenced(channel), player_id))

    def silence(self, channel: str, target: str, muted: bool) -> None:
        self._set(keys.chat_silenced(channel), target, muted)

    def _set(self, key: str, member: str, present: bool) -> None:
        pipe = self.client.pipeline()
        if present:
            pipe.sadd(key, member)
            pipe.expire(key, self.ttl_s)
        else:
            pipe.srem(key, member)
        pipe.execute()

    # ------------------------------------------------------------ spectators of a match
    def open_to_spectators(self, match_id: str) -> None:
        """The match's spectators may read its players' channel (for 28 days: an asynchronous match may
        take weeks)."""
        self.client.set(keys.chat_open(match_id), "1", ex=4 * self.ttl_s)

    def is_open(self, match_id: str) -> bool:
        return bool(self.client.exists(keys.chat_open(match_id)))

    # ------------------------------------------------------------ reports
    def report(self, fields: dict[str, str | int]) -> str:
        """One report for moderators; its id."""
        return keys.text(self.client.xadd(keys.chat_reports(), fields, maxlen=REPORTS_KEPT, approximate=True))


def context_json(messages: list[Message]) -> str:
    """Messages as a report records them: a JSON list, oldest first."""
    return json.dumps(
        [{"id": m.message_id, "from": m.player_id, "name": m.name, "text": m.text} for m in messages],
        ensure_ascii=False,
    )
