"""The rule services' asyncio cluster client (``shared.store.cluster_client``), many coroutines at once."""

from __future__ import annotations

import asyncio

from shared.store.cluster_client import AsyncCluster
from tests.support.redis_cluster import RedisCluster


async def _sets(port: int, at_once: int, most: int) -> list[object]:
    client = AsyncCluster(host="127.0.0.1", port=port, max_connections=most)
    try:
        return await asyncio.gather(
            *(client.set(f"{{s{i % 16:02d}}}:k{i}", i) for i in range(at_once)), return_exceptions=True
        )
    finally:
        await client.aclose()


def test_a_new_client_s_first_commands_at_once_all_succeed(redis_cluster: RedisCluster) -> None:
    """redis-py's own client failed some of them (AttributeError) in about half such runs."""
    port = redis_cluster.startup_nodes[0][1]
    for _ in range(8):
        assert asyncio.run(_sets(port, 50, 100)) == [True] * 50


def test_commands_past_max_connections_wait_instead_of_failing(redis_cluster: RedisCluster) -> None:
    """redis-py's own client raised MaxConnectionsError for those past its pool."""
    port = redis_cluster.startup_nodes[0][1]
    assert asyncio.run(_sets(port, 60, 4)) == [True] * 60
