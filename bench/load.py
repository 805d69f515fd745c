"""The ``load`` bench suite: the stack as ``tabula run`` starts it, under load (issue 14, point 7).

:func:`load_stack` starts ``tabula run`` (every rule service, the lobby, the gateway, a worker, a
reactor, its own Redis on a free loopback port) in a temporary folder, on free ports, with its own
secret, and with the rate limits and the watch quota off: every client here comes from one
address and stands for many players. On the default game with its bench seats it then measures:

1. **SubmitCommand against an echo**: the same number of clients (coroutines of one ``grpc.aio``
   process, a channel each) call ``SubmitCommand`` as fast as they can, each in its own match,
   for ``seconds``; then as many call ``grpc.health.v1.Health/Check`` of the same rule service (a
   trivial unary method served by the same helper, ``shared.serving.grpc_server.start_server``). The
   commands are a random match scripted beforehand in memory with the same seed (:func:`script`),
   so the server decides them exactly as it did there; the system steps are sent under the
   worker's command id, so whichever of the bench and the worker sends one first, the other's is a
   duplicate. Throughput of both, their ratio, SubmitCommand latencies (p50/p95/p99).
2. **Bot lag**: ``matches`` live matches, seat 0 scripted (it moves at random as soon as it is its
   turn), the other seats ``random`` bots, for ``bot_seconds``. The lag is the time from the
   scripted seat's command to the next bot move, read from the events' server times afterwards
   (only where a bot, not seat 0 again, moves next).
3. **Spectator streams**: ``n`` ``WatchMatch`` streams (spectator tokens) on one match of one rule
   service; held is how many got their first message within the opening time; then whether a
   unary call is still answered (a freeze says no), and ``stream_commands`` commands played in the
   match: the delivery lag of each event to each stream (client clock minus the event's server
   time, the same machine's clock).
4. **Cold fold**: finished random matches played through a runner into the stack's Redis (its
   database 1, which no service reads), then read and folded from nothing (no cache, no
   snapshot), as a runner loads a match it has not cached, in a process of its own (a fresh heap,
   as ``tabula verify`` or a service just started has): events per second, and the shares of the
   time spent reading from Redis, decoding and evolving.

Redis memory per finished match is the memory suite's (``bench.memory``): ``tabula bench``
adds it to this suite's results. Every wait and call here is bounded.
"""

from __future__ import annotations

import asyncio
import gc
import math
import multiprocessing
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import grpc
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench.report import Result
from services.games import LoadedGame
from shared.core.codec import wrap_union
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.tokens import SECRET_VAR, TokenSigner
from shared.store import MatchMeta, MatchStatus, StoredEvent
from shared.store.memory import MemoryEventStore
from shared.store.redis_store import RedisEventStore

REPO = Path(__file__).resolve().parents[1]
UP = "all services up"
SEED = 7  # the scripted match of the SubmitCommand and stream phases
CALL_S = 30.0  # the deadline of one call (a frozen server fails the bench instead of hanging it)


@dataclass(frozen=True)
class Profile:
    name: str
    clients: tuple[int, ...]  # concurrent clients, SubmitCommand against echo
    seconds: float  # per client count and method
    matches: tuple[int, ...]  # live bot matches
    bot_seconds: float  # per match count
    streams: tuple[int, ...]  # WatchMatch streams on one match
    stream_commands: int  # commands played in the watched match
    fold_matches: int  # finished matches folded cold
    memory_matches: int  # for the memory suite's measure


PROFILES = {
    "quick": Profile("quick", (1, 8, 32), 3.0, (10, 25), 20.0, (500,), 20, 3, 50),
    "full": Profile("full", (1, 8, 32), 10.0, (50, 200, 500), 60.0, (1000, 10000), 50, 20, 1000),
}


