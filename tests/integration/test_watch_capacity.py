"""One rule-service instance under many watch streams (issue 14): thousands of WatchMatch streams
served by coroutines, not threads; commands and views still answered meanwhile; the caps answered
with RESOURCE_EXHAUSTED (reason ``over_capacity``), never a freeze. Over real gRPC (loopback) and a
real Redis, with the race test game; the clients are grpc.aio ones, so the test holds no thread
per stream either."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from shared.core.decider import SPECTATOR, Visibility
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.errors import error_info
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import Limits, RunningServer, start_server
from shared.serving.protogen import GameModules
from shared.store.redis_store import RedisEventStore
from tests.integration.test_game_service import SERVICE, SIGNER, _codec, auth, roll, seat
from tests.support.race.manifest import race_rules
from tests.support.race.protos import race_game_modules
from tests.support.timing import scaled

STREAMS = 2000
CHANNELS = 8  # loopback connections the streams are spread over
COMMANDS = 12


@pytest.fixture(scope="module")
def race_modules(tmp_path_factory: pytest.TempPathFactory) -> GameModules:
    return race_game_modules(tmp_path_factory.mktemp("race"))


def serve(
    race_modules: GameModules, client: redis.Redis, limits: Limits, servicer: Any = GameServicer
) -> RunningServer:
    runner = MatchRunner(race_rules(), _codec(race_modules), RedisEventStore(client))
    return start_server(
        [servicer(runner, race_modules, SIGNER, keepalive_s=10).registration()], limits=limits
    )


@pytest.fixture
def server(race_modules: GameModules, redis_client: redis.Redis) -> Iterator[RunningServer]:
    running = serve(race_modules, redis_client, Limits(max_streams=STREAMS + 10))
    yield running
    running.stop(0)


def over_capacity(err: grpc.aio.AioRpcError, limit: str) -> None:
    assert err.code() is grpc.StatusCode.RESOURCE_EXHAUSTED, err.details()
    info = error_info(err)
    assert info is not None and info.reason == "over_capacity" and info.metadata["limit"] == limit


def channel(port: int, n: int) -> grpc.aio.Channel:
    """An aio channel with a connection of its own (``n`` keeps the channels' arguments apart)."""
    options = [("grpc.use_local_subchannel_pool", 1), ("tabula.test.channel", n)]
    return grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options)


async def create(stub: Any, pb2: Any, match_id: str) -> int:
    request = pb2.CreateMatchRequest(match_id=match_id, seats=2, options={"goal": "100"}, seed=7)
    reply = await stub.CreateMatch(request, metadata=auth(SERVICE), timeout=scaled(10))
    return int(reply.version)


async def play(stub: Any, pb2: Any, match_id: str, commands: int) -> tuple[int, list[float]]:
    """``commands`` rolls by whoever is to act, each after a GetView: the last version, and how
    long each GetView and SubmitCommand took."""
    took: list[float] = []
    version = 0
    for n in range(commands):
        started = time.perf_counter()
        view = await stub.GetView(
            pb2.GetViewRequest(match_id=match_id), metadata=seat(match_id, 0), timeout=scaled(10)
        )
        took.append(time.perf_counter() - started)
        request = roll(pb2, match_id, view.version, f"command-{n}")
        if view.system_to_act:  # the round's end, the scoring worker's step in a real stack
            request.command.CopyFrom(pb2.Command(end_round=pb2.EndRound()))
        metadata = auth(SERVICE) if view.system_to_act else seat(match_id, view.seats_to_act[0])
        started = time.perf_counter()
        done = await stub.SubmitCommand(request, metadata=metadata, timeout=scaled(10))
        took.append(time.perf_counter() - started)
        version = int(done.last_version)
    return version, took


async def follow(
    stub: Any, pb2: Any, match_id: str, opened: asyncio.Event, final: asyncio.Future[int]
) -> list[int]:
    """A spectator's stream from version 1: the versions of its events until the final version."""
    spectator = auth(SIGNER.spectator("race", match_id, "watcher"))
    call = stub.WatchMatch(pb2.WatchMatchRequest(match_id=match_id, from_version=1), metadata=spectator)
    seen: list[int] = []
    try:
        async for item in call:
            opened.set()
            if item.WhichOneof("item") == "event":
                seen.append(item.event.envelope.version)
            head = seen[-1] if seen else 0
            if item.WhichOneof("item") == "keepalive":
                head = max(head, item.keepalive.head_version)
            if final.done() and head >= final.result():
                return seen
    finally:  # a failed stream fails the test when its result is gathered
        opened.set()
        call.cancel()
    return seen


