"""Redis memory per finished match: kept as it was, after trimming the outbox, after archiving.

Plays ``matches`` random matches of one game through a :class:`MatchRunner` on an empty Redis, with
the platform's consumer groups on every outbox shard, and reads ``INFO memory`` ``used_memory``
at each stage, divided by the number of matches:

1. **kept**: every match's keys and every notice, all groups having read nothing (what Redis
   held before trimming and archiving existed, less the Celery results, which are no longer
   written at all: ``services/workers/celery_app.py``);
2. **trimmed**: every group has read and acknowledged everything, the outbox is trimmed;
3. **archived**: every finished match is archived (exported, verified, stored, deleted).

It also times the playing: commands per second through the runner on Redis in one process (the
random policy's choice included), close to what one core of a rule service does without gRPC.
The caller picks the game, its seats and options (``tabula bench --only memory``); numbers, not
assertions (the test, ``tests/integration/test_memory.py``, asserts the structure only).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.matches.archive import LocalArchive
from shared.matches.archiver import Archiver
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import OutboxNotice
from shared.store.outbox import FollowerSettings, OutboxFollower, trim_outbox
from shared.store.redis_store import RedisEventStore

GROUPS = ("reactor", "lobby-projections", "lobby-notices")


@dataclass(frozen=True, slots=True)
class MemoryReport:
    matches: int
    events: int  # over all matches
    commands: int  # over all matches: each decided and appended through the runner
    play_seconds: float  # wall time of playing them (one process: decide, fold, Redis round trips)
    kept: float  # used_memory growth per match, bytes, at each stage
    trimmed: float
    archived: float
    archive_bytes: float  # compressed log per match in the archive
    outbox_entries: int  # left after trimming
    keys_left: int  # keys in Redis at the end (the streams' skeletons, group state, indexes)


def _used(store: RedisEventStore) -> int:
    return int(store.client.info("memory")["used_memory"])


def _followers(store: RedisEventStore, groups: Sequence[str]) -> list[OutboxFollower]:
    def ignore(notice: OutboxNotice) -> None:
        pass

    out = []
    for group in groups:
        settings = FollowerSettings(group, f"{group}-bench", block_ms=1, count=1000)
        follower = OutboxFollower(store, range(store.shards), ignore, settings)
        follower.ensure_groups()
        out.append(follower)
    return out


def measure(
    store: RedisEventStore,
    runner: MatchRunner[Any],
    seats: int,
    options: Mapping[str, str],
    matches: int,
    groups: Sequence[str] = GROUPS,
) -> MemoryReport:
    """Play, then trim, then archive ``matches`` matches on ``store`` (emptied first)."""
    store.client.flushall()
    followers = _followers(store, groups)
    base = _used(store)
    events = commands = 0
    started = time.perf_counter()
    for n in range(matches):
        wait(runner.create(f"mem-{n}", seats, options, seed=n + 1))
        played = wait(play_match(runner, f"mem-{n}", seed=n + 1, check=False))
        events, commands = events + played.events, commands + played.steps
    play_seconds = time.perf_counter() - started
    kept = _used(store)
    for follower in followers:
        while follower.poll(">"):
            pass
    keys = [store.outbox_key(shard) for shard in range(store.shards)]
    for shard in range(store.shards):
        trim_outbox(store.outbox_groups(), shard, groups)
    trimmed = _used(store)
    with tempfile.TemporaryDirectory() as folder:
        archiver = Archiver(
            store, LocalArchive(Path(folder)), lambda game: (runner.rules, runner.codec), -1.0, groups
        )
        archiver.batch = matches
        archiver.run(range(store.shards))
        archived = _used(store)
        stored = sum(path.stat().st_size for path in Path(folder).rglob("*.gz"))
    return MemoryReport(
        matches=matches,
        events=events,
        commands=commands,
        play_seconds=play_seconds,
        kept=(kept - base) / matches,
        trimmed=(trimmed - base) / matches,
        archived=(archived - base) / matches,
        archive_bytes=stored / matches,
        outbox_entries=sum(int(store.client.xlen(key)) for key in keys),
        keys_left=int(store.client.dbsize()),
    )
