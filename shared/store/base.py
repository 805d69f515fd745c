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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from shared.core.decider import Outcome
from shared.core.seats import SeatInfo, seats_of

MAX_PAYLOAD = 64 * 1024
MAX_BATCH = 256
DEFAULT_SHARDS = 16
SCHEMA_VERSION = 1
_MATCH_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class StoreError(Exception):
    """Base class of the store's domain errors."""


class VersionConflict(StoreError):
    template = "match {match_id}: expected version {expected}, stream is at {actual}"

    def __init__(self, match_id: str, expected: int, actual: int) -> None:
        self.values = {"match_id": match_id, "expected": expected, "actual": actual}
        super().__init__(self.template.format(**self.values))
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


PROGRESS_KEYS = ("to_act", "system", "status", "outcome", "held", "resigned")


@dataclass(frozen=True, slots=True)
class Progress:
    """What the platform decides from, as the rules saw the match right after an append.

    The runner writes it with every append, in the same script, to the match meta and to the
    outbox notice, so the reactor and the lobby never load game code to learn who is to act,
    whether a system step is due, or how a finished match ended. Plain fields (``fields()``):
    ``to_act`` "0,2" (seats, may be empty), ``system`` "1" / "0", ``status`` "active" /
    "finished", once finished ``outcome`` = ``{"scores": [...], "placings": [...]}``, ``held``
    "1" / "0", and ``resigned`` "2,0" (the seats that resigned, in order; may be empty).

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
    resigned: tuple[int, ...] = ()  # seats that resigned, in order: a bot plays them (shared.core.resign)

    def fields(self) -> dict[str, str]:
        out = {
            "to_act": ",".join(str(seat) for seat in self.to_act),
            "system": "1" if self.system else "0",
            "status": self.status.value,
            "held": "1" if self.held else "0",  # always written: a meta keeps no stale "1"
            "resigned": ",".join(str(seat) for seat in self.resigned),
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
        resigned = tuple(int(seat) for seat in fields.get("resigned", "").split(",") if seat)
        return Progress(seats, system, MatchStatus(fields["status"]), outcome, held, resigned)


_META_KEYS = ("game", "seats", "seed", "options", "bots", "turn_seconds", "players", "names", "version")
_AWAY = "away:"
_SEEN = "seen:"


@dataclass(frozen=True, slots=True)
class MatchMeta:
    """A match's meta hash, typed: what the runner, the rule service, the append and the workers write.

    The stored hash is plain strings (``fields()`` / ``from_fields``, unchanged by a round trip):
    ``game``; ``seats``, ``seed``, ``turn_seconds`` and ``version`` as decimals; ``options`` a JSON
    object (sorted keys); ``players`` and ``names`` JSON lists (one per seat); ``bots`` a JSON object
    ``{"<seat>": "<level>"}``; the :class:`Progress` fields; ``away:<seat>`` "1" / "0"; ``seen:<seat>``
    the time (ms) until which the seat's player is known to watch the match live (:class:`Followed`).
    A key a meta lacks (an older match, a bare append) reads as its default and is not written back
    (``present``); keys the platform does not know are kept as they are (``other``).
    """

    game: str = ""
    seats: int = 0
    seed: int = 0
    options: Mapping[str, str] = field(default_factory=dict)
    bots: Mapping[int, str] = field(default_factory=dict)  # seat -> bot level
    turn_seconds: int = 0  # 0: no turn clock
    players: tuple[str, ...] = ()  # player id per seat ("" or missing for a bot)
    names: tuple[str, ...] = ()  # display name per seat
    version: int | None = None  # the head; None: no event appended yet
    progress: Progress | None = None  # None: written before progress was recorded
    away: Mapping[int, bool] = field(default_factory=dict)  # seat -> marked away (a clock ran out)
    seen: Mapping[int, int] = field(default_factory=dict)  # seat -> watched live until (ms)
    other: Mapping[str, str] = field(default_factory=dict)
    present: frozenset[str] = frozenset((*_META_KEYS, *PROGRESS_KEYS))  # which keys the hash has

    @property
    def exists(self) -> bool:
        """Whether this is the meta of a match (an unknown match's is empty)."""
        return bool(self.fields())

    @property
    def seat_count(self) -> int:
        """The match's seats (a meta without ``seats``: one per player listed)."""
        return self.seats if "seats" in self.present else len(self.players)

    @property
    def seat_infos(self) -> tuple[SeatInfo, ...]:
        """Who plays each seat, as clients show it (empty for an unknown match)."""
        return seats_of(self.seat_count, self.players, self.names, self.bots)

    @property
    def head(self) -> int:
        """The version of the last event (0: none)."""
        return self.version or 0

    @property
    def finished(self) -> bool:
        return self.status is MatchStatus.FINISHED

    @property
    def status(self) -> MatchStatus | None:
        """The progress's status (a meta with a status but no progress: that status)."""
        if self.progress is not None:
            return self.progress.status
        raw = self.other.get("status", "")
        return MatchStatus(raw) if raw in {s.value for s in MatchStatus} else None

    @property
    def away_seats(self) -> frozenset[int]:
        return frozenset(seat for seat, marked in self.away.items() if marked)

    @staticmethod
    def away_marks(seats: Iterable[int], away: bool) -> dict[str, str]:
        """The meta fields that mark ``seats`` away (a clock ran out) or back (for ``set_meta``)."""
        return {f"{_AWAY}{seat}": "1" if away else "0" for seat in seats}

    @staticmethod
    def seen_mark(seat: int, until_ms: int) -> dict[str, str]:
        """The meta field that says the seat's player watches live until ``until_ms`` (0: no longer)."""
        return {f"{_SEEN}{seat}": str(until_ms)}

    @classmethod
    def of(cls, meta: MatchMeta | Mapping[str, str]) -> MatchMeta:
        return meta if isinstance(meta, MatchMeta) else cls.from_fields(meta)

    @classmethod
    def from_fields(cls, fields: Mapping[str, str]) -> MatchMeta:
        """From the stored hash (any age: a missing key reads as its default)."""
        away = {int(k[len(_AWAY) :]): v == "1" for k, v in fields.items() if _is_mark(k, _AWAY)}
        seen = {int(k[len(_SEEN) :]): _int(v) for k, v in fields.items() if _is_mark(k, _SEEN)}
        progress = Progress.parse(fields)
        known = {*_META_KEYS, *(PROGRESS_KEYS if progress is not None else ())}
        other = {k: v for k, v in fields.items() if k not in known and not _is_mark(k, _AWAY, _SEEN)}
        bots = _json(fields.get("bots"), {})
        return cls(
            game=fields.get("game", ""),
            seats=_int(fields.get("seats")),
            seed=_int(fields.get("seed")),
            options=_json(fields.get("options"), {}),
            bots={int(seat): str(level) for seat, level in bots.items() if str(seat).isdigit()},
            turn_seconds=_int(fields.get("turn_seconds")),
            players=tuple(str(p) if p else "" for p in _json(fields.get("players"), [])),
            names=tuple(str(n) if n else "" for n in _json(fields.get("names"), [])),
            version=int(fields["version"]) if fields.get("version", "").isdigit() else None,
            progress=progress,
            away=away,
            seen=seen,
            other=other,
            present=frozenset(k for k in known if k in fields),
        )

    def fields(self) -> dict[str, str]:
        """The stored hash: the keys ``present``, the progress, the away and seen marks and the other keys."""
        every = {
            "game": self.game,
            "seats": str(self.seats),
            "seed": str(self.seed),
            "options": json.dumps(dict(self.options), sort_keys=True),
            "bots": json.dumps({str(seat): level for seat, level in sorted(self.bots.items())}),
            "turn_seconds": str(self.turn_seconds),
            "players": json.dumps(list(self.players)),
            "names": json.dumps(list(self.names)),
            "version": str(self.version),
        }
        out = {
            k: v
            for k, v in every.items()
            if k in self.present and (k != "version" or self.version is not None)
        }
        if self.progress is not None:
            out.update({k: v for k, v in self.progress.fields().items() if k in self.present})
        out.update({f"{_AWAY}{seat}": "1" if marked else "0" for seat, marked in self.away.items()})
        out.update({f"{_SEEN}{seat}": str(until) for seat, until in self.seen.items()})
        out.update(self.other)
        return out


@dataclass(frozen=True, slots=True)
class Followed:
    """What the platform's followers act on in a match, from its meta: its bot seats (the reactor plans
    their moves), the seats a player holds (the lobby tells them their turn), whether it has a turn
    clock (the reactor sets and cancels clocks after every append), all fixed at creation; and until
    when each player is known to watch the match live (``seen``, a rule service's marks while a watch
    stream with the seat's token is open): such a player sees the turn come on the stream, so the
    lobby need not be woken to tell them."""

    bots: frozenset[int] = frozenset()
    players: frozenset[int] = frozenset()
    clock: bool = False
    seen: tuple[tuple[int, int], ...] = ()  # (seat, watched live until, ms), by seat

    @staticmethod
    def of(meta: MatchMeta) -> Followed:
        players = frozenset(seat for seat, player in enumerate(meta.players) if player)
        seen = tuple(sorted((seat, until) for seat, until in meta.seen.items() if until))
        return Followed(frozenset(meta.bots), players, meta.turn_seconds > 0, seen)

    def at(self, now_ms: int) -> Followed:
        """As :func:`quiet` takes it at ``now_ms``: the players watching live then are not counted."""
        watching = {seat for seat, until in self.seen if until > now_ms}
        return Followed(self.bots, self.players - watching, self.clock) if watching else self

    def seen_until(self, seat: int, until_ms: int) -> Followed:
        """With the seat's player watching live until ``until_ms`` (0: no longer)."""
        seen = tuple(sorted({**dict(self.seen), seat: until_ms}.items()))
        return replace(self, seen=tuple(mark for mark in seen if mark[1]))


def quiet(before: Progress, after: Progress, followed: Followed) -> bool:
    """Whether no follower acts on an append that took a match from ``before`` to ``after``, so that it
    needs no outbox notice: the match goes on with no system step due, no bot seat to act (a resigned
    seat is played like a bot's) and no turn clock (the reactor and the workers have nothing to do),
    and no player's turn begins (the lobby has nothing to announce: a notice names the seats that
    could act before it, so the lobby need not see a turn end). Players who watch the match live
    (``followed`` taken :meth:`Followed.at` the append's time) see their turn begin on the stream, so
    theirs do not count; nor do seats nobody signed in for."""
    if after.status is MatchStatus.FINISHED or after.system or followed.clock:
        return False
    if (followed.bots | set(after.resigned)) & set(after.to_act):
        return False
    return not followed.players & (set(after.to_act) - set(before.to_act))


def _is_mark(key: str, *prefixes: str) -> bool:
    """Whether ``key`` is ``<prefix><seat>`` for one of ``prefixes``."""
    return any(key.startswith(prefix) and key[len(prefix) :].isdigit() for prefix in prefixes)


def _int(raw: str | None) -> int:
    return int(raw) if raw and raw.isdigit() else 0


def _json(raw: str | None, empty: Any) -> Any:
    """A JSON field of the wanted shape (that of ``empty``), else ``empty``."""
    try:
        value = json.loads(raw) if raw else empty
    except ValueError:
        return empty
    return value if isinstance(value, type(empty)) else empty


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
    # the seats that could act before the append (``before`` of :func:`quiet`: a quiet append between two
    # notices may have changed them); None in notices of a bare append or written before it was
    was: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Delivered:
    """One outbox entry a consumer group handed out."""

    entry_id: str
    notice: OutboxNotice | None  # None: trimmed from the stream while it was pending
    deliveries: int = 1  # how often the group has handed it out (known for claimed entries)
    raw: Any = field(default=None, compare=False, repr=False)  # the store's own record (a dead letter's)


NO_SEQUENCE = 2**64 - 1  # the highest sequence number of an entry id


def entry_key(entry_id: str, last: bool = False) -> tuple[int, int]:
    """An outbox entry id ``<ms>-<seq>`` as a pair that sorts like the ids. A bare ``<ms>`` stands for
    its millisecond's first entry, or with ``last`` for its last (as Redis reads a range's ends)."""
    ms, dash, seq = entry_id.partition("-")
    return int(ms), (int(seq) if dash else (NO_SEQUENCE if last else 0))


def entry_after(entry_id: str) -> str:
    """The smallest entry id greater than ``entry_id``."""
    ms, seq = entry_key(entry_id)
    return f"{ms}-{seq + 1}"


class OutboxGroups(Protocol):
    """Consumer groups over the outbox shards: what a follower (``shared.store.outbox``), the outbox
    trimming and the archiver need.

    Blocking calls: a follower runs on a thread of its own. Each group keeps, per shard, the last
    entry it handed out and its pending entries (handed out, not acknowledged), each with its
    consumer, its delivery count and the time it was last handed out. Entry ids are ``<ms>-<seq>``,
    increasing along a shard's stream, the ms those of the append (an id never repeats, even after
    a trim)."""

    def create_group(self, shard: int, group: str) -> None:
        """The group on the shard, from the stream's first entry; nothing if it exists."""
        ...

    def read_group(
        self, group: str, consumer: str, starts: Mapping[int, str], count: int, block_ms: int | None
    ) -> list[tuple[int, list[Delivered]]]:
        """Per shard, from its start: ``>`` the entries never handed out (now ``consumer``'s,
        pending), waiting up to ``block_ms`` for the first; an entry id: ``consumer``'s own pending
        entries after it."""
        ...

    def ack(self, group: str, done: Sequence[tuple[int, Sequence[str]]]) -> None:
        """The entries handled, per shard (one round trip for them all)."""
        ...

    def claim_idle(self, shard: int, group: str, consumer: str, idle_ms: int, count: int) -> list[Delivered]:
        """Up to ``count`` of the shard's pending entries idle at least ``idle_ms``, now ``consumer``'s."""
        ...

    def dead_letter(self, shard: int, group: str, consumer: str, entry: Delivered) -> None:
        """Copy the entry to the shard's dead-letter stream (with entry, group, consumer); acknowledge it."""
        ...

    def pending(self, shard: int, group: str) -> int:
        """How many of the shard's entries the group handed out and has not had acknowledged."""
        ...

    def dead_letters(self, shard: int) -> list[dict[str, str]]:
        """The shard's dead letters, oldest first: a notice's fields, ``entry``, ``group``, ``consumer``."""
        ...

    def lowest_needed(self, shard: int, required: Sequence[str] = ()) -> str | None:
        """The lowest entry id any group of the shard still needs: per group, its oldest pending
        entry and the id right after the last one it was handed; the lowest over all groups. None
        when nothing may be trimmed: the shard has no group, or one of the ``required`` is missing."""
        ...

    def trim(self, shard: int, below: str) -> int:
        """Drop the shard's entries whose ids are below ``below`` (exactly); returns how many."""
        ...

    def read_range(self, shard: int, first: str, last: str) -> list[OutboxNotice]:
        """The shard's notices with ids from ``first`` to ``last``, both included (a bare ``<ms>``:
        see :func:`entry_key`)."""
        ...


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The turn clock of ``seat`` at ``version`` of a match: it runs out at ``due_ms`` (since the epoch)."""

    match_id: str
    version: int
    seat: int
    due_ms: int


class TurnClocks(Protocol):
    """Durable turn clocks, per shard: deadlines the reactor fires (docs/workers.md, "Turn clocks").

    Kept by the store, not as Celery countdowns, so they outlast any restart of the workers and the
    reactors. A clock is known by its match, version and seat. Blocking calls, like the outbox
    groups' (the reactor's thread)."""

    def set(self, clock: TurnClock) -> None:
        """Add the clock; set again (a notice handled again, the sweeper) it keeps its earliest due time."""
        ...

    def cancel(self, match_id: str, version: int, seats: int) -> None:
        """Forget the clocks of seats ``0 .. seats - 1`` at ``version`` (the match has moved past it)."""
        ...

    def take_due(self, shard: int, now_ms: int, count: int = 100) -> list[TurnClock]:
        """Remove and return the shard's clocks due by ``now_ms`` (at most ``count``, earliest first),
        each to one caller only: a clock fires once across reactor instances."""
        ...

    def pending(self, shard: int) -> list[TurnClock]:
        """Every clock of the shard, earliest first (for inspection and tests)."""
        ...


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


class StreamReader(Protocol):
    """How the watch hub (``shared.serving.watch``) reads a store's streams without blocking its loop."""

    def group(self, match_id: str) -> int:
        """Matches of one group can be read in one call (Redis: the same shard, so the same slot)."""
        ...

    async def version(self, match_id: str) -> int: ...

    async def read(self, match_id: str, from_version: int, to_version: int) -> list[StoredEvent]: ...

    async def read_new(self, after: Mapping[str, int], block_ms: int) -> dict[str, list[StoredEvent]]:
        """The events of one group's matches after the given versions, waiting up to ``block_ms``
        for the first; empty after that long without any."""
        ...


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
        quiet: bool = False,
        was: Sequence[int] | None = None,
    ) -> AppendResult:
        """Atomically: dedupe command id, check version, add events, set meta, notify outbox.

        Returns once the events are stored. ``progress`` goes both into the meta and into the notice
        (the runner always passes it), ``was`` (the seats that could act before) into the notice.
        ``quiet``: no follower acts on this append (:func:`quiet`): no outbox notice is written and the
        active-match index is left as it is.
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

    async def update_meta(self, match_id: str, fields: Mapping[str, str]) -> bool:
        """``set_meta``, only if the match is there (False: none, e.g. archived: nothing written)."""
        ...

    async def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None: ...

    async def load_snapshot(self, match_id: str) -> Snapshot | None: ...

    async def read_outbox(self, shard: int, after: str = "0-0", count: int = 100) -> list[OutboxNotice]: ...

    def outbox_key(self, shard: int) -> str: ...

    async def active_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]:
        """The shard's active matches with the server time (ms) of their last append, oldest first.

        Only those whose last append was at or before ``until_ms``, if given. The index is kept by
        the append itself: an append whose progress says ``active`` adds the match (or moves it to
        now), ``finished`` removes it; a bare append (no progress) and a quiet one leave it as it was
        (a quiet append leaves nothing to the workers, so the sweeper has nothing to find there).
        The reactor's sweeper reads it to find matches that wait on the workers with no progress.
        """
        ...

    def stream_reader(self, connections: int) -> StreamReader:
        """The watch hub's reader of this store's streams, with at most ``connections`` to the
        store (Redis: a ``redis.asyncio`` pool; in memory: it polls)."""
        ...

    def outbox_groups(self) -> OutboxGroups:
        """The consumer groups over this store's outbox shards (what an outbox follower reads with,
        the outbox is trimmed with, and the archiver asks what every group acknowledged)."""
        ...

    def clocks(self) -> TurnClocks:
        """The turn clocks of this store's shards."""
        ...
