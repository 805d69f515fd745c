"""Rooms in Redis: one hash per room (version + JSON), saved by one compare-and-set script.

The script checks the version, claims the ``busy`` key of every player who sits down (a
player waits in at most one room or queue), frees those who leave, keeps the open-rooms
index and the invite code in step, and appends to the room's feed, all atomically. A lost
race re-reads and re-applies the pure operation; a refused one changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from services.lobby.adapters import keys
from services.lobby.adapters.feeds import Feed
from services.lobby.domain.rooms import BotLevel, Room, RoomStatus, RoomVisibility, Seat
from shared.serving.errors import Conflict, NotFound
from shared.store.redis_store import RedisClient

T = TypeVar("T")
RETRIES = 100

# KEYS: room hash, room feed, open-rooms zset, invite key, busy keys of added then removed players.
# ARGV: expected version, new JSON, listed (1/0), room id, busy mark, #added, #removed, ttl,
#       invite action (set/del/keep), listing score.
# Returns {1, version}, {-1, current version}, {-2, index of a busy player}, {-3, 0} (invite taken).
ROOM_CAS_LUA = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if cur ~= tonumber(ARGV[1]) then return {-1, cur} end
local nadd, ndel, mark, ttl = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[5], tonumber(ARGV[8])
for i = 1, nadd do
  local b = redis.call('GET', KEYS[4 + i])
  if b and b ~= mark then return {-2, i} end
end
if ARGV[9] == 'set' and redis.call('EXISTS', KEYS[4]) == 1 then return {-3, 0} end
local new = cur + 1
redis.call('HSET', KEYS[1], 'version', new, 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], ttl)
for i = 1, nadd do redis.call('SET', KEYS[4 + i], mark, 'EX', ttl) end
for i = 1, ndel do
  local k = KEYS[4 + nadd + i]
  if redis.call('GET', k) == mark then redis.call('DEL', k) end
end
if ARGV[3] == '1' then redis.call('ZADD', KEYS[3], ARGV[10], ARGV[4])
else redis.call('ZREM', KEYS[3], ARGV[4]) end
if ARGV[9] == 'set' then redis.call('SET', KEYS[4], ARGV[4], 'EX', ttl)
elseif ARGV[9] == 'del' then redis.call('DEL', KEYS[4]) end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 100, '*', 'version', new)
redis.call('EXPIRE', KEYS[2], ttl)
return {1, new}
"""

_ENDED = (RoomStatus.STARTED, RoomStatus.CLOSED)


def room_to_json(room: Room) -> str:
    seats = [
        {"p": s.player_id, "n": s.name, "b": s.bot.value if s.bot else "", "r": s.ready} for s in room.seats
    ]
    return json.dumps(
        {
            "id": room.room_id,
            "game": room.game,
            "host": room.host,
            "seats": seats,
            "options": dict(room.options),
            "turn": room.turn_seconds,
            "vis": room.visibility.value,
            "code": room.invite_code,
            "status": room.status.value,
            "match": room.match_id,
            "version": room.version,
            "created": room.created_ms,
            "starting": room.starting_ms,
            "chat": room.spectators_read_chat,
        },
        separators=(",", ":"),
    )


def room_from_json(text: bytes | str) -> Room:
    raw: dict[str, Any] = json.loads(text)
    seats = tuple(Seat(s["p"], s["n"], BotLevel(s["b"]) if s["b"] else None, s["r"]) for s in raw["seats"])
    return Room(
        raw["id"],
        raw["game"],
        raw["host"],
        seats,
        tuple(sorted(raw["options"].items())),
        raw["turn"],
        RoomVisibility(raw["vis"]),
        raw["code"],
        RoomStatus(raw["status"]),
        raw["match"],
        raw["version"],
        raw["created"],
        raw["starting"],
        raw.get("chat", False),
    )