def profile_from_env(env: Mapping[str, str] | None = None) -> Profile:
    """``TABULA_BENCH_LOAD``: ``quick`` (the default) or ``full``."""
    name = (env if env is not None else os.environ).get("TABULA_BENCH_LOAD", "quick") or "quick"
    if name not in PROFILES:
        raise ValueError(f"TABULA_BENCH_LOAD is quick or full, not {name!r}")
    return PROFILES[name]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


# ---------------------------------------------------------------- the stack


@dataclass(frozen=True)
class LoadStack:
    pid: int  # tabula run's
    redis_url: str
    services: Mapping[str, str]  # name -> host:port
    signer: TokenSigner


def stack_env(secret: str, base: Mapping[str, str]) -> dict[str, str]:
    """``base`` for ``tabula run``: its own secret, a free port per service, no limits or quota,
    no ``REDIS_URL`` (it embeds its Redis), no metrics port."""
    from services.cli.run import processes
    from shared.runtime.redis_server import free_port
    from shared.serving.ratelimit import QUOTAS, RATES

    env = {k: v for k, v in base.items() if k not in ("REDIS_URL", "TABULA_METRICS_PORT")}
    env[SECRET_VAR] = secret
    env.update({f"TABULA_LIMIT_{name.upper()}": "off" for name in RATES})
    env.update({f"TABULA_LIMIT_{name.upper()}": "0" for name in QUOTAS})
    env.update({f"TABULA_{p.name.upper()}_PORT": str(free_port()) for p in processes() if p.port})
    return env


@contextmanager
def load_stack(folder: Path, timeout: float = 300.0) -> Iterator[LoadStack]:
    """``tabula run --data FOLDER/redis`` until it says every service is up (at most ``timeout`` s);
    stopped with SIGINT (then killed after 60 s) when the block ends."""
    from services.cli.stack import Stack

    secret = secrets.token_hex(32)
    command = [sys.executable, "-m", "services.cli", "run", "--data", str(folder / "redis")]
    env = stack_env(secret, os.environ)
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    lines: list[str] = []
    up = threading.Event()

    def drain() -> None:  # the services print to the same pipe: keep reading it to the end
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if UP in line:
                up.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + timeout
        while not up.wait(0.5):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("tabula run did not come up:\n" + "".join(lines))
        stack = Stack.from_json((folder / "stack.json").read_text())
        quiet(stack.pid)
        yield LoadStack(stack.pid, stack.redis_url, dict(stack.services), TokenSigner(secret.encode()))
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(5)


def tree_cpu(root: int, proc: Path = Path("/proc")) -> dict[str, float]:
    """CPU seconds (user and system) used so far by the live processes under ``root``, by service:
    each process counts for the child of ``root`` it descends from (a worker's pool processes for the
    worker), named by what it runs (``serve lobby``: lobby; ``redis-server``: redis); ``root``
    itself is "run"."""
    parents, used, names = {}, {}, {}
    for entry in proc.iterdir() if proc.is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except OSError:  # gone meanwhile
            continue
        pid, fields = int(entry.name), tail.split()
        parents[pid], names[pid] = int(fields[1]), head.partition("(")[2]
        used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    by_service: dict[str, float] = {"run": used.get(root, 0.0)}
    top = {pid for pid, parent in parents.items() if parent == root}
    for child in top:
        inside = {child}
        while grown := {pid for pid, parent in parents.items() if parent in inside} - inside:
            inside |= grown
        name = _service_name(proc / str(child), names[child])
        by_service[name] = by_service.get(name, 0.0) + sum(used[pid] for pid in inside)
    return by_service


def _service_name(entry: Path, comm: str) -> str:
    """What a child of ``tabula run`` runs: the service of ``... serve NAME``, else its program's name."""
    try:
        argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        argv = []
    if "serve" in argv[:-1]:
        return argv[argv.index("serve") + 1]
    program = Path(argv[0]).name if argv and argv[0] else comm
    return "redis" if program.startswith("redis-server") else program


def tree_cpu_s(root: int, proc: Path = Path("/proc")) -> float:
    """CPU seconds used so far by the live processes under ``root``, itself included."""
    return sum(tree_cpu(root, proc).values())


