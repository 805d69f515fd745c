"""The generic decider runner: load (snapshot + tail) -> decide -> append, for any game.

Services and workers call :class:`MatchRunner`; the game supplies pure ``Rules`` and a codec.
The runner owns the only impure steps: reading the stream, deriving the RNG from the
match seed and version, appending with the expected version, and saving snapshots.
It keeps the states it folded or appended last (a bounded LRU, keyed by match, each with its
version): a command sent at the cached version is decided on that state and appended in one round
trip (the append script checks the command id and the version), and only when that append is
refused, or the cache is behind, is the head read and the command decided again there.
With every append it records the match's :class:`~shared.store.Progress` (seats to act, a
pending system step, status, outcome) in the same atomic script, so the platform's
followers (reactor, lobby) plan and project without game code.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from tabula.common.v1 import common_pb2

from shared.core.codec import CodecError, from_plain, to_plain
from shared.core.decider import SYSTEM, Actor, Outcome, Rules, RuleViolation
from shared.core.lru import keep
from shared.core.resign import NO_RESIGNATIONS, PLATFORM_TYPES, SEAT_RESIGNED, Seating
from shared.core.rng import Rng
from shared.core.undo import (
    COMMANDS_UNDONE,
    LogShort,
    game_options,
    revealing_names,
    undo_allowed,
    undo_payload,
    undo_target,
    undone_to,
)
from shared.core.wire import schema_of
from shared.runtime.config import STATE_CACHE
from shared.store import (
    AppendResult,
    EventStore,
    Followed,
    MatchMeta,
    MatchStatus,
    NewEvent,
    Progress,
    Snapshot,
    StoredEvent,
    VersionConflict,
    quiet,
)

S = TypeVar("S")
# Runs a blocking call off the event loop and awaits it: ``asyncio.to_thread``, or a server's own pool.
Offload = Callable[..., Awaitable[Any]]
Hold = Callable[[Progress], bool]  # whether the writer plays the next move itself (Progress.held)


class EventCodec(Protocol):
    def encode(self, obj: Any) -> tuple[str, bytes]: ...

    def decode(self, type_name: str, payload: bytes, schema_version: int | None = None) -> Any:
        """``schema_version``: what the payload was stored with (None: the current one)."""
        ...


NOBODY = Followed()  # a match no follower acts on but for its system steps and its end


class MatchNotFound(LookupError):
    template = "no match {match_id!r}"

    def __init__(self, match_id: str) -> None:
        self.values = {"match_id": match_id}
        super().__init__(self.template.format(**self.values))
        self.match_id = match_id


class HeadMoved(LookupError):
    """:meth:`MatchRunner.load` was asked for a head that the match is no longer (or not yet) at."""

    def __init__(self, match_id: str, meta: MatchMeta) -> None:
        super().__init__(f"match {match_id!r} is at version {meta.version}")
        self.match_id, self.meta = match_id, meta

    @property
    def finished(self) -> bool:
        return self.meta.finished


class FoldFromEarlier(Exception):
    """A tail holds an undo back to a version before the state it was to be folded onto: the fold
    starts again from the state at ``version`` (an undo restores a state the fold must have made)."""

    def __init__(self, version: int) -> None:
        super().__init__(f"fold from version {version}")
        self.version = version


UNDO_READ = 64  # events read back at a time to find what an undo takes back
UNDO_FIRST_READ = 4  # the first read: the head's command (most often someone else's, which settles it)


class MatchExists(Exception):
    template = "match {match_id!r} already exists"

    def __init__(self, match_id: str) -> None:
        self.values = {"match_id": match_id}
        super().__init__(self.template.format(**self.values))
        self.match_id = match_id


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    state: S
    version: int
    meta: MatchMeta
    seating: Seating = NO_RESIGNATIONS  # the seats' platform facts at ``version`` (resignations)


@dataclass(frozen=True, slots=True)
class Cached(Generic[S]):
    """A state the runner folded or appended: the match at ``version``, its seed (for the RNG), what
    its followers act on (from the meta) and, once known, the progress the rules give it."""

    state: S
    version: int
    seed: int
    followed: Followed = NOBODY
    progress: Progress | None = None
    seating: Seating = NO_RESIGNATIONS


@dataclass(frozen=True, slots=True)
class Submitted(Generic[S]):
    state: S
    first_version: int
    last_version: int
    duplicate: bool


def progress_of(
    rules: Rules[Any, Any, Any, Any, Any], state: Any, seating: Seating = NO_RESIGNATIONS
) -> Progress:
    """What the rules say about ``state``, in the platform's terms (recorded with each append), with
    the resignations of ``seating`` (resigned seats placed last; a match they ended)."""
    outcome = seating.outcome(rules.outcome(state))
    actors = seating.to_act(rules.to_act(state))
    return Progress(
        to_act=tuple(actor.seat for actor in actors if actor.is_seat),
        system=any(actor.is_system for actor in actors),
        status=MatchStatus.ACTIVE if outcome is None else MatchStatus.FINISHED,
        outcome=outcome,
        resigned=seating.resigned,
    )


def seating_of(meta: MatchMeta, resigned: tuple[int, ...] = ()) -> Seating:
    """The seats' platform facts from the match meta (seats, bots) and the resignations folded."""
    return Seating(meta.seat_count, frozenset(meta.bots), resigned)


