"""The processes of a fault soak, started by the test and SIGKILLed on purpose.

Redis (AOF, restarted on its port and folder, so on its AOF), the rule service of each game asked
for, one Celery worker (prefork, two pool children) and one reactor, each a real subprocess as
``tabula run`` starts them. After a kill the test itself starts the process again, as a supervisor
would (``tabula run``'s own supervision is tested in tests/e2e/test_run_supervises.py), after a
short random delay. Like ``tabula run``, it also starts again a process that exits by itself, and
lists it in ``exits``: none should (the Celery worker did when Redis went away while it held
unacknowledged messages, until services/workers/broker.py), so the tests assert that the list
stays empty.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from redis import Redis, RedisError

from services.cli.run import wait_healthy
from shared.runtime.edge import wait
from shared.runtime.redis_server import RedisServer, free_port, start_redis
from shared.store.redis_store import RedisEventStore
from tests.support.timing import scaled, wait_until

ROOT = Path(__file__).resolve().parents[3]
SECRET = "fault-suite-secret-0123456789abcdefghijk"  # 32 bytes at least
RULE_SERVICE = "rule_service:"  # a game's rule service: "rule_service:<game>"
KINDS = ("worker", "pool_child", "reactor", "redis")  # and one rule service per game
POOL = 2  # prefork children of the worker

# Short recovery times so a soak takes minutes: a killed worker's held messages come back after 10 s,
# the sweeper looks every second and plans again a step 4 s overdue, a dead reactor's notices are
# claimed after 2 s.
SETTINGS = {
    "TABULA_METRICS_PORT": "-1",
    "TABULA_LOG_LEVEL": "INFO",
    "TABULA_WORKER_POOL": "prefork",
    "TABULA_WORKER_CONCURRENCY": str(POOL),
    "TABULA_VISIBILITY_TIMEOUT": "10",
    "TABULA_RESTORE_INTERVAL": "1",
    "TABULA_REACTOR_CLAIM_IDLE_MS": "2000",
    "TABULA_REACTOR_BLOCK_MS": "200",
    "TABULA_SWEEP_INTERVAL": "1",
    "TABULA_SWEEP_STALL": "4",
}


@dataclass(frozen=True)
class Kill:
    kind: str
    pid: int
    progress: int  # events in the soak's matches when it happened
    down_s: float  # from the SIGKILL until the process (or its replacement) answered again


@dataclass
class FaultStack:
    folder: Path
    appendfsync: str
    rng: random.Random
    games: tuple[str, ...] = ()  # whose rule services run
    redis: RedisServer | None = None
    ports: dict[str, int] = field(default_factory=dict)  # each game's rule service's
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    strays: list[psutil.Process] = field(default_factory=list)  # pool children seen (may outlive a kill)
    kills: list[Kill] = field(default_factory=list)
    exits: list[str] = field(default_factory=list)  # processes that exited by themselves: "worker (0)"
    starts: int = 0
    aimed: int = 0  # kills that found the moment they aimed at
    lock: threading.Lock = field(default_factory=threading.Lock)  # a kill, or the supervisor's look
    stopping: threading.Event = field(default_factory=threading.Event)

    # ------------------------------------------------------------ starting
    def start(self) -> None:
        self.redis = start_redis(folder=self.folder / "redis", appendfsync=self.appendfsync)
        self.redis.owns_folder = False
        self._start_rule_services()
        self._spawn("worker")
        self._spawn("reactor")
        wait_until(lambda: len(self.pool()) == POOL, 60, "the worker's pool children")
        threading.Thread(target=self._supervise, name="supervisor", daemon=True).start()

    def _supervise(self) -> None:
        """Start again, at once, a process that exited by itself (not one the test is killing)."""
        while not self.stopping.wait(0.2):
            with self.lock:
                if self.stopping.is_set():  # stop() ended them while we waited for the lock
                    return
                for name in [n for n, proc in self.procs.items() if proc.poll() is not None]:
                    self.exits.append(f"{name} ({self.procs[name].returncode})")
                    self._restart(name)
                if self.redis is not None and self.redis.process.poll() is not None:
                    self.exits.append(f"redis ({self.redis.process.returncode})")
                    self._restart("redis")

    def env(self) -> dict[str, str]:
        assert self.redis is not None
        inherited = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("TABULA_")}
        return {
            **inherited,
            **SETTINGS,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
            "REDIS_URL": self.redis.url,
            "TABULA_SECRET": SECRET,
            **{f"TABULA_{game.upper()}_PORT": str(port) for game, port in self.ports.items()},
        }

    def kinds(self) -> list[str]:
        """What may be killed: each game's rule service, then the platform's processes."""
        return [*(RULE_SERVICE + game for game in self.games), *KINDS]

    def _spawn(self, name: str) -> subprocess.Popen[bytes]:
        self.starts += 1
        log = open(self.folder / f"{self.starts:02d}-{name}.log", "wb")  # noqa: SIM115 - the child keeps it
        proc = subprocess.Popen(
            [sys.executable, "-m", "services.cli", "serve", name.removeprefix(RULE_SERVICE)],
            env=self.env(),
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self.procs[name] = proc
        return proc

    def _start_rule_services(self) -> None:
        """Each on a free port (all started at once); another one if that port was taken meanwhile
        (the bind fails, we retry)."""
        waiting = list(self.games)
        for _ in range(5):
            self.ports |= {game: free_port() for game in waiting}
            started = {game: self._spawn(RULE_SERVICE + game) for game in waiting}
            waiting = [game for game in waiting if not wait_healthy(self.ports[game], timeout=scaled(60))]
            for game in waiting:
                started[game].kill()
                started[game].wait()
            if not waiting:
                return
        raise RuntimeError(f"the rule services of {waiting} did not start on any of 5 free ports")

    def _restart(self, kind: str) -> None:
        if kind == "redis":
            assert self.redis is not None
            self.redis = start_redis(
                folder=self.redis.folder, port=self.redis.port, appendfsync=self.appendfsync
            )
            self.redis.owns_folder = False
        elif kind.startswith(RULE_SERVICE):
            self._spawn(kind)
            port = self.ports[kind.removeprefix(RULE_SERVICE)]
            assert wait_healthy(port, timeout=scaled(60)), f"the {kind} did not come back"
        elif kind in ("worker", "reactor"):
            self._spawn(kind)

    # ------------------------------------------------------------ killing
    def pool(self) -> list[psutil.Process]:
        """The worker's pool children (each one seen is also remembered, to be ended at stop())."""
        try:
            children: list[psutil.Process] = psutil.Process(self.procs["worker"].pid).children()
        except psutil.NoSuchProcess:
            return []
        self.strays.extend(c for c in children if c not in self.strays)
        return children

    def kill(
        self,
        kind: str,
        progress: int,
        aim: Callable[[], bool] | None = None,
        jitter: float = 0.0,
        confirm: Callable[[], bool] | None = None,
    ) -> Kill:
        """SIGKILL one process of ``kind`` and start it again after 0 to 1 s (a pool child is replaced
        by its worker); returns when it answers again.

        With ``aim``, the kill waits (10 s at most) for the moment it is true (a client's command in
        flight), then up to ``jitter`` seconds more. With ``confirm`` too, the process is then run in
        slices of half a millisecond (SIGCONT, SIGSTOP) and killed frozen as soon as ``confirm()``
        holds (the command is appended and its answer not out yet); if it never does, it runs on and
        the kill aims again.
        """
        if aim is not None:
            self.aimed += self._take_aim(kind, aim, jitter, confirm)
        while True:
            if kind == "pool_child":  # a worker just started again has no pool yet
                wait_until(lambda: len(self.pool()) == POOL, 60, "the worker's pool children")
            with self.lock:
                if kind != "pool_child" or self.pool():
                    return self._kill(kind, progress)

    def _take_aim(
        self, kind: str, aim: Callable[[], bool], jitter: float, confirm: Callable[[], bool] | None
    ) -> bool:
        deadline = time.monotonic() + scaled(10)
        while _aim(aim, deadline - time.monotonic()):
            time.sleep(self.rng.uniform(0.0, jitter))
            if confirm is None or _step_until(self.procs[kind], confirm):
                return True
            time.sleep(self.rng.uniform(0.05, 0.3))
        return False

    def _kill(self, kind: str, progress: int) -> Kill:
        started = time.monotonic()
        if kind == "pool_child":
            victim = self.rng.choice(self.pool())
            pid = victim.pid
            victim.kill()
            wait_until(
                lambda: pid not in {c.pid for c in self.pool()} and len(self.pool()) == POOL,
                60,
                "the worker to replace its pool child",
            )
        else:
            pid = self._kill_process(kind)
            time.sleep(self.rng.uniform(0.0, 1.0))  # a supervisor's back-off: the rest runs meanwhile
            self._restart(kind)
            if kind == "worker":
                wait_until(lambda: len(self.pool()) == POOL, 60, "the new worker's pool children")
        done = Kill(kind, pid, progress, round(time.monotonic() - started, 2))
        self.kills.append(done)
        return done

    def _kill_process(self, kind: str) -> int:
        if kind == "redis":
            assert self.redis is not None
            proc = self.redis.process
        else:
            proc = self.procs[kind]
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        return proc.pid

    # ------------------------------------------------------------ stopping
    def stop(self) -> None:
        self.stopping.set()
        with self.lock:
            self._stop()

    def _stop(self) -> None:
        self.pool()
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for stray in self.strays:
            if stray.is_running():
                stray.kill()
        if self.redis is not None:
            self.redis.stop()

    def client(self) -> Redis:
        assert self.redis is not None
        return Redis(host="127.0.0.1", port=self.redis.port, socket_timeout=10)

    def logs(self, tail: int = 4000) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-tail:]}"
            for p in sorted(self.folder.glob("*.log"))
        )


