from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Sequence

import pytest

from shared.runtime.edge import wait
from shared.serving.watch import WatchHub
from shared.store import MemoryEventStore, NewEvent, PollingReader, StoredEvent

Stream = AsyncGenerator[tuple[list[StoredEvent], int], None]


def fill(store: MemoryEventStore, n: int, start: int = 0, match_id: str = "m") -> None:
    for i in range(start, start + n):
        wait(store.append(match_id, i, [NewEvent("E", str(i).encode())], f"c{i}"))


async def collect(stream: Stream, count: int) -> list[int]:
    """The next ``count`` versions, over as many batches as the feed takes (empty ones while idle);
    at most 200 batches, however slow the machine."""
    got: list[int] = []
    for _ in range(200):
        batch, _head = await anext(stream)
        got += [e.version for e in batch]
        if len(got) >= count:
            return got
    raise AssertionError(f"only {got} of {count} events in 200 batches")


async def first(stream: Stream) -> list[int]:
    batch, _head = await anext(stream)
    return [e.version for e in batch]


class CountingReader(PollingReader):
    """Counts the reads of new events, and which matches each one asked for."""

    def __init__(self, store: MemoryEventStore) -> None:
        super().__init__(store)
        self.calls: list[set[str]] = []

    async def read_new(self, after, block_ms):  # type: ignore[no-untyped-def]
        self.calls.append(set(after))
        return await super().read_new(after, block_ms)


def test_watchers_share_one_reader_and_see_new_events() -> None:
    async def run() -> None:
        store = MemoryEventStore()
        fill(store, 3)
        hub = WatchHub(PollingReader(store), block_ms=50)
        streams = [hub.watch("m", 1, idle_s=0.05) for _ in range(5)]
        assert [await first(s) for s in streams] == [[1, 2, 3]] * 5
        assert hub.watched == 1 and len(asyncio.all_tasks()) == 2  # this test and one reader
        fill(store, 2, start=3)
        for s in streams:
            assert await collect(s, 2) == [4, 5]

    asyncio.run(run())


def test_many_matches_are_read_together_in_groups_of_a_bounded_size() -> None:
    async def run() -> None:
        store = MemoryEventStore(shards=1)
        reader = CountingReader(store)
        hub = WatchHub(reader, block_ms=50, streams_per_read=4)
        streams = {f"m{i}": hub.watch(f"m{i}", 1, idle_s=0.05) for i in range(10)}
        for s in streams.values():
            assert await first(s) == []
        assert len(asyncio.all_tasks()) == 1 + 3  # this test and ceil(10 / 4) readers
        assert max(len(asked) for asked in reader.calls) == 4
        for match_id in streams:
            fill(store, 2, match_id=match_id)
        for s in streams.values():
            assert await collect(s, 2) == [1, 2]

    asyncio.run(run())


def test_an_idle_feed_yields_empty_batches_and_older_versions_come_from_the_store() -> None:
    async def run() -> None:
        store = MemoryEventStore()
        hub = WatchHub(PollingReader(store), block_ms=50)
        live = hub.watch("m", 1, idle_s=0.05)
        assert await anext(live) == ([], 0)
        fill(store, 4)
        assert await collect(live, 4) == [1, 2, 3, 4]  # in one batch or more: the feed reads as it comes
        late = hub.watch("m", 2, idle_s=0.05)
        assert await first(late) == [2, 3, 4]

    asyncio.run(run())


def test_a_watcher_behind_the_buffer_reads_the_gap_from_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shared.serving.watch.BUFFER", 3)

    async def run() -> None:
        store = MemoryEventStore()
        hub = WatchHub(PollingReader(store), block_ms=50)
        live = hub.watch("m", 1, idle_s=0.05)
        assert await first(live) == []
        fill(store, 8)
        assert await collect(live, 8) == list(range(1, 9))
        behind = hub.watch("m", 2, idle_s=0.05)
        assert await collect(behind, 7) == list(range(2, 9))

    asyncio.run(run())


def test_a_feed_nobody_watches_is_dropped_with_its_reader() -> None:
    async def run() -> None:
        store = MemoryEventStore()
        hub = WatchHub(PollingReader(store), block_ms=20)
        stream = hub.watch("m", 1, idle_s=0.02)
        await first(stream)
        await stream.aclose()
        for _ in range(100):
            if hub.watched == 0 and len(asyncio.all_tasks()) == 1:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the feed outlived its last watcher")

    asyncio.run(run())


def test_a_store_failure_reaches_the_watchers() -> None:
    class Broken(PollingReader):
        async def read_new(self, after, block_ms):  # type: ignore[no-untyped-def]
            raise ConnectionError("redis went away")

    async def run() -> None:
        hub = WatchHub(Broken(MemoryEventStore()), block_ms=50)
        stream = hub.watch("m", 1, idle_s=0.05)
        with pytest.raises(ConnectionError):
            for _ in range(20):
                await anext(stream)
        assert hub.watched == 0  # the next watcher starts afresh

    asyncio.run(run())


def test_what_a_reader_reads_is_handed_on_once_and_a_failing_listener_stops_no_watcher() -> None:
    async def run() -> None:
        store = MemoryEventStore()
        seen: list[tuple[str, list[int]]] = []

        def listen(match_id: str, events: Sequence[StoredEvent]) -> None:
            seen.append((match_id, [e.version for e in events]))
            raise RuntimeError("a listener that fails")

        hub = WatchHub(PollingReader(store), block_ms=50, on_new=listen)
        streams = [hub.watch("m", 1, idle_s=0.05) for _ in range(2)]
        for s in streams:
            assert await first(s) == []
        fill(store, 2)
        for s in streams:
            assert await collect(s, 2) == [1, 2]
        assert [v for _, v in seen] in ([[1, 2]], [[1], [2]]) and {m for m, _ in seen} == {"m"}

    asyncio.run(run())
