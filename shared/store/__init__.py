"""The event store: one interface, a Redis Streams adapter and an in-memory fake."""

from shared.store.base import (
    MAX_BATCH,
    MAX_PAYLOAD,
    PROGRESS_KEYS,
    AppendResult,
    BatchTooLarge,
    EventStore,
    MatchMeta,
    MatchStatus,
    NewEvent,
    OutboxNotice,
    PayloadTooLarge,
    Progress,
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
    "PROGRESS_KEYS",
    "AppendResult",
    "BatchTooLarge",
    "EventStore",
    "MatchMeta",
    "MatchStatus",
    "MemoryEventStore",
    "NewEvent",
    "OutboxNotice",
    "PayloadTooLarge",
    "Progress",
    "Snapshot",
    "StoreError",
    "StoredEvent",
    "VersionConflict",
    "shard_of",
]
