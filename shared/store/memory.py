"""In-memory event store: the fake for unit tests and in-process simulation.

Behaves like the Redis adapter (same test suite), guarded by one lock; its coroutines never wait.
"""

from __future__ import annotations

import asyncio
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from shared.store.base import (
    DEFAULT_SHARDS,
    AppendResult,
    Delivered,
    EventStore,
    MatchMeta,
    MatchStatus,
    NewEvent,
    OutboxNotice,
    Progress,
    Snapshot,
    StoredEvent,
    StoreError,
    TurnClock,
    VersionConflict,
    check_append,
    entry_after,
    entry_key,
    shard_of,
)


class MemoryEventStore:
    def __init__(self, shards: int = DEFAULT_SHARDS, clock: Callable[[], float] = time.time) -> None:
        """``clock``: the server time of appends (seconds since the epoch), as Redis's ``TIME``."""
        self.shards, self.clock = shards, clock
        self._events: dict[str, list[StoredEvent]] = {}
        self._meta: dict[str, dict[str, str]] = {}
        self._commands: dict[str, dict[str, AppendResult]] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._outbox: dict[int, list[OutboxNotice]] = {}  # shard -> its notices, in id order
        self._last_id: dict[int, tuple[int, int]] = {}  # shard -> the last notice id given (kept by trims)
        self._active: dict[int, dict[str, int]] = {}  # shard -> match -> time of its last append (ms)
        self._finished: dict[int, dict[str, int]] = {}  # shard -> match -> ms of its finishing notice id
        self._lock = threading.Lock()
        self._outbox_groups: MemoryOutboxGroups | None = None
        self._clocks = MemoryTurnClocks(self)

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
        check_append(match_id, expected_version, events, command_id)
        with self._lock:
            seen = self._commands.setdefault(match_id, {}).get(command_id)
            if seen is not None:
                return AppendResult(seen.first_version, seen.last_version, duplicate=True)
            stream = self._events.setdefault(match_id, [])
            if len(stream) != expected_version:
                raise VersionConflict(match_id, expected_version, len(stream))
            now = int(self.clock() * 1000)
            for e in events:
                version = len(stream) + 1
                stream.append(
                    StoredEvent(
                        version, e.type, e.payload, e.visibility, command_id, e.actor, now, e.schema_version
                    )
                )
            result = AppendResult(expected_version + 1, len(stream))
            self._commands[match_id][command_id] = result
            fields = self._meta.setdefault(match_id, {})
            fields.update(meta or {})
            fields.update(progress.fields() if progress is not None else {})
            fields["version"] = str(len(stream))
            if not quiet:
                notice = self._notify(match_id, result, events, fields.get("game", ""), progress, now, was)
                self._index(match_id, progress, now, entry_key(notice.entry_id)[0])
            return result

    def _notify(
        self,
        match_id: str,
        result: AppendResult,
        events: Sequence[NewEvent],
        game: str,
        progress: Progress | None,
        now: int,
        was: Sequence[int] | None = None,
    ) -> OutboxNotice:
        shard = shard_of(match_id, self.shards)
        ms, seq = self._last_id.get(shard, (0, 0))
        ms, seq = (ms, seq + 1) if now <= ms else (now, 0)  # as Redis makes ids: never back, never twice
        self._last_id[shard] = (ms, seq)
        notice = OutboxNotice(
            f"{ms}-{seq}",
            match_id,
            result.first_version,
            result.last_version,
            tuple(e.type for e in events),
            game,
            progress,
            events[0].actor,
            tuple(was) if was is not None else None,
        )
        self._outbox.setdefault(shard, []).append(notice)
        return notice

    def _index(self, match_id: str, progress: Progress | None, now: int, notice_ms: int) -> None:
        """The active- and finished-match indexes, as the Redis append script keeps them: a finished
        match scored with its notice's ms (what the archiver compares with the groups' positions)."""
        if progress is None:
            return
        shard = shard_of(match_id, self.shards)
        active = self._active.setdefault(shard, {})
        if progress.status is MatchStatus.ACTIVE:
            active[match_id] = now
        else:
            active.pop(match_id, None)
            self._finished.setdefault(shard, {})[match_id] = notice_ms

    async def active_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]:
        with self._lock:
            index = self._active.get(shard, {})
            found = [(m, t) for m, t in index.items() if until_ms is None or t <= until_ms]
        return sorted(found, key=lambda pair: (pair[1], pair[0]))

    def restore(self, match_id: str, events: Sequence[StoredEvent], meta: Mapping[str, str]) -> None:
        """Hold a match exactly as it was stored elsewhere (an archived log), for reading: envelopes
        with their times, and the meta. Nothing else (command ids, indexes, the outbox) is set."""
        with self._lock:
            self._events[match_id] = list(events)
            self._meta[match_id] = dict(meta)

    async def finished_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]:
        with self._lock:
            index = self._finished.get(shard, {})
            found = [(m, t) for m, t in index.items() if until_ms is None or t <= until_ms]
        return sorted(found, key=lambda pair: (pair[1], pair[0]))

    async def delete_match(self, match_id: str, version: int) -> bool:
        """As the Redis store: only a finished match still at ``version`` is removed."""
        with self._lock:
            meta = MatchMeta.from_fields(self._meta.get(match_id, {}))
            if not meta.finished or meta.version != version:
                return False
            for table in (self._events, self._meta, self._commands, self._snapshots):
                table.pop(match_id, None)
            shard = shard_of(match_id, self.shards)
            self._active.get(shard, {}).pop(match_id, None)
            self._finished.get(shard, {}).pop(match_id, None)
            return True

    async def command_result(self, match_id: str, command_id: str) -> AppendResult | None:
        with self._lock:
            seen = self._commands.get(match_id, {}).get(command_id)
        return None if seen is None else AppendResult(seen.first_version, seen.last_version, duplicate=True)

    async def version(self, match_id: str) -> int:
        with self._lock:
            return len(self._events.get(match_id, ()))

    async def read(
        self, match_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        with self._lock:
            stream = self._events.get(match_id, [])
            end = len(stream) if to_version is None else min(to_version, len(stream))
            return stream[max(from_version, 1) - 1 : end]

    async def get_meta(self, match_id: str) -> dict[str, str]:
        with self._lock:
            return dict(self._meta.get(match_id, {}))

    async def meta_and_tail(
        self, match_id: str, after_version: int
    ) -> tuple[dict[str, str], list[StoredEvent]]:
        with self._lock:
            return dict(self._meta.get(match_id, {})), self._events.get(match_id, [])[max(after_version, 0) :]

    async def set_meta(self, match_id: str, fields: Mapping[str, str]) -> None:
        with self._lock:
            self._meta.setdefault(match_id, {}).update(fields)

    async def update_meta(self, match_id: str, fields: Mapping[str, str]) -> bool:
        with self._lock:
            if not self._meta.get(match_id):
                return False
            self._meta[match_id].update(fields)
            return True

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        with self._lock:
            self._snapshots[match_id] = snapshot

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        with self._lock:
            return self._snapshots.get(match_id)

    async def read_outbox(self, shard: int, after: str = "0-0", count: int = 100) -> list[OutboxNotice]:
        with self._lock:
            outbox = self._outbox.get(shard, [])
            start = bisect_right(outbox, entry_key(after), key=_key_of)
            return outbox[start : start + count]

    def outbox_key(self, shard: int) -> str:
        return f"{{s{shard:02d}}}:outbox"

    def stream_reader(self, connections: int) -> PollingReader:
        return PollingReader(self)

    def outbox_groups(self) -> MemoryOutboxGroups:
        """The outbox's consumer groups (one set per store: every follower of it shares them)."""
        with self._lock:
            if self._outbox_groups is None:
                self._outbox_groups = MemoryOutboxGroups(self)
            return self._outbox_groups

    def clocks(self) -> MemoryTurnClocks:
        """The turn clocks (one set per store, like the outbox groups)."""
        return self._clocks


POLL_S = 0.02  # the polling reader's pause between looks (the in-memory store has no blocking read)


class PollingReader:
    """A :class:`StreamReader` over a store that answers at once (the in-memory one): ``read_new``
    looks every :data:`POLL_S` until something came or ``block_ms`` passed."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def group(self, match_id: str) -> int:
        return shard_of(match_id, self.store.shards)

    async def version(self, match_id: str) -> int:
        return await self.store.version(match_id)

    async def read(self, match_id: str, from_version: int, to_version: int) -> list[StoredEvent]:
        return await self.store.read(match_id, from_version, to_version)

    async def read_new(self, after: Mapping[str, int], block_ms: int) -> dict[str, list[StoredEvent]]:
        deadline = asyncio.get_running_loop().time() + block_ms / 1000
        while True:
            found = {m: events for m, v in after.items() if (events := await self.store.read(m, v + 1))}
            if found or asyncio.get_running_loop().time() >= deadline:
                return found
            await asyncio.sleep(POLL_S)


@dataclass
class _Pending:
    consumer: str
    since: float  # time.monotonic() it was last handed out
    deliveries: int = 1


@dataclass
class _Group:
    last: str = "0-0"  # the id of the last entry handed out
    pending: dict[str, _Pending] = field(default_factory=dict)  # by entry id


class MemoryOutboxGroups:
    """:class:`~shared.store.OutboxGroups` over the in-memory outbox, as Redis's consumer groups do."""

    def __init__(self, store: MemoryEventStore) -> None:
        self.store = store
        self._groups: dict[tuple[int, str], _Group] = {}
        self._dead: dict[int, list[dict[str, str]]] = {}

    def create_group(self, shard: int, group: str) -> None:
        with self.store._lock:
            self._groups.setdefault((shard, group), _Group())

    def read_group(
        self, group: str, consumer: str, starts: Mapping[int, str], count: int, block_ms: int | None
    ) -> list[tuple[int, list[Delivered]]]:
        deadline = time.monotonic() + (block_ms or 0) / 1000
        while True:
            with self.store._lock:
                found = [
                    (shard, self._take(shard, group, consumer, start, count))
                    for shard, start in starts.items()
                ]
            found = [(shard, page) for shard, page in found if page]
            if found or ">" not in starts.values() or time.monotonic() >= deadline:
                return found
            time.sleep(POLL_S)

    def _take(self, shard: int, group: str, consumer: str, start: str, count: int) -> list[Delivered]:
        state, now = self._group(shard, group), time.monotonic()
        if start == ">":
            outbox = self.store._outbox.get(shard, [])
            first = bisect_right(outbox, entry_key(state.last), key=_key_of)
            page = outbox[first : first + count]
            for notice in page:
                state.pending[notice.entry_id] = _Pending(consumer, now)
            state.last = page[-1].entry_id if page else state.last
            return [Delivered(n.entry_id, n) for n in page]
        after = entry_key(start)
        mine = sorted(
            (i for i, p in state.pending.items() if p.consumer == consumer and entry_key(i) > after),
            key=entry_key,
        )[:count]
        for entry_id in mine:
            held = state.pending[entry_id]
            state.pending[entry_id] = replace(held, since=now, deliveries=held.deliveries + 1)
        return [self._delivered(shard, i, state.pending[i].deliveries) for i in mine]

    def _delivered(self, shard: int, entry_id: str, deliveries: int) -> Delivered:
        """A pending entry handed out again: its notice, or None if it was trimmed meanwhile."""
        outbox, key = self.store._outbox.get(shard, []), entry_key(entry_id)
        at = bisect_left(outbox, key, key=_key_of)
        found = outbox[at] if at < len(outbox) and _key_of(outbox[at]) == key else None
        return Delivered(entry_id, found, deliveries)

    def ack(self, group: str, done: Sequence[tuple[int, Sequence[str]]]) -> None:
        with self.store._lock:
            for shard, ids in done:
                for entry_id in ids:
                    self._group(shard, group).pending.pop(entry_id, None)

    def claim_idle(self, shard: int, group: str, consumer: str, idle_ms: int, count: int) -> list[Delivered]:
        with self.store._lock:
            state, now = self._group(shard, group), time.monotonic()
            idle = [i for i, p in state.pending.items() if (now - p.since) * 1000 >= idle_ms]
            idle = sorted(idle, key=entry_key)[:count]
            for entry_id in idle:
                state.pending[entry_id] = _Pending(consumer, now, state.pending[entry_id].deliveries + 1)
            return [self._delivered(shard, i, state.pending[i].deliveries) for i in idle]

    def dead_letter(self, shard: int, group: str, consumer: str, entry: Delivered) -> None:
        fields = _notice_fields(entry.notice) if entry.notice is not None else {}
        record = {**fields, "entry": entry.entry_id, "group": group, "consumer": consumer}
        with self.store._lock:
            self._dead.setdefault(shard, []).append(record)
            self._group(shard, group).pending.pop(entry.entry_id, None)

    def pending(self, shard: int, group: str) -> int:
        with self.store._lock:
            return len(self._group(shard, group).pending)

    def dead_letters(self, shard: int) -> list[dict[str, str]]:
        with self.store._lock:
            return [dict(record) for record in self._dead.get(shard, [])]

    def lowest_needed(self, shard: int, required: Sequence[str] = ()) -> str | None:
        with self.store._lock:
            groups = {name: state for (s, name), state in self._groups.items() if s == shard}
            if not groups or not set(required) <= groups.keys():
                return None
            needed = [entry_after(state.last) for state in groups.values()]
            needed += [min(state.pending, key=entry_key) for state in groups.values() if state.pending]
            return min(needed, key=entry_key)

    def trim(self, shard: int, below: str) -> int:
        with self.store._lock:
            outbox = self.store._outbox.get(shard, [])
            gone = bisect_left(outbox, entry_key(below), key=_key_of)
            del outbox[:gone]
            return gone

    def read_range(self, shard: int, first: str, last: str) -> list[OutboxNotice]:
        with self.store._lock:
            outbox = self.store._outbox.get(shard, [])
            start = bisect_left(outbox, entry_key(first), key=_key_of)
            return outbox[start : bisect_right(outbox, entry_key(last, last=True), key=_key_of)]

    def _group(self, shard: int, group: str) -> _Group:
        found = self._groups.get((shard, group))
        if found is None:
            raise StoreError(f"no consumer group {group!r} on outbox shard {shard}")
        return found


class MemoryTurnClocks:
    """:class:`~shared.store.TurnClocks` in memory, under the store's lock (so a due clock is taken once)."""

    def __init__(self, store: MemoryEventStore) -> None:
        self.store = store
        self._due: dict[int, dict[tuple[str, int, int], int]] = {}  # shard -> (match, version, seat) -> ms

    def set(self, clock: TurnClock) -> None:
        found = (clock.match_id, clock.version, clock.seat)
        with self.store._lock:
            due = self._due.setdefault(shard_of(clock.match_id, self.store.shards), {})
            due[found] = min(due.get(found, clock.due_ms), clock.due_ms)

    def cancel(self, match_id: str, version: int, seats: int) -> None:
        with self.store._lock:
            due = self._due.get(shard_of(match_id, self.store.shards), {})
            for seat in range(seats):
                due.pop((match_id, version, seat), None)

    def take_due(self, shard: int, now_ms: int, count: int = 100) -> list[TurnClock]:
        with self.store._lock:
            taken = [clock for clock in self._clocks(shard) if clock.due_ms <= now_ms][:count]
            for clock in taken:
                del self._due[shard][(clock.match_id, clock.version, clock.seat)]
            return taken

    def pending(self, shard: int) -> list[TurnClock]:
        with self.store._lock:
            return self._clocks(shard)

    def _clocks(self, shard: int) -> list[TurnClock]:
        found = [TurnClock(*key, due_ms) for key, due_ms in self._due.get(shard, {}).items()]
        return sorted(found, key=lambda c: (c.due_ms, c.match_id, c.version, c.seat))


def _key_of(notice: OutboxNotice) -> tuple[int, int]:
    return entry_key(notice.entry_id)


def _notice_fields(notice: OutboxNotice) -> dict[str, str]:
    """A notice as the outbox stream's fields (the Redis append script's names)."""
    progress = notice.progress.fields() if notice.progress is not None else {}
    first, last = str(notice.first_version), str(notice.last_version)
    plain = {"match": notice.match_id, "first": first, "last": last, "types": ",".join(notice.types)}
    return {**plain, "game": notice.game, "by": notice.actor, **progress}
