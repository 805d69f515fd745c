"""Each player's notices: a capped Redis stream per player, written by scripts.

A match's notices are written by one script together with what was last seen of the match
(``{lobby}:acting:<match>``, compared and set), so of two projector instances handling notices of
one match only one writes them, and a redelivered outbox notice writes nothing twice. Readers block
on ``XREAD`` from the last notice id they saw, so nothing written in between is missed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis
import redis.exceptions

from services.lobby.adapters import keys
from services.lobby.domain.notices import Notice
from shared.store.redis_store import RedisClient

KEEP = 200  # notices per player (approximately: XADD MAXLEN ~)
TTL_S = 7 * 24 * 3600  # a player's notices, and what was seen of a match, a week after the last one

# KEYS: acting key, then one notice stream per notice.
# ARGV: expected acting value ('' = none), new acting value, ttl, keep, then per notice:
#       its field count, then field, value, ...
# Returns the new notice ids, or -1 when the acting value changed since it was read (retry).
PUBLISH_LUA = """
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return -1 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
local ids, at = {}, 5
for k = 2, #KEYS do
  local n = tonumber(ARGV[at])
  local fields = {}
  for f = 1, n do fields[f] = ARGV[at + f] end
  ids[k - 1] = redis.call('XADD', KEYS[k], 'MAXLEN', '~', ARGV[4], '*', unpack(fields))
  redis.call('EXPIRE', KEYS[k], ARGV[3])
  at = at + n + 1
end
return ids
"""


# (match, the acting value expected, the new one, the (player, notice) pairs), as publish takes them
Publish = tuple[str, str, str, Sequence[tuple[str, Notice]]]
Call = tuple[list[str], list[Any]]  # a script call's keys and arguments


def _text(raw: Any) -> str:
    return keys.text(raw)


class NoticeRepository:
    def __init__(self, client: RedisClient, keep: int = KEEP, ttl_s: int = TTL_S) -> None:
        self.client, self.keep, self.ttl_s = client, keep, ttl_s
        self._publish: Any = client.register_script(PUBLISH_LUA)

    def acting(self, match_id: str) -> str:
        """The raw value last seen of the match ('' when none): compare it in :meth:`publish`."""
        raw = self.client.get(keys.acting(match_id))
        return _text(raw) if raw is not None else ""

    def publish(
        self, match_id: str, seen: str, now: str, notices: Sequence[tuple[str, Notice]]
    ) -> list[str] | None:
        """Write ``notices`` and set the match's acting value to ``now`` if it still is ``seen``;
        the new notice ids, or None when another writer came first (re-read and decide again)."""
        keys_, args = self._call(match_id, seen, now, notices)
        result = self._publish(keys=keys_, args=args)
        if result == -1:
            return None
        return [_text(entry) for entry in result]

    def acting_many(self, match_ids: Sequence[str]) -> list[str]:
        """:meth:`acting` of each match, in one round trip."""
        pipe = self.client.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.get(keys.acting(match_id))
        return [_text(raw) if raw is not None else "" for raw in pipe.execute()]

    def publish_many(self, writes: Sequence[Publish]) -> list[list[str] | None]:
        """:meth:`publish` of each write, in order, in one round trip on one Redis server (on a cluster,
        whose redis-py pipelines refuse scripts, one call each). A script Redis does not know (a
        restarted server) is loaded and run again for that write; any other error is raised, after
        the writes before it were made."""
        if not isinstance(self.client, redis.Redis):
            return [self.publish(*write) for write in writes]
        pipe = self.client.pipeline(transaction=False)
        calls = [self._call(*write) for write in writes]
        for keys_, args in calls:
            pipe.evalsha(self._publish.sha, len(keys_), *keys_, *args)
        out: list[list[str] | None] = []
        for (keys_, args), reply in zip(calls, pipe.execute(raise_on_error=False), strict=True):
            if isinstance(reply, redis.exceptions.NoScriptError):
                reply = self._publish(keys=keys_, args=args)
            if isinstance(reply, Exception):
                raise reply
            out.append(None if reply == -1 else [_text(entry) for entry in reply])
        return out

    def _call(self, match_id: str, seen: str, now: str, notices: Sequence[tuple[str, Notice]]) -> Call:
        args: list[Any] = [seen, now, self.ttl_s, self.keep]
        for _, notice in notices:
            fields = notice.fields()
            args += [len(fields) * 2, *(x for pair in fields.items() for x in pair)]
        return [keys.acting(match_id), *(keys.notices(player) for player, _ in notices)], args

    def add(self, player_id: str, notice: Notice) -> str:
        """One notice that needs no comparison (an invitation); its id."""
        fields: dict[Any, Any] = dict(notice.fields())
        pipe = self.client.pipeline()
        pipe.xadd(keys.notices(player_id), fields, maxlen=self.keep, approximate=True)
        pipe.expire(keys.notices(player_id), self.ttl_s)
        entry, _ = pipe.execute()
        return _text(entry)

    def head(self, player_id: str) -> str:
        """The id of the player's last notice ("0-0" when none)."""
        last: Any = self.client.xrevrange(keys.notices(player_id), count=1)
        return _text(last[0][0]) if last else "0-0"

    def read(self, player_id: str, after: str, block_ms: int) -> list[tuple[str, Notice]]:
        """Notices after ``after``, waiting up to ``block_ms`` for one; empty when none came."""
        reply: Any = self.client.xread({keys.notices(player_id): after}, block=block_ms, count=100)
        out = []
        for _, entries in reply or []:
            for entry_id, fields in entries:
                plain = {_text(k): _text(v) for k, v in fields.items()}
                out.append((_text(entry_id), Notice.parse(plain)))
        return out
