"""The ``peer`` bench suite: the same small game under the same load on Tabula and on boardgame.io.

The game is the dice race of ``tests/support/race`` (2 seats roll a die in turn, the system ends
each round), registered for the bench as the tests register it (``TABULA_EXTRA_GAMES``, its
``.proto`` rendered from its rules and compiled into a temporary folder). The peer is boardgame.io
(``bench/peer/``: the same game in JavaScript, its server on a free loopback port, its own client
as the load; pinned by ``package-lock.json`` and installed with ``npm ci``), once with its default
in-memory storage and once with its ``FlatFile`` storage. Tabula is its whole stack as the ``load``
suite starts it (``bench.load.load_stack``: ``tabula run``, every service, limits off).

The load is the same on each side: ``clients`` drivers at once, each playing both seats of a match
of its own (a new one when the race ends), for ``seconds``. Each seat holds its own connection and
is pushed every new state: boardgame.io's server sends it to both players after each move, so on
Tabula each seat holds a ``WatchMatch`` stream and the deliveries are counted. The seat to move
rolls once its own client has the match's latest state; a move's latency runs from sending it
until the mover's own client has the new state. On Tabula a roll is one ``SubmitCommand``; the
round end is the worker's system step, waited for on the streams (boardgame.io ends the round in
the same move, in its turn order's hooks).

The phases of the three sides are alternated (the order rotated each time) ``alternations`` times
at each client count; each figure is the median over the alternations, and each ratio the median of
the ratios taken within one alternation.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import os
import queue
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc
import redis

from bench.load import CALL_S, Calls, load_stack, percentile, tree_cpu, tree_cpu_s
from bench.report import Result

PEER = Path(__file__).resolve().parent / "peer"
REPO = PEER.parents[1]
RACE = "tests.support.race.manifest:MANIFEST"  # the one registry line, as the tests give it
GAME = "race"
GOAL = 100  # the longest race the rules allow: fewer new matches a phase
SIDES = ("bgio", "tabula", "bgio_flatfile")
SETUP_S = 120.0  # the longest a side may take to make its first matches


@dataclass(frozen=True)
class PeerProfile:
    clients: tuple[int, ...] = (1, 8, 32)
    seconds: float = 8.0  # a phase
    alternations: int = 3


def profile_from_env(env: Mapping[str, str] | None = None) -> PeerProfile:
    """``TABULA_BENCH_PEER_SECONDS`` (a phase, default 8), ``TABULA_BENCH_PEER_ALTERNATIONS``
    (default 3) and ``TABULA_BENCH_PEER_CLIENTS`` (comma-separated, default 1,8,32)."""
    env = env if env is not None else os.environ
    listed = env.get("TABULA_BENCH_PEER_CLIENTS") or ",".join(map(str, PeerProfile.clients))
    clients = tuple(int(n) for n in listed.split(","))
    seconds = float(env.get("TABULA_BENCH_PEER_SECONDS") or PeerProfile.seconds)
    alternations = int(env.get("TABULA_BENCH_PEER_ALTERNATIONS") or PeerProfile.alternations)
    if seconds <= 0 or alternations < 1 or min(clients) < 1:
        raise ValueError("TABULA_BENCH_PEER_SECONDS must be > 0, _ALTERNATIONS and _CLIENTS >= 1")
    return PeerProfile(clients, seconds, alternations)


@dataclass
class Phase:
    """One side's phase: what its clients saw and what its server spent."""

    moves: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    deliveries: int = 0
    errors: int = 0
    cpu_ms: dict[str, float] = field(default_factory=dict)  # per server process (tabula: per service)
    client_cpu_ms: float = 0.0
    redis_commands: Counter[str] = field(default_factory=Counter)
    failed: bool = False  # the server died in it: no figures

    def per_move(self, value: float) -> float:
        return value / max(self.moves, 1)


# ---------------------------------------------------------------- the peer


def unavailable() -> str:
    """Why the peer cannot run here ("" where it can): no node or npm, or ``npm ci`` failing."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found (Debian: apt-get install nodejs npm)"
    installed = PEER / "node_modules" / ".package-lock.json"
    lock = PEER / "package-lock.json"
    if installed.exists() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return ""
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, capture_output=True, text=True, timeout=600
    )
    return "" if done.returncode == 0 else f"npm ci failed in {PEER}: {done.stderr.strip()[-500:]}"


class Lines:
    """A child's stdout line by line, each read bounded in time."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._drain, args=(stream,), daemon=True).start()

    def _drain(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put("")  # the end

    def next(self, timeout: float, what: str) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"the peer gave no {what} in {timeout:.0f} s") from None
        if not line:
            raise RuntimeError(f"the peer ended before its {what}")
        return line.strip()


