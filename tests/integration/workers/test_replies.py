"""Replies on a real broker and worker: bot jobs answering a person's move, queued behind other bot
jobs, are taken first, and a reply's chain goes on only while no other reply waits."""

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


def test_replies_sent_last_are_played_first_and_the_first_yields_to_the_second(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore, celery: Celery
) -> None:
    """Four matches of a person and two bots, the person just moved in each: two ordinary jobs are
    sent, then two replies, before any worker runs. One worker process takes the replies first, in
    the order sent. The first plays only the first bot (the second reply waits in the broker); the
    second, with no reply waiting, plays both bots (a chain), as each ordinary job does."""
    jobs = []
    for number, match_id in enumerate(["o1", "o2", "r1", "r2"]):
        version = create_match(race_runner, match_id, 3, {1: "random", 2: "random"})
        race_runner.submit(match_id, Actor.of_seat(0), Roll(), version, f"h{number}")
        reply = match_id.startswith("r")
        jobs.append(Job(JobKind.BOT, match_id, "race", version + 1, 1, "random", reply=reply))
    celery_dispatch(celery)(jobs)  # one task each, in this order
    procs.start("worker", TABULA_WORKER_CONCURRENCY="1")
    results = [AsyncResult(job.task_id, app=celery) for job in jobs]
    wait_for(lambda: all(r.ready() for r in results), 60, "the four jobs to run")
    assert [r.get() for r in results] == ["applied"] * 4
    o1, o2, r1, r2 = (r.date_done for r in results)
    assert r1 < r2 < min(o1, o2)
    played = {job.match_id: [e.actor for e in store.read(job.match_id, job.version + 1)] for job in jobs}
    both = ["bot:1:random", "bot:2:random"]
    assert played == {"o1": both, "o2": both, "r1": ["bot:1:random"], "r2": both}
