"""Redis Streams event store (ARCHITECTURE: Redis layout). Works on one server and on Cluster.

All keys of a match share the hash tag of its shard, ``{sNN}``, with the shard's outbox,
so the append script touches one slot. Stream entry ids are ``0-<version>``: a read from
version V is ``XRANGE 0-V +`` and the id itself proves the versions are dense.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any

import redis
import redis.asyncio
import redis.asyncio.cluster
import redis.cluster

from shared.core.records import builder
from shared.store.base import (
    DEFAULT_SHARDS,
    AppendResult,
    Delivered,
    NewEvent,
    OutboxNotice,
    Progress,
    Snapshot,
    StoredEvent,
    TurnClock,
    VersionConflict,
    check_append,
    entry_after,
    entry_key,
    shard_of,
)
from shared.store.cluster_client import AsyncCluster
from shared.store.resp import script_on

# KEYS: events stream, meta hash, command-id hash, outbox stream, active-match index (sorted set),
#       finished-match index (sorted set).
# ARGV: match id, expected version, command id, event count, meta pair count, progress pair count,
#       the time (ms, the writer's clock), quiet ("1": no notice), was (the seats that could act before,
#       "0,2"; "-": not known), meta pairs..., progress pairs..., then per event: type, payload,
#       visibility, actor, schema version.
# The command id is looked up only when the version differs (a retry after its append moved the
# version on); at the expected version HSETNX records it and refuses an id recorded before (a retry
# sent again with the newer version), so an ordinary append runs HMGET, HSETNX, one XADD per event
# and HSET. Progress pairs (to_act, system, status, outcome, held) go both into the meta and into the
# notice; the notice also names the first event's actor ('by': who made the append, e.g. seat:0 or
# bot:1:random) and, when known, 'was'. A quiet append (no follower acts on it) writes no notice
# and leaves the indexes. Otherwise the status keeps the shard's active-match index: active ->
# score = the time, finished -> removed and added to the finished index, score = the ms part of the
# finishing notice's id (the archiver compares it with what every outbox group has acknowledged).
# Returns {0, "first:last"} for a known command id, {-1, "current"} on conflict, {1, "first:last"}.
APPEND_LUA = """
local head = redis.call('HMGET', KEYS[2], 'version', 'game')
local cur = tonumber(head[1] or '0')
if cur ~= tonumber(ARGV[2]) then
  local prev = redis.call('HGET', KEYS[3], ARGV[3])
  if prev then return {0, prev} end
  return {-1, tostring(cur)}
end
local n, nmeta, nprog, now, i = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7], 10
local last = cur + n
local result = (cur + 1) .. ':' .. last
if redis.call('HSETNX', KEYS[3], ARGV[3], result) == 0 then
  return {0, redis.call('HGET', KEYS[3], ARGV[3])}
