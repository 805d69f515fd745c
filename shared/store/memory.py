"""In-memory event store: the fake for unit tests and in-process simulation.

Behaves like the Redis adapter (same test suite), guarded by one lock; its coroutines never wait.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence

from shared.store.base import (
    DEFAULT_SHARDS,
    AppendResult,
    MatchMeta,
    MatchStatus,
    NewEvent,
    OutboxNotice,
    Progress,
    Snapshot,
    StoredEvent,
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

    async def append(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str,
        meta: Mapping[str, str] | None = None,
        progress: Progress | None = None,
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
            self._index(match_id, progress, now)
            self._notify(match_id, result, events, fields.get("game", ""), progress)
            return result

    def _notify(
        self,
        match_id: str,
        result: AppendResult,
        events: Sequence[NewEvent],
        game: str,
        progress: Progress | None,
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
