"""What the lobby's projectors share: a consumer group on every outbox shard, read by the shared follower.

A notice that fails stays pending, is claimed again after ``CLAIM_IDLE_MS`` and dead-lettered after
``MAX_DELIVERIES`` (``shared.store.outbox``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from shared.store import EventStore, OutboxNotice
from shared.store.outbox import FollowerSettings, OutboxFollower

CLAIM_IDLE_MS = 30_000
MAX_DELIVERIES = 5


class OutboxGroup:
    """A projector's follower: ``poll`` makes one pass over every shard, ``run`` until ``stopping``."""

    follower: OutboxFollower

    def follow(
        self,
        store: EventStore,
        group: str,
        consumer: str,
        handle: Callable[[OutboxNotice], None],
        block_ms: int,
        linger_ms: int,
        after_page: Callable[[], None] | None = None,
    ) -> None:
        follow = FollowerSettings(
            group, consumer, CLAIM_IDLE_MS, MAX_DELIVERIES, block_ms, linger_ms=linger_ms
        )
        self.follower = OutboxFollower(store, range(store.shards), handle, follow, after_page=after_page)

    def poll(self) -> int:
        """One pass over every shard (long-pending notices when due, then new ones); notices handled."""
        return self.follower.poll_once()

    def run(self, stopping: threading.Event) -> None:
        self.follower.run(stopping)
