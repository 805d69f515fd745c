"""The watch bench (``tabula bench --only watch``): one rule-service instance holding many streams.

A private Redis, one in-process rule service of the default game (``grpc.aio``, the watch hub on
``redis.asyncio``, as ``services/game_server.py`` builds it) and a client in another process (so
its CPU is not the server's): ``TABULA_BENCH_WATCH_STREAMS`` spectator streams (default 10,000),
``TABULA_BENCH_WATCH_BUSY`` of them (default 1,000) on one match that random legal commands move
at ``TABULA_BENCH_WATCH_RATE`` commands a second (default 10) for ``TABULA_BENCH_WATCH_SECONDS``
(default 15), the rest spread ten to a match over quiet matches. Measured: the time to open every
stream, the delivery lag of every event at every busy watcher (the client's clock at receipt less
the event's ``server_time_ms``, Redis's clock; one machine), the server's threads and Redis
connections with every stream open, and whether every busy watcher got every event.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.report import Result

PER_QUIET_MATCH = 10
CHANNELS = 16


def _stub(game: str, port: int, n: int) -> tuple[Any, Any, Any]:
    import grpc

    from services.games import load_game

    modules = load_game(game).modules
    options = [("grpc.use_local_subchannel_pool", 1), ("tabula.bench.channel", n)]
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options)
    return channel, getattr(modules.pb2_grpc, f"{modules.name}ServiceStub")(channel), modules.pb2


async def _client(plan: dict[str, Any]) -> dict[str, Any]:
    import grpc

    """Open every stream of ``plan``, say so on stdout, then follow the busy match until its final
    version (read from stdin) and report the busy watchers' lags."""
    made = [_stub(plan["game"], plan["port"], n) for n in range(CHANNELS)]
    lags: list[float] = []
    complete = 0
    opened = 0
    failed: list[str] = []
    all_open = asyncio.Event()
    final: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    streams = [(match_id, token, False) for match_id, token in plan["quiet"]]
    streams += [(plan["busy"], plan["busy_token"], True)] * plan["busy_count"]

    async def follow(n: int, match_id: str, token: str, busy: bool) -> None:
        nonlocal complete
        _, stub, pb2 = made[n % CHANNELS]
        known = plan["versions"][match_id]  # from the last event: a first reply at once
        request = pb2.WatchMatchRequest(match_id=match_id, from_version=known)
        call = stub.WatchMatch(request, metadata=[("authorization", f"Bearer {token}")])
        first = True
        try:
            async for item in call:
                if first:
                    first = False
                    arrived(True)
                if not busy:
                    continue
                if item.WhichOneof("item") == "event":
                    envelope = item.event.envelope
                    if envelope.version > known:
                        lags.append(time.time() * 1000 - envelope.server_time_ms)
                    head = envelope.version
                else:
                    head = item.keepalive.head_version
                if final.done() and head >= final.result():
                    complete += 1
                    call.cancel()
                    return
        except grpc.aio.AioRpcError as err:
            failed.append(err.code().name)
            if first:
                arrived(False)

    def arrived(ok: bool) -> None:
        nonlocal opened
        opened += ok
        if opened + len(failed) >= len(streams):
            all_open.set()

    started = time.perf_counter()
    tasks = [asyncio.ensure_future(follow(n, *stream)) for n, stream in enumerate(streams)]
    await all_open.wait()
    open_s = time.perf_counter() - started
    print(json.dumps({"open": True}), flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    final.set_result(int(line))
    await asyncio.wait(tasks[len(plan["quiet"]) :], timeout=120)  # the busy watchers come last
    for task in tasks:
        task.cancel()
    for channel, _, _ in made:
        await channel.close()
    lags.sort()
    return {
        "open_s": open_s,
        "opened": opened,
        "complete": complete,
        "failed": len(failed),
        "failed_codes": sorted(set(failed)),
        "lags": len(lags),
        "p50_ms": lags[len(lags) // 2] if lags else -1,
        "p99_ms": lags[int(len(lags) * 0.99)] if lags else -1,
        "max_ms": lags[-1] if lags else -1,
        "mean_ms": statistics.fmean(lags) if lags else -1,
    }


def watch_benchmarks() -> list[Result]:
    from bench.bots import bench_seats
    from bench.report import Result
    from services.games import default_game, load_game
    from shared.core.rng import Rng
    from shared.matches.runner import MatchRunner
    from shared.runtime.edge import wait
    from shared.runtime.redis_server import private_redis
    from shared.serving.game_service import GameServicer
    from shared.serving.grpc_server import Limits, start_server
    from shared.serving.tokens import TokenSigner
    from shared.serving.watch import WatchHub, watch_connections
    from shared.store.redis_store import RedisEventStore

    streams = int(os.environ.get("TABULA_BENCH_WATCH_STREAMS", "10000"))
    busy = int(os.environ.get("TABULA_BENCH_WATCH_BUSY", "1000"))
    rate = float(os.environ.get("TABULA_BENCH_WATCH_RATE", "10"))
    seconds = float(os.environ.get("TABULA_BENCH_WATCH_SECONDS", "15"))
    name = default_game()
    game = load_game(name)
    signer = TokenSigner(b"watch-bench-secret-0123456789abcdef")
    limits = Limits(max_streams=streams + 100)
    with private_redis() as redis_server:
        store = RedisEventStore(redis_server.client())
        runner = MatchRunner(game.rules, game.codec, store)
        seats = bench_seats(name)
        wait(runner.create("busy", seats, {}, seed=1))
        quiet = [f"quiet{n}" for n in range(max(0, streams - busy) // PER_QUIET_MATCH)]
        for match_id in quiet:
            wait(runner.create(match_id, seats, {}, seed=2))
        hub = WatchHub(store.stream_reader(watch_connections(limits, store.shards)))
        servicer = GameServicer(runner, game.modules, signer, hub=hub)
        running = start_server([servicer.registration()], limits=limits)
        plan = {
            "game": name,
            "port": running.port,
            "busy": "busy",
            "busy_token": signer.spectator(name, "busy", "bench"),
            "busy_count": busy,
            "quiet": [(m, signer.spectator(name, m, "bench")) for m in quiet for _ in range(PER_QUIET_MATCH)],
            "versions": {m: wait(store.version(m)) for m in ["busy", *quiet]},
        }
        client = subprocess.Popen(
            [sys.executable, "-m", "bench.watch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert client.stdin is not None and client.stdout is not None
            client.stdin.write(json.dumps(plan) + "\n")
            client.stdin.flush()
            json.loads(client.stdout.readline())  # every stream is open
            threads = threading.active_count()
            redis_clients = int(redis_server.client().info("clients")["connected_clients"])
            played = _play(runner, "busy", rate, seconds, Rng(3))
            client.stdin.write(f"{played}\n")
            client.stdin.flush()
            report = json.loads(client.stdout.readline())
        finally:
            client.kill()
            running.stop(0)
    total = len(quiet) * PER_QUIET_MATCH + busy
    p99, failed = float(report["p99_ms"]), int(report["failed"])
    return [
        Result("watch.streams_opened", report["opened"], "streams", f"{total}", report["opened"] == total),
        Result("watch.streams_failed", failed, f"streams {report['failed_codes']}", "0", failed == 0),
        Result("watch.open_all_s", report["open_s"], "s"),
        Result("watch.server_threads_with_all_open", threads, "threads"),
        Result("watch.redis_clients_with_all_open", redis_clients, "connections"),
        Result(
            "watch.busy_watchers_complete",
            report["complete"],
            "streams",
            f"{busy}",
            report["complete"] == busy,
        ),
        Result("watch.busy_delivery_lag_p50_ms", report["p50_ms"], "ms"),
        Result("watch.busy_delivery_lag_p99_ms", p99, "ms", "< 250", p99 < 250),
        Result("watch.busy_delivery_lag_max_ms", report["max_ms"], "ms"),
        Result("watch.busy_events_delivered", report["lags"], "deliveries"),
    ]


def _play(runner: Any, match_id: str, rate: float, seconds: float, rng: Any) -> int:
    """Random legal commands on ``match_id`` at ``rate`` a second for ``seconds`` (or until it ends):
    its last version."""
    from shared.runtime.edge import wait

    rules, loaded = runner.rules, wait(runner.load(match_id))
    deadline, n = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and rules.outcome(loaded.state) is None:
        actor = rng.choice(rules.to_act(loaded.state))
        command = rng.choice(rules.legal_commands(loaded.state, actor))
        wait(runner.submit(match_id, actor, command, loaded.version, f"bench-{n}"))
        n += 1
        loaded = wait(runner.load(match_id))
        time.sleep(1 / rate)
    return int(loaded.version)


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_client(json.loads(sys.stdin.readline())))), flush=True)
