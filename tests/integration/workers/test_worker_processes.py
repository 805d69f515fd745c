"""``TABULA_WORKER_POOL=processes`` (the default): one ``serve worker`` is the parent of N solo Celery
workers. They share the bots' queue; one that dies is started again; none outlives its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import ROOT, Processes, create_match, wait_for
from tests.support.timing import scaled

pytestmark = pytest.mark.timeout(int(scaled(150)))
POOL = {"TABULA_WORKER_POOL": "processes", "TABULA_WORKER_CONCURRENCY": "2"}


def children(parent: int) -> set[int]:
    found = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True, check=False)
    return {int(pid) for pid in found.stdout.split()}


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def finished(store: RedisEventStore, match_id: str) -> bool:
    return wait(store.get_meta(match_id)).get("status") == "finished"


def ready(procs: Processes, pids: set[int]) -> bool:
    """Each of ``pids`` said it is a Celery worker reading the queues (its hostname names its pid)."""
    lines = (procs.folder / "worker-0.log").read_text(errors="replace").splitlines()
    return all(any(f"tabula-{pid}@" in line and "ready" in line for line in lines) for pid in pids)


def test_the_processes_share_the_bots_and_one_that_dies_is_started_again(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore
) -> None:
    worker = procs.start("worker", **POOL)
    procs.start("reactor")
    wait_for(lambda: len(children(worker.pid)) == 2, 30, "two worker processes")
    first = children(worker.pid)
    wait_for(lambda: ready(procs, first), 30, "both processes ready as Celery workers")
    create_match(race_runner, "pair-1", 3, {0: "random", 1: "random", 2: "random"}, goal=10)
    wait_for(lambda: finished(store, "pair-1"), 60, "a bot match played by the processes")

    victim = min(first)
    os.kill(victim, signal.SIGKILL)
    wait_for(lambda: len(children(worker.pid) - first) == 1, 30, "the killed process started again")
    assert children(worker.pid) & first == first - {victim}
    wait_for(lambda: ready(procs, children(worker.pid)), 30, "the new process ready")
    create_match(race_runner, "pair-2", 3, {0: "random", 1: "random", 2: "random"}, goal=10)
    wait_for(lambda: finished(store, "pair-2"), 60, "a bot match after the restart")
    assert worker.poll() is None


def ping(env: dict[str, str]) -> int:
    """The liveness probe as a pod runs it, with a short wait."""
    command = [sys.executable, "-m", "services.workers", "ping", "2"]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=False).returncode


def test_sigterm_stops_every_process_and_sigkill_leaves_none_behind(procs: Processes) -> None:
    assert ping(procs.env) == 1  # no worker on this host yet
    stopped = procs.start("worker", **POOL)
    wait_for(lambda: len(children(stopped.pid)) == 2, 30, "two worker processes")
    kids = children(stopped.pid)
    wait_for(lambda: ready(procs, kids), 30, "both processes ready as Celery workers")
    assert ping(procs.env) == 0
    stopped.send_signal(signal.SIGTERM)
    assert stopped.wait(scaled(60)) == 0
    wait_for(lambda: not any(alive(pid) for pid in kids), 30, "the processes stopped with their parent")

    killed = procs.start("worker", **POOL)
    wait_for(lambda: len(children(killed.pid)) == 2, 30, "two worker processes")
    kids = children(killed.pid)
    procs.kill(killed)
    wait_for(
        lambda: not any(alive(pid) for pid in kids), 30, "the processes gone after their parent's SIGKILL"
    )