def resigned_seat(type_name: str, payload: bytes) -> int | None:
    """The seat a platform event of the log resigned (None: another event)."""
    if type_name != SEAT_RESIGNED:
        return None
    seat: int = common_pb2.SeatResigned.FromString(payload).seat
    return seat


def _found(match_id: str, fields: Mapping[str, str]) -> MatchMeta:
    """The meta of a match that exists (an empty one: no such match)."""
    if not fields:
        raise MatchNotFound(match_id)
    return MatchMeta.from_fields(fields)


def _not_ahead(cached: Cached[Any], meta: MatchMeta) -> bool:
    """Whether a cached state can be brought to the head: not ahead of the log (a deleted match's
    state under the same id is)."""
    return meta.version is None or cached.version <= meta.version


def _expected(match_id: str, meta: MatchMeta, expect: int | None) -> None:
    if expect is not None and meta.version is not None and meta.version != expect:
        raise HeadMoved(match_id, meta)


class MatchRunner(Generic[S]):
    """Runs one game's rules against an event store; every operation is a coroutine (synchronous
    callers: ``shared.runtime.edge.wait``). Safe to share between threads and event loops; holds
    only a cache.

    ``offload``: where a fold of more than ``snapshot_every`` events runs (a rule service's thread
    pool, so that a long replay does not hold its serving loop); None: on the caller's loop."""

    def __init__(
        self,
        rules: Rules[Any, S, Any, Any, Any],
        codec: EventCodec,
        store: EventStore,
        snapshot_every: int = 64,
        cache_size: int = STATE_CACHE,
        offload: Offload | None = None,
    ) -> None:
        self.rules, self.codec, self.store = rules, codec, store
        self.snapshot_every, self.offload = snapshot_every, offload
        self._cache: OrderedDict[str, Cached[S]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # ------------------------------------------------------------ create
    async def create(
        self,
        match_id: str,
        seats: int,
        options: Mapping[str, str],
        seed: int,
        extra_meta: Mapping[str, str] | None = None,
    ) -> Loaded[S]:
        """Set up a match: the game's setup events, appended at version 0 with the meta.

        ``extra_meta`` carries what the platform (not the rules) needs: bots, turn clock, players.
        """
        config = self.rules.make_config(seats, game_options(options))
        events = self.rules.setup(config, Rng.derive(seed, 0))
        state = self.rules.initial_state()
        for event in events:
            state = self.rules.evolve(state, event)
        meta = {
            "game": self.rules.game,
            "seats": str(seats),
            "seed": str(seed),
            "options": json.dumps(dict(options), sort_keys=True),
            **(extra_meta or {}),
        }
        envelopes = self._envelopes(events, SYSTEM)
        progress = progress_of(self.rules, state)
        self._forget(match_id)  # a state cached under this id (a match deleted since) is not this one's
        try:
            result = await self.store.append(
                match_id, 0, envelopes, "create", meta=meta, progress=progress, was=()
            )
        except VersionConflict as err:
            raise MatchExists(match_id) from err
        if result.duplicate and MatchMeta.of(await self.store.get_meta(match_id)).options != dict(options):
            raise MatchExists(match_id)
        return await self.load(match_id)

    # ------------------------------------------------------------ load
    async def load(
        self, match_id: str, at_version: int | None = None, expect: int | None = None
    ) -> Loaded[S]:
        """State at the head (or at ``at_version``): cache or snapshot, then fold the tail.

        From a cached state the meta and the tail are read in one round trip; the cache is used
        only if it is not ahead of the log (a deleted match's state under the same id).

        ``expect``: the head the caller can use. When the meta says the head is another, nothing is
        folded and :class:`HeadMoved` is raised with the meta (a stale job learns it for the price
        of the read, not of folding what it missed)."""
        cached = self.cached(match_id) if at_version is None else None
        if cached is not None:
            fields, tail = await self.store.meta_and_tail(match_id, cached.version)
            meta = _found(match_id, fields)
            _expected(match_id, meta, expect)
            if _not_ahead(cached, meta):
                resigned = cached.seating.resigned
                return await self._folded_from(
                    match_id, cached.state, cached.version, tail, meta, at_version, resigned
                )
        meta = _found(match_id, await self.store.get_meta(match_id))
        _expected(match_id, meta, expect)
        state, version, resigned = await self._start(match_id, at_version, meta)
        tail = await self.store.read(match_id, version + 1, at_version)
        return await self._folded_from(match_id, state, version, tail, meta, at_version, resigned)

    async def _folded_from(
        self,
        match_id: str,
        state: S,
        version: int,
        tail: Sequence[StoredEvent],
        meta: MatchMeta,
        at_version: int | None,
        resigned: tuple[int, ...],
    ) -> Loaded[S]:
        """:meth:`_folded`, started again from an earlier state as long as the tail undoes to a version
        before the one it starts from (each time an earlier one, so it ends)."""
        while True:
            try:
                return await self._folded(match_id, state, version, tail, meta, at_version, resigned)
            except FoldFromEarlier as earlier:
                base = await self.load(match_id, at_version=earlier.version)
                state, version, resigned = base.state, base.version, base.seating.resigned
                tail = await self.store.read(match_id, version + 1, at_version)

    async def _folded(
        self,
        match_id: str,
        state: S,
        version: int,
        tail: Sequence[StoredEvent],
        meta: MatchMeta,
        at_version: int | None,
        resigned: tuple[int, ...] = (),
    ) -> Loaded[S]:
        """``tail`` folded onto ``state`` (and the seats that resigned before it): here, or through
        ``offload`` when it is longer than ``snapshot_every``. A head (``at_version`` None) of a match
        the runner created is cached."""

        def _fold() -> Loaded[S]:
            folded, seating = self._fold_tail(state, version, seating_of(meta, resigned), tail)
            last = tail[-1].version if tail else version
            if at_version is None and "seed" in meta.present:  # created by the runner, not a bare append
                kept = Cached(folded, last, meta.seed, Followed.of(meta), seating=seating)
                self._remember(match_id, kept)
            return Loaded(folded, last, meta, seating)

        if self.offload is None or len(tail) <= self.snapshot_every:
            return _fold()
        loaded: Loaded[S] = await self.offload(_fold)
        return loaded

    def _fold_tail(
        self, state: S, version: int, seating: Seating, tail: Sequence[StoredEvent]
    ) -> tuple[S, Seating]:
        """``tail`` folded onto ``state`` (the match at ``version``): a game's event by the rules, a
        resignation into ``seating``, an undo by the state at the version it returns to (kept on the
        way; :class:`FoldFromEarlier` when that is before ``version``)."""
        wanted = {undone_to(e.payload) for e in tail if e.type == COMMANDS_UNDONE}
        if wanted and min(wanted) < version:
            raise FoldFromEarlier(min(wanted))
        kept = {version: state} if version in wanted else {}
        for event in tail:
            if event.type == COMMANDS_UNDONE:
                state = kept[undone_to(event.payload)]
            elif event.type == SEAT_RESIGNED:
                seating = seating.resign(common_pb2.SeatResigned.FromString(event.payload).seat)
            else:
                state = self.rules.evolve(state, self.decode(event))
            if event.version in wanted:
                kept[event.version] = state
        return state, seating

    async def _start(
        self, match_id: str, at_version: int | None, meta: MatchMeta
    ) -> tuple[S, int, tuple[int, ...]]:
        """Where a fold starts: the cached state, a snapshot or the initial state, its version and the
        seats resigned by then. A snapshot holds the game's state alone, so a match with resignations
        is folded from its start (or its cached state)."""
        head = meta.version
        cached = self.cached(match_id)
        if cached is not None and head is not None and cached.version > head:
            self._forget(match_id)  # ahead of the log: a deleted match's, not this one's
            cached = None
        if cached is not None and (at_version is None or cached.version <= at_version):
            return cached.state, cached.version, cached.seating.resigned
        snap = await self.store.load_snapshot(match_id)
        resigned = meta.progress is not None and bool(meta.progress.resigned)
        if snap is not None and not resigned and (at_version is None or snap.version <= at_version):
            try:
                return from_plain(self.rules.state_type, json.loads(snap.data)), snap.version, ()
            except (CodecError, ValueError, TypeError, KeyError):
                pass  # a snapshot from an older state schema is only a cache: fold from scratch
        return self.rules.initial_state(), 0, ()

    def cached(self, match_id: str) -> Cached[S] | None:
        """The state this runner last folded or appended for ``match_id`` (may be behind the log)."""
        with self._lock:
            return self._cache.get(match_id)

    def _remember(self, match_id: str, cached: Cached[S]) -> None:
        """Keep ``cached`` unless a newer version is kept already (concurrent calls finish in any order)."""
        with self._lock:
            kept = self._cache.get(match_id)
            if kept is None or kept.version <= cached.version:
                kept = cached
            keep(self._cache, match_id, kept, self._cache_size)

    def absorb(self, match_id: str, events: Sequence[StoredEvent]) -> None:
        """Bring the cached state of ``match_id`` forward by ``events`` read from its log elsewhere (the
        watch hub's reads), when they continue it: the next command is then decided on it without a
        read. Nothing cached, or events that leave a gap after the cached version, change nothing."""
        cached = self.cached(match_id)
        tail = [e for e in events if cached is not None and e.version > cached.version]
        if cached is None or not tail or tail[0].version != cached.version + 1:
            return
        try:
            state, seating = self._fold_tail(cached.state, cached.version, cached.seating, tail)
        except FoldFromEarlier:
            return  # an undo to before the cached state: the next load folds it from there
        kept = replace(cached, state=state, version=tail[-1].version, progress=None, seating=seating)
        self._remember(match_id, kept)

    async def mark_seen(self, match_id: str, seat: int, until_ms: int) -> None:
        """Record in the meta that the seat's player watches the match live until ``until_ms`` (0: no
        longer), and in the cached state's :class:`Followed`: a turn of theirs then wakes nobody."""
        await self.store.set_meta(match_id, MatchMeta.seen_mark(seat, until_ms))
        with self._lock:
            kept = self._cache.get(match_id)
            if kept is not None:
                self._cache[match_id] = replace(kept, followed=kept.followed.seen_until(seat, until_ms))

    def _forget(self, match_id: str) -> None:
        with self._lock:
            self._cache.pop(match_id, None)

    # ------------------------------------------------------------ submit
    async def submit(
        self,
        match_id: str,
        actor: Actor,
        command: Any,
        expected_version: int,
        command_id: str,
        actor_label: str | None = None,
        hold: Hold | None = None,
    ) -> Submitted[S]:
        """Decide and append one command. A retried command id returns its first result.

        ``hold``, given the progress the command leads to, says whether the caller will play the next
        move itself: the append then records it as held (a bot chain, ``Progress.held``).

        Fast path: when the cached state is at ``expected_version``, the command is decided on it
        and appended in one round trip: the append script looks the command id up (a retry gets the
        first result) and checks the version, so a cache behind the log writes nothing. A refused
        append or a rejection there may come from a stale cache, so it is not the answer: the
        command goes through the checked path below, on the head read from the store.

        Retries may run concurrently: one may load the match after another appended this very
        command, and then sees a newer version than it expects. So the command id is looked up
        again before a conflict is reported (the append script records it with the events, in one
        step, so a newer version that this command made always shows its id); the store's append
        checks it once more, before the version, for retries that both loaded the old head.
        """
        cached = self.cached(match_id)
        if cached is not None and cached.version == expected_version:
            try:
                return await self._apply(match_id, cached, actor, command, command_id, actor_label, hold)
            except (RuleViolation, VersionConflict):
                pass  # decided on a state the log may have passed: decide again on the head
        return await self._checked(match_id, actor, command, expected_version, command_id, actor_label, hold)

    async def _checked(
        self,
        match_id: str,
        actor: Actor,
        command: Any,
        expected_version: int,
        command_id: str,
        actor_label: str | None,
        hold: Hold | None = None,
    ) -> Submitted[S]:
        """The command decided on the head read from the store (the cache missed or was passed). A
        retry of a command appended since is found by the append script (at the head it refuses a
        known command id), or here when the head has moved past the version it was sent for."""
        loaded = await self.load(match_id)
        if expected_version != loaded.version:
            seen = await self.store.command_result(match_id, command_id)
            if seen is not None:
                return await self._duplicate(match_id, seen)
            raise VersionConflict(match_id, expected_version, loaded.version)
        at_head = self._at(loaded)
        return await self._apply(match_id, at_head, actor, command, command_id, actor_label, hold)

    async def _apply(
        self,
        match_id: str,
        at: Cached[S],
        actor: Actor,
        command: Any,
        command_id: str,
        label: str | None,
        hold: Hold | None = None,
    ) -> Submitted[S]:
        """Decide on ``at`` and append at its version; the state the events make is cached for the
        next command."""
        state, envelopes, progress = self._decide(at, actor, command, label)
        if hold is not None and hold(progress):
            progress = replace(progress, held=True)
        before = at.progress if at.progress is not None else progress_of(self.rules, at.state, at.seating)
        calm = quiet(before, progress, at.followed.at(time.time_ns() // 1_000_000))
        result = await self.store.append(
            match_id, at.version, envelopes, command_id, progress=progress, quiet=calm, was=before.to_act
        )
        if result.duplicate:  # a concurrent retry of the same command won the race
            return await self._duplicate(match_id, result)
        kept = Cached(state, result.last_version, at.seed, at.followed, progress, at.seating)
        self._remember(match_id, kept)
        if self._snapshot_due(result.first_version, result.last_version):
            await self._snapshot(match_id, state, result.last_version)
        return Submitted(state, result.first_version, result.last_version, False)

    def _decide(
        self, at: Cached[S], actor: Actor, command: Any, label: str | None
    ) -> tuple[S, list[NewEvent], Progress]:
        """The command decided on ``at`` (pure): the state after its events (each evolved once), the
        events to append and the progress to record with them."""
        if self.outcome(at.state, at.seating) is not None:
            raise RuleViolation("match_over", "the match has ended")
        if label is None and actor.is_seat and actor.seat in at.seating.resigned:
            # the seat's own player (SubmitCommand gives no label); the bot that plays it has one
            raise RuleViolation("seat_resigned", "seat {seat} has resigned: a bot plays it", seat=actor.seat)
        events = self.rules.decide(at.state, actor, command, Rng.derive(at.seed, at.version))
        if not events:
            raise RuleViolation("no_effect", "the command changes nothing")
        state = at.state
        for event in events:
            state = self.rules.evolve(state, event)
        return state, self._envelopes(events, actor, label), progress_of(self.rules, state, at.seating)

    # ------------------------------------------------------------ resign
    async def resign(
        self, match_id: str, seat: int, command_id: str, expected_version: int | None = None
    ) -> Submitted[S]:
        """The seat resigns (shared.core.resign): a platform event appended at ``expected_version``, or
        at the head when None (tried again there if another append comes first). A retried command id
        returns its first result; a match that is over, or a seat that resigned already, is refused
        (a ``RuleViolation``, nothing written)."""
        while True:
            seen = await self.store.command_result(match_id, command_id)
            if seen is not None:
                return await self._duplicate(match_id, seen)
            loaded = await self.load(match_id)
            version = loaded.version if expected_version is None else expected_version
            if version != loaded.version:
                raise VersionConflict(match_id, version, loaded.version)
            if self.outcome(loaded.state, loaded.seating) is not None:
                raise RuleViolation("match_over", "the match has ended")
            if seat in loaded.seating.resigned:
                raise RuleViolation("seat_resigned", "seat {seat} has resigned already", seat=seat)
            at = self._at(loaded)
            seating = at.seating.resign(seat)
            before = progress_of(self.rules, at.state, at.seating)
            progress = progress_of(self.rules, at.state, seating)
            payload = common_pb2.SeatResigned(seat=seat).SerializeToString()
            event = NewEvent(SEAT_RESIGNED, payload, "public", str(Actor.of_seat(seat)))
            try:
                result = await self.store.append(
                    match_id, at.version, [event], command_id, progress=progress, was=before.to_act
                )
            except VersionConflict:
                if expected_version is None:
                    continue  # someone moved first: resign at the new head
                raise
            if result.duplicate:
                return await self._duplicate(match_id, result)
            kept = Cached(at.state, result.last_version, at.seed, at.followed, progress, seating)
            self._remember(match_id, kept)
            return Submitted(at.state, result.first_version, result.last_version, False)

    # ------------------------------------------------------------ undo
    async def undo(self, match_id: str, seat: int, command_id: str, expected_version: int) -> Submitted[S]:
        """The seat takes back its latest command (shared.core.undo): a platform event appended at
        ``expected_version``, the match's state from then on the one at the version it returns to. A
        retried command id returns its first result; a refusal (a ``RuleViolation``: ``match_over``,
        ``undo_off``, ``seat_resigned``, ``nothing_to_undo``, ``undo_not_yours``, ``undo_revealed``)
        writes nothing."""
        seen = await self.store.command_result(match_id, command_id)
        if seen is not None:
            return await self._duplicate(match_id, seen)
        loaded = await self.load(match_id)
        if expected_version != loaded.version:
            raise VersionConflict(match_id, expected_version, loaded.version)
        to_version = await self.undo_point(match_id, seat, loaded)
        at = self._at(loaded)
        back = await self.load(match_id, at_version=to_version)
        before = progress_of(self.rules, at.state, at.seating)
        progress = progress_of(self.rules, back.state, at.seating)
        payload = undo_payload(seat, to_version)
        event = NewEvent(COMMANDS_UNDONE, payload, "public", str(Actor.of_seat(seat)))
        result = await self.store.append(
            match_id, at.version, [event], command_id, progress=progress, was=before.to_act
        )
        if result.duplicate:
            return await self._duplicate(match_id, result)
        kept = Cached(back.state, result.last_version, at.seed, at.followed, progress, at.seating)
        self._remember(match_id, kept)
        return Submitted(back.state, result.first_version, result.last_version, False)

    async def undo_point(self, match_id: str, seat: int, loaded: Loaded[S]) -> int:
        """The version an undo of ``seat`` at ``loaded`` (the head) would return to, or the
        ``RuleViolation`` refusing it. Reads the log back from the head as far as it needs."""
        if self.outcome(loaded.state, loaded.seating) is not None:
            raise RuleViolation("match_over", "the match has ended")
        if not undo_allowed(loaded.meta.options):
            raise RuleViolation("undo_off", "this match was set up without undo")
        if seat in loaded.seating.resigned:
            raise RuleViolation("seat_resigned", "seat {seat} has resigned: a bot plays it", seat=seat)
        revealing = revealing_names(self.rules.revealing)
        if loaded.version < 1:
            raise RuleViolation("nothing_to_undo", "no command of this match can be taken back")
        low, log = loaded.version + 1, list[StoredEvent]()
        need, step = loaded.version, UNDO_FIRST_READ
        while True:
            start = max(1, min(need, low - step))
            step = UNDO_READ
            log = [*await self.store.read(match_id, start, low - 1), *log]
            low = start
            try:
                return undo_target(log, seat, revealing, PLATFORM_TYPES, low)
            except LogShort as short:
                need = short.version

    def outcome(self, state: S, seating: Seating) -> Outcome | None:
        """The match's outcome (None while it goes on): the rules', with resigned
        seats placed last, or the one resignations ended it with."""
        return seating.outcome(self.rules.outcome(state))

    def _at(self, loaded: Loaded[S]) -> Cached[S]:
        return Cached(
            loaded.state, loaded.version, loaded.meta.seed, Followed.of(loaded.meta), None, loaded.seating
        )

    async def _duplicate(self, match_id: str, first: AppendResult) -> Submitted[S]:
        loaded = await self.load(match_id)
        return Submitted(loaded.state, first.first_version, first.last_version, True)

    def _envelopes(self, events: Sequence[Any], actor: Actor, label: str | None = None) -> list[NewEvent]:
        out = []
        for event in events:
            type_name, payload = self.codec.encode(event)
            vis = self.rules.visibility(event).encode()
            out.append(NewEvent(type_name, payload, vis, label or str(actor), schema_of(type(event))))
        return out

    def _snapshot_due(self, first: int, last: int) -> bool:
        """Whether the versions ``first``..``last`` just appended pass a multiple of ``snapshot_every``."""
        return (first - 1) // self.snapshot_every != last // self.snapshot_every

    async def _snapshot(self, match_id: str, state: S, version: int) -> None:
        data = json.dumps(to_plain(state), separators=(",", ":")).encode()
        await self.store.save_snapshot(match_id, Snapshot(version, data))

    # ------------------------------------------------------------ reading
    def decode(self, event: StoredEvent) -> Any:
        """The event of a stored entry, upcast from the schema version it was stored with."""
        return self.codec.decode(event.type, event.payload, event.schema_version)
