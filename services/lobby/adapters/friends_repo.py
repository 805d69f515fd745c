"""Friends, requests, blocks and presence in Redis (every key ``{lobby}``: one slot).

Each player has four sorted sets (friends, requests in, requests out, blocked; scores are the times
they began, ms). An operation between two players is one script (:data:`FRIEND_LUA`) that checks and
writes both players' sets together, or answers a refusal and writes nothing. An account's sets are
kept; a guest's expire ``2 x GUEST_TTL_S`` after their last change (a guest lives at most a token's
7 days plus 7 days: ``keys.GUEST_TTL_S``); an upgrade keeps them (``accounts_repo.CREATE_LUA``).

Presence is one sorted set of the players online by their last renewal (``keys.online``) and a hash
per player (``keys.presence``): last seen, and the match they started last while it goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.lobby.adapters import keys
from services.lobby.domain import friends as rules
from services.lobby.domain.friends import Seen
from shared.store.redis_store import RedisClient

# KEYS: a's friends, in, out, blocked; b's friends, in, out, blocked; a's account, b's account.
# ARGV: operation, a, b, now ms, most friends, most outgoing, most incoming, most blocked, guest ttl.
# a is the caller, b the other player. Answers what happened ('requested', 'friends', 'ok', 'ended':
# a block that ended a friendship or a request, 'kept': a block that ended nothing), or the refusal
# (a key of domain.friends.REFUSALS), having written nothing.
FRIEND_LUA = """
local op, a, b, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local most_friends, most_out, most_in, most_blocked = tonumber(ARGV[5]), tonumber(ARGV[6]),
  tonumber(ARGV[7]), tonumber(ARGV[8])
local function has(key, member) return redis.call('ZSCORE', key, member) ~= false end
local function befriend()
  if redis.call('ZCARD', KEYS[1]) >= most_friends then return 'friends_full' end
  if redis.call('ZCARD', KEYS[5]) >= most_friends then return 'their_friends_full' end
  redis.call('ZREM', KEYS[2], b); redis.call('ZREM', KEYS[7], a)
  redis.call('ZREM', KEYS[3], b); redis.call('ZREM', KEYS[6], a)
  redis.call('ZADD', KEYS[1], now, b); redis.call('ZADD', KEYS[5], now, a)
  return 'friends'
end
local answer
if op == 'request' then
  if has(KEYS[4], b) then return 'you_blocked' end
  if has(KEYS[8], a) then return 'blocked' end
  if has(KEYS[1], b) then return 'already_friends' end
  if has(KEYS[3], b) then return 'already_requested' end
  if has(KEYS[2], b) then
    answer = befriend()
  else
    if redis.call('ZCARD', KEYS[1]) >= most_friends then return 'friends_full' end
    if redis.call('ZCARD', KEYS[3]) >= most_out then return 'outgoing_full' end
    if redis.call('ZCARD', KEYS[6]) >= most_in then return 'incoming_full' end
    redis.call('ZADD', KEYS[3], now, b); redis.call('ZADD', KEYS[6], now, a)
    answer = 'requested'
  end
elseif op == 'accept' then
  if not has(KEYS[2], b) then return 'no_request' end
  answer = befriend()
elseif op == 'decline' then
  if redis.call('ZREM', KEYS[2], b) == 0 then return 'no_request' end
  redis.call('ZREM', KEYS[7], a)
  answer = 'ok'
elseif op == 'cancel' then
  if redis.call('ZREM', KEYS[3], b) == 0 then return 'no_request' end
  redis.call('ZREM', KEYS[6], a)
  answer = 'ok'
elseif op == 'remove' then
  if redis.call('ZREM', KEYS[1], b) == 0 then return 'not_friends' end
  redis.call('ZREM', KEYS[5], a)
  answer = 'ok'
elseif op == 'block' then
  if has(KEYS[4], b) then return 'already_blocked' end
  if redis.call('ZCARD', KEYS[4]) >= most_blocked then return 'blocked_full' end
  local ended = redis.call('ZREM', KEYS[1], b) + redis.call('ZREM', KEYS[5], a)
    + redis.call('ZREM', KEYS[2], b) + redis.call('ZREM', KEYS[7], a)
    + redis.call('ZREM', KEYS[3], b) + redis.call('ZREM', KEYS[6], a)
  redis.call('ZADD', KEYS[4], now, b)
  answer = ended > 0 and 'ended' or 'kept'
elseif op == 'unblock' then
  if redis.call('ZREM', KEYS[4], b) == 0 then return 'not_blocked' end
  answer = 'ok'
else
  return redis.error_reply('unknown friends operation ' .. op)
end
for side = 0, 1 do
  local account = redis.call('EXISTS', KEYS[9 + side]) == 1
  for k = 1, 4 do
    local key = KEYS[side * 4 + k]
    if account then redis.call('PERSIST', key)
    elseif redis.call('EXISTS', key) == 1 then redis.call('EXPIRE', key, ARGV[9]) end
  end
end
return answer
"""

# KEYS: the online set, the player's presence. ARGV: player, now ms, online ttl ms, kept s.
# Renews the player; answers 1 when they were not online before (came online), else 0.
TOUCH_LUA = """
local before = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], 'seen', ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[4])
if before <= tonumber(ARGV[2]) - tonumber(ARGV[3]) then return 1 end
return 0
"""

# KEYS: the online set. ARGV: player, cutoff ms. Takes the player out if not renewed since the cutoff:
# answers their last renewal (ms) then, else 0 (renewed meanwhile, or taken out by another sweeper).
SWEEP_LUA = """
local seen = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
if seen == 0 or seen > tonumber(ARGV[2]) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
return seen
"""

# KEYS: the player's presence. ARGV: game, match, kept s ('' game: the match ended, cleared if it is it).
PLAYING_LUA = """
if ARGV[1] == '' then
  if redis.call('HGET', KEYS[1], 'match') ~= ARGV[2] then return 0 end
  redis.call('HDEL', KEYS[1], 'game', 'match')
  return 1
