"""Outbox trimming on the in-memory store, a private Redis and a 3-master cluster: only what every
group acknowledged goes; on Redis also a group moved back and the races between its two reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
import redis.cluster

from shared.runtime.edge import wait
from shared.store import EventStore, MatchStatus, NewEvent, OutboxNotice, Progress, shard_of
from shared.store.outbox import FollowerSettings, OutboxFollower, trim_outbox
from shared.store.redis_store import RedisEventStore, RedisOutboxGroups
from tests.support.redis_cluster import RedisCluster
from tests.support.stores import cluster_client, store_of

SHARDS = 2


def follower(store: EventStore, group: str, fail: bool = False) -> OutboxFollower:
    def handle(notice: OutboxNotice) -> None:
        if fail:
            raise RuntimeError("not acknowledged")

    settings = FollowerSettings(group, f"{group}-1", claim_idle_ms=60_000, block_ms=10, count=3)
    found = OutboxFollower(store, range(store.shards), handle, settings)
    found.ensure_groups()
    return found


def append(store: EventStore, match_id: str, version: int) -> None:
    progress = Progress((0,), False, MatchStatus.ACTIVE)
    wait(store.append(match_id, version, [NewEvent("Moved", b"x")], f"c{version}", progress=progress))


def fill(store: EventStore, match_id: str, appends: int) -> int:
    """``appends`` notices on the match's shard; returns the shard."""
    for version in range(appends):
        append(store, match_id, version)
    return shard_of(match_id, store.shards)


def ids(store: EventStore, shard: int) -> list[str]:
    return [notice.entry_id for notice in wait(store.read_outbox(shard, count=1000))]


@pytest.fixture(params=("memory", "redis"))
def store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    yield from store_of(request, SHARDS)


@pytest.fixture
def redis_store(redis_client: redis.Redis) -> RedisEventStore:
    return RedisEventStore(redis_client, shards=SHARDS)


def test_entries_a_group_has_not_read_or_not_acknowledged_are_kept(store: EventStore) -> None:
    fast, stuck, slow = follower(store, "fast"), follower(store, "stuck", fail=True), follower(store, "slow")
    groups, shard = store.outbox_groups(), fill(store, "m1", 9)
    before = ids(store, shard)
    while fast.poll():
        pass
    stuck.poll()  # reads the first 3 and fails: they stay pending
    while stuck.poll():
        pass
    slow.poll()  # reads and acknowledges the first 3 only
    assert groups.pending(shard, "stuck") == 9
    assert trim_outbox(groups, shard) == 0  # "stuck" still needs the very first entry
    assert ids(store, shard) == before
    groups.ack("stuck", [(shard, before)])
    assert trim_outbox(groups, shard) == 3  # now "slow" is the oldest reader: it read 3
    assert ids(store, shard) == before[3:]


def test_once_every_group_acknowledged_the_stream_shrinks_and_new_notices_still_arrive(
    store: EventStore,
) -> None:
    a, b = follower(store, "a"), follower(store, "b")
    groups, shard = store.outbox_groups(), fill(store, "m1", 7)
    for group in (a, b):
        while group.poll():
            pass
    assert len(ids(store, shard)) == 7
    assert trim_outbox(groups, shard) == 7
    assert ids(store, shard) == []
    append(store, "m1", 7)
    assert a.poll() == 1 and b.poll() == 1  # the groups go on reading after the trim
    assert trim_outbox(groups, shard) == 1 and ids(store, shard) == []


def test_a_required_group_that_does_not_exist_yet_keeps_every_entry(store: EventStore) -> None:
    present = follower(store, "present")
    groups, shard = store.outbox_groups(), fill(store, "m1", 4)
    while present.poll():
        pass
    assert groups.lowest_needed(shard, required=["present", "later"]) is None
    assert trim_outbox(groups, shard, required=["present", "later"]) == 0
    assert len(ids(store, shard)) == 4
    later = follower(store, "later")  # created at 0: it still gets every notice
    assert later.poll() == 3 and later.poll() == 1
    assert trim_outbox(groups, shard, required=["present", "later"]) == 4


def test_a_stream_without_any_group_is_never_trimmed(store: EventStore) -> None:
    groups, shard = store.outbox_groups(), fill(store, "m1", 3)
    assert trim_outbox(groups, shard) == 0 and len(ids(store, shard)) == 3
    assert trim_outbox(groups, 99) == 0  # no stream at all


