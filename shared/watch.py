"""Fan-out of match streams to many watchers in one process.

One background reader per watched match blocks on the store (``XREAD BLOCK``) and keeps the
recent events in memory; every local watcher of that match waits on a condition and reads from
that buffer. So a thousand watchers of one match cost one Redis connection, not a thousand, and
they all see exactly the same sequence. A watcher that starts further back than the buffer
reads the gap from the store first (a plain range read), so any version is resumable.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from shared.store import EventStore, StoredEvent

BUFFER = 2000


@dataclass
class _Feed:
    head: int
    events: list[StoredEvent] = field(default_factory=list)  # contiguous, ending at head
    watchers: int = 0
    error: Exception | None = None
    changed: threading.Condition = field(default_factory=threading.Condition)


class WatchHub:
    def __init__(self, store: EventStore, block_ms: int = 1000) -> None:
        self.store = store
        self.block_ms = block_ms
        self._feeds: dict[str, _Feed] = {}
        self._lock = threading.Lock()

    def watch(self, match_id: str, from_version: int, idle_s: float) -> Iterator[list[StoredEvent]]:
        """Batches from ``from_version`` on; an empty batch after ``idle_s`` without news."""
        feed = self._join(match_id)
        try:
            next_version = max(from_version, 1)
            while True:
                batch = self._take(match_id, feed, next_version, idle_s)
                if batch:
                    next_version = batch[-1].version + 1
                yield batch
        finally:
            self._leave(match_id, feed)

    def head(self, match_id: str) -> int:
        with self._lock:
            feed = self._feeds.get(match_id)
        return feed.head if feed is not None else self.store.version(match_id)

    def _take(self, match_id: str, feed: _Feed, next_version: int, idle_s: float) -> list[StoredEvent]:
        with feed.changed:
            if feed.head < next_version and feed.error is None:
                feed.changed.wait(idle_s)
            if feed.error is not None:
                raise feed.error
            if feed.head < next_version:
                return []
            first_buffered = feed.events[0].version if feed.events else feed.head + 1
            if next_version >= first_buffered:
                return feed.events[next_version - first_buffered :]
            head = feed.head
        return self.store.read(match_id, next_version, head)  # older than the buffer

    def _join(self, match_id: str) -> _Feed:
        with self._lock:
            feed = self._feeds.get(match_id)
            if feed is None:
                feed = self._feeds[match_id] = _Feed(head=self.store.version(match_id))
                threading.Thread(
                    target=self._pump, args=(match_id, feed), daemon=True, name=f"watch-{match_id}"
                ).start()
            feed.watchers += 1
            return feed

    def _leave(self, match_id: str, feed: _Feed) -> None:
        with self._lock:
            feed.watchers -= 1

    def _pump(self, match_id: str, feed: _Feed) -> None:
        """The one reader of a match: appends new events to the feed until nobody watches."""
        try:
            for batch in self.store.subscribe(match_id, feed.head + 1, self.block_ms):
                with self._lock:
                    if feed.watchers == 0:
                        del self._feeds[match_id]
                        return
                if batch:
                    with feed.changed:
                        feed.events = (feed.events + batch)[-BUFFER:]
                        feed.head = batch[-1].version
                        feed.changed.notify_all()
        except Exception as err:  # the store failed: hand the error to every watcher, start afresh next time
            with self._lock:
                self._feeds.pop(match_id, None)
            with feed.changed:
                feed.error = err
                feed.changed.notify_all()
