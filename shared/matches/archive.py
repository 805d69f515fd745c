"""Match logs as JSON lines: export from a store, import into another, verify by re-folding.

Line 1 is a header (format, match id, game, meta); every further line is one event envelope
with its payload (base64 protobuf, the truth) and, for people, the decoded event. An import
appends the events in their original command groups, so command-id retries still dedupe in
the new store. Verifying re-folds the log with the game's pure rules and reports the final
state hash and every inconsistency found.

**The archive.** Finished matches leave Redis as gzipped logs (``matches/<id>.jsonl.gz``) in an
:class:`ArchiveStorage`: a local folder (:class:`LocalArchive`, ``TABULA_ARCHIVE_DIR``) or any
store with ``put`` and ``get`` (an S3-like bucket: ``TABULA_ARCHIVE_STORAGE=module:factory``).
``shared.matches.archiver`` moves them there; :func:`archived_runner` replays one as if it were live.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any, Protocol

from google.protobuf.message import DecodeError
from tabula.common.v1 import common_pb2

from shared.core.codec import to_plain
from shared.core.decider import Rules
from shared.core.resign import PLATFORM_TYPES
from shared.core.undo import COMMANDS_UNDONE, undone_to
from shared.matches.runner import EventCodec, MatchNotFound, MatchRunner, Offload, resigned_seat, seating_of
from shared.store import EventStore, MatchMeta, MemoryEventStore, NewEvent, StoredEvent

FORMAT = "tabula-log"
FORMAT_VERSION = 1


class LogError(ValueError):
    """A log file that cannot be read at all (bad header, not JSON)."""


async def export_lines(store: EventStore, match_id: str, codec: EventCodec | None = None) -> list[str]:
    """The match's log: the header line, then one line per event."""
    meta = await store.get_meta(match_id)
    if not meta:
        raise MatchNotFound(match_id)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "match_id": match_id,
        "game": MatchMeta.of(meta).game,
        "meta": meta,
    }
    events = await store.read(match_id)
    return [json.dumps(header, sort_keys=True)] + [
        json.dumps(_event_line(e, codec), sort_keys=True) for e in events
    ]


def _event_line(event: StoredEvent, codec: EventCodec | None) -> dict[str, Any]:
    line: dict[str, Any] = {
        "version": event.version,
        "type": event.type,
        "payload": base64.b64encode(event.payload).decode(),
        "visibility": event.visibility,
        "actor": event.actor,
        "command_id": event.command_id,
        "server_time_ms": event.server_time_ms,
        "schema_version": event.schema_version,
    }
    seat = resigned_seat(event.type, event.payload)
    if seat is not None:  # the platform's event (a resignation): the game's codec does not know it
        line["event"] = {"seat": seat}
    elif event.type == COMMANDS_UNDONE:  # the platform's undo
        undone = common_pb2.CommandsUndone.FromString(event.payload)
        line["event"] = {"seat": undone.seat, "to_version": undone.to_version}
    elif codec is not None:
        line["event"] = to_plain(codec.decode(event.type, event.payload, event.schema_version))
    return line


