"""The generic game service and gRPC scaffolding, over real gRPC and real Redis (race test game)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from types import ModuleType
from typing import Any

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from shared.matches.runner import MatchRunner
from shared.serving.errors import error_info
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.protogen import GameModules
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore
from tests.support.race.manifest import race_rules
from tests.support.race.protos import race_game_modules

SIGNER = TokenSigner(b"test-secret-0123456789abcdefghijklmn")
SERVICE = SIGNER.service("race")


@pytest.fixture(scope="module")
def race_modules(tmp_path_factory: pytest.TempPathFactory) -> GameModules:
    return race_game_modules(tmp_path_factory.mktemp("race"))


@pytest.fixture
def server(race_modules: GameModules, redis_client: redis.Redis) -> Iterator[RunningServer]:
    runner = MatchRunner(race_rules(), _codec(race_modules), RedisEventStore(redis_client))
    servicer = GameServicer(runner, race_modules, SIGNER, keepalive_s=0.2)
    running = start_server([servicer.registration()])
    yield running
    running.stop(0)


def _codec(m: GameModules) -> Any:
    from shared.core.codec import MessageCodec

    rules = race_rules()
    return MessageCodec(m.pb2, [*rules.event_types, *rules.command_types])


@pytest.fixture
def stub(server: RunningServer, race_modules: GameModules) -> Iterator[Any]:
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    yield race_modules.pb2_grpc.RaceServiceStub(channel)
    channel.close()


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def seat(match_id: str, n: int) -> list[tuple[str, str]]:
    return auth(SIGNER.seat("race", match_id, n, f"p{n}"))


def create(stub: Any, pb2: ModuleType, match_id: str = "m1", seats: int = 2, goal: str = "20") -> int:
    request = pb2.CreateMatchRequest(match_id=match_id, seats=seats, options={"goal": goal}, seed=42)
    version: int = stub.CreateMatch(request, metadata=auth(SERVICE), timeout=5).version
    return version


def roll(pb2: ModuleType, match_id: str, version: int, command_id: str) -> Any:
    command = pb2.Command(roll=pb2.Roll())
    return pb2.SubmitCommandRequest(
        match_id=match_id, expected_version=version, command_id=command_id, command=command
    )


def fails(call: Any, code: grpc.StatusCode, reason: str | None = None) -> None:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == code, err.value.details()
    if reason is not None:
        info = error_info(err.value)
        assert info is not None and info.reason == reason


def test_health_and_reflection_are_served(server: RunningServer) -> None:
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    check = health_pb2_grpc.HealthStub(channel).Check(
        health_pb2.HealthCheckRequest(service="tabula.race.v1.RaceService"), timeout=5
    )
    assert check.status == health_pb2.HealthCheckResponse.SERVING
    reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
    (reply,) = reflect.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5
    )
    assert "tabula.race.v1.RaceService" in {s.name for s in reply.list_services_response.service}
    channel.close()


def test_only_a_service_token_creates_matches(stub: Any, race_modules: GameModules) -> None:
    pb2 = race_modules.pb2
    request = pb2.CreateMatchRequest(match_id="m1", seats=2)
    fails(lambda: stub.CreateMatch(request, timeout=5), grpc.StatusCode.UNAUTHENTICATED, "bad_token")
    fails(
        lambda: stub.CreateMatch(request, metadata=auth(SERVICE + "x"), timeout=5),
        grpc.StatusCode.UNAUTHENTICATED,
    )
    fails(
        lambda: stub.CreateMatch(request, metadata=seat("m1", 0), timeout=5),
        grpc.StatusCode.PERMISSION_DENIED,
    )
    assert create(stub, pb2) == 3
    fails(lambda: create(stub, pb2, goal="9"), grpc.StatusCode.ALREADY_EXISTS, "match_exists")
    bad = pb2.CreateMatchRequest(match_id="m2", seats=7)
    fails(
        lambda: stub.CreateMatch(bad, metadata=auth(SERVICE), timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "bad_seats",
    )


def test_view_shows_own_secret_and_legal_commands(stub: Any, race_modules: GameModules) -> None:
    pb2 = race_modules.pb2
    create(stub, pb2)
    mine = stub.GetView(pb2.GetViewRequest(match_id="m1"), metadata=seat("m1", 0), timeout=5)
    assert mine.version == 3 and mine.view.HasField("my_secret") and list(mine.seats_to_act) == [0]
    assert [c.WhichOneof("kind") for c in mine.legal_commands] == ["roll"]
    spectator = auth(SIGNER.spectator("race", "m1", "s"))
    public = stub.GetView(pb2.GetViewRequest(match_id="m1"), metadata=spectator, timeout=5)
    assert not public.view.HasField("my_secret") and not public.legal_commands


def test_errors_follow_the_table(stub: Any, race_modules: GameModules) -> None:
    pb2 = race_modules.pb2
    create(stub, pb2)
    S = grpc.StatusCode
    empty = pb2.SubmitCommandRequest(match_id="m1", expected_version=3, command_id="a")
    expired = auth(SIGNER.seat("race", "m1", 0, "p0", ttl_s=-5))
    for request, metadata, code, reason in [
        (roll(pb2, "m1", 3, "a"), seat("m1", 1), S.FAILED_PRECONDITION, "not_your_turn"),
        (roll(pb2, "m1", 2, "a"), seat("m1", 0), S.ABORTED, "stale_version"),
        (roll(pb2, "nope", 0, "a"), seat("nope", 0), S.NOT_FOUND, "match_not_found"),
        (roll(pb2, "m1", 3, "a"), seat("other", 0), S.PERMISSION_DENIED, None),
        (empty, seat("m1", 0), S.INVALID_ARGUMENT, None),
        (roll(pb2, "m1", 3, "a"), expired, S.UNAUTHENTICATED, None),
    ]:
        fails(partial(stub.SubmitCommand, request, metadata=metadata, timeout=5), code, reason)
    done = stub.SubmitCommand(roll(pb2, "m1", 3, "a"), metadata=seat("m1", 0), timeout=5)
    again = stub.SubmitCommand(roll(pb2, "m1", 3, "a"), metadata=seat("m1", 0), timeout=5)
    assert (done.last_version, done.duplicate, again.last_version, again.duplicate) == (4, False, 4, True)


def test_watch_is_redacted_resumable_and_keeps_alive(stub: Any, race_modules: GameModules) -> None:
    pb2 = race_modules.pb2
    create(stub, pb2)
    stream = stub.WatchMatch(
        pb2.WatchMatchRequest(match_id="m1", from_version=1), metadata=seat("m1", 1), timeout=10
    )
    seen: list[tuple[int, str]] = []
    keepalives = 0
    submitted = threading.Event()
    for item in stream:
        if item.WhichOneof("item") == "keepalive":
            keepalives += 1
            if not submitted.is_set():
                stub.SubmitCommand(roll(pb2, "m1", 3, "a"), metadata=seat("m1", 0), timeout=5)
                submitted.set()
            continue
        seen.append((item.event.envelope.version, item.event.event.WhichOneof("kind")))
        if item.event.envelope.version == 4:
            break
    stream.cancel()
    assert seen == [(1, "race_started"), (3, "secret_dealt"), (4, "die_rolled")]  # seat 0's secret is hidden
    assert keepalives >= 1
    resumed = stub.WatchMatch(
        pb2.WatchMatchRequest(match_id="m1", from_version=4), metadata=seat("m1", 1), timeout=10
    )
    first = next(resumed)
    resumed.cancel()
    assert first.event.envelope.version == 4


def test_replay_and_export_after_the_end(stub: Any, race_modules: GameModules) -> None:
    pb2 = race_modules.pb2
    create(stub, pb2, goal="1")
    me = seat("m1", 0)
    at_start = stub.Replay(pb2.ReplayRequest(match_id="m1", version=1), metadata=me, timeout=5)
    assert list(at_start.view.positions) == [0, 0]
    fails(
        lambda: stub.Replay(pb2.ReplayRequest(match_id="m1", version=99), metadata=me, timeout=5),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    fails(
        lambda: stub.ExportLog(pb2.ExportLogRequest(match_id="m1"), metadata=me, timeout=5),
        grpc.StatusCode.PERMISSION_DENIED,
    )
    stub.SubmitCommand(roll(pb2, "m1", 3, "a"), metadata=me, timeout=5)  # goal 1: the first roll wins
    view = stub.GetView(pb2.GetViewRequest(match_id="m1"), metadata=me, timeout=5)
    assert view.HasField("outcome") and view.outcome.placings[0] == 1
    log = stub.ExportLog(pb2.ExportLogRequest(match_id="m1"), metadata=seat("m1", 1), timeout=5)
    assert [e.envelope.version for e in log.events] == [1, 2, 3, 4]


def test_graceful_stop_refuses_new_calls(race_modules: GameModules, redis_client: redis.Redis) -> None:
    runner = MatchRunner(race_rules(), _codec(race_modules), RedisEventStore(redis_client))
    running = start_server([GameServicer(runner, race_modules, SIGNER).registration()])
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    health = health_pb2_grpc.HealthStub(channel)
    assert (
        health.Check(health_pb2.HealthCheckRequest(), timeout=5).status
        == health_pb2.HealthCheckResponse.SERVING
    )
    running.stop(1)
    with pytest.raises(grpc.RpcError):
        health.Check(health_pb2.HealthCheckRequest(), timeout=1)
    channel.close()


def test_metrics_endpoint_counts_rpcs(stub: Any, race_modules: GameModules) -> None:
    import urllib.request

    from prometheus_client import REGISTRY

    from shared.runtime.observability import start_metrics

    port = start_metrics(0)
    create(stub, race_modules.pb2)
    labels = {"code": "OK", "method": "GetView", "service": "game"}
    before = REGISTRY.get_sample_value("tabula_rpcs_total", labels) or 0.0
    stub.GetView(race_modules.pb2.GetViewRequest(match_id="m1"), metadata=seat("m1", 0), timeout=5)
    assert REGISTRY.get_sample_value("tabula_rpcs_total", labels) == before + 1
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    assert 'tabula_rpcs_total{code="OK",method="GetView",service="game"}' in text
    assert "tabula_rpc_seconds_bucket" in text
