"""In-memory event store: the fake for unit tests and in-process simulation.

Behaves like the Redis adapter (same test suite), guarded by one lock; its coroutines never wait.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Mapping, Sequence
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
    VersionConflict,
    check_append,
    shard_of,
)


class MemoryEventStore:
    def __init__(self, shards: int = DEFAULT_SHARDS) -> None:
        self.shards = shards
        self._events: dict[str, list[StoredEvent]] = {}
        self._meta: dict[str, dict[str, str]] = {}
        self._commands: dict[str, dict[str, AppendResult]] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._outbox: dict[int, list[OutboxNotice]] = {}
        self._active: dict[int, dict[str, int]] = {}  # shard -> match -> time of its last append (ms)
        self._finished: dict[int, dict[str, int]] = {}  # shard -> match -> time it finished (ms)
        self._lock = threading.Lock()
        self._outbox_groups: MemoryOutboxGroups | None = None

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
            now = int(time.time() * 1000)
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
                self._index(match_id, progress, now)
                self._notify(match_id, result, events, fields.get("game", ""), progress, was)
            return result

    def _notify(
        self,
        match_id: str,
        result: AppendResult,
        events: Sequence[NewEvent],
        game: str,
        progress: Progress | None,
        was: Sequence[int] | None = None,
    ) -> None:
        outbox = self._outbox.setdefault(shard_of(match_id, self.shards), [])
        notice = OutboxNotice(
            f"{len(outbox) + 1}-0",
            match_id,
            result.first_version,
            result.last_version,
            tuple(e.type for e in events),
            game,
            progress,
            events[0].actor,
            tuple(was) if was is not None else None,
        )
        outbox.append(notice)

    def _index(self, match_id: str, progress: Progress | None, now: int) -> None:
        """The active-match index, as the Redis append script keeps it."""
        if progress is None:
            return
        shard = shard_of(match_id, self.shards)
        active = self._active.setdefault(shard, {})
        if progress.status is MatchStatus.ACTIVE:
            active[match_id] = now
        else:
            active.pop(match_id, None)
            self._finished.setdefault(shard, {})[match_id] = now

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

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        with self._lock:
            self._snapshots[match_id] = snapshot

    async def load_snapshot(self, match_id: str) -> Snapshot | None:
        with self._lock:
            return self._snapshots.get(match_id)

    async def read_outbox(self, shard: int, after: str = "0-0", count: int = 100) -> list[OutboxNotice]:
        after_seq = int(after.split("-")[0])
        with self._lock:
            return [n for n in self._outbox.get(shard, []) if int(n.entry_id.split("-")[0]) > after_seq][
                :count
            ]

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
    last: int = 0  # the sequence of the last entry handed out
    pending: dict[int, _Pending] = field(default_factory=dict)  # by entry sequence


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
        state, outbox, now = self._group(shard, group), self.store._outbox.get(shard, []), time.monotonic()
        if start == ">":
            page = outbox[state.last : state.last + count]
            for notice in page:
                state.pending[_seq(notice.entry_id)] = _Pending(consumer, now)
            state.last += len(page)
            return [Delivered(n.entry_id, n) for n in page]
        after = _seq(start)
        mine = sorted(s for s, p in state.pending.items() if p.consumer == consumer and s > after)[:count]
        for seq in mine:
            state.pending[seq] = replace(
                state.pending[seq], since=now, deliveries=state.pending[seq].deliveries + 1
            )
        return [Delivered(f"{seq}-0", outbox[seq - 1], state.pending[seq].deliveries) for seq in mine]

    def ack(self, group: str, done: Sequence[tuple[int, Sequence[str]]]) -> None:
        with self.store._lock:
            for shard, ids in done:
                for entry_id in ids:
                    self._group(shard, group).pending.pop(_seq(entry_id), None)

    def claim_idle(self, shard: int, group: str, consumer: str, idle_ms: int, count: int) -> list[Delivered]:
        with self.store._lock:
            state, outbox, now = (
                self._group(shard, group),
                self.store._outbox.get(shard, []),
                time.monotonic(),
            )
            idle = sorted(s for s, p in state.pending.items() if (now - p.since) * 1000 >= idle_ms)[:count]
            for seq in idle:
                state.pending[seq] = _Pending(consumer, now, state.pending[seq].deliveries + 1)
            return [Delivered(f"{seq}-0", outbox[seq - 1], state.pending[seq].deliveries) for seq in idle]

    def dead_letter(self, shard: int, group: str, consumer: str, entry: Delivered) -> None:
        fields = _notice_fields(entry.notice) if entry.notice is not None else {}
        record = {**fields, "entry": entry.entry_id, "group": group, "consumer": consumer}
        with self.store._lock:
            self._dead.setdefault(shard, []).append(record)
            self._group(shard, group).pending.pop(_seq(entry.entry_id), None)

    def pending(self, shard: int, group: str) -> int:
        with self.store._lock:
            return len(self._group(shard, group).pending)

    def dead_letters(self, shard: int) -> list[dict[str, str]]:
        with self.store._lock:
            return [dict(record) for record in self._dead.get(shard, [])]

    def _group(self, shard: int, group: str) -> _Group:
        found = self._groups.get((shard, group))
        if found is None:
            raise StoreError(f"no consumer group {group!r} on outbox shard {shard}")
        return found


def _seq(entry_id: str) -> int:
    return int(entry_id.partition("-")[0])


def _notice_fields(notice: OutboxNotice) -> dict[str, str]:
    """A notice as the outbox stream's fields (the Redis append script's names)."""
    progress = notice.progress.fields() if notice.progress is not None else {}
    first, last = str(notice.first_version), str(notice.last_version)
    plain = {"match": notice.match_id, "first": first, "last": last, "types": ",".join(notice.types)}
    return {**plain, "game": notice.game, "by": notice.actor, **progress}