def quiet(root: int, share: float = 0.1, timeout: float = 60.0) -> None:
    """Until the stack under ``root`` uses under ``share`` of a core over half a second, at most
    ``timeout`` s: its services answer health checks before they are warm (a worker loads every game
    after it starts), and the first phase must not measure that. At once where there is no /proc."""
    if not Path("/proc/self/stat").exists():
        return
    deadline, before = time.monotonic() + timeout, tree_cpu_s(root)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = tree_cpu_s(root)
        if now - before < share * 0.5:
            return
        before = now


# ---------------------------------------------------------------- the scripted match


@dataclass(frozen=True)
class Step:
    seat: int  # -1: the system step
    version: int  # the head it is sent at
    command: Any  # the game's Command message


def script(game: LoadedGame, seats: int, seed: int, limit: int = 5000) -> list[Step]:
    """A random match played in memory through a runner, as the commands that played it: the rule
    service decides the same events for them in a match created with the same seed and options."""
    rules, rng = game.rules, Rng(seed)
    runner = MatchRunner(rules, game.codec, MemoryEventStore())
    loaded = wait(runner.create("script", seats, {}, seed))
    steps: list[Step] = []
    while rules.outcome(loaded.state) is None and len(steps) < limit:
        actors = rules.to_act(loaded.state)
        actor = next((a for a in actors if a.is_system), None) or rng.choice(actors)
        command = rng.choice(rules.legal_commands(loaded.state, actor))
        message = wrap_union(game.modules.pb2.Command(), game.codec.to_message(command))
        steps.append(Step(actor.seat if actor.is_seat else -1, loaded.version, message))
        wait(runner.submit("script", actor, command, loaded.version, f"c{len(steps)}"))
        loaded = wait(runner.load("script"))
    return steps


class Calls:
    """One game's rule service as the bench calls it, with tokens signed by the stack's secret."""

    def __init__(self, game: LoadedGame, signer: TokenSigner, seats: int) -> None:
        self.game, self.signer, self.seats = game, signer, seats
        self.name = game.rules.game
        self.pb2 = game.modules.pb2
        self.service = self._bearer(signer.service(self.name))
        self._seats: dict[tuple[str, int], tuple[tuple[str, str]]] = {}

    @staticmethod
    def _bearer(token: str) -> tuple[tuple[str, str]]:
        return (("authorization", "Bearer " + token),)

    def stub(self, channel: Any) -> Any:
        return getattr(self.game.modules.pb2_grpc, f"{self.game.modules.name}ServiceStub")(channel)

    def seat(self, match_id: str, seat: int) -> tuple[tuple[str, str]]:
        """The seat's token, signed once and sent with each of its calls, as a player's client does."""
        found = self._seats.get((match_id, seat))
        if found is None:
            found = self._bearer(self.signer.seat(self.name, match_id, seat, f"{match_id}-p{seat}"))
            self._seats[(match_id, seat)] = found
        return found

    def spectator(self, match_id: str, who: str) -> tuple[tuple[str, str]]:
        return self._bearer(self.signer.spectator(self.name, match_id, who))

    def create(self, match_id: str, seed: int, bots: Mapping[int, str] | None = None) -> Any:
        players = ["" if seat in (bots or {}) else f"{match_id}-p{seat}" for seat in range(self.seats)]
        return self.pb2.CreateMatchRequest(
            match_id=match_id, seats=self.seats, seed=seed, bots=dict(bots or {}), players=players
        )

    def submit(self, match_id: str, index: int, step: Step) -> tuple[Any, tuple[tuple[str, str]]]:
        """The request of ``step`` and its metadata: the system step under the worker's command id."""
        from services.workers.jobs import system_command_id

        system = step.seat < 0
        command_id = system_command_id(match_id, step.version) if system else f"{match_id}-{index}"
        request = self.pb2.SubmitCommandRequest(
            match_id=match_id, expected_version=step.version, command_id=command_id, command=step.command
        )
        return request, self.service if system else self.seat(match_id, step.seat)