end
redis.call('HSET', KEYS[1], 'game', ARGV[1], 'match', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

OPERATIONS = ("request", "accept", "decline", "cancel", "remove", "block", "unblock")


def _text(raw: Any) -> str:
    return keys.text(raw) if raw is not None else ""


class FriendRepository:
    def __init__(self, client: RedisClient) -> None:
        self.client = client
        self._friend = client.register_script(FRIEND_LUA)
        self._touch = client.register_script(TOUCH_LUA)
        self._sweep = client.register_script(SWEEP_LUA)
        self._playing = client.register_script(PLAYING_LUA)

    # ------------------------------------------------------------ friends
    def apply(self, operation: str, a: str, b: str, now_ms: int) -> str:
        """``operation`` by ``a`` on ``b`` (see FRIEND_LUA): what happened, or a refusal's key."""
        assert operation in OPERATIONS, operation
        key_list = [*keys.friend_keys(a), *keys.friend_keys(b), keys.account(a), keys.account(b)]
        args: list[str | int] = [
            operation,
            a,
            b,
            now_ms,
            rules.MAX_FRIENDS,
            rules.MAX_OUTGOING,
            rules.MAX_INCOMING,
            rules.MAX_BLOCKED,
            2 * keys.GUEST_TTL_S,
        ]
        return _text(self._friend(keys=key_list, args=args))

    def lists(self, player_id: str) -> tuple[list[tuple[str, int]], ...]:
        """(friends, incoming, outgoing, blocked), each (player, since ms) oldest first."""
        pipe = self.client.pipeline(transaction=False)
        for key in keys.friend_keys(player_id):
            pipe.zrange(key, 0, -1, withscores=True)
        return tuple([(_text(p), int(s)) for p, s in found] for found in pipe.execute())

    def friends(self, player_id: str) -> list[str]:
        return [_text(p) for p in self.client.zrange(keys.friends(player_id), 0, -1)]

    def are_friends(self, a: str, b: str) -> bool:
        return self.client.zscore(keys.friends(a), b) is not None

    def blocked_by(self, player_id: str, others: Sequence[str]) -> list[str]:
        """Those of ``others`` who blocked ``player_id``."""
        pipe = self.client.pipeline(transaction=False)
        for other in others:
            pipe.zscore(keys.blocked(other), player_id)
        return [o for o, score in zip(others, pipe.execute(), strict=True) if score is not None]

    def has_blocked(self, a: str, b: str) -> bool:
        """``a`` blocked ``b``."""
        return self.client.zscore(keys.blocked(a), b) is not None

    def is_blocked(self, a: str, b: str) -> bool:
        """Either of the two blocked the other."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zscore(keys.blocked(a), b)
        pipe.zscore(keys.blocked(b), a)
        return any(score is not None for score in pipe.execute())

    def account_id(self, name_key: str) -> str:
        """The player id of the account with this display name ('' when none)."""
        return _text(self.client.get(keys.account_name(name_key)))

    # ------------------------------------------------------------ presence
    def touch(self, player_id: str, now_ms: int, ttl_s: int) -> bool:
        """Renew the player's presence: True when they came online by it."""
        key_list = [keys.online(), keys.presence(player_id)]
        args: list[str | int] = [player_id, now_ms, ttl_s * 1000, rules.LAST_SEEN_KEPT_S]
        return bool(int(self._touch(keys=key_list, args=args)))

    def quiet(self, cutoff_ms: int, most: int = 100) -> list[str]:
        """Players online but not renewed since ``cutoff_ms``."""
        found = self.client.zrangebyscore(keys.online(), "-inf", cutoff_ms, start=0, num=most)
        return [_text(p) for p in found]

    def sweep(self, player_id: str, cutoff_ms: int) -> int:
        """Take a quiet player offline: their last renewal (ms), or 0 when another sweeper or a
        renewal came first."""
        return int(self._sweep(keys=[keys.online()], args=[player_id, cutoff_ms]))

    def playing(self, player_id: str, game: str, match_id: str) -> None:
        """The player started ``match_id`` (``game`` "": it ended)."""
        args: list[str | int] = [game, match_id, rules.LAST_SEEN_KEPT_S]
        self._playing(keys=[keys.presence(player_id)], args=args)

    def seen(self, player_ids: Sequence[str]) -> list[Seen]:
        """Each player's stored presence, in one round trip."""
        pipe = self.client.pipeline(transaction=False)
        for player in player_ids:
            pipe.hmget(keys.presence(player), ["seen", "game", "match"])
        out = []
        for seen, game, match in pipe.execute() if player_ids else []:
            last = _text(seen)
            out.append(Seen(int(last) if last.isdigit() else 0, _text(game), _text(match)))
        return out

    def online_now(self, player_ids: Sequence[str], cutoff_ms: int) -> list[str]:
        """Those of ``player_ids`` renewed after ``cutoff_ms``."""
        if not player_ids:
            return []
        scores = self.client.zmscore(keys.online(), list(player_ids))
        return [p for p, s in zip(player_ids, scores, strict=True) if s is not None and s > cutoff_ms]
