"""Real Celery workers and reactors on a private Redis: matches finish, crashes lose nothing,
redeliveries change nothing."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import psutil
import pytest
from celery import Celery
from celery.result import AsyncResult

from services.workers.reactor import GROUP
from shared.core.decider import Actor, RuleViolation
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import VersionConflict, shard_of
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Processes, command_ids, create_match, wait_for
from tests.support.race.rules import Roll
from tests.support.timing import scaled

# Deadlines below are for a loaded 2-core machine, where a subprocess takes seconds to start
pytestmark = pytest.mark.timeout(int(scaled(300)))


def _finished(store: RedisEventStore, match_id: str) -> bool:
    return wait(store.get_meta(match_id)).get("status") == "finished"


def _assert_consistent(runner: MatchRunner[Any], match_id: str) -> None:
    """Dense versions, every command applied once, an outcome, and nothing left in the outbox."""
    events = wait(runner.store.read(match_id))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    ids = command_ids(runner.store, match_id)
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert runner.rules.outcome(wait(runner.load(match_id)).state) is not None


def _pending(store: RedisEventStore) -> int:
    total = 0
    for shard in range(store.shards):
        key = store.outbox_key(shard)
        if store.client.exists(key) and any(
            g["name"] == GROUP.encode() for g in store.client.xinfo_groups(key)
        ):
            total += store.client.xpending(key, GROUP)["pending"]
    return total


def test_four_bots_play_a_race_to_the_end_with_no_client(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore
) -> None:
    create_match(race_runner, "bots4", 4, {0: "random", 1: "greedy", 2: "mcts", 3: "greedy"})
    procs.start("worker")
    procs.start("reactor")
    wait_for(lambda: _finished(store, "bots4"), 60, "the match to finish")
    _assert_consistent(race_runner, "bots4")
    actors = {e.actor for e in wait(store.read("bots4"))}
    assert {"bot:0:random", "bot:2:mcts", "system"} <= actors
    wait_for(lambda: _pending(store) == 0, 30, "every notice acknowledged")


def test_a_worker_killed_mid_task_leaves_the_match_consistent_and_the_task_is_applied_once(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore, celery: Celery
) -> None:
    version = create_match(race_runner, "kill", 2, {0: "random", 1: "random"}, goal=6)
    slow = procs.start("worker", RACE_BOT_SLEEP="30")
    procs.start("reactor")
    task = AsyncResult(f"bot:kill:{version}:0", app=celery)
    wait_for(lambda: task.state == "STARTED", 60, "the first bot task to start")
    procs.kill(slow)
    assert wait(store.version("kill")) == version  # nothing half-written
    procs.start("worker")
    assert task.get(timeout=scaled(60)) == "applied"  # redelivered after the visibility timeout, applied once
    wait_for(lambda: _finished(store, "kill"), 60, "the match to finish")
    _assert_consistent(race_runner, "kill")
    assert command_ids(store, "kill").count(f"bot:kill:{version}:0") == 1


def test_a_pool_child_killed_mid_task_is_replaced_and_the_task_redelivered_at_once(
    procs: Processes,
    race_runner: MatchRunner[Any],
    store: RedisEventStore,
    celery: Celery,
    tmp_path: Path,
) -> None:
    version = create_match(race_runner, "child", 2, {0: "random", 1: "random"}, goal=6)
    marker = tmp_path / "slept"
    worker = procs.start(
        "worker", TABULA_WORKER_POOL="prefork", TABULA_WORKER_CONCURRENCY="1", RACE_BOT_SLEEP_ONCE=str(marker)
    )
    procs.start("reactor")
    task = AsyncResult(f"bot:child:{version}:0", app=celery)
    wait_for(lambda: task.state == "STARTED" and marker.exists(), 60, "the first bot task to start")
    (child,) = psutil.Process(worker.pid).children()
    child.kill()  # SIGKILL: task_reject_on_worker_lost puts the message back
    assert wait(store.version("child")) == version
    assert task.get(timeout=scaled(60)) == "applied"
    wait_for(lambda: _finished(store, "child"), 60, "the match to finish")
    _assert_consistent(race_runner, "child")


def test_a_task_delivered_twice_changes_nothing_the_second_time(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore, celery: Celery
) -> None:
    version = create_match(race_runner, "twice", 2, {0: "greedy"})
    procs.start("worker")
    args = ["twice", "race", 0, version, "greedy"]
    first = celery.send_task("tabula.bot_turn", args=args, queue="bots")
    second = celery.send_task("tabula.bot_turn", args=args, queue="bots")
    assert sorted([first.get(timeout=scaled(60)), second.get(timeout=scaled(60))]) == ["applied", "stale"]
    assert wait(store.version("twice")) == version + 1
    timer = ["twice", "race", 1, version + 1]
    results = [
        celery.send_task("tabula.turn_timeout", args=timer, queue="timers").get(timeout=scaled(60))
        for _ in range(2)
    ]
    assert results == ["applied", "duplicate"] and wait(store.version("twice")) == version + 2
    assert wait(store.get_meta("twice"))["away:1"] == "1"


def test_a_reactor_killed_and_restarted_loses_no_notice(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore
) -> None:
    # the longest race (about 120 versions): the kill below lands mid-match even when this process is
    # starved of CPU for a while after seeing version 13 (a CI run once saw the match end first at 30)
    create_match(race_runner, "react", 3, {0: "random", 1: "random", 2: "random"}, goal=100)
    procs.start("worker")
    reactor = procs.start("reactor")
    wait_for(lambda: wait(store.version("react")) > 12, 60, "some moves")
    procs.kill(reactor)
    stalled = wait(store.version("react"))
    assert not _finished(store, "react")
    procs.start("reactor")
    wait_for(lambda: _finished(store, "react"), 60, "the match to finish after the restart")
    assert wait(store.version("react")) > stalled
    _assert_consistent(race_runner, "react")
    wait_for(lambda: _pending(store) == 0, 30, "every notice acknowledged")


def test_a_clock_that_runs_out_plays_for_the_seat_until_its_player_is_back(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore
) -> None:
    version = create_match(race_runner, "clock", 2, {1: "random"}, turn_seconds=1, goal=40)
    procs.start("worker")
    procs.start("reactor", TABULA_AWAY_SECONDS="1")
    wait_for(lambda: wait(store.get_meta("clock")).get("away:0") == "1", 60, "seat 0 to time out")
    assert wait(store.read("clock", version + 1))[0].actor == "timeout:0:greedy"

    def play_as_seat_0() -> bool:
        loaded = wait(race_runner.load("clock"))
        if Actor.of_seat(0) not in race_runner.rules.to_act(loaded.state):
            return False
        try:
            wait(
                race_runner.submit(
                    "clock", Actor.of_seat(0), Roll(), loaded.version, f"human:{loaded.version}"
                )
            )
        except (VersionConflict, RuleViolation):  # the short away clock won the race: next turn
            return False
        return True

    wait_for(play_as_seat_0, 60, "a turn of seat 0 to play by hand")
    wait_for(lambda: wait(store.get_meta("clock")).get("away:0") == "0", 30, "seat 0 to be back")


def test_a_worker_killed_mid_match_with_an_hour_long_visibility_timeout_still_finishes_in_seconds(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore, celery: Celery
) -> None:
    """With kombu's ack emulation on, the killed worker's message waits an hour in the broker's unacked
    set; the sweeper does not."""
    hour = {"TABULA_VISIBILITY_TIMEOUT": "3600", "TABULA_BROKER_ACK_EMULATION": "1"}
    version = create_match(race_runner, "swept", 2, {0: "random", 1: "random"}, goal=6)
    slow = procs.start("worker", RACE_BOT_SLEEP="30", **hour)
    procs.start("reactor", TABULA_SWEEP_STALL="2", TABULA_SWEEP_INTERVAL="0.5", **hour)
    task = AsyncResult(f"bot:swept:{version}:0", app=celery)
    wait_for(lambda: task.state == "STARTED", 60, "the first bot task to start")
    procs.kill(slow)
    killed = time.monotonic()
    procs.start("worker", **hour)
    wait_for(lambda: _finished(store, "swept"), 60, "the match to finish")
    assert time.monotonic() - killed < scaled(60) + 5  # far below the hour
    _assert_consistent(race_runner, "swept")
    assert command_ids(store, "swept").count(f"bot:swept:{version}:0") == 1


def test_a_ten_second_clock_fires_once_across_a_worker_and_a_reactor_restart(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore
) -> None:
    version = create_match(race_runner, "tick", 2, {1: "random"}, turn_seconds=10, goal=40)
    started = time.monotonic()
    worker, reactor = procs.start("worker"), procs.start("reactor")
    key = store.clocks_key(shard_of("tick", store.shards))
    wait_for(lambda: store.client.zcard(key) == 1, 60, "the clock to be kept in Redis")
    procs.kill(reactor)
    procs.kill(worker)
    procs.start("worker")
    procs.start("reactor")
    wait_for(lambda: wait(store.version("tick")) > version, 60, "the clock to run out")
    assert time.monotonic() - started >= 9.5  # not before its time
    assert wait(store.read("tick", version + 1))[0].actor == "timeout:0:greedy"
    assert command_ids(store, "tick").count(f"timeout:tick:{version}:0") == 1