class RoomRepository:
    def __init__(self, client: RedisClient, ttl_s: int = keys.TTL_S) -> None:
        self.client = client
        self.ttl_s = ttl_s
        self._cas = client.register_script(ROOM_CAS_LUA)

    # ------------------------------------------------------------ reads
    def get(self, room_id: str) -> Room:
        data = self.client.hget(keys.room(room_id), "data")
        if data is None:
            raise NotFound("no room {room_id!r}", room_id=room_id)
        return room_from_json(data)

    def by_invite(self, code: str) -> Room:
        room_id = self.client.get(keys.invite(code))
        if room_id is None:
            raise NotFound("no open room has the invite code {invite_code}", invite_code=code)
        return self.get(keys.text(room_id))

    def list_open(self, game: str, limit: int) -> list[Room]:
        ids = self.client.zrange(keys.open_rooms(game), 0, limit - 1)
        pipe = self.client.pipeline(transaction=False)
        for room_id in ids:
            pipe.hget(keys.room(keys.text(room_id)), "data")
        blobs = pipe.execute() if ids else []
        return [r for r in (room_from_json(b) for b in blobs if b) if r.is_listed]

    def busy_with(self, player_id: str) -> tuple[str, str] | None:
        """What the player waits in: ``("room", id)`` or ``("ticket", id)``, else None."""
        mark = self.client.get(keys.busy(player_id))
        if mark is None:
            return None
        kind, _, found = keys.text(mark).partition(":")
        return (kind, found) if found else None

    def watch(self, room_id: str, block_ms: int) -> Iterator[bool]:
        """True after each change of the room, False after ``block_ms`` without one."""
        return Feed(self.client, keys.room_feed(room_id)).follow(block_ms)

    # ------------------------------------------------------------ writes
    def create(self, room: Room) -> Room:
        invite = "set" if room.visibility is RoomVisibility.PRIVATE else "keep"
        try:
            return self._save(None, room, invite)
        except _Stale as err:
            raise Conflict("room_exists", "room {room_id} already exists", room_id=room.room_id) from err

    def update(self, room_id: str, change: Callable[[Room], tuple[Room, T]]) -> tuple[Room, T]:
        """Apply a pure change with compare-and-set, re-reading after a lost race."""
        for _ in range(RETRIES):
            room = self.get(room_id)
            new, out = change(room)
            if new == room:
                return room, out
            saved = self._try_save(room, new)
            if saved is not None:
                return saved, out
        raise Conflict("busy_room", "room {room_id} is changing too fast; try again", room_id=room_id)

    def _try_save(self, old: Room, new: Room) -> Room | None:
        ended = new.status in _ENDED and old.status not in _ENDED
        invite = "del" if ended and new.visibility is RoomVisibility.PRIVATE else "keep"
        try:
            return self._save(old, new, invite)
        except _Stale:
            return None

    def _save(self, old: Room | None, new: Room, invite: str) -> Room:
        before = set(old.humans) if old else set()
        after = set() if new.status in _ENDED else set(new.humans)
        added, removed = sorted(after - before), sorted(before - after)
        expected = old.version if old else 0
        new = _with_version(new, expected + 1)
        key_list = [
            keys.room(new.room_id),
            keys.room_feed(new.room_id),
            keys.open_rooms(new.game),
            keys.invite(new.invite_code or "-"),
            *map(keys.busy, added),
            *map(keys.busy, removed),
        ]
        args: list[str | int] = [
            expected,
            room_to_json(new),
            int(new.is_listed),
            new.room_id,
            f"room:{new.room_id}",
            len(added),
            len(removed),
            self.ttl_s,
            invite,
            new.created_ms,
        ]
        status, detail = self._cas(keys=key_list, args=args)
        if status == -1:
            raise _Stale()
        if status == -2:
            raise Conflict(
                "busy", "player {player} is already in a room or a queue", player=added[int(detail) - 1]
            )
        if status == -3:
            raise Conflict("invite_taken", "that invite code is in use")
        return new


class _Stale(Exception):
    """Another writer changed the room first."""


def _with_version(room: Room, version: int) -> Room:
    return replace(room, version=version)
