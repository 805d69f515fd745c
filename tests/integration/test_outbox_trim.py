"""Outbox trimming on a private Redis and a 3-master cluster: only what every group acknowledged goes."""

from __future__ import annotations

from typing import Any

import pytest
import redis
import redis.cluster

from shared.runtime.edge import wait
from shared.store import MatchStatus, NewEvent, OutboxNotice, Progress, shard_of
from shared.store.outbox import FollowerSettings, OutboxFollower, lowest_needed, trim_outbox
from shared.store.redis_store import RedisEventStore
from tests.support.redis_cluster import RedisCluster
from tests.support.stores import cluster_client

SHARDS = 2


def follower(store: RedisEventStore, group: str, fail: bool = False) -> OutboxFollower:
    def handle(notice: OutboxNotice) -> None:
        if fail:
            raise RuntimeError("not acknowledged")

    settings = FollowerSettings(group, f"{group}-1", claim_idle_ms=60_000, block_ms=10, count=3)
    found = OutboxFollower(store, range(store.shards), handle, settings)
    found.ensure_groups()
    return found


def append(store: RedisEventStore, match_id: str, version: int) -> None:
    progress = Progress((0,), False, MatchStatus.ACTIVE)
    wait(store.append(match_id, version, [NewEvent("Moved", b"x")], f"c{version}", progress=progress))


def fill(store: RedisEventStore, match_id: str, appends: int) -> str:
    """``appends`` notices on the match's shard; returns the shard's outbox key."""
    for version in range(appends):
        append(store, match_id, version)
    return store.outbox_key(shard_of(match_id, store.shards))


def ids(client: Any, key: str) -> list[bytes]:
    return [entry_id for entry_id, _ in client.xrange(key)]


@pytest.fixture
def store(redis_client: redis.Redis) -> RedisEventStore:
    return RedisEventStore(redis_client, shards=SHARDS)


def test_entries_a_group_has_not_read_or_not_acknowledged_are_kept(store: RedisEventStore) -> None:
    fast, stuck, slow = follower(store, "fast"), follower(store, "stuck", fail=True), follower(store, "slow")
    key = fill(store, "m1", 9)
    before = ids(store.client, key)
    while fast.poll():
        pass
    stuck.poll()  # reads the first 3 and fails: they stay pending
    while stuck.poll():
        pass
    slow.poll()  # reads and acknowledges the first 3 only
    assert store.client.xpending(key, "stuck")["pending"] == 9
    assert trim_outbox(store.client, key) == 0  # "stuck" still needs the very first entry
    assert ids(store.client, key) == before
    store.client.xack(key, "stuck", *before)
    assert trim_outbox(store.client, key) == 3  # now "slow" is the oldest reader: it read 3
    assert ids(store.client, key) == before[3:]


def test_once_every_group_acknowledged_the_stream_shrinks_and_new_notices_still_arrive(
    store: RedisEventStore,
) -> None:
    a, b = follower(store, "a"), follower(store, "b")
    key = fill(store, "m1", 7)
    for group in (a, b):
        while group.poll():
            pass
    assert store.client.xlen(key) == 7
    assert trim_outbox(store.client, key) == 7
    assert store.client.xlen(key) == 0
    append(store, "m1", 7)
    assert a.poll() == 1 and b.poll() == 1  # the groups go on reading after the trim
    assert trim_outbox(store.client, key) == 1 and store.client.xlen(key) == 0


def test_a_required_group_that_does_not_exist_yet_keeps_every_entry(store: RedisEventStore) -> None:
    present = follower(store, "present")
    key = fill(store, "m1", 4)
    while present.poll():
        pass
    assert lowest_needed(store.client, key, required=["present", "later"]) is None
    assert trim_outbox(store.client, key, required=["present", "later"]) == 0
    assert store.client.xlen(key) == 4
    later = follower(store, "later")  # created at 0: it still gets every notice
    assert later.poll() == 3 and later.poll() == 1
    assert trim_outbox(store.client, key, required=["present", "later"]) == 4


def test_a_stream_without_any_group_is_never_trimmed(store: RedisEventStore) -> None:
    key = fill(store, "m1", 3)
    assert trim_outbox(store.client, key) == 0 and store.client.xlen(key) == 3
    assert trim_outbox(store.client, store.outbox_key(99)) == 0  # no stream at all


def test_a_group_moved_back_needs_its_entries_again(store: RedisEventStore) -> None:
    """XGROUP SETID to an earlier id (replaying a projection) makes those entries needed again."""
    group = follower(store, "g")
    key = fill(store, "m1", 5)
    while group.poll():
        pass
    first = ids(store.client, key)[0]
    store.client.xgroup_setid(key, "g", "0")
    assert lowest_needed(store.client, key) == "0-1"
    assert trim_outbox(store.client, key) == 0
    assert ids(store.client, key)[0] == first


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


def test_a_group_that_acknowledges_everything_between_the_two_reads_keeps_what_others_need(
    store: RedisEventStore,
) -> None:
    slow = follower(store, "slow")
    follower(store, "racer")
    key = fill(store, "m1", 9)
    before = ids(store.client, key)
    store.client.xreadgroup("racer", "racer-1", {key: ">"})  # all 9 read, none acknowledged yet
    slow.poll()  # reads and acknowledges the first 3 only
    assert trim_outbox(AckBetweenReads(store.client, "racer"), key) == 3  # what "slow" read and acked
    assert store.client.xpending(key, "racer")["pending"] == 0  # the hook did acknowledge them
    assert ids(store.client, key) == before[3:]
    assert slow.poll() + slow.poll() == 6  # "slow" still reads everything it had not read


def test_when_the_racing_group_held_the_oldest_entries_they_go_once_acknowledged(
    store: RedisEventStore,
) -> None:
    fast = follower(store, "fast")
    follower(store, "racer")
    key = fill(store, "m1", 5)
    store.client.xreadgroup("racer", "racer-1", {key: ">"})
    while fast.poll():
        pass
    assert trim_outbox(store.client, key) == 0  # "racer" has all 5 pending
    assert trim_outbox(AckBetweenReads(store.client, "racer"), key) == 5
    append(store, "m1", 5)
    assert fast.poll() == 1 and store.client.xreadgroup("racer", "racer-1", {key: ">"})[0][1]


def test_a_group_without_a_last_delivered_id_keeps_every_entry(store: RedisEventStore) -> None:
    follower(store, "g")
    key = fill(store, "m1", 4)

    class NoLastDelivered(AckBetweenReads):
        def xinfo_groups(self, key: str) -> Any:
            return [{**group, "last-delivered-id": None} for group in self.client.xinfo_groups(key)]

    assert trim_outbox(NoLastDelivered(store.client, ""), key) == 0
    assert store.client.xlen(key) == 4


def test_on_a_cluster_each_shard_stream_is_trimmed_in_its_own_slot(redis_cluster: RedisCluster) -> None:
    client = cluster_client(redis_cluster)
    store = RedisEventStore(client, shards=4)
    readers = [follower(store, "reactor"), follower(store, "lobby")]
    for n in range(12):
        append(store, f"m{n}", 0)
    for group in readers:
        while group.poll():
            pass
    keys = [store.outbox_key(shard) for shard in range(store.shards)]
    assert sum(client.xlen(key) for key in keys) == 12
    assert sum(trim_outbox(client, key, required=["reactor", "lobby"]) for key in keys) == 12
    assert [client.xlen(key) for key in keys] == [0, 0, 0, 0]
    client.close()
