"""The event store: one interface, a Redis Streams adapter and an in-memory fake."""

from shared.store.base import (
    MAX_BATCH,
    MAX_PAYLOAD,
    AppendResult,
    BatchTooLarge,
    EventStore,
    NewEvent,
    OutboxNotice,
    PayloadTooLarge,
    Snapshot,
    StoredEvent,
    StoreError,
    VersionConflict,
    shard_of,
)
from shared.store.memory import MemoryEventStore

__all__ = [
    "MAX_BATCH",
    "MAX_PAYLOAD",
    "AppendResult",
    "BatchTooLarge",
    "EventStore",
    "MemoryEventStore",
    "NewEvent",
    "OutboxNotice",
    "PayloadTooLarge",
    "Snapshot",
    "StoreError",
    "StoredEvent",
    "VersionConflict",
    "shard_of",
]