# ---------------------------------------------------------------- 1. SubmitCommand against echo


@dataclass(frozen=True)
class Series:
    calls: int
    seconds: float
    latencies: list[float]  # seconds

    @property
    def per_s(self) -> float:
        return self.calls / self.seconds


async def _echo(address: str, clients: int, seconds: float) -> Series:
    channels = [grpc.aio.insecure_channel(address) for _ in range(clients)]
    latencies: list[float] = []
    request = health_pb2.HealthCheckRequest()

    async def client(channel: grpc.aio.Channel, until: float) -> None:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.perf_counter() < until:
            started = time.perf_counter()
            await stub.Check(request, timeout=CALL_S)
            latencies.append(time.perf_counter() - started)

    try:
        for channel in channels:
            await asyncio.wait_for(channel.channel_ready(), CALL_S)
        started = time.perf_counter()
        await asyncio.gather(*(client(c, started + seconds) for c in channels))
        return Series(len(latencies), time.perf_counter() - started, latencies)
    finally:
        for channel in channels:
            await channel.close()


async def _submits(address: str, calls: Calls, steps: list[Step], clients: int, seconds: float) -> Series:
    channels = [grpc.aio.insecure_channel(address) for _ in range(clients)]
    latencies: list[float] = []
    tag = secrets.token_hex(3)

    async def create(stub: Any, match_id: str) -> None:
        await stub.CreateMatch(calls.create(match_id, SEED), metadata=calls.service, timeout=CALL_S)

    async def client(channel: grpc.aio.Channel, number: int, until: float) -> None:
        stub, played = calls.stub(channel), 0
        while True:
            match_id = f"load-submit-{tag}-{clients}-{number}-{played}"
            if played:  # the first match is created before the clock starts
                await create(stub, match_id)
            for index, step in enumerate(steps):
                if time.perf_counter() >= until:
                    return
                request, metadata = calls.submit(match_id, index, step)
                started = time.perf_counter()
                await stub.SubmitCommand(request, metadata=metadata, timeout=CALL_S)
                latencies.append(time.perf_counter() - started)
            played += 1

    try:
        for number, channel in enumerate(channels):
            await create(calls.stub(channel), f"load-submit-{tag}-{clients}-{number}-0")
        started = time.perf_counter()
        await asyncio.gather(*(client(c, n, started + seconds) for n, c in enumerate(channels)))
        return Series(len(latencies), time.perf_counter() - started, latencies)
    finally:
        for channel in channels:
            await channel.close()


def submit_against_echo(
    address: str, calls: Calls, steps: list[Step], profile: Profile, root: int
) -> list[Result]:
    """``root``: the stack's process, whose services' CPU is counted per call (:func:`cpu_per_call`)."""
    results = []
    for clients in profile.clients:
        echo, echo_cpu = cpu_per_call(root, partial(asyncio.run, _echo(address, clients, profile.seconds)))
        submit, submit_cpu = cpu_per_call(
            root, partial(asyncio.run, _submits(address, calls, steps, clients, profile.seconds))
        )
        ratio, p99 = submit.per_s / echo.per_s, percentile(submit.latencies, 0.99) * 1000
        name = f"load.c{clients}"
        results += [
            Result(f"{name}.submit_per_s", submit.per_s, "calls/s"),
            Result(f"{name}.echo_per_s", echo.per_s, "calls/s"),
            Result(f"{name}.submit_vs_echo", ratio, "ratio", ">= 0.5", ratio >= 0.5),
            Result(f"{name}.submit_p50_ms", percentile(submit.latencies, 0.5) * 1000, "ms"),
            Result(f"{name}.submit_p95_ms", percentile(submit.latencies, 0.95) * 1000, "ms"),
            Result(f"{name}.submit_p99_ms", p99, "ms", *(("< 25", p99 < 25) if clients == 32 else ())),
            Result(f"{name}.echo_p50_ms", percentile(echo.latencies, 0.5) * 1000, "ms"),
            Result(f"{name}.cpu_ms_per_echo", sum(echo_cpu.values()), "ms"),
            Result(f"{name}.cpu_ms_per_submit", sum(submit_cpu.values()), "ms"),
        ]
        results += [
            Result(f"{name}.cpu_ms_per_submit.{who}", ms, "ms")
            for who, ms in sorted(submit_cpu.items(), key=lambda item: -item[1])
        ]
    return results