def test_thousands_of_streams_on_one_instance_while_commands_and_views_answer(
    server: RunningServer, race_modules: GameModules, redis_client: redis.Redis
) -> None:
    pb2, grpc_module = race_modules.pb2, race_modules.pb2_grpc
    threads_before = threading.active_count()

    async def run() -> tuple[list[list[int]], int, list[float], int]:
        channels = [channel(server.port, n) for n in range(CHANNELS)]
        stubs = [grpc_module.RaceServiceStub(c) for c in channels]
        try:
            await create(stubs[0], pb2, "busy")
            final: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            opened = [asyncio.Event() for _ in range(STREAMS)]
            watchers = [
                asyncio.ensure_future(follow(stubs[i % CHANNELS], pb2, "busy", opened[i], final))
                for i in range(STREAMS)
            ]
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), scaled(120))
            threads_open = threading.active_count()
            last, took = await play(stubs[1], pb2, "busy", COMMANDS)
            final.set_result(last)
            seen = await asyncio.wait_for(asyncio.gather(*watchers), scaled(120))
            return seen, last, took, threads_open
        finally:
            for c in channels:
                await c.close()

    seen, last, took, threads_open = asyncio.run(run())
    events = wait(RedisEventStore(redis_client).read("busy"))
    assert last == events[-1].version > COMMANDS  # every command landed
    shown = [e.version for e in events if Visibility.decode(e.visibility).visible_to(SPECTATOR)]
    assert all(versions == shown for versions in seen), {tuple(v) for v in seen}  # hidden ones left out
    assert len(seen) == STREAMS
    # the server's threads: its pools' (at most Limits().workers + a few), never one per stream
    assert threads_open - threads_before < 50, (threads_before, threads_open)
    assert len(took) == 2 * COMMANDS  # every GetView and SubmitCommand answered (each within its deadline)


def test_streams_beyond_the_cap_are_refused_while_the_others_run(
    race_modules: GameModules, redis_client: redis.Redis
) -> None:
    running = serve(race_modules, redis_client, Limits(max_streams=3))
    pb2, grpc_module = race_modules.pb2, race_modules.pb2_grpc

    async def run() -> None:
        async with channel(running.port, 0) as ch:
            stub = grpc_module.RaceServiceStub(ch)
            await create(stub, pb2, "capped")
            spectator = auth(SIGNER.spectator("race", "capped", "watcher"))
            request = pb2.WatchMatchRequest(match_id="capped", from_version=1)
            calls = [stub.WatchMatch(request, metadata=spectator) for _ in range(3)]
            for call in calls:
                await asyncio.wait_for(call.read(), scaled(10))
            refused = stub.WatchMatch(request, metadata=spectator)
            with pytest.raises(grpc.aio.AioRpcError) as err:
                await asyncio.wait_for(refused.read(), scaled(10))
            over_capacity(err.value, "max_streams")
            last, _ = await play(stub, pb2, "capped", 2)  # unary calls are not held up
            assert last > 2
            calls[0].cancel()
            for _ in range(100):  # the cancelled stream's place is free again
                again = stub.WatchMatch(request, metadata=spectator)
                try:
                    await asyncio.wait_for(again.read(), scaled(10))
                    again.cancel()
                    break
                except grpc.aio.AioRpcError as retry:
                    assert retry.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("a cancelled stream's place was never given back")
            for call in calls[1:]:
                call.cancel()

    try:
        asyncio.run(run())
    finally:
        running.stop(0)


class SlowReplays(GameServicer):
    """Replay, here a blocking call on the thread pool, waits for ``release``: it holds the only worker
    thread; then it answers as the rule service's own Replay (on the serving loop, through the edge)."""

    release = threading.Event()
    entered = threading.Event()

    def Replay(self, request: Any, context: Any) -> Any:  # type: ignore[override]
        SlowReplays.entered.set()
        SlowReplays.release.wait(30)
        return wait(super().Replay(request, context))


def test_unary_calls_beyond_the_in_flight_cap_are_refused_at_once(
    race_modules: GameModules, redis_client: redis.Redis
) -> None:
    """One call in flight (a Replay held on the pool): the next, even one served on the loop (GetView),
    is refused at once; once it is let go, both kinds are answered."""
    running = serve(race_modules, redis_client, Limits(workers=1, max_inflight=1), SlowReplays)
    pb2, grpc_module = race_modules.pb2, race_modules.pb2_grpc

    async def run() -> None:
        async with channel(running.port, 0) as ch:
            stub = grpc_module.RaceServiceStub(ch)
            await create(stub, pb2, "slow")
            view, replay = pb2.GetViewRequest(match_id="slow"), pb2.ReplayRequest(match_id="slow", version=1)
            held = asyncio.ensure_future(stub.Replay(replay, metadata=seat("slow", 0), timeout=scaled(30)))
            await asyncio.get_running_loop().run_in_executor(None, SlowReplays.entered.wait, 30)
            for refused in (
                stub.GetView(view, metadata=seat("slow", 0), timeout=scaled(10)),
                stub.Replay(replay, metadata=seat("slow", 0), timeout=scaled(10)),
            ):
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    await refused
                over_capacity(err.value, "max_inflight")
            SlowReplays.release.set()
            assert (await held).version == 1
            assert (await stub.GetView(view, metadata=seat("slow", 0), timeout=scaled(10))).version >= 1

    try:
        asyncio.run(run())
    finally:
        SlowReplays.release.set()
        running.stop(0)
