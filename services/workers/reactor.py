"""The reactor: follows the outbox shards and turns notices into Celery tasks, without game code.

Reading, recovery, claiming and dead letters are the shared follower's (``shared.store.outbox``):
instance ``i`` of ``n`` (TABULA_REACTOR_INDEX / TABULA_REACTOR_COUNT) owns the shards with
``shard % n == i`` and reads them as consumer ``reactor-i`` of group ``reactor``. A page of
notices is acknowledged only after its jobs are sent (together, in batches under load: see
``celery_dispatch``), so a crash in between sends them again: the tasks are idempotent.

Between reads (``tick``), for its shards only, it fires the turn clocks that are due (kept by the
store, ``EventStore.clocks``: a clock is never a Celery countdown) and, every sweep
interval, plans again the matches that wait on the workers with no progress
(``services.workers.sweeper``). Time comes from an injectable ``now`` (seconds since the epoch).
Upkeep, also between reads: every ``TABULA_OUTBOX_TRIM_INTERVAL`` it trims its shards' outbox
streams to what some group still needs (``shared.store.outbox.trim_outbox``), and with an archive
configured it moves finished matches there (``shared.matches.archiver``, a batch per tick).

Any number of instances may run with the defaults (``TABULA_REACTOR_COUNT=1``): each reads every
shard as its own consumer (``TABULA_REACTOR_CONSUMER``, e.g. the pod name) of the one group, which
hands each notice to one of them; a clock fires once (``TurnClocks.take_due``: on Redis ``ZREM``
decides), a step the sweepers of two instances both plan again is applied once (deterministic
command ids), trimming and archiving are safe to repeat. ``TABULA_REACTOR_INDEX`` / ``COUNT``
still split the shards instead.

A notice is planned from what the runner recorded with its append (``notice.progress``: seats
to act, system step pending, status) and the match meta (version, bots, clock, away seats); for a
match without a turn clock, once its meta has been read, from what the meta fixed at creation (its
game and bots), with no read at all.
Only a notice written before progress was recorded (no ``to_act``) makes the reactor load the
match state, once, through the game registry, to work the progress out (see docs/workers.md).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from celery import Celery
from prometheus_client import Counter

from services.workers.planner import (
    BATCH_TASK,
    Fixed,
    Job,
    JobKind,
    batches,
    latest,
    needs_nothing,
    plan,
    plan_fixed,
    reply_after,
    seats_back,
)
from services.workers.settings import WorkerSettings
from services.workers.sweeper import Sweeper
from shared.core.lru import keep
from shared.matches.archive import storage_from_env
from shared.matches.archiver import ArchivableStore, Archiver
from shared.matches.runner import EventCodec, MatchRunner, progress_of
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields, setup_logging, start_metrics
from shared.store import EventStore, MatchMeta, OutboxNotice, Progress, TurnClock
from shared.store.outbox import FollowerSettings, OutboxFollower, owned_shards, trim_outbox

log = logging.getLogger(__name__)
GROUP = "reactor"
NOTICES = Counter("tabula_reactor_notices_total", "Outbox notices planned", ["result"])
JOBS = Counter("tabula_reactor_jobs_total", "Jobs enqueued", ["kind"])
CLOCKS = Counter("tabula_reactor_clocks_total", "Turn clocks by what became of them", ["result"])
FIXED_CACHED = 65_536  # matches whose bots and clock the reactor keeps (a few hundred bytes each)
SWEPT = Counter("tabula_reactor_swept_total", "Overdue jobs of stalled matches planned again", ["kind"])

Dispatch = Callable[[Sequence[Job]], None]  # sends jobs: a page of notices' (or a tick's) at once
Runners = Callable[[str], MatchRunner[Any]]  # game name -> runner, for old notices only


def celery_dispatch(app: Celery, batch: int = 1) -> Dispatch:
    """Send jobs to their queues now (a clock is sent only once due: never a countdown): a job alone
    in its queue as its own task, more as tasks of up to ``batch`` jobs each (``planner.batches``,
    run by ``tabula.jobs``). The tasks go in one round trip (kombu's ``Producer.batch``: one pipeline
    of ``LPUSH``es for a Redis broker, each at once for another): a task sent alone waited for its
    reply, and the reactor spent most of its time so under bot load. A failed pipeline raises, so
    the page is handled again, its tasks sent again (they are idempotent), as when one send failed."""

    def send(jobs: Sequence[Job]) -> None:
        # one producer for the whole page, its tasks sent together when the block ends
        with app.producer_or_acquire() as producer, producer.batch():
            for queue, load in batches(jobs, batch):
                if len(load) == 1:
                    (job,) = load
                    name, args, task_id = job.task_name, job.args(), job.task_id
                else:
                    name, args = BATCH_TASK, [[[job.task_name, job.args()] for job in load]]
                    task_id = f"{load[0].task_id}+{len(load) - 1}"
                # the arguments are short lists of ids and numbers: their plain repr is the message's
                # argsrepr (Celery's own saferepr costs a tenth of sending a task)
                options = {"queue": queue, "task_id": task_id, "producer": producer}
                if load[0].priority is not None:  # one priority per load (``batches``)
                    options["priority"] = load[0].priority
                app.send_task(name, args=args, argsrepr=repr(args), kwargsrepr="{}", **options)

    return send


def follower_settings(settings: WorkerSettings) -> FollowerSettings:
    return FollowerSettings(
        group=GROUP,
        consumer=settings.reactor_consumer or f"reactor-{settings.reactor_index}",
        claim_idle_ms=settings.reactor_claim_idle_ms,
        max_deliveries=settings.reactor_max_deliveries,
        block_ms=settings.reactor_block_ms,
        linger_ms=settings.reactor_linger_ms,
    )


class Reactor:
    def __init__(
        self,
        store: EventStore,
        runners: Runners,
        dispatch: Dispatch,
        settings: WorkerSettings,
        follow: FollowerSettings | None = None,
        now: Callable[[], float] = time.time,
        archiver: Archiver | None = None,
        resume: Callable[[Sequence[int]], int] | None = None,
    ) -> None:
        """``resume``: sends again the analyses of the owned shards whose worker went silent (every
        sweep interval; ``services.workers.analysis.resume_stalled``)."""
        self.store, self.runners, self.dispatch, self.settings = store, runners, dispatch, settings
        self.archiver, self.resume = archiver, resume
        self.now = now
        self.shards = owned_shards(store.shards, settings.reactor_index, settings.reactor_count)
        follow = follow or follower_settings(settings)
        self.follower = OutboxFollower(store, self.shards, self.handle, follow, after_page=self.flush)
        self._jobs: list[Job] = []  # planned, sent by ``flush`` at the end of the page
        # match -> its bot seats and clock, fixed at creation (``needs_nothing``)
        self._fixed: OrderedDict[str, Fixed] = OrderedDict()
        self.clocks = store.clocks()
        self.sweeper = Sweeper(
            store, self.shards, settings.sweep_stall, settings.away_seconds, now, settings.reply_first
        )
        self._next_clocks = self._next_sweep = self._next_trim = self._next_archive = -math.inf
        self._next_resume = -math.inf

    def run(self, stop: threading.Event) -> None:
        """Follow the outbox until ``stop`` is set, with the clocks and the sweeper between reads."""
        self.follower.run(stop, tick=self.tick)

    def handle(self, notice: OutboxNotice) -> None:
        """Enqueue what the match needs, if this notice is still its head.

        A match without a turn clock is planned from the notice and what its meta fixed at creation,
        without reading the meta: whether the notice is still the head is then left to the page
        (``flush`` drops jobs a later notice of the page superseded) and, across pages, to the worker
        (a job at a version the match has passed finds it stale and does nothing)."""
        fixed = self._fixed.get(notice.match_id) if notice.first_version > 1 else None
        if fixed is not None and notice.progress is not None and fixed.turn_seconds == 0:
            if needs_nothing(notice.progress, fixed):
                NOTICES.labels("nothing_to_plan").inc()
                return
            reply = self._reply(notice)
            for job in plan_fixed(notice.progress, notice.last_version, notice.match_id, fixed, reply=reply):
                self.enqueue(job)
            NOTICES.labels("planned_from_notice").inc()
            return
        meta = self._clear_away(notice, MatchMeta.of(wait(self.store.get_meta(notice.match_id))))
        self._remember(notice.match_id, meta)
        if meta.turn_seconds > 0:  # the clocks of the version before this append can go
            self.clocks.cancel(notice.match_id, notice.first_version - 1, meta.seats)
        if meta.head != notice.last_version:
            NOTICES.labels("superseded").inc()  # a later notice of the same match covers the head
            return
        progress = notice.progress or self._progress_from_state(notice, meta)
        if progress is None:
            NOTICES.labels("superseded").inc()
            return
        away = self.settings.away_seconds
        for job in plan(progress, notice.last_version, meta, notice.match_id, away, self._reply(notice)):
            self.enqueue(job)
        NOTICES.labels("handled").inc()

    def _reply(self, notice: OutboxNotice) -> bool:
        """Whether the notice's bot jobs are replies (``reply_after``; ``TABULA_BOT_REPLY_FIRST``)."""
        return self.settings.reply_first and reply_after(notice.actor)

    def _remember(self, match_id: str, meta: MatchMeta) -> None:
        """Keep what the meta fixed at creation (a create notice reads it again: an id archived, deleted
        and created anew). A notice another instance handled can leave it stale here for such an id:
        the sweeper then plans the match again from its meta (docs/workers.md)."""
        if not meta.exists:
            return
        keep(self._fixed, match_id, Fixed.of(meta), FIXED_CACHED)

    def enqueue(self, job: Job) -> None:
        """A bot or system job waits for ``flush``; a timer becomes a turn clock in the store, due in
        ``countdown`` seconds."""
        if job.kind is JobKind.TIMER:
            due_ms = math.floor((self.now() + job.countdown) * 1000)
            self.clocks.set(TurnClock(job.match_id, job.version, job.seat, due_ms))
        else:
            self._jobs.append(job)
        JOBS.labels(str(job.kind)).inc()

    def flush(self) -> None:
        """Send the jobs planned since the last flush, together: the follower calls it after a page of
        notices and before acknowledging them, so a failure here leaves the page to be handled again."""
        planned, self._jobs = self._jobs, []
        jobs = latest(planned)
        if len(jobs) < len(planned):
            NOTICES.labels("superseded").inc(len(planned) - len(jobs))
        if jobs:
            self.dispatch(jobs)

    def tick(self) -> None:
        """Between reads: sweep when the interval has passed, then fire the due clocks.

        A failure (Redis or the broker away) is logged and tried again at the next tick: the
        clocks and the match index stay in the store meanwhile.
        """
        now = self.now()
        try:
            if now >= self._next_sweep:
                self._next_sweep = now + self.settings.sweep_interval
                self.sweep()
            if now >= self._next_clocks:
                self._next_clocks = now + self.settings.clock_tick
                self.fire_clocks()
        except Exception:
            log.exception("reactor tick failed; trying again at the next one")
        self.upkeep(now)

    def upkeep(self, now: float) -> None:
        """Trim the outbox and archive finished matches when due; failures wait for the next time."""
        try:
            if now >= self._next_trim:
                self._next_trim = now + self.settings.outbox_trim_interval
                self.trim()
            if self.resume is not None and now >= self._next_resume:
                self._next_resume = now + self.settings.sweep_interval
                self.resume(self.shards)
            if self.archiver is not None and now >= self._next_archive:
                done = self.archiver.run(self.shards)
                full = len(done) >= self.archiver.batch  # more may be due: go on at the next tick
                self._next_archive = now if full else now + self.settings.archive_interval
        except Exception:
            log.exception("reactor upkeep failed; trying again later")

    def trim(self) -> int:
        """Drop the notices of the owned shards that every consumer group has acknowledged."""
        groups, required = self.follower.groups, self.settings.outbox_groups
        return sum(trim_outbox(groups, shard, required) for shard in self.shards)

    def sweep(self) -> int:
        """Plan again the overdue jobs of stalled matches (see services.workers.sweeper)."""
        jobs = self.sweeper.sweep()
        for job in jobs:
            self.enqueue(job)
            SWEPT.labels(str(job.kind)).inc()
        self.flush()
        return len(jobs)

    def fire_clocks(self) -> int:
        """Send the timeout task of every due clock of the owned shards that is still for the head."""
        fired, now_ms = 0, math.floor(self.now() * 1000)
        for shard in self.shards:
            due = self.clocks.take_due(shard, now_ms)
            for n, clock in enumerate(due):
                try:
                    fired += self._fire(clock)
                except Exception:
                    for left in due[n:]:  # taken but not sent (the broker refused): back for the next tick
                        self.clocks.set(left)
                    raise
        return fired

    def _fire(self, clock: TurnClock) -> int:
        meta = MatchMeta.of(wait(self.store.get_meta(clock.match_id)))
        if meta.head != clock.version or meta.finished:
            CLOCKS.labels("stale").inc()  # the match moved on: the task would find the version stale
            return 0
        self.dispatch([Job(JobKind.TIMER, clock.match_id, meta.game, clock.version, clock.seat)])
        CLOCKS.labels("fired").inc()
        return 1

    def _progress_from_state(self, notice: OutboxNotice, meta: MatchMeta) -> Progress | None:
        """A notice written before progress was recorded: fold the match once and ask its rules.

        The only place the reactor uses game code; None if the match moved on meanwhile.
        """
        runner = self.runners(meta.game or notice.game)
        loaded = wait(runner.load(notice.match_id))
        NOTICES.labels("loaded_state").inc()
        if loaded.version != notice.last_version:
            return None
        return progress_of(runner.rules, loaded.state)

    def _clear_away(self, notice: OutboxNotice, meta: MatchMeta) -> MatchMeta:
        """A seat command from an away seat means its player is back; returns the meta as it is now."""
        if not meta.away_seats:
            return meta
        events = wait(self.store.read(notice.match_id, notice.first_version, notice.last_version))
        seats = seats_back(meta, events)
        if not seats:
            return meta
        wait(self.store.set_meta(notice.match_id, MatchMeta.away_marks(seats, False)))
        log.info("seats back", extra=log_fields(match_id=notice.match_id, seats=sorted(seats)))
        return dataclasses.replace(meta, away={**meta.away, **dict.fromkeys(seats, False)})