def read_log(lines: Iterable[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    it = iter(lines)
    try:
        header = json.loads(next(it))
    except (StopIteration, ValueError) as err:
        raise LogError("the log has no JSON header line") from err
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogError(f"not a {FORMAT} file")
    try:
        events = [json.loads(line) for line in it if line.strip()]
    except ValueError as err:
        raise LogError(f"a line is not JSON: {err}") from err
    return header, events


async def import_lines(store: EventStore, lines: Iterable[str], match_id: str | None = None) -> str:
    """Append a log's events to ``store`` (under ``match_id`` or the original id), in command groups."""
    header, events = read_log(lines)
    target = match_id or header["match_id"]
    meta = {k: v for k, v in header["meta"].items() if k != "version"}
    expected = 0
    for command_id, group in groupby(events, key=lambda e: e["command_id"]):
        batch = [
            NewEvent(
                e["type"], base64.b64decode(e["payload"]), e["visibility"], e["actor"], e["schema_version"]
            )
            for e in group
        ]
        await store.append(target, expected, batch, command_id, meta=meta if expected == 0 else None)
        expected += len(batch)
    return target


@dataclass
class Verification:
    match_id: str
    game: str
    events: int
    state_hash: str
    finished: bool
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def state_hash(state: Any) -> str:
    """sha256 of the canonical JSON of a state: equal states, equal hashes, on any machine."""
    canonical = json.dumps(to_plain(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def verify_lines(
    rules: Rules[Any, Any, Any, Any, Any], codec: EventCodec, lines: Iterable[str]
) -> Verification:
    header, events = read_log(lines)
    problems: list[str] = []
    if header.get("game") != rules.game:
        problems.append(f"log is for game {header.get('game')!r}, verified with {rules.game!r}")
    state = rules.initial_state()
    seating = seating_of(MatchMeta.of(header.get("meta", {})))
    wanted: set[int] = set()  # the versions undos return to, whose states are kept on the way
    for line in events:
        if line.get("type") == COMMANDS_UNDONE:
            try:
                wanted.add(undone_to(base64.b64decode(line["payload"])))
            except (KeyError, ValueError, DecodeError) as err:
                problems.append(f"version {line.get('version')}: cannot decode: {err}")
    kept = {0: state}
    for expected, line in enumerate(events, start=1):
        if expected - 1 in wanted:
            kept[expected - 1] = state
        if line.get("version") != expected:
            problems.append(f"line {expected + 1}: version {line.get('version')} where {expected} was due")
        if seating.outcome(rules.outcome(state)) is not None:
            problems.append(f"version {expected}: an event after the match ended")
        if line.get("type") == COMMANDS_UNDONE:  # the state at the version it returns to
            try:
                to_version = undone_to(base64.b64decode(line["payload"]))
            except (KeyError, ValueError, DecodeError):
                break  # said above
            if to_version not in kept or to_version >= expected:
                problems.append(f"version {expected}: an undo to version {to_version}, not before it")
                break
            state = kept[to_version]
            continue
        if line.get("type") in PLATFORM_TYPES:  # folded by the platform beside the game's state
            try:
                seating = seating.resign(
                    common_pb2.SeatResigned.FromString(base64.b64decode(line["payload"])).seat
                )
            except (KeyError, ValueError, DecodeError) as err:
                problems.append(f"version {expected}: cannot decode: {err}")
            continue
        try:
            event = codec.decode(line["type"], base64.b64decode(line["payload"]), line.get("schema_version"))
        except (KeyError, ValueError) as err:
            problems.append(f"version {expected}: cannot decode: {err}")
            continue
        if "event" in line and line["event"] != to_plain(event):
            problems.append(f"version {expected}: the readable event differs from the payload")
        try:
            state = rules.evolve(state, event)
        except Exception as err:  # an inconsistent log can break any evolve: report it and stop
            problems.append(f"version {expected}: the fold failed: {type(err).__name__}: {err}")
            break
    finished = seating.outcome(rules.outcome(state)) is not None
    if MatchMeta.of(header.get("meta", {})).finished and not finished:
        problems.append("the header says finished but the fold has no outcome")
    return Verification(
        header.get("match_id", ""), rules.game, len(events), state_hash(state), finished, problems
    )


# ------------------------------------------------------------------ the archive


class ArchiveStorage(Protocol):
    """Where archived logs live, by name (``matches/<id>.jsonl.gz``). ``put`` replaces atomically."""

    def put(self, name: str, data: bytes) -> None: ...

    def get(self, name: str) -> bytes | None:
        """The bytes stored under ``name``; None if there are none."""
        ...


@dataclass(frozen=True, slots=True)
class LocalArchive:
    """A folder (a volume shared by the reactor and the rule services); names are relative paths."""

    root: Path

    def put(self, name: str, data: bytes) -> None:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".put-", delete=False) as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp.name, path)  # a reader sees the old file or the whole new one, never a part

    def get(self, name: str) -> bytes | None:
        try:
            return (self.root / name).read_bytes()
        except FileNotFoundError:
            return None


def storage_from_env(env: Mapping[str, str] | None = None) -> ArchiveStorage | None:
    """``TABULA_ARCHIVE_STORAGE=module:factory`` (a zero-argument callable), else
    ``TABULA_ARCHIVE_DIR`` (a local folder), else None: no archive."""
    e = os.environ if env is None else env
    plugin = e.get("TABULA_ARCHIVE_STORAGE", "")
    if plugin:
        module, _, attr = plugin.partition(":")
        storage: ArchiveStorage = getattr(importlib.import_module(module), attr)()
        return storage
    folder = e.get("TABULA_ARCHIVE_DIR", "")
    return LocalArchive(Path(folder)) if folder else None


def archive_name(match_id: str) -> str:
    return f"matches/{match_id}.jsonl.gz"


def pack(lines: Iterable[str]) -> bytes:
    """A log as stored in the archive: gzip, no timestamp, so the same log gives the same bytes."""
    return gzip.compress("".join(f"{line}\n" for line in lines).encode(), mtime=0)


def unpack(data: bytes) -> list[str]:
    return gzip.decompress(data).decode().splitlines()


def archived_lines(storage: ArchiveStorage, match_id: str) -> list[str] | None:
    data = storage.get(archive_name(match_id))
    return None if data is None else unpack(data)


def archived_runner(
    rules: Rules[Any, Any, Any, Any, Any],
    codec: EventCodec,
    lines: Iterable[str],
    offload: Offload | None = None,
) -> MatchRunner[Any]:
    """A runner over an in-memory store that holds one archived log as it was stored (envelopes,
    server times, meta): what reads a live match (load at a version, the events, the meta) reads the
    archived one the same way. ``offload``: the runner's (where its long folds run)."""
    header, events = read_log(lines)
    store = MemoryEventStore()
    store.restore(header["match_id"], [_stored(line) for line in events], header["meta"])
    return MatchRunner(rules, codec, store, offload=offload)


def _stored(line: Mapping[str, Any]) -> StoredEvent:
    return StoredEvent(
        version=line["version"],
        type=line["type"],
        payload=base64.b64decode(line["payload"]),
        visibility=line["visibility"],
        command_id=line["command_id"],
        actor=line["actor"],
        server_time_ms=line["server_time_ms"],
        schema_version=line["schema_version"],
    )
