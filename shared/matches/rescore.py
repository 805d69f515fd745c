"""Re-scoring history: every stored and archived match folded with today's rules, compared with what
was recorded when it was played. Nothing is written: the store and the archive are only read.

What is compared (docs/operations.md, "Shipping a rules fix"):

- **The outcome** (scores and placings, resigned seats placed last): the one the runner recorded
  with the match's last append (the meta's progress; an archived log's header carries that meta)
  against the one today's rules give at the end of the fold. A match whose outcome differs is
  *changed*; an active match is compared the same way (recorded: none yet).
- **The state per version**, where one was recorded: the only state the platform stores is the
  runner's snapshot (one per match in Redis, at the last multiple of its ``snapshot_every`` it
  passed; an archived log has none). The first version where a changed match's states differ is
  that snapshot's when the folded state differs from it there; otherwise only the end is known to
  differ (``differs_at`` is the head, ``same_until`` the snapshot's version when it matched).

Which matches: the store's active and finished indexes (kept by the append; ``tabula archive
--index`` adds matches finished before the finished index existed) and every log of an archive
that can list its names (:class:`ListableArchive`; a match in both is read from the store).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from shared.core.codec import to_plain
from shared.core.decider import Outcome, Rules
from shared.matches.archive import ArchiveStorage, LocalArchive, archived_lines, read_log
from shared.matches.runner import EventCodec, resigned_seat, seating_of
from shared.store import EventStore, MatchMeta, Snapshot, StoredEvent

AnyRules = Rules[Any, Any, Any, Any, Any]
GameLoader = Callable[[str], tuple[AnyRules, EventCodec]]  # game name -> today's rules and codec
ARCHIVE_PREFIX, ARCHIVE_SUFFIX = "matches/", ".jsonl.gz"


class IndexedStore(EventStore, Protocol):
    async def finished_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]: ...


@runtime_checkable
class ListableArchive(Protocol):
    """An archive that can say which logs it holds (a plugin storage without ``names`` is not read)."""

    def names(self, prefix: str) -> Iterator[str]: ...


class FoldFailed(Exception):
    """The log cannot be folded with today's rules: why."""


@dataclass(frozen=True, slots=True)
class Rescored:
    match_id: str
    game: str
    source: str  # "redis" or "archive"
    head: int  # the last version of the log
    old: Outcome | None  # recorded (None: the match had not ended)
    new: Outcome | None  # today's rules at the head
    differs_at: int | None  # the first version known to differ (None: nothing differs)
    differs_in: str  # "snapshot" (the state stored at differs_at) or "outcome" (only the end is known)
    same_until: int = 0  # a snapshot version whose state matched (0: none compared equal)

    @property
    def changed(self) -> bool:
        return self.old != self.new


@dataclass(frozen=True, slots=True)
class Failure:
    match_id: str
    source: str
    reason: str


@dataclass
class Report:
    read: int = 0
    changed: list[Rescored] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    unlisted_archive: bool = False  # an archive was given that cannot list its logs


def rescore_log(
    rules: AnyRules,
    codec: EventCodec,
    match_id: str,
    source: str,
    meta: MatchMeta,
    events: Sequence[StoredEvent],
    snapshot: Snapshot | None = None,
) -> Rescored:
    """Fold ``events`` with ``rules`` and compare with the recorded outcome (the meta's progress) and
    ``snapshot``. Raises FoldFailed when the log does not fold."""
    if meta.progress is None:
        raise FoldFailed("no outcome recorded (the meta predates progress)")
    seating = seating_of(meta)
    state = rules.initial_state()
    snap_differs: bool | None = None  # None: no snapshot compared
    for expected, event in enumerate(events, start=1):
        if event.version != expected:
            raise FoldFailed(f"version {event.version} where {expected} was due")
        seat = resigned_seat(event.type, event.payload)
        if seat is not None:
            seating = seating.resign(seat)
        else:
            state = _evolve(rules, codec, state, event)
        if snapshot is not None and snapshot.version == event.version:
            snap_differs = _plain(to_plain(state)) != _snapshot_state(snapshot)
    head = events[-1].version if events else 0
    try:
        new = seating.outcome(rules.outcome(state))
    except Exception as err:  # today's scoring may break on an old state: report it
        raise FoldFailed(f"the outcome failed: {type(err).__name__}: {err}") from err
    old = meta.progress.outcome
    if snap_differs and snapshot is not None:
        return Rescored(match_id, meta.game, source, head, old, new, snapshot.version, "snapshot")
    same_until = snapshot.version if snap_differs is False and snapshot is not None else 0
    differs_at = head if old != new else None
    return Rescored(match_id, meta.game, source, head, old, new, differs_at, "outcome", same_until)


def _evolve(rules: AnyRules, codec: EventCodec, state: Any, event: StoredEvent) -> Any:
    try:
        decoded = codec.decode(event.type, event.payload, event.schema_version)
    except Exception as err:  # a type or payload today's codec cannot read (no upcaster)
        raise FoldFailed(f"version {event.version}: cannot decode {event.type}: {err}") from err
    try:
        return rules.evolve(state, decoded)
    except Exception as err:  # today's evolve may break on an old event: report it and stop
        raise FoldFailed(f"version {event.version}: the fold failed: {type(err).__name__}: {err}") from err


def _plain(value: Any) -> Any:
    """As stored in a snapshot (JSON): tuples become lists, keys strings."""
    return json.loads(json.dumps(value))


