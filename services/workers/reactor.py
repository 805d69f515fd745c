"""The reactor: follows the outbox shards and turns notices into Celery tasks, without game code.

Reading, recovery, claiming and dead letters are the shared follower's (``shared.outbox``):
instance ``i`` of ``n`` (TABULA_REACTOR_INDEX / TABULA_REACTOR_COUNT) owns the shards with
``shard % n == i`` and reads them as consumer ``reactor-i`` of group ``reactor``. Each notice
is acknowledged only after its jobs are enqueued, so a crash in between enqueues them again:
the tasks are idempotent.

A notice is planned from what the runner recorded with its append (``notice.progress``: seats
to act, system step pending, status) and the match meta (version, bots, clock, away seats).
Only a notice written before progress was recorded (no ``to_act``) makes the reactor load the
match state, once, through the game registry, to work the progress out (see docs/workers.md).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Mapping
from typing import Any

from celery import Celery
from prometheus_client import Counter

from services.workers.planner import Job, away_key, away_seats, plan, seats_back
from services.workers.settings import WorkerSettings
from shared.observability import log_fields, setup_logging, start_metrics
from shared.outbox import FollowerSettings, OutboxFollower, owned_shards
from shared.runner import MatchRunner, progress_of
from shared.store import OutboxNotice, Progress
from shared.store.redis_store import RedisEventStore

log = logging.getLogger(__name__)
GROUP = "reactor"
NOTICES = Counter("tabula_reactor_notices_total", "Outbox notices planned", ["result"])
JOBS = Counter("tabula_reactor_jobs_total", "Jobs enqueued", ["kind"])

Dispatch = Callable[[Job], None]
Runners = Callable[[str], MatchRunner[Any]]  # game name -> runner, for old notices only


def celery_dispatch(app: Celery) -> Dispatch:
    def send(job: Job) -> None:
        countdown = job.countdown if job.countdown > 0 else None
        app.send_task(
            job.task_name, args=job.args(), queue=job.queue, task_id=job.task_id, countdown=countdown
        )

    return send


def follower_settings(settings: WorkerSettings) -> FollowerSettings:
    return FollowerSettings(
        group=GROUP,
        consumer=f"reactor-{settings.reactor_index}",
        claim_idle_ms=settings.reactor_claim_idle_ms,
        max_deliveries=settings.reactor_max_deliveries,
        block_ms=settings.reactor_block_ms,
    )


class Reactor:
    def __init__(
        self,
        store: RedisEventStore,
        runners: Runners,
        dispatch: Dispatch,
        settings: WorkerSettings,
        follow: FollowerSettings | None = None,
    ) -> None:
        self.store, self.runners, self.dispatch, self.settings = store, runners, dispatch, settings
        self.shards = owned_shards(store.shards, settings.reactor_index, settings.reactor_count)
        follow = follow or follower_settings(settings)
        self.follower = OutboxFollower(store, self.shards, self.handle, follow)

    def handle(self, notice: OutboxNotice) -> None:
        """Enqueue what the match needs, if this notice is still its head."""
        meta = self._clear_away(notice, self.store.get_meta(notice.match_id))
        if int(meta.get("version") or 0) != notice.last_version:
            NOTICES.labels("superseded").inc()  # a later notice of the same match covers the head
            return
        progress = notice.progress or self._progress_from_state(notice, meta)
        if progress is None:
            NOTICES.labels("superseded").inc()
            return
        for job in plan(progress, notice.last_version, meta, notice.match_id, self.settings.away_seconds):
            self.dispatch(job)
            JOBS.labels(str(job.kind)).inc()
        NOTICES.labels("handled").inc()

    def _progress_from_state(self, notice: OutboxNotice, meta: Mapping[str, str]) -> Progress | None:
        """A notice written before progress was recorded: fold the match once and ask its rules.

        The only place the reactor uses game code; None if the match moved on meanwhile.
        """
        runner = self.runners(meta.get("game") or notice.game)
        loaded = runner.load(notice.match_id)
        NOTICES.labels("loaded_state").inc()
        if loaded.version != notice.last_version:
            return None
        return progress_of(runner.rules, loaded.state)

    def _clear_away(self, notice: OutboxNotice, meta: Mapping[str, str]) -> dict[str, str]:
        """A seat command from an away seat means its player is back; returns the meta as it is now."""
        if not away_seats(meta):
            return dict(meta)
        events = self.store.read(notice.match_id, notice.first_version, notice.last_version)
        seats = seats_back(meta, events)
        back = {away_key(seat): "0" for seat in seats}
        if back:
            self.store.set_meta(notice.match_id, back)
            log.info("seats back", extra=log_fields(match_id=notice.match_id, seats=sorted(seats)))
        return {**meta, **back}


def main() -> None:
    """``tabula serve reactor``: run until SIGTERM / Ctrl-C."""
    from services.workers import context  # only the entry point wires clients
    from services.workers.celery_app import app

    settings = WorkerSettings.from_env()
    setup_logging(settings.base.log_level)
    start_metrics(settings.base.metrics_port)
    ctx = context.current()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    reactor = Reactor(ctx.store, ctx.runner, celery_dispatch(app), settings)
    consumer = reactor.follower.settings.consumer
    log.info("reactor started", extra=log_fields(consumer=consumer, shards=reactor.shards))
    reactor.follower.run(stop)
    ctx.close()