def cpu_per_call(
    root: int, run: Callable[[], Series], proc: Path = Path("/proc")
) -> tuple[Series, dict[str, float]]:
    """``run``'s series, and the CPU milliseconds it took per call in each service of the stack under
    ``root`` and in this process (``bench_client``): what the ratio to the echo comes from when the
    machine's cores are all busy, and a figure that swings less with the machine than calls per
    second do (docs/operations.md sizes instances from it)."""
    before, mine = tree_cpu(root, proc), time.process_time()
    series = run()
    mine = time.process_time() - mine
    used = {name: seconds - before.get(name, 0.0) for name, seconds in tree_cpu(root, proc).items()}
    used["bench_client"] = mine
    calls = max(series.calls, 1)
    return series, {name: seconds * 1000 / calls for name, seconds in used.items() if seconds > 0}


# ---------------------------------------------------------------- 2. bot lag


HUMAN = "seat:0"


def bot_lags(events: Sequence[StoredEvent]) -> list[float]:
    """Milliseconds from each command of seat 0 to the next bot move (server times), for the
    commands after which a bot moves before seat 0 does again."""
    commands = _commands(events)
    lags: list[float] = []
    for index, (_, actor, at) in enumerate(commands):
        if actor != HUMAN:
            continue
        for _, after, then in commands[index + 1 :]:
            if after.startswith("bot:"):
                lags.append(float(then - at))
                break
            if after == HUMAN:
                break
    return lags


def turn_lags(events: Sequence[StoredEvent]) -> list[float]:
    """Milliseconds from each command of seat 0 to the last bot or system move before seat 0's next
    command (server times): how long the player waits for the bots' whole reply, for the commands
    after which a bot moves before seat 0 does again."""
    commands = _commands(events)
    lags: list[float] = []
    for index, (_, actor, at) in enumerate(commands):
        if actor != HUMAN:
            continue
        reply: list[tuple[str, int]] = []
        for _, after, then in commands[index + 1 :]:
            if after == HUMAN:
                if any(who.startswith("bot:") for who, _ in reply):
                    lags.append(float(reply[-1][1] - at))
                break
            reply.append((after, then))
    return lags


def _commands(events: Sequence[StoredEvent]) -> list[tuple[str, str, int]]:
    """(command id, actor, server time of its first event) of each command in ``events``."""
    commands: list[tuple[str, str, int]] = []
    for event in events:
        if not commands or commands[-1][0] != event.command_id:
            commands.append((event.command_id, event.actor, event.server_time_ms))
    return commands


def wait_logs(store: RedisEventStore, match_ids: Sequence[str]) -> list[list[StoredEvent]]:
    return [wait(store.read(match_id)) for match_id in match_ids]


def _human_turn(fields: Mapping[str, str]) -> bool:
    progress = MatchMeta.from_fields(fields).progress
    return progress is not None and progress.status is MatchStatus.ACTIVE and 0 in progress.to_act


