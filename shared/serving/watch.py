"""Fan-out of match streams to many watchers in one process, on the serving event loop.

The watched matches are read together: they are put in groups (on Redis, the matches of one shard,
at most :data:`STREAMS_PER_READ` of them), and each group has one reader coroutine doing one
blocking ``XREAD`` over all its matches' streams at a time. What it reads goes into the match's
feed (the recent events in memory) and wakes the match's watchers, coroutines that each serve one
stream. So ten thousand watchers of a thousand matches cost no thread and a bounded number of
Redis connections (one per group, plus :data:`GAP_READS`), not a thread and a connection per match.

A watcher that starts further back than the feed's buffer, or falls that far behind (a slow
client: gRPC's flow control holds its coroutine), reads the gap from the store first (a plain
range read, at most :data:`GAP_READS` at once), so any version is resumable and a slow watcher
holds no memory of its own: the only buffer is the feed's, shared by all its watchers.

What a reader reads is also handed to ``on_new`` (the rule service's runner, which brings its cached
state of the match forward with it, so the next command after a worker's or another instance's
append is decided without a read of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, field

from shared.serving.grpc_server import Limits
from shared.store import StoredEvent, StreamReader

log = logging.getLogger(__name__)
BUFFER = 2000  # recent events kept per watched match
STREAMS_PER_READ = 1000  # matches one reader reads in one XREAD
GAP_READS = 8  # range reads of watchers behind the buffer, at once


def watch_connections(limits: Limits, shards: int) -> int:
    """The watch readers' Redis connections at most: one reader per shard and per
    :data:`STREAMS_PER_READ` watched matches beyond (a match has at least one watcher, so at most
    ``max_streams`` matches are watched), and the range reads."""
    return shards + -(-limits.max_streams // STREAMS_PER_READ) + GAP_READS


@dataclass(eq=False)
class _Feed:
    match_id: str
    head: int = 0
    events: deque[StoredEvent] = field(default_factory=lambda: deque(maxlen=BUFFER))  # ending at head
    watchers: int = 0
    error: Exception | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ready: asyncio.Future[None] | None = None  # the start: the head read, the feed in a group

    def wake(self) -> None:
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()


@dataclass(eq=False)
class _Group:
    key: int
    feeds: dict[str, _Feed] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class WatchHub:
    """Every local watcher of every match, read by one reader per group of matches.

    Used from the serving loop only (no locks: one thread)."""

    def __init__(
        self,
        reader: StreamReader,
        block_ms: int = 1000,
        streams_per_read: int = STREAMS_PER_READ,
        on_new: Callable[[str, Sequence[StoredEvent]], None] | None = None,
    ) -> None:
        self.reader, self.on_new = reader, on_new
        self.block_ms = block_ms
        self.streams_per_read = streams_per_read
        self._feeds: dict[str, _Feed] = {}
        self._groups: dict[int, list[_Group]] = {}
        self._gap: asyncio.Semaphore | None = None

    async def watch(
        self, match_id: str, from_version: int, idle_s: float
    ) -> AsyncGenerator[tuple[list[StoredEvent], int], None]:
        """Batches from ``from_version`` on, each with the match's head; an empty batch after
        ``idle_s`` without news. A store failure ends every watcher of the match with it."""
        feed = await self._join(match_id)
        try:
            next_version = max(from_version, 1)
            while True:
                batch = await self._take(feed, next_version, idle_s)
                if batch:
                    next_version = batch[-1].version + 1
                yield batch, max(feed.head, next_version - 1)
        finally:
            feed.watchers -= 1

    @property
    def watched(self) -> int:
        """Matches with a feed (a reader's view: the feeds nobody watches go at its next read)."""
        return len(self._feeds)

    async def _take(self, feed: _Feed, next_version: int, idle_s: float) -> list[StoredEvent]:
        if feed.head < next_version and feed.error is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(feed.changed.wait(), idle_s)
        if feed.error is not None:
            raise feed.error
        if feed.head < next_version:
            return []
        first_buffered = feed.events[0].version if feed.events else feed.head + 1
        if next_version >= first_buffered:
            return list(itertools.islice(feed.events, next_version - first_buffered, None))
        if self._gap is None:
            self._gap = asyncio.Semaphore(GAP_READS)
        async with self._gap:  # older than the buffer
            return await self.reader.read(feed.match_id, next_version, feed.head)

    async def _join(self, match_id: str) -> _Feed:
        feed = self._feeds.get(match_id)
        if feed is None or feed.error is not None:
            feed = self._feeds[match_id] = _Feed(match_id)
            feed.ready = asyncio.ensure_future(self._start(feed))
        feed.watchers += 1
        try:
            assert feed.ready is not None
            await asyncio.shield(feed.ready)
        except BaseException:
            feed.watchers -= 1
            raise
        return feed

    async def _start(self, feed: _Feed) -> None:
        try:
            feed.head = await self.reader.version(feed.match_id)
        except Exception as err:
            feed.error = err
            if self._feeds.get(feed.match_id) is feed:
                del self._feeds[feed.match_id]
            raise
        key = self.reader.group(feed.match_id)
        groups = self._groups.setdefault(key, [])
        group = next((g for g in groups if len(g.feeds) < self.streams_per_read), None)
        if group is None:
            group = _Group(key)
            groups.append(group)
        group.feeds[feed.match_id] = feed
        if group.task is None:
            group.task = asyncio.ensure_future(self._pump(group))

    def _hand_on(self, match_id: str, events: Sequence[StoredEvent]) -> None:
        """``on_new``'s failure is only logged: the watchers do not depend on it."""
        if self.on_new is None:
            return
        try:
            self.on_new(match_id, events)
        except Exception:
            log.exception("watch hub: on_new failed", extra={"match_id": match_id})

    async def _pump(self, group: _Group) -> None:
        """The one reader of a group: appends new events to its feeds until nobody watches."""
        try:
            while True:
                for match_id, feed in list(group.feeds.items()):
                    if feed.watchers == 0:
                        del group.feeds[match_id]
                        if self._feeds.get(match_id) is feed:
                            del self._feeds[match_id]
                if not group.feeds:
                    self._groups[group.key].remove(group)
                    if not self._groups[group.key]:
                        del self._groups[group.key]
                    return
                found = await self.reader.read_new(
                    {m: feed.head for m, feed in group.feeds.items()}, self.block_ms
                )
                for match_id, events in found.items():
                    if (target := group.feeds.get(match_id)) is None:
                        continue
                    fresh = [e for e in events if e.version > target.head]
                    if fresh:
                        target.events.extend(fresh)
                        target.head = fresh[-1].version
                        target.wake()
                        self._hand_on(match_id, fresh)
        except Exception as err:  # the store failed: hand the error to every watcher, start afresh next time
            self._groups[group.key].remove(group)
            if not self._groups[group.key]:
                del self._groups[group.key]
            for match_id, feed in group.feeds.items():
                if self._feeds.get(match_id) is feed:
                    del self._feeds[match_id]
                feed.error = err
                feed.wake()