def listening(port: int, proc: Path = Path("/proc")) -> set[str]:
    """The local addresses of the TCP sockets listening on ``port`` (``/proc/net/tcp`` and ``tcp6``;
    ``::`` and ``0.0.0.0`` for every interface); {"127.0.0.1"} where there is no /proc to read."""
    found = set()
    for name, size in (("tcp", 4), ("tcp6", 16)):
        try:
            rows = (proc / "net" / name).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:  # LISTEN
                raw = bytes.fromhex(address)
                words = b"".join(raw[i : i + 4][::-1] for i in range(0, size, 4))  # host-order words
                found.add(str(ipaddress.ip_address(words)))
    return found if (proc / "net" / "tcp").exists() else {"127.0.0.1"}


def _node_env() -> dict[str, str]:
    return {**os.environ, "NODE_ENV": "production"}  # as served: boardgame.io's logging off


class PeerServer:
    """``bench/peer/server.js`` with ``storage`` (``memory``, or ``flatfile`` in a fresh folder under
    ``folder`` each start), on a loopback port: :attr:`pid` and :attr:`url` once started. A server that
    died in a phase (boardgame.io's FlatFile can: a read meeting a write of the same file) is started
    again, on a new folder, before the next (:meth:`revive`)."""

    def __init__(self, storage: str, folder: Path) -> None:
        self.storage, self.folder, self.starts = storage, folder, 0
        self.proc: subprocess.Popen[str] | None = None
        self.pid, self.url = 0, ""

    def start(self) -> None:
        self.starts += 1
        where = self.folder / f"{self.storage}-{self.starts}"
        args = ["node", "server.js", self.storage, *([str(where)] if self.storage == "flatfile" else [])]
        self.proc = subprocess.Popen(args, cwd=PEER, env=_node_env(), stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        said = Lines(self.proc.stdout).next(60, "listening line")
        if not said.startswith("listening "):
            raise RuntimeError(f"the peer said {said!r}")
        port = int(said.split()[1])
        if (bound := listening(port)) != {"127.0.0.1"}:
            raise RuntimeError(f"the peer listens on {sorted(bound)}, not on loopback only")
        self.pid, self.url = self.proc.pid, f"http://127.0.0.1:{port}"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def revive(self) -> None:
        if not self.alive():
            self.stop()
            self.start()

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def __enter__(self) -> PeerServer:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def peer_phase(server: PeerServer, clients: int, seconds: float) -> Phase:
    """``bench/peer/load.js``'s drivers against ``server``; its CPU from ``/proc`` from the start
    signal to the results (the first matches are made before). A phase in which the server died is
    reported as failed (and the server started again)."""
    try:
        return _peer_phase(server.pid, server.url, clients, seconds)
    except RuntimeError:
        if server.alive():
            raise
        server.revive()
        return Phase(failed=True)


def _peer_phase(pid: int, url: str, clients: int, seconds: float) -> Phase:
    args = ["node", "load.js", url, str(clients), str(seconds), str(GOAL)]
    proc = subprocess.Popen(
        args, cwd=PEER, env=_node_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        lines = Lines(proc.stdout)
        if (said := lines.next(SETUP_S, "ready line")) != "ready":
            raise RuntimeError(f"the peer's load said {said!r}")
        before = tree_cpu_s(pid)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        out = json.loads(lines.next(seconds + 2 * CALL_S, "results"))
        cpu_ms = (tree_cpu_s(pid) - before) * 1000
    finally:
        proc.kill()
        proc.wait()
    return Phase(
        moves=out["moves"],
        seconds=out["seconds"],
        latencies_ms=out["latencies_ms"],
        deliveries=out["deliveries"],
        errors=out["errors"],
        cpu_ms={"server": cpu_ms},
        client_cpu_ms=out["client_cpu_ms"],
    )


# ---------------------------------------------------------------- Tabula


@contextmanager
def race_registered(folder: Path) -> Iterator[None]:
    """The race registered for this process and the ``tabula run`` it starts (``TABULA_EXTRA_GAMES``),
    its ``.proto`` rendered from its rules and compiled into ``folder`` (on ``PYTHONPATH``)."""
    from services.games import EXTRA_GAMES, load_game, load_rules, manifest
    from shared.serving.protogen import compile_protos, render_game_proto

    saved = {name: os.environ.get(name) for name in (EXTRA_GAMES, "PYTHONPATH")}
    path = [str(REPO), str(REPO / "gen"), str(folder / "gen"), *filter(None, [saved["PYTHONPATH"]])]
    os.environ.update({EXTRA_GAMES: RACE, "PYTHONPATH": os.pathsep.join(path)})
    try:
        proto = folder / "proto" / "tabula" / GAME / "v1" / f"{GAME}.proto"
        proto.parent.mkdir(parents=True)
        proto.write_text(render_game_proto(load_rules(GAME), manifest(GAME).source))
        compile_protos(folder / "proto", folder / "gen", includes=(REPO / "proto",))
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        load_game.cache_clear()


class Seat:
    """One seat's ``WatchMatch`` stream: the last version it has, and whether the race is over."""

    def __init__(self, calls: Calls, channel: grpc.aio.Channel, match_id: str, seat: int, head: int) -> None:
        self.seen, self.over, self.deliveries = head, False, 0
        self.changed = asyncio.Event()
        self._positions = [0, 0]
        request = calls.pb2.WatchMatchRequest(match_id=match_id, from_version=head + 1)
        self.call = calls.stub(channel).WatchMatch(request, metadata=calls.seat(match_id, seat), timeout=3600)
        self.task = asyncio.create_task(self._follow())

    async def _follow(self) -> None:
        try:
            async for item in self.call:
                if item.WhichOneof("item") != "event":
                    continue
                event = item.event.event
                if event.WhichOneof("kind") == "die_rolled":
                    rolled = event.die_rolled
                    self._positions[rolled.seat] += rolled.value
                    self.over = self.over or self._positions[rolled.seat] >= GOAL
                self.seen, self.deliveries = item.event.envelope.version, self.deliveries + 1
                self.changed.set()
        finally:
            self.changed.set()  # a waiter sees the stream's end

    async def reach(self, version: int) -> None:
        """Until this seat's stream has delivered ``version`` (at most ``CALL_S``)."""
        async with asyncio.timeout(CALL_S):
            while self.seen < version:
                if self.task.done():
                    raise RuntimeError(f"the stream ended at version {self.seen}")
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        self.call.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


class StackMeter:
    """What the stack under ``root`` spends between :meth:`start` and :meth:`stop`: CPU per service
    (``bench.load.tree_cpu``) and Redis commands by name (``INFO commandstats``, less the meter's own
    ``INFO``), and this process's CPU (the load client's)."""

    def __init__(self, root: int, client: redis.Redis) -> None:
        self.root, self.client = root, client
        self._cpu: dict[str, float] = {}
        self._commands: Counter[str] = Counter()
        self._mine = 0.0

    def _commandstats(self) -> Counter[str]:
        stats = self.client.info("commandstats")
        return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})

    def start(self) -> None:
        self._commands, self._cpu, self._mine = self._commandstats(), tree_cpu(self.root), time.process_time()

    def stop(self, out: Phase) -> None:
        mine, cpu, commands = time.process_time(), tree_cpu(self.root), self._commandstats()
        used = {name: (s - self._cpu.get(name, 0.0)) * 1000 for name, s in cpu.items()}
        out.cpu_ms = {name: ms for name, ms in used.items() if ms > 0}
        out.client_cpu_ms = (mine - self._mine) * 1000
        commands["info"] -= 1  # the start's own (the stop's is not counted yet)
        out.redis_commands = Counter(
            {n: c - self._commands[n] for n, c in commands.items() if c > self._commands[n]}
        )


