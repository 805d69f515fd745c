"""Finished matches leave the store: export, verify, store in the archive, read back, then delete.

A finished match's keys (events, meta, command ids, snapshot) are most of what Redis holds for
it, forever, unless it is archived. :func:`archive_match` moves one match: it exports the log
(``shared.matches.archive``), re-folds it with the game's pure rules (every event decodes, versions are
dense, the fold ends with an outcome, the count is the meta's version), stores it gzipped in the
:class:`~shared.matches.archive.ArchiveStorage`, reads it back and compares, and only then deletes the
match from the store in one step (on Redis one script) that refuses if the match moved meanwhile.
Any failure keeps the match in the store and is logged; the next pass tries again.

:class:`Archiver` runs that over the shards' finished-match index (kept by the append,
score = the finishing notice's id in ms), for matches finished at least ``after_s`` seconds ago
and whose finishing notice every outbox group has acknowledged (its id is below the lowest id
any group still needs: ``OutboxGroups.lowest_needed``), so the lobby has rated it and the
reactor is done with it before its meta goes. At most ``batch`` matches per call: the reactor
calls it between reads and must not stall its clocks. It is synchronous, as the reactor and the outbox
groups it reads are: the store is reached through the sync edge (``shared.runtime.edge.wait``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from prometheus_client import Counter

from shared.core.decider import Rules
from shared.matches.archive import ArchiveStorage, archive_name, export_lines, pack, verify_lines
from shared.matches.runner import EventCodec, MatchNotFound
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.store import EventStore, MatchMeta, MatchStatus

log = logging.getLogger(__name__)
ARCHIVED = Counter("tabula_archived_total", "Finished matches moved to the archive, by result", ["result"])

AnyRules = Rules[Any, Any, Any, Any, Any]
GameLoader = Callable[[str], tuple[AnyRules, EventCodec]]  # game name -> its rules and event codec


class ArchiveFailed(Exception):
    """The match was not archived (and stays in Redis): why."""


class ArchivableStore(EventStore, Protocol):
    async def finished_matches(self, shard: int, until_ms: int | None = None) -> list[tuple[str, int]]: ...

    async def delete_match(self, match_id: str, version: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class Archived:
    match_id: str
    events: int
    size: int  # bytes stored
    state_hash: str


async def archive_match(
    store: ArchivableStore, storage: ArchiveStorage, match_id: str, games: GameLoader
) -> Archived:
    """Export, verify, store, read back and delete one finished match; ArchiveFailed keeps it. (The
    storage's ``put`` and ``get`` may block: they run on a thread.)"""
    meta = MatchMeta.of(await store.get_meta(match_id))
    if not meta.exists:
        raise MatchNotFound(match_id)
    if not meta.finished:
        raise ArchiveFailed(f"match {match_id} is not finished")
    version = meta.head
    rules, codec = games(meta.game)
    lines = await export_lines(store, match_id, codec)
    report = verify_lines(rules, codec, lines)
    if not report.ok or not report.finished or report.events != version:
        problems = report.problems or [f"{report.events} events for version {version}, or no outcome"]
        raise ArchiveFailed(f"match {match_id} does not verify: {'; '.join(problems)}")
    data, name = pack(lines), archive_name(match_id)
    await asyncio.to_thread(storage.put, name, data)
    if await asyncio.to_thread(storage.get, name) != data:
        raise ArchiveFailed(f"match {match_id}: the archive returned other bytes than were stored")
    if not await store.delete_match(match_id, version):
        raise ArchiveFailed(f"match {match_id} changed while it was archived; kept in Redis")
    return Archived(match_id, report.events, len(data), report.state_hash)


class Archiver:
    def __init__(
        self,
        store: ArchivableStore,
        storage: ArchiveStorage,
        games: GameLoader,
        after_s: float,
        required_groups: Sequence[str] = (),
        now: Callable[[], float] = time.time,
        batch: int = 10,
    ) -> None:
        self.store, self.storage, self.games = store, storage, games
        self.groups = store.outbox_groups()
        self.after_s, self.required, self.now, self.batch = after_s, tuple(required_groups), now, batch

    def due(self, shard: int) -> list[str]:
        """Matches of the shard finished ``after_s`` ago whose end every outbox group acknowledged."""
        until_ms = math.floor((self.now() - self.after_s) * 1000)
        finished = wait(self.store.finished_matches(shard, until_ms))
        if not finished:
            return []
        needed = self.groups.lowest_needed(shard, self.required)
        if needed is None:  # no group, or a required one missing: nobody can say it is done
            return []
        needed_ms = int(needed.partition("-")[0])
        waiting = self._ending_from(shard, needed) if any(ms == needed_ms for _, ms in finished) else set()
        return [m for m, ms in finished if ms < needed_ms or (ms == needed_ms and m not in waiting)]

    def _ending_from(self, shard: int, needed: str) -> set[str]:
        """Matches whose finishing notice is at or after ``needed`` in the same millisecond: not yet
        acknowledged by every group. (One before it is acknowledged, whether still there or trimmed.)"""
        end = needed.partition("-")[0]  # a bare millisecond: up to its last sequence number
        notices = self.groups.read_range(shard, needed, end)
        return {n.match_id for n in notices if n.progress and n.progress.status is MatchStatus.FINISHED}

    def run(self, shards: Sequence[int]) -> list[Archived]:
        """Archive up to ``batch`` due matches of ``shards``; failures are logged and left for later."""
        done: list[Archived] = []
        for shard in shards:
            for match_id in self.due(shard):
                if len(done) >= self.batch:
                    return done
                try:
                    done.append(wait(archive_match(self.store, self.storage, match_id, self.games)))
                except MatchNotFound:
                    continue  # another archiver took it
                except Exception:
                    ARCHIVED.labels("failed").inc()
                    log.exception("archiving failed", extra=log_fields(match_id=match_id))
                    continue
                ARCHIVED.labels("archived").inc()
                log.info("match archived", extra=log_fields(match_id=match_id, bytes=done[-1].size))
        return done
