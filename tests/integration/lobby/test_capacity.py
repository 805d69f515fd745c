"""The lobby's blocking streams (WatchRoom, WatchQueue, WatchMyNotices: a thread each) under their
cap: the stream past ``max_blocking_streams`` is refused with RESOURCE_EXHAUSTED (reason
``over_capacity``) while the open ones and the unary calls go on, and a closed stream's place is
given back."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.lobby.server import Lobby, build
from shared.runtime.config import Settings
from shared.serving.errors import error_info
from shared.serving.grpc_server import Limits, RunningServer
from tests.integration.lobby.conftest import SIGNER, sign_in, unlimited
from tests.support.timing import scaled, wait_until


@pytest.fixture
def capped(redis_url: str, race_server: RunningServer) -> Iterator[Lobby]:
    settings = Settings.from_env({"REDIS_URL": redis_url})
    env = {"TABULA_RACE_ADDR": f"127.0.0.1:{race_server.port}"}
    lobby = build(
        settings,
        0,
        SIGNER,
        env=env,
        keepalive_ms=300,
        limiter=unlimited(redis.Redis.from_url(redis_url)),
        limits=Limits(blocking_streams=2),
    )
    yield lobby
    lobby.stop(0)


def test_streams_past_the_blocking_cap_are_refused_and_their_places_given_back(capped: Lobby) -> None:
    channel = grpc.insecure_channel(f"127.0.0.1:{capped.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    try:
        ada = sign_in(stub, "Ada")
        streams = [
            stub.WatchMyNotices(pb.WatchMyNoticesRequest(), metadata=ada.md, timeout=scaled(60))
            for _ in range(2)
        ]
        for stream in streams:
            assert next(stream).HasField("keepalive")
        with pytest.raises(grpc.RpcError) as err:
            next(stub.WatchMyNotices(pb.WatchMyNoticesRequest(), metadata=ada.md, timeout=scaled(10)))
        assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        info = error_info(err.value)
        assert info is not None and info.reason == "over_capacity"
        assert info.metadata["limit"] == "max_blocking_streams"
        assert sign_in(stub, "Bob").player_id  # unary calls go on
        assert next(streams[1]).HasField("keepalive")  # so do the open streams
        streams[0].cancel()

        def reopened() -> bool:
            again = stub.WatchMyNotices(pb.WatchMyNoticesRequest(), metadata=ada.md, timeout=scaled(10))
            try:
                return bool(next(again).HasField("keepalive"))
            except grpc.RpcError as refused:
                assert refused.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                return False
            finally:
                again.cancel()

        wait_until(reopened, 10, "the cancelled stream's place given back")
        streams[1].cancel()
    finally:
        channel.close()


@pytest.mark.parametrize(
    ("env", "linger_ms", "ratings_linger_ms"),
    [
        ({}, 100, 500),
        ({"TABULA_LOBBY_LINGER_MS": "0"}, 0, 500),
        ({"TABULA_LOBBY_LINGER_MS": "0", "TABULA_LOBBY_RATINGS_LINGER_MS": "0"}, 0, 0),
    ],
)
def test_the_projectors_linger_after_a_busy_read_as_configured(
    redis_url: str, env: dict[str, str], linger_ms: int, ratings_linger_ms: int
) -> None:
    lobby = build(
        Settings.from_env({"REDIS_URL": redis_url}),
        0,
        SIGNER,
        env=env,
        limiter=unlimited(redis.Redis.from_url(redis_url)),
    )
    try:
        assert lobby.projector.follower.settings.linger_ms == ratings_linger_ms
        assert lobby.notices.follower.settings.linger_ms == linger_ms
    finally:
        lobby.stop(0)