def _settle(store: RedisEventStore, match_ids: Sequence[str], timeout: float) -> None:
    """Until every match waits on seat 0 or has ended (the bots' backlog played), at most ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        metas = wait(store.get_metas(match_ids))
        if all(_human_turn(m) or m.get("status") != "active" for m in metas):
            return
        time.sleep(0.2)


def bot_lag(
    address: str, calls: Calls, store: RedisEventStore, matches: int, seconds: float, root: int
) -> list[Result]:
    """``root``: the stack's process, whose services' CPU over the phase (its backlog included) is
    counted per move played (:func:`tree_cpu`)."""
    tag, rng = secrets.token_hex(3), random.Random(matches)
    cpu_before = tree_cpu(root)
    bots = {seat: "random" for seat in range(1, calls.seats)}
    match_ids = [f"load-bots-{tag}-{matches}-{i}" for i in range(matches)]
    acting: set[str] = set()
    moves, failures = Counter[str](), Counter[str]()
    with grpc.insecure_channel(address) as channel:
        stub = calls.stub(channel)
        for i, match_id in enumerate(match_ids):
            stub.CreateMatch(calls.create(match_id, i + 1, bots), metadata=calls.service, timeout=CALL_S)

        def move(match_id: str) -> None:
            """Seat 0's move: its view, then one of its legal commands at random."""
            metadata = calls.seat(match_id, 0)
            try:
                view = stub.GetView(
                    calls.pb2.GetViewRequest(match_id=match_id), metadata=metadata, timeout=CALL_S
                )
                if 0 in view.seats_to_act and view.legal_commands:
                    request = calls.pb2.SubmitCommandRequest(
                        match_id=match_id,
                        expected_version=view.version,
                        command_id=f"{match_id}-h{view.version}",
                        command=rng.choice(list(view.legal_commands)),
                    )
                    stub.SubmitCommand(request, metadata=metadata, timeout=CALL_S)
                    moves["done"] += 1
            except grpc.RpcError as err:  # ABORTED: a bot moved meanwhile (a simultaneous phase)
                failures[err.code().name] += 1
            finally:
                acting.discard(match_id)

        deadline = time.monotonic() + seconds
        with ThreadPoolExecutor(8) as pool:
            while time.monotonic() < deadline:
                # every meta in one round trip: the scripted player's polling is not the stack's load
                for match_id, meta in zip(match_ids, wait(store.get_metas(match_ids)), strict=True):
                    if match_id not in acting and _human_turn(meta):
                        acting.add(match_id)
                        pool.submit(move, match_id)
                time.sleep(0.05)
    logs = wait_logs(store, match_ids)
    lags = [lag for log in logs for lag in bot_lags(log)]
    turns = [lag for log in logs for lag in turn_lags(log)]
    _settle(store, match_ids, 60.0)
    used = {who: seconds - cpu_before.get(who, 0.0) for who, seconds in tree_cpu(root).items()}
    played = max(
        sum(len(_commands(wait(store.read(match_id)))) - 1 for match_id in match_ids), 1
    )  # less the setup
    per_move = {who: seconds * 1000 / played for who, seconds in used.items() if seconds > 0}
    p99 = percentile(lags, 0.99)
    name = f"load.m{matches}"
    return [
        Result(f"{name}.bot_lag_p50_ms", percentile(lags, 0.5), "ms"),
        Result(f"{name}.bot_lag_p99_ms", p99, "ms", "< 1000", p99 < 1000),
        Result(f"{name}.bot_lag_samples", len(lags), "moves"),
        Result(f"{name}.turn_lag_p50_ms", percentile(turns, 0.5), "ms"),
        Result(f"{name}.turn_lag_p99_ms", percentile(turns, 0.99), "ms"),
        Result(f"{name}.human_moves", moves["done"], "moves"),
        Result(f"{name}.human_move_errors", sum(failures.values()), "calls"),
        *(Result(f"{name}.human_move_errors.{code}", n, "calls") for code, n in sorted(failures.items())),
        Result(f"{name}.moves", played, "commands"),
        Result(f"{name}.cpu_ms_per_move", sum(per_move.values()), "ms"),
        *(
            Result(f"{name}.cpu_ms_per_move.{who}", ms, "ms")
            for who, ms in sorted(per_move.items(), key=lambda i: -i[1])
        ),
    ]


# ---------------------------------------------------------------- 3. spectator streams


@dataclass
class Watched:
    held: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    lags: list[float] = field(default_factory=list)
    answered: bool = False
    played: int = 0


