"""Settings from the environment, and the one place that builds Redis clients."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

if TYPE_CHECKING:  # redis is imported by the functions that make clients: `tabula --help` needs none
    from shared.store.redis_store import AsyncRedisClient, RedisClient

# The platform's own processes. A game's rule service takes its default port from its manifest
# (``services.games.game_port``): shared never learns which games exist.
PORTS = {"lobby": 50051, "gateway": 8080}
# matches whose state a runner keeps folded (``TABULA_STATE_CACHE``; about 10 KB each): a command at
# the cached version is decided without a read (docs/operations.md, "The state cache")
STATE_CACHE = 1024


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str
    redis_cluster: bool
    shards: int
    host: str
    metrics_port: int
    log_level: str
    state_cache: int = STATE_CACHE  # rule services' and workers' runners

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> Settings:
        e = env if env is not None else dict(os.environ)
        return Settings(
            redis_url=e.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            redis_cluster=e.get("TABULA_REDIS_CLUSTER", "0") == "1",
            shards=int(e.get("TABULA_SHARDS", "16")),
            host=e.get("TABULA_HOST", "127.0.0.1"),
            metrics_port=int(e.get("TABULA_METRICS_PORT", "-1")),
            log_level=e.get("TABULA_LOG_LEVEL", "INFO"),
            state_cache=int(e.get("TABULA_STATE_CACHE", str(STATE_CACHE))),
        )


CPU_MAX = Path("/sys/fs/cgroup/cpu.max")  # cgroup v2: "<quota> <period>" or "max <period>"


def available_cpus(cpu_max: Path = CPU_MAX) -> int:
    """The CPUs this process may use: its CPU affinity, capped by its cgroup's CPU quota where there is
    one (a container's CPU limit: 1500m is 2, rounded up), at least 1. ``os.cpu_count`` counts the
    host's, which in a pod limited to 2 of a 64-core node is 64."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        quota, period = cpu_max.read_text().split()
        if quota != "max":
            cpus = min(cpus, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota readable here: the affinity alone
    return max(cpus, 1)


def port_for(service: str, env: Mapping[str, str] | None = None, default: int | None = None) -> int:
    """``TABULA_<SERVICE>_PORT``, else ``default``, else the platform's port for ``service``."""
    e = env if env is not None else os.environ
    fallback = default if default is not None else PORTS[service]
    return int(e.get(f"TABULA_{service.upper()}_PORT", fallback))


def redis_client(settings: Settings, max_connections: int | None = None) -> RedisClient:
    """Bytes in, bytes out (payloads are protobuf). Cluster mode follows TABULA_REDIS_CLUSTER.

    ``max_connections``: the pool's size (per node on a cluster), for a server sized from its caps
    (``shared.grpc_server.Limits.redis_connections``); a caller past it waits for a connection
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
    watch hub's readers (``shared.watch``); bytes in, bytes out."""
    import redis.asyncio
    import redis.asyncio.cluster

    from shared.cluster_client import AsyncCluster

    if settings.redis_cluster:
        url = urlparse(settings.redis_url)
        node = redis.asyncio.cluster.ClusterNode(url.hostname or "127.0.0.1", url.port or 6379)
        # many coroutines at once: initialized once, at most max_connections commands at a time
        return AsyncCluster(startup_nodes=[node], socket_timeout=30, max_connections=max_connections)
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=max_connections, timeout=20, socket_timeout=30
    )
    return redis.asyncio.Redis(connection_pool=pool)
