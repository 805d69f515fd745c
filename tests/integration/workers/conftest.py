"""Real Celery workers and reactors as subprocesses on the session's private Redis; in-process
reactors on the in-memory store and on that Redis (``in_process_store``).

The race test game is registered in every process through TABULA_EXTRA_GAMES, with its
protobuf code generated into a temporary folder on PYTHONPATH. Short visibility timeouts and
claim times keep the crash tests within seconds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery

from services.games import load_game
from services.workers.bots import Budget
from services.workers.celery_app import configure
from services.workers.jobs import Result, apply_system_step, expire_turn, play_bot_turn
from services.workers.planner import Job, JobKind
from services.workers.reactor import Reactor, follower_settings
from services.workers.settings import WorkerSettings
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import EventStore
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.race_game import RaceWithSecrets
from tests.support.race.manifest import race_rules
from tests.support.race.protos import compile_race
from tests.support.stores import store_of
from tests.support.timing import wait_until

ROOT = Path(__file__).resolve().parents[3]
RACE = "tests.integration.workers.race_game:MANIFEST"


@pytest.fixture(scope="session")
def race_gen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_race(
        tmp_path_factory.mktemp("race-workers"),
        race_rules(RaceWithSecrets),
        "tests/integration/workers/race_game.py",
    )


@pytest.fixture
def env(redis_url: str, race_gen: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", RACE)
    load_game.cache_clear()
    return {
        **os.environ,
        "REDIS_URL": redis_url,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen"), str(race_gen)]),
        "TABULA_EXTRA_GAMES": RACE,
        "TABULA_WORKER_POOL": "solo",
        "TABULA_VISIBILITY_TIMEOUT": "5",
        "TABULA_RESTORE_INTERVAL": "1",
        "TABULA_REACTOR_CLAIM_IDLE_MS": "1000",
        "TABULA_REACTOR_BLOCK_MS": "100",
        "TABULA_METRICS_PORT": "-1",
        "TABULA_MCTS_SECONDS": "0.05",
        "TABULA_MCTS_ITERATIONS": "20",
        "TABULA_LOG_LEVEL": "INFO",
        "TABULA_TASK_RESULTS": "1",  # the crash tests watch task states
    }


class Processes:
    """Worker and reactor subprocesses; logs go to files shown when a test fails."""

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        self.env, self.folder = env, folder
        self.running: list[subprocess.Popen[bytes]] = []

    def start(self, role: str, **extra: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{role}-{len(self.running)}.log", "wb")  # noqa: SIM115 - closed by the child
        proc = subprocess.Popen(
            [sys.executable, "-m", "services.workers", role],
            env={**self.env, **extra},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.running.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.running:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.running:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.folder.glob("*.log")
        )


@pytest.fixture
def procs(env: dict[str, str], tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Processes]:
    running = Processes(env, tmp_path)
    yield running
    running.stop_all()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(running.logs())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def celery(env: dict[str, str]) -> Iterator[Celery]:
    """A Celery app of the test's own on its Redis: the module's app may have built its result
    backend already, for another URL (the backend is cached once used)."""
    app = Celery("tabula-test")
    configure(app, WorkerSettings.from_env(env))
    yield app
    app.close()


@pytest.fixture
def store(redis_client: redis.Redis) -> RedisEventStore:
    """What the worker and reactor processes share. A module of in-process reactors overrides it
    with ``in_process_store``."""
    return RedisEventStore(redis_client)


@pytest.fixture(params=("memory", "redis"))
def in_process_store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    """Each in-process reactor test on the in-memory store and on the private Redis."""
    yield from store_of(request)


@pytest.fixture
def race_runner(store: EventStore, env: dict[str, str]) -> MatchRunner[Any]:
    game = load_game("race")
    return MatchRunner(game.rules, game.codec, store)


def create_match(
    runner: MatchRunner[Any],
    match_id: str,
    seats: int,
    bots: dict[int, str],
    turn_seconds: int = 0,
    goal: int = 12,
) -> int:
    meta = {"bots": json.dumps({str(k): v for k, v in bots.items()}), "turn_seconds": str(turn_seconds)}
    return wait(runner.create(match_id, seats, {"goal": str(goal)}, seed=5, extra_meta=meta)).version


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``condition`` until it holds; the deadline is scaled by TABULA_TEST_SLOWDOWN."""
    return wait_until(condition, timeout, what)


def command_ids(store: EventStore, match_id: str) -> list[str]:
    """One command id per append (consecutive events of one append share it)."""
    out: list[str] = []
    for event in wait(store.read(match_id)):
        if not out or out[-1] != event.command_id:
            out.append(event.command_id)
    return out


class FakeClock:
    """The reactor's time source, moved by hand (no test sleeps for days); starts at the real time,
    which the store stamps appends with."""

    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


class Dispatch:
    """Jobs the reactor sends, kept in order; ``lose`` of them are dropped on purpose first."""

    def __init__(self, lose: int = 0) -> None:
        self.sent: list[Job] = []
        self.lost: list[Job] = []
        self.lose = lose

    def __call__(self, jobs: Sequence[Job]) -> None:
        for job in jobs:
            if self.lose:
                self.lose -= 1
                self.lost.append(job)
            else:
                self.sent.append(job)


def planning_reactor(
    store: EventStore, dispatch: Dispatch, clock: FakeClock, settings: WorkerSettings
) -> Reactor:
    """A reactor on ``store`` with its consumer groups made, that plans from what the runner recorded
    and fails the test if it ever loads a game's code."""
    reactor = Reactor(store, no_game_code, dispatch, settings, follower_settings(settings), now=clock)
    reactor.follower.ensure_groups()
    return reactor


def no_game_code(game: str) -> MatchRunner[Any]:
    raise AssertionError(f"the reactor loaded game code for {game}")


def run_job(runner: MatchRunner[Any], job: Job) -> Result:
    """What a worker does with the job (the same plain functions the Celery tasks call)."""
    budget = Budget(seconds=1.0, iterations=20)
    match job.kind:
        case JobKind.BOT:
            return play_bot_turn(runner, job.match_id, job.seat, job.version, job.level, budget)
        case JobKind.SYSTEM:
            return apply_system_step(runner, job.match_id, job.version)
        case JobKind.TIMER:
            return expire_turn(runner, job.match_id, job.seat, job.version, budget)
