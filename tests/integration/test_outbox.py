"""The shared outbox follower on every store (in memory, a private Redis, a 3-master cluster): ack,
claim, dead letters; and what only Redis does (its round trips)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis
import redis.cluster
from redis.crc import key_slot

from shared.runtime.edge import wait
from shared.store import EventStore, MatchStatus, NewEvent, OutboxNotice, Progress, shard_of
from shared.store.outbox import FollowerSettings, OutboxFollower, dead_letter_key, owned_shards
from shared.store.redis_store import RedisEventStore
from tests.support.redis_cluster import RedisCluster
from tests.support.stores import STORES, cluster_client, store_of
from tests.support.timing import scaled, wait_until

GROUP = "test-followers"


class Handler:
    """Records every notice; fails the first ``failures`` calls (or all, with -1)."""

    def __init__(self, failures: int = 0) -> None:
        self.seen: list[OutboxNotice] = []
        self.failures = failures

    def __call__(self, notice: OutboxNotice) -> None:
        self.seen.append(notice)
        if self.failures:
            self.failures -= 1
            raise RuntimeError("handler failed")


def follower(
    store: EventStore, handle: Handler, consumer: str = "c1", shards: list[int] | None = None, **kw: int
) -> OutboxFollower:
    settings = FollowerSettings(GROUP, consumer, **{"claim_idle_ms": 0, "block_ms": 10, **kw})
    found = OutboxFollower(store, range(store.shards) if shards is None else shards, handle, settings)
    found.ensure_groups()
    return found


def append(store: EventStore, match_id: str) -> None:
    progress = Progress((0,), False, MatchStatus.ACTIVE)
    wait(store.append(match_id, 0, [NewEvent("Started", b"")], "c", meta={"game": "g"}, progress=progress))


def pending(store: EventStore, match_id: str) -> int:
    return store.outbox_groups().pending(shard_of(match_id, store.shards), GROUP)


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    yield from store_of(request)


@pytest.fixture
def redis_store(redis_client: redis.Redis) -> RedisEventStore:
    return RedisEventStore(redis_client)


def test_a_handled_notice_is_acknowledged_and_carries_the_progress(store: EventStore) -> None:
    handle = Handler()
    append(store, "m1")
    assert follower(store, handle).poll() == 1
    (notice,) = handle.seen
    assert (notice.match_id, notice.last_version, notice.game) == ("m1", 1, "g")
    assert notice.progress == Progress((0,), False, MatchStatus.ACTIVE)
    assert pending(store, "m1") == 0


def test_a_failed_notice_stays_pending_and_another_consumer_claims_it(store: EventStore) -> None:
    append(store, "m1")
    follower(store, Handler(failures=1), "crashed").poll()
    assert pending(store, "m1") == 1
    survivor = Handler()
    assert follower(store, survivor, "survivor").reclaim() == 1
    assert [n.match_id for n in survivor.seen] == ["m1"] and pending(store, "m1") == 0


def test_a_page_is_acknowledged_in_one_xack_and_a_failed_entry_in_it_stays_pending(
    redis_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    shard = shard_of("m0", store.shards)
    ids = [m for m in (f"m{i}" for i in range(500)) if shard_of(m, store.shards) == shard][:3]
    for match_id in ids:  # one shard, so one page
        append(store, match_id)
    calls: list[tuple[object, ...]] = []
    xack = store.client.xack

    def counted(*args: object) -> object:
        calls.append(args)
        return xack(*args)

    monkeypatch.setattr(store.client, "xack", counted)
    handle = Handler(failures=1)
    assert follower(store, handle, shards=[shard]).poll() == 3
    assert [n.match_id for n in handle.seen] == ids
    assert len(calls) == 1 and len(calls[0]) == 4  # key, group and the two handled entries' ids
    assert pending(store, ids[0]) == 1  # the failed one, left for a claim


def test_the_pages_of_one_read_are_acknowledged_in_one_round_trip(
    redis_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read returns a page per shard; their ``XACK``s go in one pipeline, not one call per shard."""
    store = redis_store
    by_shard: dict[int, str] = {}
    for match_id in (f"m{i}" for i in range(100)):
        by_shard.setdefault(shard_of(match_id, store.shards), match_id)
    ids = list(by_shard.values())[:5]  # five matches in five shards: five pages in one read
    for match_id in ids:
        append(store, match_id)
    executed: list[list[tuple[object, ...]]] = []
    pipeline = store.client.pipeline

    def counted_pipeline(*args: object, **kwargs: object) -> object:
        pipe = pipeline(*args, **kwargs)
        execute = pipe.execute
        pipe.execute = lambda *a, **k: executed.append([c[0] for c in pipe.command_stack]) or execute(*a, **k)
        return pipe

    monkeypatch.setattr(store.client, "pipeline", counted_pipeline)
    monkeypatch.setattr(store.client, "xack", lambda *a: pytest.fail("an XACK of its own"))
    handle = Handler()
    assert follower(store, handle).poll() == 5
    assert sorted(n.match_id for n in handle.seen) == sorted(ids)
    (acks,) = executed
    assert sorted(a[1] for a in acks) == sorted(store.outbox_key(s) for s in by_shard if by_shard[s] in ids)
    assert all(a[0] == "XACK" for a in acks) and all(pending(store, m) == 0 for m in ids)


