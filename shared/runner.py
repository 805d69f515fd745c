"""The generic decider runner: load (snapshot + tail) -> decide -> append, for any game.

Services and workers call :class:`MatchRunner`; the game supplies pure ``Rules`` and a codec.
The runner owns the only impure steps: reading the stream, deriving the RNG from the
match seed and version, appending with the expected version, and saving snapshots.
With every append it records the match's :class:`~shared.store.Progress` (seats to act, a
pending system step, status, outcome) in the same atomic script, so the platform's
followers (reactor, lobby) plan and project without game code.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from shared.codec import CodecError, from_plain, to_plain
from shared.decider import SYSTEM, Actor, Rules, RuleViolation
from shared.rng import Rng
from shared.store import (
    AppendResult,
    EventStore,
    MatchStatus,
    NewEvent,
    Progress,
    Snapshot,
    StoredEvent,
    VersionConflict,
)
from shared.wire import schema_of

S = TypeVar("S")


class EventCodec(Protocol):
    def encode(self, obj: Any) -> tuple[str, bytes]: ...

    def decode(self, type_name: str, payload: bytes, schema_version: int | None = None) -> Any:
        """``schema_version``: what the payload was stored with (None: the current one)."""
        ...


class MatchNotFound(LookupError):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id!r}")
        self.match_id = match_id


class MatchExists(Exception):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} already exists")
        self.match_id = match_id


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    state: S
    version: int
    meta: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Submitted(Generic[S]):
    state: S
    first_version: int
    last_version: int
    duplicate: bool


def progress_of(rules: Rules[Any, Any, Any, Any, Any], state: Any) -> Progress:
    """What the rules say about ``state``, in the platform's terms (recorded with each append)."""
    outcome = rules.outcome(state)
    actors = rules.to_act(state)
    return Progress(
        to_act=tuple(actor.seat for actor in actors if actor.is_seat),
        system=any(actor.is_system for actor in actors),
        status=MatchStatus.ACTIVE if outcome is None else MatchStatus.FINISHED,
        outcome=outcome,
    )


class MatchRunner(Generic[S]):
    """Runs one game's rules against an event store. Thread-safe; holds only a cache."""

    def __init__(
        self,
        rules: Rules[Any, S, Any, Any, Any],
        codec: EventCodec,
        store: EventStore,
        snapshot_every: int = 64,
        cache_size: int = 256,
    ) -> None:
        self.rules, self.codec, self.store = rules, codec, store
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[str, tuple[S, int]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # ------------------------------------------------------------ create
    def create(
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
        config = self.rules.make_config(seats, options)
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
        try:
            result = self.store.append(match_id, 0, envelopes, "create", meta=meta, progress=progress)
        except VersionConflict as err:
            raise MatchExists(match_id) from err
        if result.duplicate and self.store.get_meta(match_id).get("options") != meta["options"]:
            raise MatchExists(match_id)
        return self.load(match_id)

    # ------------------------------------------------------------ load
    def load(self, match_id: str, at_version: int | None = None) -> Loaded[S]:
        """State at the head (or at ``at_version``): cache or snapshot, then fold the tail."""
        meta = self.store.get_meta(match_id)
        if not meta:
            raise MatchNotFound(match_id)
        state, version = self._start(match_id, at_version)
        for event in self.store.read(match_id, version + 1, at_version):
            state = self.rules.evolve(state, self.decode(event))
            version = event.version
        if at_version is None:
            self._remember(match_id, state, version)
        return Loaded(state, version, meta)

    def _start(self, match_id: str, at_version: int | None) -> tuple[S, int]:
        with self._lock:
            cached = self._cache.get(match_id)
        if cached is not None and (at_version is None or cached[1] <= at_version):
            return cached
        snap = self.store.load_snapshot(match_id)
        if snap is not None and (at_version is None or snap.version <= at_version):
            try:
                return from_plain(self.rules.state_type, json.loads(snap.data)), snap.version
            except (CodecError, ValueError, TypeError, KeyError):
                pass  # a snapshot from an older state schema is only a cache: fold from scratch
        return self.rules.initial_state(), 0

    def _remember(self, match_id: str, state: S, version: int) -> None:
        with self._lock:
            self._cache[match_id] = (state, version)
            self._cache.move_to_end(match_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    # ------------------------------------------------------------ submit
    def submit(
        self,
        match_id: str,
        actor: Actor,
        command: Any,
        expected_version: int,
        command_id: str,
        actor_label: str | None = None,
    ) -> Submitted[S]:
        """Decide and append one command. A retried command id returns its first result.

        Retries may run concurrently: one may load the match after another appended this very
        command, and then sees a newer version than it expects. So the command id is looked up
        again before a conflict is reported (the append script records it with the events, in one
        step, so a newer version that this command made always shows its id); the store's append
        checks it once more, before the version, for retries that both loaded the old head.
        """
        seen = self.store.command_result(match_id, command_id)
        if seen is not None:
            return self._duplicate(match_id, seen)
        loaded = self.load(match_id)
        if expected_version != loaded.version:
            seen = self.store.command_result(match_id, command_id)
            if seen is not None:
                return self._duplicate(match_id, seen)
            raise VersionConflict(match_id, expected_version, loaded.version)
        if self.rules.outcome(loaded.state) is not None:
            raise RuleViolation("match_over", "the match has ended")
        rng = Rng.derive(int(loaded.meta["seed"]), loaded.version)
        events = self.rules.decide(loaded.state, actor, command, rng)
        if not events:
            raise RuleViolation("no_effect", "the command changes nothing")
        state = loaded.state
        for event in events:
            state = self.rules.evolve(state, event)
        envelopes = self._envelopes(events, actor, actor_label)
        progress = progress_of(self.rules, state)
        result = self.store.append(match_id, expected_version, envelopes, command_id, progress=progress)
        if result.duplicate:  # a concurrent retry of the same command won the race
            return self._duplicate(match_id, result)
        self._remember(match_id, state, result.last_version)
        self._maybe_snapshot(match_id, state, result.first_version, result.last_version)
        return Submitted(state, result.first_version, result.last_version, False)

    def _duplicate(self, match_id: str, first: AppendResult) -> Submitted[S]:
        return Submitted(self.load(match_id).state, first.first_version, first.last_version, True)

    def _envelopes(self, events: Sequence[Any], actor: Actor, label: str | None = None) -> list[NewEvent]:
        out = []
        for event in events:
            type_name, payload = self.codec.encode(event)
            vis = self.rules.visibility(event).encode()
            out.append(NewEvent(type_name, payload, vis, label or str(actor), schema_of(type(event))))
        return out

    def _maybe_snapshot(self, match_id: str, state: S, first: int, last: int) -> None:
        if (first - 1) // self.snapshot_every != last // self.snapshot_every:
            data = json.dumps(to_plain(state), separators=(",", ":")).encode()
            self.store.save_snapshot(match_id, Snapshot(last, data))

    # ------------------------------------------------------------ reading
    def decode(self, event: StoredEvent) -> Any:
        """The event of a stored entry, upcast from the schema version it was stored with."""
        return self.codec.decode(event.type, event.payload, event.schema_version)
