"""Event stores for tests: the in-memory fake, the session's private Redis and its 3-master cluster.

One store suite runs each test on all three (a fixture parametrized over ``STORES`` that yields from
:func:`store_of`); a test of what only a cluster does takes :func:`cluster_client`. The Redis fixtures
(``redis_client``, ``redis_cluster``) are tests/conftest.py's: private servers, never the machine's.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis.cluster

from shared.store import EventStore, MemoryEventStore
from shared.store.base import DEFAULT_SHARDS
from shared.store.redis_store import RedisEventStore
from tests.support.redis_cluster import RedisCluster

STORES = ("memory", "redis", "cluster")


def cluster_client(cluster: RedisCluster) -> redis.cluster.RedisCluster:
    """A client of the test cluster, every master emptied first (the cluster is the session's)."""
    nodes = [redis.cluster.ClusterNode(h, p) for h, p in cluster.startup_nodes]  # type: ignore[no-untyped-call]
    client = redis.cluster.RedisCluster(startup_nodes=nodes)
    client.flushall(target_nodes=redis.cluster.RedisCluster.PRIMARIES)
    return client


def store_of(request: pytest.FixtureRequest, shards: int = DEFAULT_SHARDS) -> Iterator[EventStore]:
    """The store ``request.param`` names (one of ``STORES``), empty, closed after the test."""
    if request.param == "memory":
        yield MemoryEventStore(shards)
    elif request.param == "redis":
        yield RedisEventStore(request.getfixturevalue("redis_client"), shards)
    else:
        client = cluster_client(request.getfixturevalue("redis_cluster"))
        yield RedisEventStore(client, shards)
        client.close()
