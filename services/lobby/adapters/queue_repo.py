"""Matchmaking tickets in Redis: a hash per ticket, a sorted set per game of waiting tickets.

Every state change is one Lua script, so a ticket moves waiting -> claimed -> matched (or
waiting -> cancelled) exactly once even with several lobby instances: a claim succeeds only
if every ticket of the group is still waiting, which is why no player is matched twice.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from services.lobby.adapters import keys
from services.lobby.adapters.feeds import Feed
from services.lobby.domain.matchmaking import Ticket, TicketStatus
from services.lobby.domain.rooms import BotLevel
from shared.serving.errors import Conflict, NotFound, PermissionDenied
from shared.store.redis_store import RedisClient

# KEYS: busy, ticket, queue, feed. ARGV: busy mark, ticket id, score, ttl, field pairs...
ENQUEUE_LUA = """
local held = redis.call('GET', KEYS[1])
if held then return {0, held} end
local ttl = tonumber(ARGV[4])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
redis.call('HSET', KEYS[2], unpack(ARGV, 5))
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', 20, '*', 'status', 'waiting')
redis.call('EXPIRE', KEYS[4], ttl)
return {1, ''}
"""

# KEYS: ticket, queue, busy, feed. ARGV: ticket id, player, busy mark.
CANCEL_LUA = """
local owner = redis.call('HGET', KEYS[1], 'player')
if not owner then return {-1, ''} end
if owner ~= ARGV[2] then return {-2, ''} end
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'waiting' then return {-3, status} end
redis.call('HSET', KEYS[1], 'status', 'cancelled')
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('GET', KEYS[3]) == ARGV[3] then redis.call('DEL', KEYS[3]) end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', 20, '*', 'status', 'cancelled')
return {1, ''}
"""

# KEYS: queue, claimed zset, n tickets, n feeds. ARGV: match id, now ms, n ticket ids.
CLAIM_LUA = """
local n = (#KEYS - 2) / 2
for i = 1, n do
  if redis.call('HGET', KEYS[2 + i], 'status') ~= 'waiting' then return 0 end
end
for i = 1, n do
  redis.call('HSET', KEYS[2 + i], 'status', 'claimed', 'match', ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[2 + i])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[2 + i])
  redis.call('XADD', KEYS[2 + n + i], 'MAXLEN', '~', 20, '*', 'status', 'claimed')
