"""Event store interface, envelope types and errors (ARCHITECTURE, rules 1 and 3).

A match is one stream of events with dense versions 1, 2, 3, ...  Every append names the
version it expects and a command id: a stale writer gets :class:`VersionConflict`, and a
retry of an applied command id gets the first result back and writes nothing.
"""

from __future__ import annotations

import enum
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from shared.core.decider import Outcome

MAX_PAYLOAD = 64 * 1024
MAX_BATCH = 256
DEFAULT_SHARDS = 16
SCHEMA_VERSION = 1
_MATCH_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class StoreError(Exception):
    """Base class of the store's domain errors."""


class VersionConflict(StoreError):
    def __init__(self, match_id: str, expected: int, actual: int) -> None:
        super().__init__(f"match {match_id}: expected version {expected}, stream is at {actual}")
        self.match_id, self.expected, self.actual = match_id, expected, actual


class PayloadTooLarge(StoreError):
    pass


class BatchTooLarge(StoreError):
    pass


class InvalidAppend(StoreError):
    pass


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append. ``visibility``: ``public``, ``seat:N`` or ``server``."""

    type: str
    payload: bytes
    visibility: str = "public"
    actor: str = "system"
    schema_version: int = SCHEMA_VERSION


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """The envelope of one appended event."""

    version: int
    type: str
    payload: bytes
    visibility: str
    command_id: str
    actor: str
    server_time_ms: int
    schema_version: int


@dataclass(frozen=True, slots=True)
class AppendResult:
    first_version: int
    last_version: int
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int
    data: bytes


class MatchStatus(enum.StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


PROGRESS_KEYS = ("to_act", "system", "status", "outcome", "held")


@dataclass(frozen=True, slots=True)
class Progress:
    """What the platform decides from, as the rules saw the match right after an append.

    The runner writes it with every append, in the same script, to the match meta and to the
    outbox notice, so the reactor and the lobby never load game code to learn who is to act,
    whether a system step is due, or how a finished match ended. Plain fields (``fields()``):
    ``to_act`` "0,2" (seats, may be empty), ``system`` "1" / "0", ``status`` "active" /
    "finished", once finished ``outcome`` = ``{"scores": [...], "placings": [...]}``, and ``held``
    "1" / "0".

    ``held``: the writer plays the next move itself, so nobody is to plan it. A bot worker sets it
    when its move leaves one bot seat to act and it plays that one too (a bot chain,
    docs/workers.md); the reactor then plans no bot job for the notice. Absent (older notices and
    metas) means not held.
    """

    to_act: tuple[int, ...]  # seats that may act now
    system: bool  # a round, period or game end is pending
    status: MatchStatus
    outcome: Outcome | None = None  # set exactly when finished
    held: bool = False  # the writer plays on (see above)

    def fields(self) -> dict[str, str]:
        out = {
            "to_act": ",".join(str(seat) for seat in self.to_act),
            "system": "1" if self.system else "0",
            "status": self.status.value,
            "held": "1" if self.held else "0",  # always written: a meta keeps no stale "1"
        }
        if self.outcome is not None:
            scores, placings = list(self.outcome.scores), list(self.outcome.placings)
            out["outcome"] = json.dumps({"scores": scores, "placings": placings}, separators=(",", ":"))
        return out

    @staticmethod
    def parse(fields: Mapping[str, str]) -> Progress | None:
        """From meta or notice fields; None when they were written before progress was recorded."""
        if "to_act" not in fields or "status" not in fields:
            return None
        raw = fields.get("outcome")
        outcome = None
        if raw:
            plain = json.loads(raw)
            outcome = Outcome(tuple(plain["scores"]), tuple(plain["placings"]))
        seats = tuple(int(seat) for seat in fields["to_act"].split(",") if seat)
        system, held = fields.get("system") == "1", fields.get("held") == "1"
        return Progress(seats, system, MatchStatus(fields["status"]), outcome, held)


@dataclass(frozen=True, slots=True)
class OutboxNotice:
    """One notice per append on the shard's outbox stream."""

    entry_id: str
    match_id: str
    first_version: int
    last_version: int
    types: tuple[str, ...]
    game: str
    progress: Progress | None = None  # None: written by a bare store append, or before it existed
    actor: str = ""  # the append's actor label (``seat:N`` a person); "" in notices written before it was


def shard_of(match_id: str, shards: int = DEFAULT_SHARDS) -> int:
    return zlib.crc32(match_id.encode()) % shards


def check_append(match_id: str, expected_version: int, events: Sequence[NewEvent], command_id: str) -> None:
    """Limits checked before anything is written (so a rejected batch writes nothing)."""
    if not _MATCH_ID.match(match_id):
        raise InvalidAppend(f"bad match id {match_id!r}")
    if not command_id or len(command_id) > 128:
        raise InvalidAppend("command id must be 1 to 128 characters")
    if expected_version < 0:
        raise InvalidAppend("expected version must be >= 0")
    if not events:
        raise InvalidAppend("an append needs at least one event")
    if len(events) > MAX_BATCH:
        raise BatchTooLarge(f"{len(events)} events in one append; the limit is {MAX_BATCH}")
    for event in events:
        if len(event.payload) > MAX_PAYLOAD:
            raise PayloadTooLarge(f"{event.type} payload is {len(event.payload)} bytes; limit {MAX_PAYLOAD}")


class EventStore(Protocol):
    """What the runner, services and workers need from storage. Every operation is a coroutine: a
    rule service awaits it on its serving loop, synchronous code goes through the one sync edge
    (``shared.runtime.edge.wait``)."""

    shards: int

    async def append(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str,
        meta: Mapping[str, str] | None = None,
        progress: Progress | None = None,
    ) -> AppendResult:
        """Atomically: dedupe command id, check version, add events, set meta, notify outbox.

        Returns once the events are stored. ``progress`` goes both into the meta and into the notice
        (the runner always passes it).
        """
        ...

    async def command_result(self, match_id: str, command_id: str) -> AppendResult | None: ...

    async def version(self, match_id: str) -> int: ...

    async def read(
        self, match_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]: ...

    async def get_meta(self, match_id: str) -> dict[str, str]: ...

    async def meta_and_tail(
        self, match_id: str, after_version: int
    ) -> tuple[dict[str, str], list[StoredEvent]]:
        """``get_meta`` and the events after ``after_version``, read together (one round trip):
        what a runner with a cached state needs to bring it to the head."""
        ...

    async def set_meta(self, match_id: str, fields: Mapping[str, str]) -> None: ...

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None: ...

    async def load_snapshot(self, match_id: str) -> Snapshot | None: ...

    async def read_outbox(self, shard: int, after: str = "0-0", count: int = 100) -> list[OutboxNotice]: ...

    def outbox_key(self, shard: int) -> str: ...

    async def active_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]:
        """The shard's active matches with the server time (ms) of their last append, oldest first.

        Only those whose last append was at or before ``until_ms``, if given. The index is kept by
        the append itself: an append whose progress says ``active`` adds the match (or moves it to
        now), ``finished`` removes it; a bare append (no progress) leaves it as it was. The reactor's
        sweeper reads it to find matches that wait on the workers with no progress.
        """
        ...
