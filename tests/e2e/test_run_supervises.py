"""`tabula run` supervises its children: the worker SIGKILLed mid-match is started again (and logged),
the rest of the stack stays up, the bot match finishes, and Ctrl-C still stops everything."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis

from services.cli.run import wait_healthy
from services.games import load_game, service_ports
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.support.tabula_run import alive, run_env, start_run, stop_run
from tests.support.timing import scaled, wait_until

pytestmark = pytest.mark.timeout(int(scaled(300)))


def _start_stack(tmp_path: Path) -> tuple[subprocess.Popen[str], str, Path]:
    env = run_env({**os.environ, "TABULA_SECRET": "e2e-secret-0123456789abcdefghijklmn"}, service_ports())
    errors = tmp_path / "stderr.log"
    proc, output = start_run(env, "--data", str(tmp_path / "redis"), stderr=errors.open("w"), timeout=120)
    return proc, output, errors


def _child(run: subprocess.Popen[str], name: str) -> psutil.Process:
    (found,) = [c for c in psutil.Process(run.pid).children() if c.cmdline()[-2:] == ["serve", name]]
    return found


def _wait_for(condition: Any, timeout: float, what: str) -> None:
    wait_until(condition, timeout, what, interval=0.2)


def _bot_match(output: str, match_id: str, seed: int) -> tuple[redis.Redis, RedisEventStore]:
    """A 2-seat Lorenzo match of two random bots on the run's Redis, once the bots are playing it."""
    url = re.search(r"^redis\s+(redis://\S+)", output, re.M)
    assert url is not None
    client = redis.Redis.from_url(url.group(1))
    store = RedisEventStore(client)
    game = load_game("lorenzo")
    runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, store)
    bots = json.dumps({"0": "random", "1": "random"})
    wait(runner.create(match_id, 2, {}, seed=seed, extra_meta={"bots": bots, "turn_seconds": "0"}))
    _wait_for(lambda: wait(store.version(match_id)) > 10, 60, "the bots to start playing")
    return client, store


def _assert_no_move_applied_twice(store: RedisEventStore, match_id: str) -> None:
    appends = [e.command_id for e in wait(store.read(match_id))]  # one command id per append
    ids = [cid for n, cid in enumerate(appends) if n == 0 or appends[n - 1] != cid]
    assert len(ids) == len(set(ids))


def test_a_worker_killed_under_tabula_run_is_restarted_and_the_bot_match_finishes(tmp_path: Path) -> None:
    run, output, errors = _start_stack(tmp_path)
    try:
        client, store = _bot_match(output, "kept", seed=3)
        worker = _child(run, "worker")
        pool = worker.children()  # prefork pool processes: they must not outlive their worker
        worker.send_signal(signal.SIGKILL)
        assert wait(store.get_meta("kept")).get("status") == "active"
        killed = time.monotonic()
        _wait_for(lambda: "worker     restarted" in errors.read_text(), 30, "the worker to be restarted")
        assert re.search(
            r"^worker\s+exited \(killed by SIGKILL\); restarting in 1 s", errors.read_text(), re.M
        )
        assert _child(run, "worker").pid != worker.pid and run.poll() is None
        for port in map(int, re.findall(r"grpc 127\.0\.0\.1:(\d+)", output)):
            assert wait_healthy(port, timeout=5)  # the rest of the stack stayed up
        _wait_for(
            lambda: wait(store.get_meta("kept")).get("status") == "finished", 180, "the match to finish"
        )
        assert time.monotonic() - killed < scaled(180)
        _assert_no_move_applied_twice(store, "kept")
        children = psutil.Process(run.pid).children(recursive=True) + pool
        client.close()
    finally:
        code = stop_run(run)
    assert code == 0
    wait_until(lambda: not alive(children), 30, "every child of tabula run to end")


def test_the_embedded_redis_killed_under_tabula_run_comes_back_on_its_aof_and_the_match_finishes(
    tmp_path: Path,
) -> None:
    run, output, errors = _start_stack(tmp_path)
    try:
        client, store = _bot_match(output, "through", seed=4)
        (server,) = [c for c in psutil.Process(run.pid).children() if "redis-server" in c.name()]
        server.send_signal(signal.SIGKILL)
        _wait_for(lambda: "redis      restarted" in errors.read_text(), 30, "Redis to be restarted")
        _wait_for(
            lambda: wait(store.get_meta("through")).get("status") == "finished", 180, "the match to finish"
        )
        _assert_no_move_applied_twice(store, "through")
        client.close()
    finally:
        code = stop_run(run)
    assert code == 0
