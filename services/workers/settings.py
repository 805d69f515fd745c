"""Settings of the worker and the reactor, from the environment (read when a process starts)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from services.workers.bots import Budget
from shared.runtime.config import Settings, available_cpus

QUEUES = ("bots", "scoring", "timers", "analysis")  # analysis: shared.matches.analysis.QUEUE
PROCESSES = "processes"  # the default pool: solo Celery workers, one per process (workers/processes.py)
# Every consumer group of the outbox (the reactor's and the lobby's two): none may be missing when it
# is trimmed, so a group whose process has not started yet loses nothing (docs/operations.md).
OUTBOX_GROUPS = "reactor,lobby-projections,lobby-notices"


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    base: Settings
    broker_url: str
    visibility_timeout: int  # seconds; over twice the task time limit (clocks are not countdowns)
    # kombu's copy of every message taken until its task is acknowledged (to give it back after the
    # visibility timeout): off by default, as the sweeper plans a lost task's step again sooner
    ack_emulation: bool
    restore_interval: int  # seconds between sweeps that put back messages of dead workers
    task_time_limit: int
    mcts: Budget
    away_seconds: int  # the clock of a seat marked away
    pool: str  # "processes" (default), or a Celery pool: "solo", "prefork" ...
    concurrency: int  # processes; default one per CPU this process may use (``available_cpus``)
    dispatch_batch: int  # at most this many jobs of one queue in one task, when a page plans more
    bot_chain: int  # at most this many bot moves in one job, while one bot seat alone is to act next
    reply_first: bool  # plan replies: a bot job after a person's move is one move, taken before the others
    queues: tuple[str, ...]
    reactor_index: int
    reactor_count: int
    reactor_claim_idle_ms: int  # an entry pending this long is taken over (crashed consumer, failure)
    reactor_max_deliveries: int  # then it goes to the dead-letter stream
    reactor_block_ms: int
    reactor_linger_ms: int  # after a read that found notices, wait this long before the next one
    clock_tick: float  # seconds between two looks at the due turn clocks
    sweep_interval: float  # seconds between two sweeps for stalled matches
    sweep_stall: float  # seconds a due bot, system or clock step may go without progress
    task_results: bool  # store task states and results in the backend (tests read them; nothing else does)
    reactor_consumer: str  # its consumer name in the group, unique per instance ("": reactor-<index>)
    outbox_groups: tuple[str, ...]  # the groups the outbox is kept for: none missing, or no trimming
    outbox_trim_interval: float  # seconds between two trims of the outbox shards
    archive_after: float  # seconds after its end a finished match is archived (with an archive set)
    archive_interval: float  # seconds between two looks for matches to archive

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> WorkerSettings:
        e = dict(env if env is not None else os.environ)
        base = Settings.from_env(e)
        return WorkerSettings(
            base=base,
            broker_url=e.get("TABULA_BROKER_URL", base.redis_url),
            visibility_timeout=int(e.get("TABULA_VISIBILITY_TIMEOUT", "300")),
            ack_emulation=e.get("TABULA_BROKER_ACK_EMULATION", "0") == "1",
            restore_interval=int(e.get("TABULA_RESTORE_INTERVAL", "10")),
            task_time_limit=int(e.get("TABULA_TASK_TIME_LIMIT", "120")),
            mcts=Budget(
                seconds=float(e.get("TABULA_MCTS_SECONDS", "1.5")),
                iterations=int(e.get("TABULA_MCTS_ITERATIONS", "20000")),
            ),
            away_seconds=base.away_seconds,
            pool=e.get("TABULA_WORKER_POOL", PROCESSES),
            concurrency=int(e.get("TABULA_WORKER_CONCURRENCY") or available_cpus()),
            dispatch_batch=int(e.get("TABULA_DISPATCH_BATCH", "4")),
            bot_chain=max(1, int(e.get("TABULA_BOT_CHAIN", "4"))),
            reply_first=e.get("TABULA_BOT_REPLY_FIRST", "1") == "1",
            queues=tuple(filter(None, e.get("TABULA_WORKER_QUEUES", ",".join(QUEUES)).split(","))),
            reactor_index=int(e.get("TABULA_REACTOR_INDEX", "0")),
            reactor_count=int(e.get("TABULA_REACTOR_COUNT", "1")),
            reactor_claim_idle_ms=int(e.get("TABULA_REACTOR_CLAIM_IDLE_MS", "30000")),
            reactor_max_deliveries=int(e.get("TABULA_REACTOR_MAX_DELIVERIES", "5")),
            reactor_block_ms=int(e.get("TABULA_REACTOR_BLOCK_MS", "1000")),
            reactor_linger_ms=int(e.get("TABULA_REACTOR_LINGER_MS", "20")),
            clock_tick=float(e.get("TABULA_CLOCK_TICK", "1")),
            sweep_interval=float(e.get("TABULA_SWEEP_INTERVAL", "5")),
            sweep_stall=float(e.get("TABULA_SWEEP_STALL", "10")),
            task_results=e.get("TABULA_TASK_RESULTS", "0") == "1",
            reactor_consumer=e.get("TABULA_REACTOR_CONSUMER", ""),
            outbox_groups=tuple(filter(None, e.get("TABULA_OUTBOX_GROUPS", OUTBOX_GROUPS).split(","))),
            outbox_trim_interval=float(e.get("TABULA_OUTBOX_TRIM_INTERVAL", "60")),
            archive_after=float(e.get("TABULA_ARCHIVE_AFTER", "86400")),
            archive_interval=float(e.get("TABULA_ARCHIVE_INTERVAL", "300")),
        )
