"""Replies on a real broker and worker: a bot's first move after a person's, queued behind other bot
jobs, is taken first, and plays one move."""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.result import AsyncResult

from services.workers.planner import Job, JobKind
from services.workers.reactor import celery_dispatch
from shared.decider import Actor
from shared.runner import MatchRunner
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Processes, create_match, wait_for
from tests.support.race.rules import Roll


def test_a_reply_sent_last_is_played_first_and_plays_one_move(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore, celery: Celery
) -> None:
    """Four matches of a person and two bots, the person just moved in each: three ordinary jobs
    are sent, then a reply, before any worker runs. One worker process takes the reply first; it
    plays the first bot only, while each ordinary job plays both bots (a chain)."""
    jobs = []
    for number, match_id in enumerate(["o1", "o2", "o3", "reply"]):
        version = create_match(race_runner, match_id, 3, {1: "random", 2: "random"})
        race_runner.submit(match_id, Actor.of_seat(0), Roll(), version, f"h{number}")
        jobs.append(Job(JobKind.BOT, match_id, "race", version + 1, 1, "random", reply=match_id == "reply"))
    celery_dispatch(celery)(jobs)  # one task each, in this order
    procs.start("worker", TABULA_WORKER_CONCURRENCY="1")
    results = [AsyncResult(job.task_id, app=celery) for job in jobs]
    wait_for(lambda: all(r.ready() for r in results), 60, "the four jobs to run")
    assert [r.get() for r in results] == ["applied"] * 4
    done = [r.date_done for r in results]
    assert done[3] < min(done[:3])  # the reply, sent last, ran first
    for job in jobs:
        actors = [e.actor for e in store.read(job.match_id, job.version + 1)]
        assert actors == (["bot:1:random"] if job.reply else ["bot:1:random", "bot:2:random"])
