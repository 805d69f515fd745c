"""Change feeds: a capped Redis stream per room or ticket that every write appends to.

Watchers block on ``XREAD`` from the last entry they saw, so a change made by any lobby
instance wakes every watcher on every instance, and no change between reads is missed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from services.lobby.adapters.keys import text
from shared.store.redis_store import RedisClient


class Feed:
    def __init__(self, client: RedisClient, key: str) -> None:
        self.client = client
        self.key = key

    def head(self) -> str:
        last: Any = self.client.xrevrange(self.key, count=1)
        return text(last[0][0]) if last else "0-0"

    def follow(self, block_ms: int) -> Iterator[bool]:
        """Remember the head now (before the caller reads the state), then yield per wake-up:
        True when something changed since, False after ``block_ms`` of quiet."""
        return self._follow(self.head(), block_ms)

    def _follow(self, after: str, block_ms: int) -> Iterator[bool]:
        while True:
            reply: Any = self.client.xread({self.key: after}, block=block_ms, count=100)
            entries = [entry_id for _, items in reply for entry_id, _ in items]
            if entries:
                after = text(entries[-1])
            yield bool(entries)