def test_a_group_moved_back_needs_its_entries_again(redis_store: RedisEventStore) -> None:
    """XGROUP SETID to an earlier id (replaying a projection) makes those entries needed again."""
    store, group = redis_store, follower(redis_store, "g")
    groups, shard = store.outbox_groups(), fill(store, "m1", 5)
    while group.poll():
        pass
    first = ids(store, shard)[0]
    store.client.xgroup_setid(store.outbox_key(shard), "g", "0")
    assert groups.lowest_needed(shard) == "0-1"
    assert trim_outbox(groups, shard) == 0
    assert ids(store, shard)[0] == first


class AckBetweenReads:
    """The Redis client, but a group's pending entries are all acknowledged (on the real Redis) just
    before XPENDING reads them: the race between XINFO GROUPS and XPENDING, made to happen."""

    def __init__(self, client: redis.Redis, group: str) -> None:
        self.client, self.group = client, group

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def xpending(self, key: str, group: str) -> Any:
        if _text(group) == self.group:
            pending = self.client.xpending_range(key, group, min="-", max="+", count=1000)
            self.client.xack(key, group, *[p["message_id"] for p in pending])
        return self.client.xpending(key, group)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def on(store: RedisEventStore, client: AckBetweenReads) -> RedisOutboxGroups:
    """The store's outbox groups, reading through ``client``."""
    groups = store.outbox_groups()
    groups.client = client
    return groups


def test_a_group_that_acknowledges_everything_between_the_two_reads_keeps_what_others_need(
    redis_store: RedisEventStore,
) -> None:
    store, slow = redis_store, follower(redis_store, "slow")
    follower(store, "racer")
    shard = fill(store, "m1", 9)
    key, before = store.outbox_key(shard), ids(store, shard)
    store.client.xreadgroup("racer", "racer-1", {key: ">"})  # all 9 read, none acknowledged yet
    slow.poll()  # reads and acknowledges the first 3 only
    racing = on(store, AckBetweenReads(store.client, "racer"))
    assert trim_outbox(racing, shard) == 3  # what "slow" read and acked
    assert store.client.xpending(key, "racer")["pending"] == 0  # the hook did acknowledge them
    assert ids(store, shard) == before[3:]
    assert slow.poll() + slow.poll() == 6  # "slow" still reads everything it had not read


def test_when_the_racing_group_held_the_oldest_entries_they_go_once_acknowledged(
    redis_store: RedisEventStore,
) -> None:
    store, fast = redis_store, follower(redis_store, "fast")
    follower(store, "racer")
    shard = fill(store, "m1", 5)
    key = store.outbox_key(shard)
    store.client.xreadgroup("racer", "racer-1", {key: ">"})
    while fast.poll():
        pass
    assert trim_outbox(store.outbox_groups(), shard) == 0  # "racer" has all 5 pending
    assert trim_outbox(on(store, AckBetweenReads(store.client, "racer")), shard) == 5
    append(store, "m1", 5)
    assert fast.poll() == 1 and store.client.xreadgroup("racer", "racer-1", {key: ">"})[0][1]


def test_a_group_without_a_last_delivered_id_keeps_every_entry(redis_store: RedisEventStore) -> None:
    store = redis_store
    follower(store, "g")
    shard = fill(store, "m1", 4)

    class NoLastDelivered(AckBetweenReads):
        def xinfo_groups(self, key: str) -> Any:
            return [{**group, "last-delivered-id": None} for group in self.client.xinfo_groups(key)]

    assert trim_outbox(on(store, NoLastDelivered(store.client, "")), shard) == 0
    assert len(ids(store, shard)) == 4


def test_on_a_cluster_each_shard_stream_is_trimmed_in_its_own_slot(redis_cluster: RedisCluster) -> None:
    client = cluster_client(redis_cluster)
    store = RedisEventStore(client, shards=4)
    readers = [follower(store, "reactor"), follower(store, "lobby")]
    for n in range(12):
        append(store, f"m{n}", 0)
    for group in readers:
        while group.poll():
            pass
    keys, groups = [store.outbox_key(shard) for shard in range(store.shards)], store.outbox_groups()
    assert sum(client.xlen(key) for key in keys) == 12
    assert sum(trim_outbox(groups, shard, required=["reactor", "lobby"]) for shard in range(4)) == 12
    assert [client.xlen(key) for key in keys] == [0, 0, 0, 0]
    client.close()