def test_after_page_runs_before_the_acknowledgement_and_its_failure_leaves_the_page_pending(
    store: EventStore,
) -> None:
    shard = shard_of("m0", store.shards)
    ids = [m for m in (f"m{i}" for i in range(500)) if shard_of(m, store.shards) == shard][:2]
    for match_id in ids:
        append(store, match_id)
    pages: list[int] = []

    def after_page() -> None:  # e.g. the reactor sending the page's jobs: fails once
        pages.append(pending(store, ids[0]))
        if len(pages) == 1:
            raise ConnectionError("broker down")

    settings = FollowerSettings(GROUP, "c1", claim_idle_ms=0, block_ms=10)
    handle = Handler()
    found = OutboxFollower(store, [shard], handle, settings, after_page=after_page)
    found.ensure_groups()
    # pending(): the entries of the shard's stream the group has not acknowledged
    assert found.poll() == 2 and pages == [2]  # handled, then after_page while still unacknowledged
    assert pending(store, ids[0]) == 2  # failed: the whole page waits
    assert found.reclaim() == 2 and pages == [2, 2]
    assert [n.match_id for n in handle.seen] == [*ids, *ids] and pending(store, ids[0]) == 0


class Stop(threading.Event):
    """A stop flag that records what ``run`` waits for and stops it at its first wait."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        self.set()
        return True


def test_after_a_read_that_found_entries_the_follower_lingers_before_the_next(store: EventStore) -> None:
    append(store, "m1")
    stop, handle = Stop(), Handler()
    follower(store, handle, linger_ms=20).run(stop)
    assert [n.match_id for n in handle.seen] == ["m1"] and stop.waits == [0.02]
    idle = Stop()  # nothing new: no linger, the next read just blocks (the tick stops this loop)
    follower(store, Handler(), linger_ms=20).run(idle, tick=idle.set)
    assert idle.waits == []


def test_an_entry_is_not_claimed_before_it_has_been_idle_long_enough(store: EventStore) -> None:
    append(store, "m1")
    follower(store, Handler(failures=1), "crashed").poll()
    patient = Handler()
    assert follower(store, patient, "survivor", claim_idle_ms=60_000).reclaim() == 0
    assert patient.seen == [] and pending(store, "m1") == 1


def test_a_restarted_consumer_handles_its_own_pending_entries_first(store: EventStore) -> None:
    for match_id in ("m1", "m2", "m3"):
        append(store, match_id)
    follower(store, Handler(failures=-1), "c1").poll()  # read all, handled none
    again = Handler()
    assert follower(store, again, "c1", count=1).recover_pending() == 3  # pages through all of them
    assert sorted(n.match_id for n in again.seen) == ["m1", "m2", "m3"]
    assert sum(pending(store, m) for m in ("m1", "m2", "m3")) == 0


def test_an_entry_delivered_more_than_the_maximum_goes_to_the_dead_letter_stream(
    store: EventStore,
) -> None:
    append(store, "m1")
    handle = Handler(failures=-1)
    reader = follower(store, handle, "c1", max_deliveries=3)
    reader.poll()
    for _ in range(4):
        reader.reclaim()
    assert len(handle.seen) == 3  # delivered three times, then dead-lettered untried
    (dead,) = store.outbox_groups().dead_letters(shard_of("m1", store.shards))
    assert (dead["match"], dead["group"], dead["consumer"], dead["to_act"]) == ("m1", GROUP, "c1", "0")
    assert dead["entry"] == handle.seen[0].entry_id and pending(store, "m1") == 0


def test_a_follower_reads_only_the_shards_it_owns(store: EventStore) -> None:
    ids = {shard_of(f"m{i}", store.shards): f"m{i}" for i in range(200)}
    mine, other = ids[0], ids[1]
    append(store, mine)
    append(store, other)
    handle = Handler()
    assert follower(store, handle, shards=owned_shards(store.shards, 0, 2)).poll() == 1
    assert [n.match_id for n in handle.seen] == [mine]


def test_run_follows_until_the_stop_flag_is_set(store: EventStore) -> None:
    handle = Handler()
    reader = follower(store, handle)
    stop = threading.Event()
    thread = threading.Thread(target=reader.run, args=(stop,))
    thread.start()
    append(store, "m1")
    try:
        wait_until(lambda: handle.seen, 30, "the notice to be handled")
    finally:
        stop.set()
        thread.join(scaled(30))
    assert not thread.is_alive() and [n.match_id for n in handle.seen] == ["m1"]


@pytest.fixture
def cluster_store(redis_cluster: RedisCluster) -> Iterator[RedisEventStore]:
    client = cluster_client(redis_cluster)
    yield RedisEventStore(client)
    client.close()


def test_on_a_cluster_the_follower_reads_every_shard_and_dead_letters_in_the_same_slot(
    cluster_store: RedisEventStore,
) -> None:
    store = cluster_store
    for match_id in ("a", "match-42", "zz-top"):
        append(store, match_id)
    handle = Handler(failures=1)
    reader = follower(store, handle, max_deliveries=1)
    assert reader.poll() == 3 and len(handle.seen) == 3
    others = [n.match_id for n in handle.seen[1:]]  # acknowledged together, each in its own slot
    assert all(
        pending(store, m) == 0 for m in others if shard_of(m, 16) != shard_of(handle.seen[0].match_id, 16)
    )
    reader.reclaim()  # the failed one: delivered twice now, more than the maximum of 1
    (failed,) = [n.match_id for n in handle.seen[:1]]
    outbox = store.outbox_key(shard_of(failed, store.shards))
    assert key_slot(dead_letter_key(outbox).encode()) == key_slot(outbox.encode())
    assert [f[b"match"].decode() for _, f in store.client.xrange(dead_letter_key(outbox))] == [failed]
