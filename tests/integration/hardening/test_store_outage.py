"""Redis stops under a running rule service and lobby: calls answer UNAVAILABLE (store_unavailable,
retryable), never INTERNAL; Redis restarts on the same port and AOF: calls succeed again, and a
terminal client's command sent during the outage lands once, by its retries with one command id.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from tabula.lobby.v1 import lobby_pb2 as lb

from services.client.rpc import GameClient
from services.games import load_game
from services.lobby.server import build
from shared.runtime.config import Settings
from shared.runtime.redis_server import RedisServer, redis_binary, start_redis
from shared.store.clients import redis_client
from tests.integration.hardening.conftest import (
    SERVICE,
    SIGNER,
    Served,
    errors_logged,
    refusal,
    seat,
    serve_game,
    view,
)
from tests.support.timing import scaled

DOWN = grpc.StatusCode.UNAVAILABLE


def restart(server: RedisServer) -> RedisServer:
    """The same redis-server again: same port, same folder, so the same AOF."""
    args = [
        redis_binary(),
        *("--port", str(server.port), "--bind", "127.0.0.1", "--dir", str(server.folder)),
        *("--appendonly", "yes", "--save", "", "--logfile", str(server.folder / "redis.log")),
    ]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    again = RedisServer(server.port, server.folder, process, owns_folder=False)
    client = again.client()
    deadline = time.monotonic() + scaled(30)
    while time.monotonic() < deadline:
        with contextlib.suppress(redis.ConnectionError):
            if client.ping():
                return again
        time.sleep(0.05)
    again.stop()
    raise TimeoutError("redis-server did not come back")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[list[RedisServer]]:
    """A private Redis only this test stops; the list holds the running one (after restarts too)."""
    (tmp_path / "redis").mkdir()
    servers = [start_redis(folder=tmp_path / "redis")]
    yield servers
    servers[-1].stop()


@pytest.fixture
def settings(own_redis: list[RedisServer]) -> Settings:
    return Settings.from_env({"REDIS_URL": own_redis[0].url})


@pytest.fixture
def race(settings: Settings, registered: None) -> Iterator[Served]:
    served = serve_game(load_game("race"), redis_client(settings))
    yield served
    served.channel.close()
    served.running.stop(0)


def sign_in(name: str) -> bytes:
    return bytes(lb.SignInGuestRequest(display_name=name).SerializeToString())


def stop(servers: list[RedisServer]) -> None:
    servers[-1].process.terminate()
    servers[-1].process.wait(10)


def retry_delay(err: grpc.RpcError) -> int:
    status = rpc_status.from_call(err)
    assert status is not None
    for detail in status.details:
        info = error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            return int(info.retry_delay.seconds)
    return 0


def unavailable(served: Served, method: str, request: Any, metadata: list[tuple[str, str]] | None) -> None:
    answer = refusal(lambda: served.call(method, request.SerializeToString(), metadata))
    assert (answer.code, answer.reason) == (DOWN, "store_unavailable"), (method, answer)
    with pytest.raises(grpc.RpcError) as caught:
        served.call(method, request.SerializeToString(), metadata)
    assert retry_delay(caught.value) >= 1


def test_a_redis_restart_is_unavailable_then_recovered(
    race: Served, own_redis: list[RedisServer], settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    pb2 = load_game("race").modules.pb2
    race.call(
        "CreateMatch", pb2.CreateMatchRequest(match_id="o1", seats=2, seed=9).SerializeToString(), SERVICE
    )
    me = seat("o1", 0)
    before = view(race, pb2, "o1", me).version
    lobby = build(settings, 0, SIGNER, env={"TABULA_RACE_ADDR": f"127.0.0.1:{race.running.port}"})
    lobby_served = Served(
        lobby.server,
        grpc.insecure_channel(f"127.0.0.1:{lobby.port}"),
        lb.DESCRIPTOR.services_by_name["LobbyService"],
    )
    try:
        guest = [("authorization", "Bearer " + lobby_served.call("SignInGuest", sign_in("Ada")).token)]
        stop(own_redis)
        caplog.clear()
        roll = pb2.Command(roll=pb2.Roll())
        submit = pb2.SubmitCommandRequest(
            match_id="o1", expected_version=before, command_id="x", command=roll
        )
        unavailable(race, "GetView", pb2.GetViewRequest(match_id="o1"), me)
        unavailable(race, "SubmitCommand", submit, me)
        unavailable(race, "CreateMatch", pb2.CreateMatchRequest(match_id="o2", seats=2), SERVICE)
        unavailable(race, "Replay", pb2.ReplayRequest(match_id="o1", version=1), me)
        unavailable(lobby_served, "SignInGuest", lb.SignInGuestRequest(display_name="Bo"), None)
        unavailable(lobby_served, "CreateRoom", lb.CreateRoomRequest(game="race", seats=2), guest)
        unavailable(lobby_served, "ListRooms", lb.ListRoomsRequest(game="race"), guest)
        sign_up = lb.SignUpRequest(email="bo@example.org", password="a fine password", display_name="Bo")
        unavailable(lobby_served, "SignUp", sign_up, None)
        unavailable(lobby_served, "SignIn", lb.SignInRequest(email="bo@example.org", password="x"), None)
        assert errors_logged(caplog) == []  # warnings only: no traceback for an outage

        own_redis.append(restart(own_redis[-1]))
        assert view(race, pb2, "o1", me).version == before  # the AOF kept the match
        done = race.call("SubmitCommand", submit.SerializeToString(), me)
        assert (done.first_version, done.duplicate) == (before + 1, False)
        assert lobby_served.call("SignInGuest", sign_in("Bo")).token
    finally:
        lobby_served.channel.close()
        lobby.stop(0)


def test_the_terminal_client_retries_through_a_restart_with_one_command_id(
    race: Served, own_redis: list[RedisServer]
) -> None:
    pb2 = load_game("race").modules.pb2
    race.call(
        "CreateMatch", pb2.CreateMatchRequest(match_id="o3", seats=2, seed=4).SerializeToString(), SERVICE
    )
    token = seat("o3", 0)[0][1].removeprefix("Bearer ")
    client = GameClient.connect(race.channel, "race", "o3", token, retries=8)
    version = client.get_view().version
    stop(own_redis)
    back = threading.Timer(1.0, lambda: own_redis.append(restart(own_redis[-1])))
    back.start()
    done = client.submit(pb2.Command(roll=pb2.Roll()), version, command_id="through-the-outage")
    back.join()
    assert (done.first_version, done.last_version) == (version + 1, version + 1)
    again = client.submit(pb2.Command(roll=pb2.Roll()), version, command_id="through-the-outage")
    assert again.duplicate and (again.first_version, again.last_version) == (version + 1, version + 1)
    assert client.get_view().version == version + 1