class Driver:
    """One client of Tabula's side: both seats of a match of its own, a channel and a stream each."""

    def __init__(self, address: str, calls: Calls, name: str, out: Phase) -> None:
        self.calls, self.name, self.out = calls, name, out
        self.channels = [grpc.aio.insecure_channel(address) for _ in range(2)]
        self.roll = calls.pb2.Command(roll=calls.pb2.Roll())
        self.played, self.match_id, self.head, self.seats = 0, "", 0, list[Seat]()

    async def new_match(self) -> None:
        self.match_id, self.played = f"{self.name}-{self.played}", self.played + 1
        request = self.calls.create(self.match_id, 0)
        request.options["goal"] = str(GOAL)
        stub = self.calls.stub(self.channels[0])
        created = await stub.CreateMatch(request, metadata=self.calls.service, timeout=CALL_S)
        self.head = created.version
        self.seats = [Seat(self.calls, self.channels[s], self.match_id, s, self.head) for s in (0, 1)]

    async def end_match(self) -> None:
        self.out.deliveries += sum(s.deliveries for s in self.seats)
        await asyncio.gather(*(s.close() for s in self.seats))
        self.seats = []

    async def move(self, mover: int) -> bool:
        """``mover``'s roll, once its stream has the head; then the round's end after seat 1's (the
        worker's system step, waited for on seat 0's stream). False when the race is over."""
        seat, calls, out = self.seats[mover], self.calls, self.out
        await seat.reach(self.head)
        request = calls.pb2.SubmitCommandRequest(
            match_id=self.match_id,
            expected_version=self.head,
            command_id=f"{self.match_id}-{self.head}",
            command=self.roll,
        )
        metadata = calls.seat(self.match_id, mover)
        started = time.perf_counter()
        done = await calls.stub(self.channels[mover]).SubmitCommand(
            request, metadata=metadata, timeout=CALL_S
        )
        await seat.reach(done.last_version)
        out.latencies_ms.append((time.perf_counter() - started) * 1000)
        out.moves, self.head = out.moves + 1, done.last_version
        if not seat.over and mover == 1:
            await self.seats[0].reach(self.head + 1)
            self.head += 1
        return not seat.over

    async def play(self, until: float) -> None:
        mover = 0
        while time.perf_counter() < until:
            try:
                if await self.move(mover):
                    mover = 1 - mover
                    continue
            except (grpc.aio.AioRpcError, RuntimeError, TimeoutError):
                self.out.errors += 1
            await self.end_match()
            if time.perf_counter() < until:
                await self.new_match()
                mover = 0

    async def close(self) -> None:
        if self.seats:
            await self.end_match()
        for channel in self.channels:
            await channel.close()


