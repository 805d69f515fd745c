"""The Celery app and its thin tasks: ids and an expected version in, one idempotent job out.

Reliability settings (docs/workers.md): ``acks_late`` + ``task_reject_on_worker_lost`` (a task
whose prefork pool process dies is delivered again), prefetch 1, retries with backoff only on
transient Redis errors. kombu's ack emulation (a copy of each message taken, given back after the
visibility timeout, two transactions per task) is off unless ``TABULA_BROKER_ACK_EMULATION=1``:
a task lost with its worker is planned again by the reactor's sweeper ``TABULA_SWEEP_STALL``
after its step fell due, long before a visibility timeout over twice the task time limit ran out,
and turn clocks are not countdowns (they wait in the store, see ``shared.store.TurnClocks``), so
no message has to wait in the broker for long. No results are stored (``task_ignore_result``, no
backend) unless ``TABULA_TASK_RESULTS=1``: nothing reads them, and each one kept an hour cost Redis
memory per move. Importing this module builds the app object and reads the environment; it opens
no connection. The Redis client is built in each process on first use (see
``services.workers.context``).
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import sys
from collections.abc import Callable
from typing import Any

from celery import Celery, signals
from celery.exceptions import TimeLimitExceeded
from kombu.entity import Exchange, Queue

from services.games import game_names, load_game
from services.workers import analysis, context, jobs
from services.workers.broker import TRANSPORT
from services.workers.planner import BATCH_TASK, TASK, JobKind
from services.workers.processes import hard_limit, install_hard_limit, supervise
from services.workers.settings import PROCESSES, QUEUES, WorkerSettings
from shared.matches.analysis import QUEUE as ANALYSIS_QUEUE
from shared.matches.analysis import TASK as ANALYSIS_TASK
from shared.runtime.edge import run_inline
from shared.runtime.observability import log_fields, setup_logging, start_metrics
from shared.serving.errors import STORE_UNAVAILABLE

log = logging.getLogger(__name__)
# Every Redis error a retry may cure (a restart, still loading, a timeout, a cluster failover): the
# same table that makes the rule services answer UNAVAILABLE (shared/serving/errors.py).
TRANSIENT = STORE_UNAVAILABLE
RETRY: dict[str, Any] = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": True,
    "max_retries": 8,
}


def configure(app: Celery, settings: WorkerSettings) -> None:
    transport = {
        "ack_emulation": settings.ack_emulation,
        "visibility_timeout": settings.visibility_timeout,
        "unacked_restore_interval": settings.restore_interval,
        "unacked_restore_throttle": 1,
    }
    app.conf.update(
        broker_url=settings.broker_url,
        # kombu's Redis transport with a lost connection reported as one (services/workers/broker.py)
        broker_transport=TRANSPORT if settings.broker_url.startswith("redis://") else None,
        # Nothing reads a task's result (the reactor sends and forgets; effects are in the event
        # store): no backend, nothing written. Tests that watch task states turn it on.
        result_backend=settings.broker_url if settings.task_results else None,
        task_ignore_result=not settings.task_results,
        broker_transport_options=transport,
        result_backend_transport_options={"visibility_timeout": settings.visibility_timeout},
        broker_connection_retry_on_startup=True,
        # one direct exchange and routing key per queue, so a message goes to exactly its queue
        task_queues=[Queue(name, Exchange(name), routing_key=name) for name in QUEUES],  # type: ignore[no-untyped-call]
        task_default_queue="bots",
        task_routes={ANALYSIS_TASK: {"queue": ANALYSIS_QUEUE}},
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_track_started=settings.task_results,
        task_time_limit=settings.task_time_limit,
        task_soft_time_limit=max(settings.task_time_limit - 10, 1),
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=3600,
    )


app = Celery("tabula")
configure(app, WorkerSettings.from_env())


@signals.worker_process_init.connect  # type: ignore[untyped-decorator]
def _after_fork(**_: Any) -> None:
    context.reset()


@signals.setup_logging.connect  # type: ignore[untyped-decorator]
def _json_logs(**_: Any) -> None:
    setup_logging(WorkerSettings.from_env().base.log_level)


def _done(task: str, match_id: str, version: int, result: jobs.Result) -> str:
    log.info("task done", extra=log_fields(task=task, match_id=match_id, version=version, result=str(result)))
    return str(result)


def _bot_turn(match_id: str, game: str, seat: int, version: int, level: str, chain: int = 0) -> str:
    """``chain``: at most this many moves (a reply's 1); 0, or a message without it: ``bot_chain``."""
    ctx = context.current()
    chain, runner = chain or ctx.settings.bot_chain, ctx.runner(game)
    result = jobs.play_bot_turn(runner, match_id, seat, version, level, ctx.settings.mcts, chain)
    return _done("bot_turn", match_id, version, result)


def _system_step(match_id: str, game: str, version: int) -> str:
    result = jobs.apply_system_step(context.current().runner(game), match_id, version)
    return _done("system_step", match_id, version, result)


def _turn_timeout(match_id: str, game: str, seat: int, version: int) -> str:
    ctx = context.current()
    result = jobs.expire_turn(ctx.runner(game), match_id, seat, version, ctx.settings.mcts)
    return _done("turn_timeout", match_id, version, result)


def _limited(work: Callable[..., Any]) -> Callable[..., Any]:
    """``work`` under the solo processes' hard time limit (``processes.hard_limit``)."""

    @functools.wraps(work)
    def run(*args: Any) -> Any:
        with hard_limit():
            return work(*args)

    return run


bot_turn = app.task(name=TASK[JobKind.BOT], **RETRY)(_limited(_bot_turn))
system_step = app.task(name=TASK[JobKind.SYSTEM], **RETRY)(_limited(_system_step))
turn_timeout = app.task(name=TASK[JobKind.TIMER], **RETRY)(_limited(_turn_timeout))
WORK: dict[str, Callable[..., str]] = {
    TASK[JobKind.BOT]: _bot_turn,
    TASK[JobKind.SYSTEM]: _system_step,
    TASK[JobKind.TIMER]: _turn_timeout,
}


@app.task(name=ANALYSIS_TASK, **RETRY)  # type: ignore[untyped-decorator]
def analyse_match(match_id: str, game: str, seat: int) -> str:
    """Rate the decisions of one seat of a finished match (services.workers.analysis), a slice at a
    time: its own hard limit is the task time limit, and a slice is well under it."""
    ctx = context.current()

    def again() -> None:
        analyse_match.apply_async((match_id, game, seat), queue=ANALYSIS_QUEUE)

    with hard_limit():
        result = analysis.run(ctx.runner(game), ctx.records, match_id, game, seat, ctx.analysis, again)
    log.info("task done", extra=log_fields(task="analyse_match", match_id=match_id, seat=seat, result=result))
    return result


@app.task(name=BATCH_TASK, **RETRY)  # type: ignore[untyped-decorator]
@_limited
def run_jobs(work: list[list[Any]]) -> list[str]:
    """Several jobs in one task, in order: [task name, its arguments] each (the reactor's batches under
    load). A transient Redis error retries the whole task (every job is idempotent: those done already
    come back duplicate or stale); any other failure of one job is logged and the rest still run."""
    results = []
    for name, args in work:
        try:
            results.append(WORK[name](*args))
        except (*TRANSIENT, TimeLimitExceeded):  # the whole task: retried, or out of time
            raise
        except Exception:
            log.exception("job failed", extra=log_fields(task=name, args=args))
            results.append("failed")
    return results


def ping(timeout: float, host: str | None = None) -> int:
    """A worker pod's liveness probe: 0 when a Celery worker of this host (``tabula-<pid>@<host>``)
    answers a ping within ``timeout`` s, else 1. ``celery inspect ping`` succeeds when any worker
    of the whole deployment answers. A solo worker answers between two tasks only (a batch of mcts
    chains may take tens of seconds), hence the long default; a prefork worker's main process
    answers at once."""
    suffix = "@" + (host or socket.gethostname())
    replies = app.control.ping(timeout=timeout)
    return 0 if any(name.endswith(suffix) for reply in replies for name in reply) else 1


def main() -> None:
    """``tabula serve worker``: a Celery worker on the queues of TABULA_WORKER_QUEUES. With the pool
    ``processes`` (the default) and more than one process, the parent of that many solo workers
    (``services.workers.processes``); with one, a solo worker under the hard time limit."""
    settings = WorkerSettings.from_env()
    pool = settings.pool
    if pool == PROCESSES and settings.concurrency > 1:
        setup_logging(settings.base.log_level)
        command = [sys.executable, "-m", "services.workers", "worker"]
        grace = settings.task_time_limit + 5.0  # the task in hand may run to its limit
        raise SystemExit(supervise(settings.concurrency, command, dict(os.environ), grace))
    if pool in (PROCESSES, "solo"):
        pool = "solo"
        install_hard_limit(settings.task_time_limit)
        run_inline()  # the solo pool runs every task in this thread: no handoff per store call
    for game in game_names():  # every game's rules and content before the first task, not in it
        load_game(game)  # (about a second of CPU each; a prefork pool's processes inherit them)
    start_metrics(settings.base.metrics_port)
    app.worker_main(
        [
            "worker",
            f"--loglevel={settings.base.log_level}",
            f"--queues={','.join(settings.queues)}",
            f"--pool={pool}",
            f"--concurrency={1 if pool == 'solo' else settings.concurrency}",
            f"--hostname=tabula-{os.getpid()}@%h",  # unique per process: several workers per host
            "--without-gossip",
            "--without-mingle",
        ]
    )