async def _watch(address: str, calls: Calls, steps: list[Step], streams: int, commands: int) -> Watched:
    match_id = f"load-watch-{secrets.token_hex(3)}-{streams}"
    out = Watched()
    errors, lags = out.errors, out.lags
    channels = [grpc.aio.insecure_channel(address) for _ in range(max(1, math.ceil(streams / 100)))]
    driver = grpc.aio.insecure_channel(address)
    stub = calls.stub(driver)
    created = await stub.CreateMatch(calls.create(match_id, SEED), metadata=calls.service, timeout=CALL_S)
    head, final = created.version, [math.inf]
    stream_s = 120.0 + streams / 50  # the longest a stream may stay open

    async def watch(number: int) -> None:
        request = calls.pb2.WatchMatchRequest(match_id=match_id, from_version=1)
        metadata = calls.spectator(match_id, f"watcher-{number}")
        call = calls.stub(channels[number % len(channels)]).WatchMatch(
            request, metadata=metadata, timeout=stream_s
        )
        first = True
        try:
            async for item in call:
                if first:
                    out.held, first = out.held + 1, False
                if item.WhichOneof("item") == "event" and item.event.envelope.version > head:
                    lags.append(time.time() * 1000 - item.event.envelope.server_time_ms)
                    if item.event.envelope.version >= final[0]:
                        return
        except grpc.aio.AioRpcError as err:
            errors[err.code().name] += 1

    tasks = [asyncio.create_task(watch(n)) for n in range(streams)]
    try:
        deadline = time.monotonic() + 10 + streams / 100
        while out.held + sum(errors.values()) < streams and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        try:
            health = health_pb2_grpc.HealthStub(driver)
            await health.Check(health_pb2.HealthCheckRequest(), timeout=5)
            out.answered = True
        except grpc.aio.AioRpcError:
            out.answered = False
        for index, step in enumerate(steps[:commands]):
            request, metadata = calls.submit(match_id, index, step)
            try:
                done = await stub.SubmitCommand(request, metadata=metadata, timeout=10)
            except grpc.aio.AioRpcError:  # a frozen server: commands_played says how far it got
                break
            out.played, final[0] = index + 1, done.last_version
        await asyncio.wait(tasks, timeout=15)
        return out
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in [*channels, driver]:
            await channel.close()


def spectator_streams(address: str, calls: Calls, steps: list[Step], profile: Profile) -> list[Result]:
    results = []
    for streams in profile.streams:
        watched = asyncio.run(_watch(address, calls, steps, streams, profile.stream_commands))
        refused, wanted = watched.errors["RESOURCE_EXHAUSTED"], min(profile.stream_commands, len(steps))
        p99, name = percentile(watched.lags, 0.99), f"load.s{streams}"
        results += [
            Result(f"{name}.streams_held", watched.held, "streams", f">= {streams}", watched.held >= streams),
            Result(f"{name}.streams_refused", refused, "streams"),
            Result(f"{name}.stream_errors", sum(watched.errors.values()) - refused, "streams"),
            Result(f"{name}.unary_answered", float(watched.answered), "yes=1", "1", watched.answered),
            Result(
                f"{name}.commands_played", watched.played, "commands", f"{wanted}", watched.played == wanted
            ),
            Result(f"{name}.delivery_lag_p50_ms", percentile(watched.lags, 0.5), "ms"),
            Result(f"{name}.delivery_lag_p99_ms", p99, "ms", "< 250", p99 < 250),
        ]
        others = sorted((code, n) for code, n in watched.errors.items() if code != "RESOURCE_EXHAUSTED")
        results += [Result(f"{name}.stream_errors.{code}", n, "streams") for code, n in others]
    return results


# ---------------------------------------------------------------- 4. cold fold


