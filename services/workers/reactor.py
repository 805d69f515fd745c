"""The reactor: reads the outbox shards with a consumer group and turns notices into Celery tasks.

Sharding: instance ``i`` of ``n`` (TABULA_REACTOR_INDEX / TABULA_REACTOR_COUNT) owns the shards
with ``shard % n == i`` and reads them as consumer ``reactor-i`` of group ``reactor``. A
restarted instance first re-reads its own pending entries (id ``0``), so nothing it had read
but not acknowledged is lost. Entries pending longer than the claim idle time (a crashed
consumer, or a notice whose handling failed) are taken over with XAUTOCLAIM; one delivered
more than the maximum number of times goes to the shard's dead-letter stream
``{sNN}:outbox:dead`` and is acknowledged. Each notice is acknowledged only after its jobs are
enqueued, so a crash in between enqueues them again: the tasks are idempotent.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import redis
import redis.cluster
from celery import Celery
from prometheus_client import Counter

from services.workers.planner import Job, away_key, away_seats, plan, seats_back
from services.workers.settings import WorkerSettings
from shared.observability import log_fields, setup_logging, start_metrics
from shared.runner import MatchRunner
from shared.store import OutboxNotice
from shared.store.redis_store import RedisEventStore, notice_from_entry

log = logging.getLogger(__name__)
GROUP = "reactor"
NOTICES = Counter("tabula_reactor_notices_total", "Outbox notices handled", ["result"])
JOBS = Counter("tabula_reactor_jobs_total", "Jobs enqueued", ["kind"])

Dispatch = Callable[[Job], None]
Runners = Callable[[str], MatchRunner[Any]]
Entry = tuple[bytes, dict[bytes, bytes] | None]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def owned_shards(shards: int, index: int, count: int) -> list[int]:
    return [shard for shard in range(shards) if shard % count == index]


def dead_letter_key(outbox_key: str) -> str:
    return f"{outbox_key}:dead"


def celery_dispatch(app: Celery) -> Dispatch:
    def send(job: Job) -> None:
        countdown = job.countdown if job.countdown > 0 else None
        app.send_task(
            job.task_name, args=job.args(), queue=job.queue, task_id=job.task_id, countdown=countdown
        )

    return send


class Reactor:
    def __init__(
        self, store: RedisEventStore, runners: Runners, dispatch: Dispatch, settings: WorkerSettings
    ) -> None:
        self.store, self.client, self.runners, self.dispatch = store, store.client, runners, dispatch
        self.settings = settings
        self.consumer = f"reactor-{settings.reactor_index}"
        shards = owned_shards(store.shards, settings.reactor_index, settings.reactor_count)
        self.keys = {store.outbox_key(shard): shard for shard in shards}
        self._next_claim = 0.0

    # ------------------------------------------------------------ lifecycle
    def ensure_groups(self) -> None:
        for key in self.keys:
            try:
                self.client.xgroup_create(key, GROUP, id="0", mkstream=True)
            except redis.ResponseError as err:
                if "BUSYGROUP" not in str(err):
                    raise

    def run(self, stop: threading.Event) -> None:
        self.ensure_groups()
        self.recover_pending()
        while not stop.is_set():
            try:
                self.poll_once()
            except redis.ConnectionError:
                log.exception("redis unavailable; retrying")
                stop.wait(1.0)

    def poll_once(self) -> int:
        handled = 0
        if time.monotonic() >= self._next_claim:
            handled += self.reclaim()
            self._next_claim = time.monotonic() + self.settings.reactor_claim_idle_ms / 2000
        return handled + self.poll(">")

    # ------------------------------------------------------------ reading
    def poll(self, start: str) -> int:
        """Read new (``>``) or our own pending (``0``, up to 100 per shard) entries and handle them."""
        handled = 0
        for key, entries in self._read(start):
            for entry_id, fields in entries:
                self._process(key, entry_id, fields)
                handled += 1
        return handled

    def recover_pending(self) -> int:
        """Handle our own entries read before a crash or restart and never acknowledged."""
        handled = 0
        for key in self.keys:
            after = "0"
            while True:
                reply = self.client.xreadgroup(GROUP, self.consumer, {key: after}, count=100)
                entries: list[Entry] = reply[0][1] if reply else []
                if not entries:
                    break
                for entry_id, fields in entries:
                    self._process(key, entry_id, fields)
                    handled += 1
                after = _text(entries[-1][0])
        return handled

    def _read(self, start: str) -> list[tuple[str, list[Entry]]]:
        block = self.settings.reactor_block_ms if start == ">" else None
        found: list[Any] = []
        if isinstance(self.client, redis.cluster.RedisCluster):  # one slot per call on a cluster
            for key in self.keys:
                found += self.client.xreadgroup(GROUP, self.consumer, {key: start}, count=100) or []
            if not found and block:
                time.sleep(block / 1000)
        else:
            streams: dict[Any, Any] = dict.fromkeys(self.keys, start)
            found = self.client.xreadgroup(GROUP, self.consumer, streams, count=100, block=block) or []
        return [(_text(key), entries) for key, entries in found]

    def reclaim(self) -> int:
        """Take over entries pending too long; dead-letter the ones delivered too often."""
        handled = 0
        for key in self.keys:
            idle = self.settings.reactor_claim_idle_ms
            reply = self.client.xautoclaim(key, GROUP, self.consumer, idle, count=100)
            for entry_id, fields in reply[1]:
                if self._deliveries(key, entry_id) > self.settings.reactor_max_deliveries:
                    self._dead_letter(key, entry_id, fields)
                else:
                    self._process(key, entry_id, fields)
                handled += 1
        return handled

    def _deliveries(self, key: str, entry_id: bytes) -> int:
        pending = self.client.xpending_range(key, GROUP, min=entry_id, max=entry_id, count=1)
        return int(pending[0]["times_delivered"]) if pending else 0

    def _dead_letter(self, key: str, entry_id: bytes, fields: dict[bytes, bytes] | None) -> None:
        record = {**(fields or {}), b"entry": entry_id, b"consumer": self.consumer.encode()}
        self.client.xadd(dead_letter_key(key), record)
        self.client.xack(key, GROUP, entry_id)
        NOTICES.labels("dead_letter").inc()
        log.error("notice dead-lettered", extra=log_fields(stream=key, entry=entry_id.decode()))

    # ------------------------------------------------------------ handling
    def _process(self, key: str, entry_id: bytes, fields: dict[bytes, bytes] | None) -> None:
        if fields is None:  # trimmed from the stream while pending: nothing left to do
            self.client.xack(key, GROUP, entry_id)
            return
        try:
            self.handle(notice_from_entry(entry_id, fields))
        except Exception:  # left pending: XAUTOCLAIM retries it, then dead-letters it
            NOTICES.labels("failed").inc()
            log.exception("notice failed", extra=log_fields(stream=key, entry=entry_id.decode()))
            return
        self.client.xack(key, GROUP, entry_id)

    def handle(self, notice: OutboxNotice) -> None:
        """Enqueue what the match needs, if this notice is still its head."""
        runner = self.runners(notice.game)
        loaded = runner.load(notice.match_id)
        self._clear_away(notice, loaded.meta)
        if loaded.version != notice.last_version:
            NOTICES.labels("superseded").inc()  # a later notice of the same match covers the head
            return
        for job in plan(
            runner.rules,
            loaded.state,
            loaded.version,
            loaded.meta,
            notice.match_id,
            self.settings.away_seconds,
        ):
            self.dispatch(job)
            JOBS.labels(str(job.kind)).inc()
        NOTICES.labels("handled").inc()

    def _clear_away(self, notice: OutboxNotice, meta: Mapping[str, str]) -> None:
        """A seat command from an away seat means its player is back."""
        if not away_seats(meta):
            return
        events = self.store.read(notice.match_id, notice.first_version, notice.last_version)
        back = seats_back(meta, events)
        if back:
            self.store.set_meta(notice.match_id, {away_key(seat): "0" for seat in back})
            log.info("seats back", extra=log_fields(match_id=notice.match_id, seats=sorted(back)))


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
    shards = sorted(reactor.keys.values())
    log.info("reactor started", extra=log_fields(consumer=reactor.consumer, shards=shards))
    reactor.run(stop)
    ctx.close()
