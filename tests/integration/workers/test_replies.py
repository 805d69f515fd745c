"""Replies on a real broker and worker: a bot's first move after a person's, queued behind other bot
jobs, is taken first, and plays one move."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from celery import Celery
from celery.result import AsyncResult

from services.workers.planner import Job, JobKind
from services.workers.reactor import celery_dispatch
from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
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
        wait(race_runner.submit(match_id, Actor.of_seat(0), Roll(), version, f"h{number}"))
        jobs.append(Job(JobKind.BOT, match_id, "race", version + 1, 1, "random", reply=match_id == "reply"))
    celery_dispatch(celery)(jobs)  # one task each, in this order
    procs.start("worker", TABULA_WORKER_CONCURRENCY="1")
    results = [AsyncResult(job.task_id, app=celery) for job in jobs]
    wait_for(lambda: all(r.ready() for r in results), 60, "the four jobs to run")
    assert [r.get() for r in results] == ["applied"] * 4
    done = [r.date_done for r in results]
    assert done[3] < min(done[:3])  # the reply, sent last, ran first
    for job in jobs:
        actors = [e.actor for e in wait(store.read(job.match_id, job.version + 1))]
        assert actors == (["bot:1:random"] if job.reply else ["bot:1:random", "bot:2:random"])


def test_a_page_s_tasks_go_to_the_broker_in_one_round_trip(
    celery: Celery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reactor's dispatch of a page: every task in one pipeline (kombu's ``Producer.batch``),
    none sent alone; all of them in their queues afterwards."""
    executed: list[list[str]] = []
    execute = redis.client.Pipeline.execute

    def spied(pipe: redis.client.Pipeline, *args: Any, **kwargs: Any) -> Any:
        executed.append([str(command[0][0]) for command in pipe.command_stack])
        return execute(pipe, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", spied)
    jobs = [Job(JobKind.BOT, f"m{n}", "race", 3, 1, "random") for n in range(5)]
    jobs.append(Job(JobKind.SYSTEM, "m9", "race", 7))
    celery_dispatch(celery)(jobs)  # one task each: six LPUSHes
    pushes = [batch for batch in executed if "LPUSH" in batch]
    assert pushes == [["LPUSH"] * 6]
    broker = redis.Redis.from_url(celery.conf.broker_url)
    lists = [key for key in broker.scan_iter() if broker.type(key) == b"list"]  # a queue, per priority
    assert {key.decode().split("\x06")[0] for key in lists} == {"bots", "scoring"}
    queued = [json.loads(raw)["headers"]["id"] for key in lists for raw in broker.lrange(key, 0, -1)]
    assert sorted(queued) == sorted(job.task_id for job in jobs)