def cold_fold(redis_url: str, name: str, seats: int, matches: int) -> list[Result]:
    """Random finished matches played into database 1 of the stack's Redis (no service reads it), then
    :func:`fold_from_nothing` in a process of its own, as ``tabula verify`` or a service that has just
    started folds a log: nothing of the matches in its memory (the codec's decoded payloads, a grown
    heap: the garbage collector's full passes cost the fold a sixth of its time even in a fresh
    process, more over a grown heap; bench/README.md, "Second pass")."""
    context = multiprocessing.get_context("spawn")
    database = redis_url.rsplit("/", 1)[0] + "/1"
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        ids = pool.submit(play_for_fold, database, name, seats, matches).result(timeout=600)
    try:
        with ProcessPoolExecutor(1, mp_context=context) as pool:
            return pool.submit(fold_from_nothing, database, name, ids).result(timeout=600)
    finally:
        with redis.Redis.from_url(database) as client:
            client.flushdb()


def play_for_fold(database: str, name: str, seats: int, matches: int) -> list[str]:
    """``matches`` random finished matches in the (emptied) Redis database; their ids."""
    from services.games import load_game
    from shared.matches.simulate import play_match

    game = load_game(name)
    with redis.Redis.from_url(database) as client:
        client.flushdb()
        runner = MatchRunner(game.rules, game.codec, RedisEventStore(client))
        ids = [f"load-fold-{i}" for i in range(matches)]
        for i, match_id in enumerate(ids):
            wait(runner.create(match_id, seats, {}, i + 1))
            wait(play_match(runner, match_id, i + 1, check=False))
    return ids


def fold_from_nothing(database: str, name: str, match_ids: Sequence[str]) -> list[Result]:
    """Each match read and folded from nothing (no state cache, no snapshot)."""
    from services.games import load_game

    game = load_game(name)
    with redis.Redis.from_url(database) as client:
        store = RedisEventStore(client)
        runner = MatchRunner(game.rules, game.codec, store)
        gc.collect()
        gc.freeze()  # what loading the game made: out of the collector's way, as in a started service
        events, read_s, decode_s, evolve_s = 0, 0.0, 0.0, 0.0
        for match_id in match_ids:
            started = time.perf_counter()
            stored = wait(store.read(match_id))
            read = time.perf_counter()
            decoded = [runner.decode(event) for event in stored]
            done = time.perf_counter()
            state = game.rules.initial_state()
            for event in decoded:
                state = game.rules.evolve(state, event)
            read_s, decode_s = read_s + read - started, decode_s + done - read
            evolve_s, events = evolve_s + time.perf_counter() - done, events + len(stored)
    total = read_s + decode_s + evolve_s
    rate = events / total
    return [
        Result("load.cold_fold_events_per_s", rate, "events/s", ">= 100000", rate >= 100_000),
        Result("load.cold_fold_events", events, "events"),
        Result("load.cold_fold_read_share", read_s / total, "of the time"),
        Result("load.cold_fold_decode_share", decode_s / total, "of the time"),
        Result("load.cold_fold_evolve_share", evolve_s / total, "of the time"),
    ]


# ---------------------------------------------------------------- the suite


def load_benchmarks(profile: Profile, folder: Path) -> list[Result]:
    """Every phase on one ``tabula run`` stack started in ``folder`` (the default game)."""
    from bench.bots import bench_seats
    from services.games import default_game, load_game

    name = default_game()
    game, seats = load_game(name), bench_seats(name)
    steps = script(game, seats, SEED)
    with load_stack(folder) as stack:
        address, calls = stack.services[name], Calls(game, stack.signer, seats)
        store = RedisEventStore(redis.Redis.from_url(stack.redis_url))
        results = [Result("load.profile_full", float(profile.name == "full"), "full=1")]
        results += submit_against_echo(address, calls, steps, profile, stack.pid)
        for matches in profile.matches:
            results += bot_lag(address, calls, store, matches, profile.bot_seconds, stack.pid)
        results += spectator_streams(address, calls, steps, profile)
        results += cold_fold(stack.redis_url, name, seats, profile.fold_matches)
    return results
