"""The one place that builds Redis clients, from the settings (``shared.runtime.config.Settings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlparse

from shared.runtime.config import Settings

if TYPE_CHECKING:  # redis is imported by the functions that make clients: `tabula --help` needs none
    from shared.store.redis_store import AsyncRedisClient, RedisClient, RedisEventStore


def redis_client(settings: Settings, max_connections: int | None = None) -> RedisClient:
    """Bytes in, bytes out (payloads are protobuf). Cluster mode follows TABULA_REDIS_CLUSTER.

    ``max_connections``: the pool's size (per node on a cluster), for a server sized from its caps
    (``shared.serving.grpc_server.Limits.redis_connections``); a caller past it waits for a connection
    instead of failing. None: redis-py's default pool, unbounded in practice.
    """
    import redis
    import redis.cluster

    if settings.redis_cluster:
        url = urlparse(settings.redis_url)
        node = redis.cluster.ClusterNode(url.hostname or "127.0.0.1", url.port or 6379)  # type: ignore[no-untyped-call]
        if max_connections is None:
            return redis.cluster.RedisCluster(startup_nodes=[node], socket_timeout=30)
        return redis.cluster.RedisCluster(
            startup_nodes=[node], socket_timeout=30, max_connections=max_connections
        )
    if max_connections is None:
        return redis.Redis.from_url(settings.redis_url, socket_timeout=30, health_check_interval=30)
    pool = redis.BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=max_connections,
        timeout=20,
        socket_timeout=30,
        health_check_interval=30,
    )
    return redis.Redis(connection_pool=pool)


def async_redis_client(settings: Settings, max_connections: int) -> AsyncRedisClient:
    """A ``redis.asyncio`` client of at most ``max_connections`` (per node on a cluster), for the
    watch hub's readers (``shared.serving.watch``); bytes in, bytes out."""
    import redis.asyncio
    import redis.asyncio.cluster

    from shared.store.cluster_client import AsyncCluster

    if settings.redis_cluster:
        url = urlparse(settings.redis_url)
        node = redis.asyncio.cluster.ClusterNode(url.hostname or "127.0.0.1", url.port or 6379)
        # many coroutines at once: initialized once, at most max_connections commands at a time
        return AsyncCluster(startup_nodes=[node], socket_timeout=30, max_connections=max_connections)
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=max_connections, timeout=20, socket_timeout=30
    )
    return redis.asyncio.Redis(connection_pool=pool)


def store_from_settings(
    settings: Settings, client: RedisClient | None = None, async_client: AsyncRedisClient | None = None
) -> RedisEventStore:
    """The process's event store: Redis, at the settings' URL (cluster mode: TABULA_REDIS_CLUSTER),
    with the settings' shards. ``client``: its synchronous client (default: ``redis_client(settings)``);
    ``async_client``: the one its own operations run on (default: one made like ``client``).

    Each process's bootstrap builds its store here and hands it on as an ``EventStore``."""
    from shared.store.redis_store import RedisEventStore

    client = client if client is not None else redis_client(settings)
    return RedisEventStore(client, shards=settings.shards, async_client=async_client)