async def _tabula_phase(address: str, calls: Calls, clients: int, seconds: float, meter: StackMeter) -> Phase:
    out, tag = Phase(), secrets.token_hex(3)
    drivers = [Driver(address, calls, f"peer-{tag}-{clients}-{n}", out) for n in range(clients)]
    try:
        for driver in drivers:  # the first matches before the clock starts
            await driver.new_match()
        await asyncio.sleep(0.5)  # their streams open
        meter.start()
        started = time.perf_counter()
        await asyncio.gather(*(d.play(started + seconds) for d in drivers))
        out.seconds = time.perf_counter() - started
        meter.stop(out)
        return out
    finally:
        for driver in drivers:
            await driver.close()


def tabula_phase(address: str, calls: Calls, clients: int, seconds: float, meter: StackMeter) -> Phase:
    return asyncio.run(_tabula_phase(address, calls, clients, seconds, meter))


# ---------------------------------------------------------------- the suite


def figures(phase: Phase) -> dict[str, float]:
    """A phase's figures per move, by name (a side's prefix is added by the caller)."""
    out = {
        "moves": float(phase.moves),
        "moves_per_s": phase.moves / max(phase.seconds, 1e-9),
        "p50_ms": percentile(phase.latencies_ms, 0.5),
        "p99_ms": percentile(phase.latencies_ms, 0.99),
        "cpu_ms_per_move": phase.per_move(sum(phase.cpu_ms.values())),
        "deliveries_per_move": phase.per_move(phase.deliveries),
        "client_cpu_ms_per_move": phase.per_move(phase.client_cpu_ms),
        "errors": float(phase.errors),
    }
    if phase.redis_commands:  # Tabula's side: its services, and its Redis commands
        out |= {f"cpu_ms_per_move.{name}": phase.per_move(ms) for name, ms in phase.cpu_ms.items()}
        out["redis_commands_per_move"] = phase.per_move(sum(phase.redis_commands.values()))
        out |= {f"redis_commands_per_move.{n}": phase.per_move(c) for n, c in phase.redis_commands.items()}
    return out


# (figure, Tabula's, the peer's, bar, goal): Tabula's figure over the peer's (issue 28's bars and goals)
RATIOS = (
    ("stack_cpu_vs_peer", "cpu_ms_per_move", "cpu_ms_per_move", 2.0, 1.0),
    ("rule_cpu_vs_peer", f"cpu_ms_per_move.{GAME}", "cpu_ms_per_move", 1.2, 0.8),
    ("p99_vs_peer", "p99_ms", "p99_ms", 1.2, 1.0),
)
P99_GOAL_AT = 32  # the p99 goal is at 32 clients
REDIS_BAR, REDIS_GOAL = 6.0, 3.0