end
return 1
"""

# KEYS: queue, claimed zset, n tickets, n feeds. ARGV: match id, n ticket ids, n queue scores.
RELEASE_LUA = """
local n = (#KEYS - 2) / 2
for i = 1, n do
  local t = KEYS[2 + i]
  if redis.call('HGET', t, 'status') == 'claimed' and redis.call('HGET', t, 'match') == ARGV[1] then
    redis.call('HSET', t, 'status', 'waiting', 'match', '')
    redis.call('ZREM', KEYS[2], ARGV[1 + i])
    redis.call('ZADD', KEYS[1], ARGV[1 + n + i], ARGV[1 + i])
    redis.call('XADD', KEYS[2 + n + i], 'MAXLEN', '~', 20, '*', 'status', 'waiting')
  end
end
return 1
"""

# KEYS: claimed zset, n tickets, n feeds, n busy keys. ARGV: match id, n seats, n busy marks, n ticket ids.
COMPLETE_LUA = """
local n = (#KEYS - 1) / 3
for i = 1, n do
  local t = KEYS[1 + i]
  if redis.call('HGET', t, 'status') == 'claimed' and redis.call('HGET', t, 'match') == ARGV[1] then
    redis.call('HSET', t, 'status', 'matched', 'seat', ARGV[1 + i])
    redis.call('ZREM', KEYS[1], ARGV[1 + 2 * n + i])
    redis.call('XADD', KEYS[1 + n + i], 'MAXLEN', '~', 20, '*', 'status', 'matched')
    local busy = KEYS[1 + 2 * n + i]
    if redis.call('GET', busy) == ARGV[1 + n + i] then redis.call('DEL', busy) end
  end
end
return 1
"""

# KEYS: lock. ARGV: owner token.
UNLOCK_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _fields(t: Ticket) -> dict[str, str]:
    return {
        "player": t.player_id,
        "game": t.game,
        "rating": repr(t.rating),
        "counts": ",".join(map(str, t.counts)),
        "enqueued": str(t.enqueued_ms),
        "fill": str(t.bot_fill_after_s),
        "bot": t.bot_level.value,
        "options": json.dumps(dict(t.options), sort_keys=True),
        "turn": str(t.turn_seconds),
        "status": t.status.value,
        "match": t.match_id,
        "seat": str(t.seat),
    }


def _ticket(ticket_id: str, raw: Mapping[Any, Any]) -> Ticket:
    f = {keys.text(k): keys.text(v) for k, v in raw.items()}
    return Ticket(
        ticket_id,
        f["player"],
        f["game"],
        float(f["rating"]),
        tuple(int(c) for c in f["counts"].split(",")),
        int(f["enqueued"]),
        int(f["fill"]),
        BotLevel(f["bot"]),
        tuple(sorted(json.loads(f["options"]).items())),
        int(f["turn"]),
        TicketStatus(f["status"]),
        f["match"],
        int(f["seat"]),
    )


def _mark(ticket_id: str) -> str:
    return f"ticket:{ticket_id}"


class QueueRepository:
    def __init__(self, client: RedisClient, ttl_s: int = keys.TTL_S) -> None:
        self.client, self.ttl_s = client, ttl_s
        self._enqueue = client.register_script(ENQUEUE_LUA)
        self._cancel = client.register_script(CANCEL_LUA)
        self._claim = client.register_script(CLAIM_LUA)
        self._complete = client.register_script(COMPLETE_LUA)
        self._release = client.register_script(RELEASE_LUA)
        self._unlock = client.register_script(UNLOCK_LUA)

    # ------------------------------------------------------------ one ticket
    def add(self, ticket: Ticket) -> None:
        tid = ticket.ticket_id
        pairs = [v for item in _fields(ticket).items() for v in item]
        key_list = [
            keys.busy(ticket.player_id),
            keys.ticket(tid),
            keys.queue(ticket.game),
            keys.ticket_feed(tid),
        ]
        status, held = self._enqueue(
            keys=key_list, args=[_mark(tid), tid, ticket.enqueued_ms, self.ttl_s, *pairs]
        )
        if status == 0:
            where = keys.text(held).partition(":")[0]
            raise Conflict(
                "busy", "you are already in a {what}", what="queue" if where == "ticket" else where
            )

    def get(self, ticket_id: str) -> Ticket:
        raw = self.client.hgetall(keys.ticket(ticket_id))
        if not raw:
            raise NotFound("no ticket {ticket_id!r}", ticket_id=ticket_id)
        return _ticket(ticket_id, raw)

    def cancel(self, ticket_id: str, player_id: str) -> None:
        ticket = self.get(ticket_id)
        key_list = [
            keys.ticket(ticket_id),
            keys.queue(ticket.game),
            keys.busy(player_id),
            keys.ticket_feed(ticket_id),
        ]
        status, detail = self._cancel(keys=key_list, args=[ticket_id, player_id, _mark(ticket_id)])
        if status == -1:
            raise NotFound("no ticket {ticket_id!r}", ticket_id=ticket_id)
        if status == -2:
            raise PermissionDenied("this ticket belongs to another player")
        if status == -3:
            state = keys.text(detail)
            reason = "already_cancelled" if state == TicketStatus.CANCELLED else "already_matched"
            raise Conflict(
                reason, "the ticket is {state}; only a waiting ticket can be cancelled", state=state
            )

    def watch(self, ticket_id: str, block_ms: int) -> Iterator[bool]:
        return Feed(self.client, keys.ticket_feed(ticket_id)).follow(block_ms)

    # ------------------------------------------------------------ the matcher
    def waiting(self, game: str) -> list[Ticket]:
        ids = [keys.text(i) for i in self.client.zrange(keys.queue(game), 0, -1)]
        pipe = self.client.pipeline(transaction=False)
        for tid in ids:
            pipe.hgetall(keys.ticket(tid))
        raws: list[Any] = pipe.execute() if ids else []
        found = [_ticket(tid, raw) for tid, raw in zip(ids, raws, strict=True) if raw]
        return [t for t in found if t.status is TicketStatus.WAITING]

    def claim(self, tickets: Sequence[Ticket], match_id: str, now_ms: int) -> bool:
        """Atomically take every ticket of a group, or none if any is no longer waiting."""
        ids = [t.ticket_id for t in tickets]
        game = tickets[0].game
        key_list = [keys.queue(game), keys.claimed(game), *map(keys.ticket, ids), *map(keys.ticket_feed, ids)]
        return bool(self._claim(keys=key_list, args=[match_id, now_ms, *ids]))

    def release(self, tickets: Sequence[Ticket], match_id: str) -> None:
        """A claimed group whose match could not be created waits again, in its old place."""
        ids = [t.ticket_id for t in tickets]
        game = tickets[0].game
        key_list = [keys.queue(game), keys.claimed(game), *map(keys.ticket, ids), *map(keys.ticket_feed, ids)]
        self._release(keys=key_list, args=[match_id, *ids, *(t.enqueued_ms for t in tickets)])

    def complete(self, tickets: Sequence[Ticket], match_id: str, seats: Sequence[int] = ()) -> None:
        """Seat ``seats[i]`` (default i) goes to tickets[i]; their players are free to queue again."""
        ids = [t.ticket_id for t in tickets]
        busy = [keys.busy(t.player_id) for t in tickets]
        key_list = [keys.claimed(tickets[0].game), *map(keys.ticket, ids), *map(keys.ticket_feed, ids), *busy]
        self._complete(keys=key_list, args=[match_id, *(seats or range(len(ids))), *map(_mark, ids), *ids])

    def stale_claims(self, game: str, before_ms: int) -> dict[str, list[Ticket]]:
        """Claimed tickets older than ``before_ms`` (their matcher died), by match id."""
        ids = [keys.text(i) for i in self.client.zrangebyscore(keys.claimed(game), 0, before_ms)]
        groups: dict[str, list[Ticket]] = {}
        for tid in ids:
            try:
                ticket = self.get(tid)
            except NotFound:
                self.client.zrem(keys.claimed(game), tid)  # expired: nothing left to recover
                continue
            if ticket.status is TicketStatus.CLAIMED:
                groups.setdefault(ticket.match_id, []).append(ticket)
        return groups

    def lock(self, game: str, ttl_ms: int) -> str | None:
        token = secrets.token_hex(8)
        return token if self.client.set(keys.queue_lock(game), token, nx=True, px=ttl_ms) else None

    def unlock(self, game: str, token: str) -> None:
        self._unlock(keys=[keys.queue_lock(game)], args=[token])