def _snapshot_state(snapshot: Snapshot) -> Any:
    try:
        return json.loads(snapshot.data)
    except ValueError:
        return None  # an unreadable snapshot differs from any state


# ------------------------------------------------------------------ the sources


async def store_match_ids(store: IndexedStore) -> list[str]:
    """Every match of the store's active and finished indexes, sorted."""
    found: set[str] = set()
    for shard in range(store.shards):
        found.update(m for m, _ in await store.active_matches(shard))
        found.update(m for m, _ in await store.finished_matches(shard))
    return sorted(found)


def archive_match_ids(storage: ArchiveStorage) -> list[str] | None:
    """Every match id the archive holds a log of; None when it cannot list them."""
    if not isinstance(storage, ListableArchive):
        return None
    names = storage.names(ARCHIVE_PREFIX)
    return sorted(n[len(ARCHIVE_PREFIX) : -len(ARCHIVE_SUFFIX)] for n in names if n.endswith(ARCHIVE_SUFFIX))


def local_names(archive: LocalArchive, prefix: str) -> Iterator[str]:
    """The names under ``prefix`` of a local archive folder (what :class:`ListableArchive` asks)."""
    folder = archive.root / prefix
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.is_file() and not path.name.startswith("."):
                yield str(Path(prefix) / path.name)


class ListedArchive:
    """A local archive folder that lists its logs."""

    def __init__(self, archive: LocalArchive) -> None:
        self.archive = archive

    def put(self, name: str, data: bytes) -> None:
        raise PermissionError("re-scoring never writes to the archive")

    def get(self, name: str) -> bytes | None:
        return self.archive.get(name)

    def names(self, prefix: str) -> Iterator[str]:
        return local_names(self.archive, prefix)


def listable(storage: ArchiveStorage) -> ArchiveStorage:
    """``storage``, a local folder read-only and listable."""
    return ListedArchive(storage) if isinstance(storage, LocalArchive) else storage


def archived_match(lines: Iterable[str]) -> tuple[MatchMeta, list[StoredEvent]]:
    """An archived log's recorded meta and its events, as they were stored."""
    header, rows = read_log(lines)
    try:
        events = [_stored(row) for row in rows]
    except (KeyError, TypeError, ValueError) as err:
        raise FoldFailed(f"an event line is malformed: {err}") from err
    return MatchMeta.of(header.get("meta", {})), events


def _stored(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        version=int(row["version"]),
        type=str(row["type"]),
        payload=base64.b64decode(row["payload"]),
        visibility=str(row.get("visibility", "public")),
        command_id=str(row.get("command_id", "")),
        actor=str(row.get("actor", "")),
        server_time_ms=int(row.get("server_time_ms", 0)),
        schema_version=int(row.get("schema_version", 1)),
    )


# ------------------------------------------------------------------ the run


@dataclass(frozen=True, slots=True)
class Selection:
    games: frozenset[str] | None = None  # the games to re-score (None: every game, even one unregistered)
    since_ms: int = 0  # matches created (first event) at or after this time

    def takes(self, game: str) -> bool:
        return self.games is None or game in self.games


async def rescore(
    store: IndexedStore, storage: ArchiveStorage | None, games: GameLoader, selection: Selection
) -> Report:
    """Every match of the selected games in ``store`` and ``storage``, re-scored; read only."""
    report, in_store = Report(), set()
    for match_id in await store_match_ids(store):
        meta = MatchMeta.of(await store.get_meta(match_id))
        if not meta.exists:
            continue  # archived (or deleted) since the index was read: the archive has it
        in_store.add(match_id)
        if not selection.takes(meta.game):
            continue
        events = await store.read(match_id)
        if not _selected(events, selection):
            continue
        snapshot = await store.load_snapshot(match_id)
        _check(report, games, match_id, "redis", meta, events, snapshot)
    listed = None if storage is None else archive_match_ids(storage)
    report.unlisted_archive = storage is not None and listed is None
    for match_id in listed or []:
        if match_id in in_store or storage is None:
            continue
        _check_archived(report, storage, games, match_id, selection)
    return report


def _check_archived(
    report: Report, storage: ArchiveStorage, games: GameLoader, match_id: str, selection: Selection
) -> None:
    try:
        lines = archived_lines(storage, match_id) or []
        meta, events = archived_match(lines)
    except (OSError, EOFError, UnicodeDecodeError, ValueError, FoldFailed) as err:
        report.read += 1  # a log it cannot read may be any game's: counted, with the reason
        report.failed.append(Failure(match_id, "archive", f"unreadable log: {err}"))
        return
    if selection.takes(meta.game) and _selected(events, selection):
        _check(report, games, match_id, "archive", meta, events, None)


def _selected(events: Sequence[StoredEvent], selection: Selection) -> bool:
    return not events or events[0].server_time_ms >= selection.since_ms


def _check(
    report: Report,
    games: GameLoader,
    match_id: str,
    source: str,
    meta: MatchMeta,
    events: Sequence[StoredEvent],
    snapshot: Snapshot | None,
) -> None:
    report.read += 1
    try:
        rules, codec = games(meta.game)
        found = rescore_log(rules, codec, match_id, source, meta, events, snapshot)
    except FoldFailed as err:
        report.failed.append(Failure(match_id, source, str(err)))
        return
    if found.changed:
        report.changed.append(found)