def _bounded(name: str, value: float, bar: float, goal: float) -> list[Result]:
    """``name`` against its goal, and again as ``name.bar`` against its bar."""
    return [
        Result(name, value, "ratio" if "_vs_" in name else "commands", f"<= {goal:g}", value <= goal),
        Result(f"{name}.bar", value, "ratio" if "_vs_" in name else "commands", f"<= {bar:g}", value <= bar),
    ]


def _unit(name: str) -> str:
    if "ms" in name:
        return "ms"
    return "commands" if "redis" in name else "moves/s" if name.endswith("_per_s") else "count"


def _median(values: Iterable[float]) -> float:
    found = list(values)
    return statistics.median(found) if found else math.nan


def summarize(phases: Mapping[tuple[int, str], Sequence[Phase]], clients: Sequence[int]) -> list[Result]:
    """Each figure's median over the alternations, and each ratio's median over the alternations'
    ratios; a failed phase (its server died) gives no figure and no ratio, and is counted."""
    results = []
    for n in clients:
        by_side = {side: [None if p.failed else figures(p) for p in phases[(n, side)]] for side in SIDES}
        for side, found in by_side.items():
            runs = [run for run in found if run is not None]
            names = {name for run in runs for name in run}
            if n != max(clients):  # Redis commands by name at the largest count only
                names = {name for name in names if not name.startswith("redis_commands_per_move.")}
            for name in sorted(names, key=lambda k: (k.count("."), k)):
                value = _median(run.get(name, 0.0) for run in runs)
                results.append(Result(f"peer.c{n}.{side}.{name}", value, _unit(name)))
            results.append(Result(f"peer.c{n}.{side}.failed_phases", len(found) - len(runs), "phases"))
        for peer, suffix in (("bgio", ""), ("bgio_flatfile", "_flatfile")):
            pairs = [
                (a, b)
                for a, b in zip(by_side["tabula"], by_side[peer], strict=True)
                if a is not None and b is not None
            ]
            for ratio, mine, theirs, bar, goal in RATIOS:
                value = _median(a.get(mine, 0.0) / max(b[theirs], 1e-9) for a, b in pairs)
                name = f"peer.c{n}.{ratio}{suffix}"
                goals = not suffix and (ratio != "p99_vs_peer" or n == P99_GOAL_AT)
                results += _bounded(name, value, bar, goal) if goals else [Result(name, value, "ratio")]
        redis = _median(run["redis_commands_per_move"] for run in by_side["tabula"] if run is not None)
        results += _bounded(f"peer.c{n}.redis_commands_per_move", redis, REDIS_BAR, REDIS_GOAL)
    return results


def peer_benchmarks(profile: PeerProfile, folder: Path) -> list[Result]:
    """Every phase, alternated: the peer in memory, Tabula's stack, the peer on FlatFile."""
    from services.games import load_game

    reason = unavailable()
    if reason:
        print(f"peer suite skipped: {reason}", file=sys.stderr)
        return [Result("peer.skipped", 1.0, f"skipped: {reason}")]
    (folder / "stack").mkdir()
    with (
        race_registered(folder / "race"),
        load_stack(folder / "stack") as stack,
        PeerServer("memory", folder) as memory,
        PeerServer("flatfile", folder) as durable,
    ):
        calls = Calls(load_game(GAME), stack.signer, 2)
        meter = StackMeter(stack.pid, redis.Redis.from_url(stack.redis_url))
        peers = {"bgio": memory, "bgio_flatfile": durable}
        phases: dict[tuple[int, str], list[Phase]] = {}
        for alternation in range(profile.alternations):
            order = SIDES[alternation % 3 :] + SIDES[: alternation % 3]
            for clients in profile.clients:
                for side in order:
                    if side == "tabula":
                        phase = tabula_phase(stack.services[GAME], calls, clients, profile.seconds, meter)
                    else:
                        phase = peer_phase(peers[side], clients, profile.seconds)
                    phases.setdefault((clients, side), []).append(phase)
    return [Result("peer.phase_s", profile.seconds, "s"), *summarize(phases, profile.clients)]