end
local meta = {}
for m = 1, nmeta * 2 do meta[m] = ARGV[i]; i = i + 1 end
local progress = {}
for m = 1, nprog * 2 do
  progress[m] = ARGV[i]
  meta[#meta + 1] = ARGV[i]
  i = i + 1
end
local types, by = {}, ''
for k = 1, n do
  redis.call('XADD', KEYS[1], '0-' .. (cur + k), 'type', ARGV[i], 'payload', ARGV[i + 1],
    'vis', ARGV[i + 2], 'cmd', ARGV[3], 'actor', ARGV[i + 3], 'schema', ARGV[i + 4], 'time', now)
  types[k] = ARGV[i]
  if k == 1 then by = ARGV[i + 3] end
  i = i + 5
end
meta[#meta + 1] = 'version'
meta[#meta + 1] = tostring(last)
redis.call('HSET', KEYS[2], unpack(meta))
if ARGV[8] == '1' then return {1, result} end
local game = head[2]
for m = 1, nmeta * 2, 2 do
  if meta[m] == 'game' then game = meta[m + 1] end
end
local fields = {'match', ARGV[1], 'first', cur + 1, 'last', last, 'types', table.concat(types, ','),
  'game', game or '', 'by', by}
if ARGV[9] ~= '-' then fields[#fields + 1] = 'was'; fields[#fields + 1] = ARGV[9] end
for m = 1, #progress do fields[#fields + 1] = progress[m] end
local notice = redis.call('XADD', KEYS[4], '*', unpack(fields))
for m = 1, #progress, 2 do
  if progress[m] == 'status' and progress[m + 1] == 'active' then redis.call('ZADD', KEYS[5], now, ARGV[1])
  elseif progress[m] == 'status' then
    redis.call('ZREM', KEYS[5], ARGV[1])
    redis.call('ZADD', KEYS[6], string.match(notice, '^%d+'), ARGV[1])
  end
end
return {1, result}
"""

# KEYS: meta, events. ARGV: the first entry id wanted. The meta and the events from there, in one step.
META_AND_TAIL_LUA = """
return {redis.call('HGETALL', KEYS[1]), redis.call('XRANGE', KEYS[2], ARGV[1], '+')}
"""

# One key each (the reads and the small writes): run as scripts so that every client, one server's or
# a cluster's, hands back the reply as Redis sent it (parsed once, here).
HGETALL_LUA = "return redis.call('HGETALL', KEYS[1])"
HGET_LUA = "return redis.call('HGET', KEYS[1], ARGV[1])"
HSET_LUA = "return redis.call('HSET', KEYS[1], unpack(ARGV))"
HSET_EXISTING_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""
GET_LUA = "return redis.call('GET', KEYS[1])"
SET_LUA = "return redis.call('SET', KEYS[1], ARGV[1])"
XRANGE_LUA = "return redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[2], 'COUNT', ARGV[3])"
SCORED_LUA = (
    "return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', ARGV[2], ARGV[3])"
)
ALL = 2**62  # an XRANGE count that is no limit

# KEYS: events, meta, cmds, snap, active index, finished index. ARGV: match id, archived version.
# Deletes only a finished match still at the archived version; returns 1 if deleted, else 0.
DELETE_LUA = """
local meta = redis.call('HMGET', KEYS[2], 'status', 'version')
if meta[1] ~= 'finished' or meta[2] ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('ZREM', KEYS[6], ARGV[1])
return 1
"""

RedisClient = redis.Redis | redis.cluster.RedisCluster
AsyncRedisClient = redis.asyncio.Redis | redis.asyncio.cluster.RedisCluster
READ_COUNT = 500  # entries per stream in one XREAD
# redis-py's stubs type replies as "bytes | str | Any | None" whatever the client's decoding;
# this adapter always uses a bytes client, so replies are handled as Any.


def _range(text: bytes | str) -> AppendResult:
    first, last = (text.decode() if isinstance(text, bytes) else text).split(":")
    return AppendResult(int(first), int(last))


def _appended(match_id: str, expected_version: int, reply: list[Any]) -> AppendResult:
    """The append script's reply: the versions written, or the first result of a known command id."""
    status, detail = reply
    if status == -1:
        raise VersionConflict(match_id, expected_version, int(detail))
    result = _range(detail)
    return AppendResult(result.first_version, result.last_version, duplicate=status == 0)


_stored_event = builder(StoredEvent)  # half the time of its frozen __init__, for every event read


# The fields of an event entry in the order APPEND_LUA writes them: an entry read as this flat list is
# built by position; any other layout (written by an older script, say) by name.
_LAYOUT = [b"type", b"payload", b"vis", b"cmd", b"actor", b"schema", b"time"]


def _events(entries: list[list[Any]]) -> list[StoredEvent]:
    """StoredEvents from an unparsed ``XRANGE`` reply: ``[id, [field, value, ...]]`` per entry. Skips
    redis-py's reply parsing (a dict per entry) for about a third of a read's time."""
    out = []
    for entry_id, flat in entries:
        if flat[0::2] == _LAYOUT:
            kind, payload, vis, cmd, actor, schema, ms = flat[1::2]
            version = int(entry_id.split(b"-")[1])
            out.append(
                _stored_event(
                    version,
                    kind.decode(),
                    payload,
                    vis.decode(),
                    cmd.decode(),
                    actor.decode(),
                    int(ms),
                    int(schema),
                )
            )
        else:
            out.append(_event(entry_id, dict(zip(flat[0::2], flat[1::2], strict=True))))
    return out


def _event(entry_id: bytes, f: dict[bytes, bytes]) -> StoredEvent:
    return _stored_event(
        int(entry_id.split(b"-")[1]),  # version
        f[b"type"].decode(),
        f[b"payload"],
        f[b"vis"].decode(),  # visibility
        f[b"cmd"].decode(),  # command_id
        f[b"actor"].decode(),
        int(f[b"time"]),  # server_time_ms
        int(f[b"schema"]),  # schema_version
    )


def _text_map(raw: Mapping[bytes, bytes]) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in raw.items()}


def _flat_map(flat: Sequence[bytes]) -> dict[str, str]:
    """An ``HGETALL`` reply as Redis sent it (field, value, ...)."""
    return {flat[i].decode(): flat[i + 1].decode() for i in range(0, len(flat), 2)}


def async_twin(client: RedisClient) -> AsyncRedisClient:
    """A ``redis.asyncio`` client of the same server or cluster as ``client`` (bytes out)."""
    if isinstance(client, redis.Redis):
        kwargs = client.connection_pool.connection_kwargs
        wanted = ("host", "port", "db", "username", "password", "socket_timeout", "socket_connect_timeout")
        return redis.asyncio.Redis(**{k: kwargs[k] for k in wanted if k in kwargs})
    nodes = [redis.asyncio.cluster.ClusterNode(node.host, node.port) for node in client.get_nodes()]  # type: ignore[no-untyped-call]
    return AsyncCluster(startup_nodes=nodes, socket_timeout=30)


class RedisEventStore:
    """The production store. ``client`` must not decode responses (payloads are bytes); the outbox
    groups and the turn clocks (``outbox_groups``, ``clocks``) use it directly.

    The store's own operations run on ``async_client`` (a ``redis.asyncio`` client of the same
    server or cluster, bytes too; default: one made like ``client``), each one script: on one
    server over TCP every call of an event loop shares one pipelined connection
    (``shared.store.resp``)."""

    def __init__(
        self, client: RedisClient, shards: int = DEFAULT_SHARDS, async_client: AsyncRedisClient | None = None
    ) -> None:
        self.client: Any = client
        self.shards = shards
        self.async_client = async_client if async_client is not None else async_twin(client)
        on = self.async_client
        self._append = script_on(on, APPEND_LUA)
        self._tail = script_on(on, META_AND_TAIL_LUA)
        self._delete = script_on(on, DELETE_LUA)
        self._hgetall, self._hget, self._hset = (
            script_on(on, HGETALL_LUA),
            script_on(on, HGET_LUA),
            script_on(on, HSET_LUA),
        )
        self._hset_existing = script_on(on, HSET_EXISTING_LUA)
        self._get, self._set = script_on(on, GET_LUA), script_on(on, SET_LUA)
        self._xrange, self._scored = script_on(on, XRANGE_LUA), script_on(on, SCORED_LUA)

    def _key(self, match_id: str, part: str) -> str:
        return f"{{s{shard_of(match_id, self.shards):02d}}}:match:{match_id}:{part}"

    def outbox_key(self, shard: int) -> str:
        return f"{{s{shard:02d}}}:outbox"

    def active_key(self, shard: int) -> str:
        return f"{{s{shard:02d}}}:active"

    def finished_key(self, shard: int) -> str:
        return f"{{s{shard:02d}}}:finished"

    def clocks_key(self, shard: int) -> str:
        return f"{{s{shard:02d}}}:clocks"

    async def append(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str,
        meta: Mapping[str, str] | None = None,
        progress: Progress | None = None,
        quiet: bool = False,
        was: Sequence[int] | None = None,
    ) -> AppendResult:
        keys, args = self._append_call(
            match_id, expected_version, events, command_id, meta, progress, quiet, was
        )
        return _appended(match_id, expected_version, await self._append(keys=keys, args=args))

    def _append_call(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str,
        meta: Mapping[str, str] | None,
        progress: Progress | None,
        quiet: bool = False,
        was: Sequence[int] | None = None,
    ) -> tuple[list[str], list[Any]]:
        """The append script's keys and arguments (see APPEND_LUA)."""
        check_append(match_id, expected_version, events, command_id)
        meta = dict(meta or {})
        facts = progress.fields() if progress is not None else {}
        now_ms = time.time_ns() // 1_000_000
        seats = "-" if was is None else ",".join(map(str, was))
        counts = [len(events), len(meta), len(facts), now_ms, "1" if quiet else "0", seats]
        args: list[Any] = [match_id, expected_version, command_id, *counts]
        for key, value in [*meta.items(), *facts.items()]:
            args += [key, value]
        for e in events:
            args += [e.type, e.payload, e.visibility, e.actor, e.schema_version]
        keys = [self._key(match_id, "events"), self._key(match_id, "meta"), self._key(match_id, "cmds")]
        keys.append(self.outbox_key(shard_of(match_id, self.shards)))
        keys.append(self.active_key(shard_of(match_id, self.shards)))
        keys.append(self.finished_key(shard_of(match_id, self.shards)))
        return keys, args

    async def command_result(self, match_id: str, command_id: str) -> AppendResult | None:
        raw = await self._hget(keys=[self._key(match_id, "cmds")], args=[command_id])
        if raw is None:
            return None
        result = _range(raw)
        return AppendResult(result.first_version, result.last_version, duplicate=True)

    async def version(self, match_id: str) -> int:
        raw = await self._hget(keys=[self._key(match_id, "meta")], args=["version"])
        return int(raw) if raw is not None else 0

    async def read(
        self, match_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        end = "+" if to_version is None else f"0-{to_version}"
        args = [f"0-{max(from_version, 1)}", end, ALL]
        return _events(await self._xrange(keys=[self._key(match_id, "events")], args=args))

    def stream_reader(self, connections: int) -> RedisStreamReader:
        """An asynchronous reader of the event streams over a ``redis.asyncio`` pool of at most
        ``connections`` to the same server or cluster as this store's client (per node on a
        cluster; the servers build theirs from the settings, ``shared.store.clients``)."""
        if not isinstance(self.client, redis.Redis):
            nodes = [redis.asyncio.cluster.ClusterNode(n.host, n.port) for n in self.client.get_nodes()]
            return RedisStreamReader(AsyncCluster(startup_nodes=nodes, max_connections=connections), self)
        kwargs = self.client.connection_pool.connection_kwargs
        wanted = ("host", "port", "db", "username", "password", "socket_timeout", "socket_connect_timeout")
        pool = redis.asyncio.BlockingConnectionPool(
            max_connections=connections, timeout=None, **{k: kwargs[k] for k in wanted if k in kwargs}
        )
        return RedisStreamReader(redis.asyncio.Redis(connection_pool=pool), self)

    def outbox_groups(self) -> RedisOutboxGroups:
        return RedisOutboxGroups(self)

    def clocks(self) -> RedisTurnClocks:
        return RedisTurnClocks(self)

    async def get_meta(self, match_id: str) -> dict[str, str]:
        return _flat_map(await self._hgetall(keys=[self._key(match_id, "meta")]))

    async def get_metas(self, match_ids: Sequence[str]) -> list[dict[str, str]]:
        """The metas of ``match_ids``, in order (``{}`` for an unknown match), asked for together: on
        one server they go out in one write over the pipelined connection."""
        return list(await asyncio.gather(*(self.get_meta(match_id) for match_id in match_ids)))

    async def meta_and_tail(
        self, match_id: str, after_version: int
    ) -> tuple[dict[str, str], list[StoredEvent]]:
        """One script (META_AND_TAIL_LUA): the meta and the tail read in one step."""
        keys = [self._key(match_id, "meta"), self._key(match_id, "events")]
        flat, entries = await self._tail(keys=keys, args=[f"0-{after_version + 1}"])
        return _flat_map(flat), _events(entries)

    async def set_meta(self, match_id: str, fields: Mapping[str, str]) -> None:
        if fields:
            await self._hset(
                keys=[self._key(match_id, "meta")], args=[x for kv in fields.items() for x in kv]
            )

    async def update_meta(self, match_id: str, fields: Mapping[str, str]) -> bool:
        if not fields:
            return bool(await self.get_meta(match_id))
        args = [x for kv in fields.items() for x in kv]
        return bool(await self._hset_existing(keys=[self._key(match_id, "meta")], args=args))

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        await self._set(keys=[self._key(match_id, "snap")], args=[b"%d:" % snapshot.version + snapshot.data])

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        raw = await self._get(keys=[self._key(match_id, "snap")])
        if raw is None:
            return None
        version, _, data = raw.partition(b":")
        return Snapshot(int(version), data)

    async def _scored_members(self, key: str, until_ms: int | None) -> list[tuple[str, int]]:
        """A sorted set's members scored at most ``until_ms`` (all: None), lowest first, by pages."""
        last, found = "+inf" if until_ms is None else str(until_ms), list[tuple[str, int]]()
        while page := await self._scored(keys=[key], args=[last, len(found), 1000]):
            found += [(page[i].decode(), int(float(page[i + 1]))) for i in range(0, len(page), 2)]
        return found

    async def active_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]:
        return await self._scored_members(self.active_key(shard), until_ms)

    async def finished_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]:
        """The shard's finished matches in Redis, with the ms of their finishing notice, oldest first."""
        return await self._scored_members(self.finished_key(shard), until_ms)

    def index_finished(self, match_id: str) -> bool:
        """Add a finished match missing from the finished index (one that ended before the index
        existed), scored with its last event's server time; True if it was added. (A one-off repair
        of ``tabula archive``, on the synchronous client.)"""
        if self.client.hget(self._key(match_id, "meta"), "status") != b"finished":
            return False
        last = self.client.xrevrange(self._key(match_id, "events"), count=1)
        ended_ms = int(last[0][1][b"time"]) if last else 0
        key = self.finished_key(shard_of(match_id, self.shards))
        return bool(self.client.zadd(key, {match_id: ended_ms}, nx=True))

    async def delete_match(self, match_id: str, version: int) -> bool:
        """Remove an archived match: events, meta, command ids, snapshot and its index entries.

        Only a finished match still at ``version`` (the one archived) is removed, in one script;
        False (nothing removed) otherwise.
        """
        shard = shard_of(match_id, self.shards)
        keys = [self._key(match_id, part) for part in ("events", "meta", "cmds", "snap")]
        keys += [self.active_key(shard), self.finished_key(shard)]
        return bool(await self._delete(keys=keys, args=[match_id, version]))

    async def read_outbox(self, shard: int, after: str = "0-0", count: int = 100) -> list[OutboxNotice]:
        start = f"({after}" if after != "0-0" else "-"
        entries = await self._xrange(keys=[self.outbox_key(shard)], args=[start, "+", count])
        return [notice_from_entry(i, dict(zip(f[0::2], f[1::2], strict=True))) for i, f in entries]


class RedisStreamReader:
    """The watch hub's reader (``shared.serving.watch.StreamReader``) of a :class:`RedisEventStore`'s
    streams, on a ``redis.asyncio`` client: one ``XREAD`` reads many matches of one shard."""

    def __init__(self, client: AsyncRedisClient, store: RedisEventStore) -> None:
        self.client: Any = client
        self.store = store

    def group(self, match_id: str) -> int:
        return shard_of(match_id, self.store.shards)

    async def version(self, match_id: str) -> int:
        raw = await self.client.hget(self.store._key(match_id, "meta"), "version")
        return int(raw) if raw is not None else 0

    async def read(self, match_id: str, from_version: int, to_version: int) -> list[StoredEvent]:
        key = self.store._key(match_id, "events")
        entries = await self.client.xrange(key, f"0-{max(from_version, 1)}", f"0-{to_version}")
        return [_event(entry_id, fields) for entry_id, fields in entries]

    async def read_new(self, after: Mapping[str, int], block_ms: int) -> dict[str, list[StoredEvent]]:
        keys = {self.store._key(match_id, "events"): match_id for match_id in after}
        streams = {key: f"0-{after[match_id]}" for key, match_id in keys.items()}
        reply = await self.client.xread(streams, block=block_ms, count=READ_COUNT)
        found: dict[str, list[StoredEvent]] = {}
        for key, entries in reply or []:
            match_id = keys[key.decode() if isinstance(key, bytes) else key]
            found[match_id] = [_event(entry_id, fields) for entry_id, fields in entries]
        return found


def notice_from_entry(entry_id: bytes | str, f: Mapping[bytes, bytes]) -> OutboxNotice:
    text = _text_map(f)
    types = text["types"]
    return OutboxNotice(
        entry_id=entry_id.decode() if isinstance(entry_id, bytes) else entry_id,
        match_id=text["match"],
        first_version=int(text["first"]),
        last_version=int(text["last"]),
        types=tuple(types.split(",")) if types else (),
        game=text["game"],
        progress=Progress.parse(text),
        actor=text.get("by", ""),
        was=tuple(int(seat) for seat in text["was"].split(",") if seat) if "was" in text else None,
    )


class RedisOutboxGroups:
    """:class:`~shared.store.OutboxGroups` on Redis Streams consumer groups, on the store's synchronous
    client. On a single Redis one ``XREADGROUP BLOCK`` covers all shards; on Redis Cluster the
    shards live in different slots, so it reads shard by shard and sleeps when idle."""

    def __init__(self, store: RedisEventStore) -> None:
        self.client: Any = store.client
        self.key = store.outbox_key

    def create_group(self, shard: int, group: str) -> None:
        try:
            self.client.xgroup_create(self.key(shard), group, id="0", mkstream=True)
        except redis.ResponseError as err:
            if "BUSYGROUP" not in str(err):
                raise

    def read_group(
        self, group: str, consumer: str, starts: Mapping[int, str], count: int, block_ms: int | None
    ) -> list[tuple[int, list[Delivered]]]:
        shards = {self.key(shard): shard for shard in starts}
        streams = {key: starts[shard] for key, shard in shards.items()}
        found: list[Any] = []
        if isinstance(self.client, redis.cluster.RedisCluster):  # one slot per call on a cluster
            for key, start in streams.items():
                found += self.client.xreadgroup(group, consumer, {key: start}, count=count) or []
            if not any(entries for _, entries in found) and block_ms:
                time.sleep(block_ms / 1000)
        else:
            found = self.client.xreadgroup(group, consumer, streams, count=count, block=block_ms) or []
        return [(shards[_text(key)], [_delivered(i, f) for i, f in entries]) for key, entries in found]

    def ack(self, group: str, done: Sequence[tuple[int, Sequence[str]]]) -> None:
        done = [(shard, ids) for shard, ids in done if ids]
        if len(done) == 1:
            self.client.xack(self.key(done[0][0]), group, *done[0][1])
        elif done:
            pipe = self.client.pipeline(transaction=False)  # on a cluster, grouped by node
            for shard, ids in done:
                pipe.xack(self.key(shard), group, *ids)
            pipe.execute()

    def claim_idle(self, shard: int, group: str, consumer: str, idle_ms: int, count: int) -> list[Delivered]:
        key = self.key(shard)
        reply = self.client.xautoclaim(key, group, consumer, idle_ms, count=count)
        out = []
        for entry_id, fields in reply[1]:
            pending = self.client.xpending_range(key, group, min=entry_id, max=entry_id, count=1)
            deliveries = int(pending[0]["times_delivered"]) if pending else 0
            out.append(_delivered(entry_id, fields, deliveries))
        return out

    def dead_letter(self, shard: int, group: str, consumer: str, entry: Delivered) -> None:
        key = self.key(shard)
        record = {**(entry.raw or {}), b"entry": entry.entry_id, b"group": group, b"consumer": consumer}
        self.client.xadd(dead_letter_key(key), record)
        self.client.xack(key, group, entry.entry_id)

    def pending(self, shard: int, group: str) -> int:
        return int(self.client.xpending(self.key(shard), group)["pending"])

    def dead_letters(self, shard: int) -> list[dict[str, str]]:
        return [_text_map(fields) for _, fields in self.client.xrange(dead_letter_key(self.key(shard)))]

    def lowest_needed(self, shard: int, required: Sequence[str] = ()) -> str | None:
        """From ``XINFO GROUPS`` (each group's last-delivered id) and, for a group with pending
        entries, ``XPENDING`` (its oldest): two reads, and a race between them only keeps more (see
        ``shared.store.outbox``, "Trimming")."""
        key = self.key(shard)
        groups = self.client.xinfo_groups(key) if self.client.exists(key) else []
        names = {_text(group["name"]) for group in groups}
        if not groups or not set(required) <= names:
            return None
        needed = []
        for group in groups:
            needed.append(entry_after(_text(group["last-delivered-id"] or "0-0")))  # none known: it needs all
            oldest = self.client.xpending(key, group["name"])["min"] if group["pending"] else None
            if oldest is not None:  # None: every pending entry was acknowledged since XINFO GROUPS
                needed.append(_text(oldest))
        return min(needed, key=entry_key)

    def trim(self, shard: int, below: str) -> int:
        """``XTRIM MINID`` exactly (not ``~``)."""
        return int(self.client.xtrim(self.key(shard), minid=below, approximate=False))

    def read_range(self, shard: int, first: str, last: str) -> list[OutboxNotice]:
        return [notice_from_entry(i, f) for i, f in self.client.xrange(self.key(shard), first, last)]


class RedisTurnClocks:
    """:class:`~shared.store.TurnClocks` as one sorted set per shard, ``{sNN}:clocks`` (the shard's
    hash tag: one cluster slot with its matches), score = due time in ms, member =
    ``<match>/<version>/<seat>``, on the store's synchronous client. A clock lives as long as Redis
    keeps its AOF. Due members are taken out one by one with ``ZREM``: a clock goes to the one caller
    whose ``ZREM`` removed it."""

    def __init__(self, store: RedisEventStore) -> None:
        self.client: Any = store.client
        self.key, self.shards = store.clocks_key, store.shards

    def set(self, clock: TurnClock) -> None:
        """``ZADD LT``: a due time is never pushed later."""
        key = self.key(shard_of(clock.match_id, self.shards))
        member = _clock_member(clock.match_id, clock.version, clock.seat)
        self.client.zadd(key, {member: clock.due_ms}, lt=True)

    def cancel(self, match_id: str, version: int, seats: int) -> None:
        if seats > 0 and version > 0:
            members = [_clock_member(match_id, version, seat) for seat in range(seats)]
            self.client.zrem(self.key(shard_of(match_id, self.shards)), *members)

    def take_due(self, shard: int, now_ms: int, count: int = 100) -> list[TurnClock]:
        key = self.key(shard)
        due = self.client.zrangebyscore(key, "-inf", now_ms, 0, count, withscores=True)
        return [_clock(raw, score) for raw, score in due if self.client.zrem(key, raw) == 1]

    def pending(self, shard: int) -> list[TurnClock]:
        found = self.client.zrange(self.key(shard), 0, -1, withscores=True)
        return [_clock(raw, score) for raw, score in found]


def _clock_member(match_id: str, version: int, seat: int) -> str:
    return f"{match_id}/{version}/{seat}"


def _clock(member: bytes | str, score: float) -> TurnClock:
    match_id, version, seat = _text(member).rsplit("/", 2)  # match ids never hold "/"
    return TurnClock(match_id, int(version), int(seat), int(score))


def dead_letter_key(outbox_key: str) -> str:
    return f"{outbox_key}:dead"


def _delivered(entry_id: bytes | str, fields: Mapping[bytes, bytes] | None, deliveries: int = 1) -> Delivered:
    notice = notice_from_entry(entry_id, fields) if fields is not None else None
    return Delivered(_text(entry_id), notice, deliveries, fields)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
