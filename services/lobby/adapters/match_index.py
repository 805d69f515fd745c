"""Indexes of the matches the lobby created, by creation time.

:class:`MatchIndex`: public rooms' and matchmaking matches, what ``ListMatches`` offers spectators.
Private rooms' matches are never in it (their ids are the only thing that keeps strangers out).
Only the newest ``KEEP`` are kept.

:class:`PlayerMatches`: every match of each player, private ones included, for ``ListMyMatches``.
Written before the match is created, so an id whose match does not exist is skipped by readers.
A guest's expires with the guest (``keys.GUEST_TTL_S`` after their last lobby call or match); an
account's is kept.

:class:`PrivateMatches`: who may watch a private room's match (GetSpectatorToken).
"""

from __future__ import annotations

from typing import Any

from services.lobby.adapters import keys

KEEP = 500


class MatchIndex:
    def __init__(self, client: Any, keep: int = KEEP) -> None:
        self.client, self.keep = client, keep

    def record(self, match_id: str, created_ms: int) -> None:
        pipe = self.client.pipeline()
        pipe.zadd(keys.matches(), {match_id: created_ms})
        pipe.zremrangebyrank(keys.matches(), 0, -self.keep - 1)
        pipe.execute()

    def newest(self) -> list[tuple[str, int]]:
        """Every indexed match id with its creation time, newest first."""
        found = self.client.zrevrange(keys.matches(), 0, -1, withscores=True)
        return [(keys.text(member), int(score)) for member, score in found]


KEEP_MINE = 100

# KEYS: each player's match list, then each player's account. ARGV: match id, created ms, kept,
# lifetime (s).
RECORD_MINE_LUA = """
local n = #KEYS / 2
for k = 1, n do
  redis.call('ZADD', KEYS[k], ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[k], 0, -tonumber(ARGV[3]) - 1)
  if redis.call('EXISTS', KEYS[n + k]) == 0 then redis.call('EXPIRE', KEYS[k], ARGV[4]) end
end
return 0
"""


class PlayerMatches:
    def __init__(self, client: Any, keep: int = KEEP_MINE) -> None:
        self.client, self.keep = client, keep
        self._record = client.register_script(RECORD_MINE_LUA)

    def record(self, match_id: str, player_ids: list[str], created_ms: int) -> None:
        """The match in each player's list (a guest's list expires with the guest)."""
        if not player_ids:
            return
        key_list = [*(keys.mine(p) for p in player_ids), *(keys.account(p) for p in player_ids)]
        self._record(keys=key_list, args=[match_id, created_ms, self.keep, keys.GUEST_TTL_S])

    def forget(self, match_id: str, player_ids: list[str]) -> None:
        """Take back a :meth:`record` of a match that was not created (an emptied list goes too)."""
        pipe = self.client.pipeline()
        for player_id in player_ids:
            pipe.zrem(keys.mine(player_id), match_id)
        pipe.execute()

    def newest(self, player_id: str) -> list[tuple[str, int]]:
        """The player's match ids with their creation times, newest first."""
        found = self.client.zrevrange(keys.mine(player_id), 0, -1, withscores=True)
        return [(keys.text(member), int(score)) for member, score in found]


class PrivateMatches:
    """Who may watch a private room's match: its players and the players invited to the room.

    Recorded before the match is created (like :class:`PlayerMatches`), so there is no moment
    when a private match exists and looks public; kept as long as the match. A match with no
    record is public: anyone signed in gets a spectator token for it.
    """

    def __init__(self, client: Any) -> None:
        self.client = client

    def invite(self, room_id: str, player_id: str) -> None:
        pipe = self.client.pipeline()
        pipe.sadd(keys.invited(room_id), player_id)
        pipe.expire(keys.invited(room_id), keys.TTL_S)  # as long as the room
        pipe.execute()

    def invitees(self, room_id: str) -> set[str]:
        return {keys.text(p) for p in self.client.smembers(keys.invited(room_id))}

    def restrict(self, match_id: str, viewers: set[str]) -> None:
        if viewers:
            self.client.sadd(keys.private(match_id), *sorted(viewers))

    def forget(self, match_id: str) -> None:
        """Take back a :meth:`restrict` of a match that was not created."""
        self.client.delete(keys.private(match_id))

    def may_watch(self, match_id: str, player_id: str) -> bool:
        pipe = self.client.pipeline(transaction=False)
        pipe.exists(keys.private(match_id))
        pipe.sismember(keys.private(match_id), player_id)
        private, member = pipe.execute()
        return not private or bool(member)