def build_archiver(store: ArchivableStore, runners: Runners, settings: WorkerSettings) -> Archiver | None:
    """The archiver, if an archive is configured (TABULA_ARCHIVE_DIR or TABULA_ARCHIVE_STORAGE)."""
    storage = storage_from_env()
    if storage is None:
        return None

    def games(game: str) -> tuple[Any, EventCodec]:
        runner = runners(game)
        return runner.rules, runner.codec

    return Archiver(store, storage, games, settings.archive_after, settings.outbox_groups)


def main() -> None:
    """``tabula serve reactor``: run until SIGTERM / Ctrl-C."""
    from services.workers import context  # only the entry point wires clients
    from services.workers.analysis import analysis_sender, resume_stalled
    from services.workers.celery_app import app

    settings = WorkerSettings.from_env()
    setup_logging(settings.base.log_level)
    start_metrics(settings.base.metrics_port)
    ctx = context.current()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    archiver = build_archiver(ctx.store, ctx.runner, settings)
    dispatch = celery_dispatch(app, settings.dispatch_batch)
    resume = functools.partial(resume_stalled, ctx.records, analysis_sender(app))
    reactor = Reactor(ctx.store, ctx.runner, dispatch, settings, archiver=archiver, resume=resume)
    consumer = reactor.follower.settings.consumer
    log.info("reactor started", extra=log_fields(consumer=consumer, shards=reactor.shards))
    reactor.run(stop)
    ctx.close()
