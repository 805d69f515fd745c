"""The terminal client against a real rule service (race test game) on the private Redis with a tiny
command limit: a limited SubmitCommand waits the RetryInfo delay the service gives, says so, and is
sent again with the same command id and expected version, which then lands once."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis
from rich.console import Console

from services.client.generic import GenericPresentation
from services.client.rpc import GameClient
from services.client.session import Viewer
from shared.core.codec import MessageCodec
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.protogen import GameModules
from shared.serving.ratelimit import RATES, Limiter, Rate
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore
from tests.support.race.manifest import race_rules
from tests.support.race.protos import race_game_modules

SIGNER = TokenSigner(b"client-limit-secret-0123456789abcdef")
REFILL_S = 3.0  # one command per player every 3 s: the second of two quick commands is refused


@pytest.fixture(scope="module")
def race_modules(tmp_path_factory: pytest.TempPathFactory) -> GameModules:
    return race_game_modules(tmp_path_factory.mktemp("race"))


@pytest.fixture
def limited_race(race_modules: GameModules, redis_client: redis.Redis) -> Iterator[RunningServer]:
    rules = race_rules()
    codec = MessageCodec(race_modules.pb2, [*rules.event_types, *rules.command_types])
    runner = MatchRunner(rules, codec, RedisEventStore(redis_client))
    rates: dict[str, Rate | None] = {name: None for name in RATES}
    rates["command_player"] = Rate(1, REFILL_S)
    limits = Limiter(redis_client, rates, {"watches_per_token": 0})
    running = start_server([GameServicer(runner, race_modules, SIGNER, limiter=limits).registration()])
    yield running
    running.stop(0)


class Recording:
    """The rule service's stub, keeping (command id, expected version) of every SubmitCommand sent."""

    def __init__(self, stub: Any) -> None:
        self.stub, self.sent = stub, list[tuple[str, int]]()

    def GetView(self, request: Any, **kw: Any) -> Any:
        return self.stub.GetView(request, **kw)

    def SubmitCommand(self, request: Any, **kw: Any) -> Any:
        self.sent.append((request.command_id, request.expected_version))
        return self.stub.SubmitCommand(request, **kw)


def test_a_rate_limited_command_waits_the_delay_and_lands_with_the_same_command_id(
    limited_race: RunningServer, race_modules: GameModules, redis_client: redis.Redis
) -> None:
    pb2 = race_modules.pb2
    channel = grpc.insecure_channel(f"127.0.0.1:{limited_race.port}")
    try:
        stub = Recording(race_modules.pb2_grpc.RaceServiceStub(channel))
        create = pb2.CreateMatchRequest(match_id="m1", seats=2, seed=42)
        service = [("authorization", f"Bearer {SIGNER.service('race')}")]
        stub.stub.CreateMatch(create, metadata=service, timeout=5)
        slept: list[float] = []

        def sleep(seconds: float) -> None:
            slept.append(seconds)
            time.sleep(seconds)

        client = GameClient(stub, pb2, "m1", SIGNER.seat("race", "m1", 0, "ada"), deadline_s=5, sleep=sleep)
        console = Console(width=120, record=True, no_color=True, file=io.StringIO())
        viewer = Viewer(client=client, presentation=GenericPresentation(), console=console)
        version = int(viewer.refresh().version)
        roll = pb2.Command(roll=pb2.Roll())
        with pytest.raises(grpc.RpcError) as stale:  # a stale command still takes the player's token
            client.submit(roll, version - 1, "stale")
        assert stale.value.code() is grpc.StatusCode.ABORTED
        started = time.monotonic()
        reply = client.submit(roll, version, "c1")
        waited = time.monotonic() - started
    finally:
        channel.close()
    assert stub.sent == [("stale", version - 1), ("c1", version), ("c1", version)]
    assert len(slept) == 1 and 0 < slept[0] <= REFILL_S and waited >= slept[0]
    assert re.search(r"busy, retrying in [\d.]+ s", console.export_text())
    assert (reply.first_version, reply.duplicate) == (version + 1, False)
    landed = wait(RedisEventStore(redis_client).read("m1", version + 1))
    assert landed and {event.command_id for event in landed} == {"c1"}
