from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from shared.store import MemoryEventStore, NewEvent, StoredEvent
from shared.watch import WatchHub


def fill(store: MemoryEventStore, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        store.append("m", i, [NewEvent("E", str(i).encode())], f"c{i}")


def collect(stream: Iterator[list[StoredEvent]], count: int) -> list[int]:
    """The next ``count`` versions, over as many batches as the feed takes (empty ones while idle);
    at most 10 s of idle batches, however slow the machine."""
    got: list[int] = []
    for _ in range(200):
        got += [e.version for e in next(stream)]
        if len(got) >= count:
            return got
    raise AssertionError(f"only {got} of {count} events in 10 s")


def test_watchers_share_one_reader_and_see_new_events() -> None:
    store = MemoryEventStore()
    fill(store, 3)
    threads = threading.active_count()  # other tests' threads may still be ending: count ours only
    hub = WatchHub(store, block_ms=50)
    streams = [hub.watch("m", 1, idle_s=0.05) for _ in range(5)]
    assert [[e.version for e in next(s)] for s in streams] == [[1, 2, 3]] * 5
    assert threading.active_count() < threads + 5 and len(hub._feeds) == 1  # not one per watcher
    fill(store, 2, start=3)
    for s in streams:
        assert collect(s, 2) == [4, 5]


def test_an_idle_feed_yields_empty_batches_and_older_versions_come_from_the_store() -> None:
    store = MemoryEventStore()
    hub = WatchHub(store, block_ms=50)
    live = hub.watch("m", 1, idle_s=0.05)
    assert next(live) == []
    fill(store, 4)
    assert collect(live, 4) == [1, 2, 3, 4]  # in one batch or more: the feed reads as it comes
    late = hub.watch("m", 2, idle_s=0.05)
    assert [e.version for e in next(late)] == [2, 3, 4]


def test_a_store_failure_reaches_the_watchers() -> None:
    class Broken(MemoryEventStore):
        def subscribe(self, match_id, from_version, block_ms=5000):  # type: ignore[no-untyped-def]
            raise ConnectionError("redis went away")
            yield []

    hub = WatchHub(Broken(), block_ms=50)
    with pytest.raises(ConnectionError):
        for _ in range(20):
            next(hub.watch("m", 1, idle_s=0.05))
