"""redis-py's asyncio Redis Cluster client, made safe for many coroutines of one loop at once.

Two things redis-py 8.1's ``redis.asyncio.cluster.RedisCluster`` gets wrong when a rule service's
serving loop sends it many commands together (both shown by ``tests/integration/test_async_cluster.py``):

* the first commands of a client that has not connected yet, sent at once, fail now and then with
  ``AttributeError: 'NoneType' object has no attribute 'writelines'`` (a few of 50 in half the runs
  here; a client initialized before them never did): here the first command initializes the client
  while the others wait for it;
* more commands at once than ``max_connections`` fail with ``MaxConnectionsError`` instead of
  waiting for a connection, as the plain client's blocking pool does: here at most that many run at
  once, and the others wait their turn.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio.cluster


class AsyncCluster(redis.asyncio.cluster.RedisCluster):
    def __init__(self, *, max_connections: int = 100, **kwargs: Any) -> None:
        super().__init__(max_connections=max_connections, **kwargs)
        self._most = max_connections
        self._ready: asyncio.Lock | None = None  # made on the loop that uses the client
        self._turns: asyncio.Semaphore | None = None

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        if self._initialize:  # redis-py's own flag: True until the client has connected
            self._ready = self._ready or asyncio.Lock()
            async with self._ready:
                if self._initialize:
                    await self.initialize()
        self._turns = self._turns or asyncio.Semaphore(self._most)
        async with self._turns:
            return await super().execute_command(*args, **kwargs)