def _aim(moment: Callable[[], bool], within: float) -> bool:
    """Wait for ``moment`` (polled every millisecond: a request lasts a few), at most ``within`` s."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if moment():
            return True
        time.sleep(0.001)
    return False


def _step_until(proc: subprocess.Popen[bytes], confirm: Callable[[], bool], slices: int = 200) -> bool:
    """Run ``proc`` in short slices until ``confirm()`` holds while it is frozen (it stays frozen:
    True), or for ``slices`` slices (it runs on: False)."""
    proc.send_signal(signal.SIGSTOP)
    for _ in range(slices):
        if confirm():
            return True
        proc.send_signal(signal.SIGCONT)
        time.sleep(0.0005)
        proc.send_signal(signal.SIGSTOP)
    proc.send_signal(signal.SIGCONT)
    return False


# ---------------------------------------------------------------- the soak, seen from Redis


def progress(store: RedisEventStore, matches: list[str]) -> int | None:
    """Events in the soak's matches; None while Redis is away."""
    try:
        return sum(wait(store.version(m)) for m in matches)
    except RedisError:
        return None


def wait_progress(store: RedisEventStore, matches: list[str], events: int) -> int:
    """Wait until ``events`` more events were played (the soak goes on: a kill lands mid-play)."""
    start = wait_until(lambda: progress(store, matches), 60, "Redis to answer")
    assert start is not None

    def reached() -> int | None:
        now = progress(store, matches)
        return now if now is not None and now >= start + events else None

    found = wait_until(reached, 120, f"{events} more events in the soak (no progress since a kill?)")
    assert found is not None
    return found


def all_finished(store: RedisEventStore, matches: list[str]) -> bool:
    try:
        return all(wait(store.get_meta(m)).get("status") == "finished" for m in matches)
    except RedisError:
        return False
