"""Redis SIGKILLed and restarted on its AOF four times during a soak of bot matches: the Celery worker
keeps working through every restart, and every match finishes.

With kombu's own Redis transport the worker stopped ("Unrecoverable error: AttributeError") when the
broker went away while it held unacknowledged messages, in six runs out of six of this soak, and
once hung instead of stopping (the matches then stalled for good); services/workers/broker.py is
the fix. ``stack.exits`` lists a process that exited by itself (the stack starts it again, as
``tabula run`` would, so a stop shows there and a hang as matches that never finish).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from kombu import Connection

from services.games import default_game, load_game
from services.workers.broker import TRANSPORT
from services.workers.celery_app import configure
from services.workers.settings import WorkerSettings
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.integration.faults.stack import FaultStack, all_finished, wait_progress
from tests.support.timing import scaled, wait_until

RESTARTS = 4
pytestmark = pytest.mark.timeout(int(scaled(600)))


def test_the_worker_keeps_working_through_redis_restarts(tmp_path: Path) -> None:
    seed = int(os.environ.get("TABULA_FAULTS_SEED") or random.randrange(1_000_000))
    rng = random.Random(seed)
    stack = FaultStack(tmp_path, "always", rng)
    try:
        stack.start()
        store = RedisEventStore(stack.client())
        game = load_game(default_game())  # the worker's recovery is the same for every game
        runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, store)
        bots = json.dumps({str(seat): "random" for seat in range(4)})
        matches = [f"restarts-{n}" for n in range(4)]
        for n, match_id in enumerate(matches):
            wait(
                runner.create(match_id, 4, {}, seed=seed + n, extra_meta={"bots": bots, "turn_seconds": "0"})
            )
        for _ in range(RESTARTS):
            stack.kill("redis", wait_progress(store, matches, rng.randint(40, 150)))
        wait_until(lambda: all_finished(store, matches), 180, "every match to finish", 0.5)
        assert stack.exits == [], f"seed {seed}: exited by themselves: {stack.exits}"
    except BaseException:
        print(f"seed {seed}\n{stack.logs()}")
        raise
    finally:
        stack.stop()


def test_the_workers_use_the_fixed_transport_for_a_redis_broker() -> None:
    app = Celery("broker-test")
    configure(app, WorkerSettings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0"}))
    assert app.connection_for_write().transport_cls == "services.workers.broker:Transport"


def test_a_broker_channel_keeps_one_client_per_pool(redis_url: str) -> None:
    """kombu built a client for every command; the channel keeps one per pool, and builds its next
    pool (and client) as before once the pools are let go."""
    with Connection(redis_url, transport=TRANSPORT) as connection:
        channel: Any = connection.default_channel
        first = channel._create_client()
        assert channel._create_client() is first and first.connection_pool is channel.pool
        channel._disconnect_pools()  # what a lost connection does
        again = channel._create_client()
        assert again is not first and again.connection_pool is channel.pool
        assert again.ping()
