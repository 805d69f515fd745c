"""A real lobby over gRPC and a private Redis, in front of the test race game's real rule service."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from services.lobby.domain.matchmaking import Policy
from services.lobby.server import Lobby, build
from shared.runtime.config import Settings
from shared.serving.errors import error_info
from shared.serving.grpc_server import RunningServer
from shared.serving.ratelimit import PREFIX, RATES, Limiter
from shared.serving.tokens import TokenSigner
from tests.support.game_server import serving
from tests.support.race.protos import race_game_modules

SIGNER = TokenSigner(b"lobby-test-secret-0123456789abcdef")
RACE = "tests.support.race.manifest:MANIFEST"


@pytest.fixture(scope="session")
def race_pb(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The race game's generated code, compiled once into a temporary folder."""
    return race_game_modules(tmp_path_factory.mktemp("lobby-race")).pb2


@pytest.fixture(autouse=True)
def race_registered(monkeypatch: pytest.MonkeyPatch, race_pb: Any) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", RACE)


@pytest.fixture
def race_server(race_pb: Any, redis_client: redis.Redis) -> Iterator[RunningServer]:
    with serving(load_game("race"), redis_client, SIGNER) as running:
        yield running


@pytest.fixture
def race_stub(race_server: RunningServer) -> Iterator[Any]:
    channel = grpc.insecure_channel(f"127.0.0.1:{race_server.port}")
    yield load_game("race").modules.pb2_grpc.RaceServiceStub(channel)
    channel.close()


@dataclass
class LobbyFactory:
    redis_url: str
    race_port: int
    started: list[Lobby]

    def __call__(
        self,
        policy: Policy | None = None,
        background: bool = True,
        push: Any = None,
        limits: bool = True,
        limiter: Limiter | None = None,
        **addrs: int,
    ) -> Lobby:
        """A lobby with the default abuse limits, or ``limiter``'s (``limits=False``: none: load tests)."""
        settings = Settings.from_env({"REDIS_URL": self.redis_url})
        env = {"TABULA_RACE_ADDR": f"127.0.0.1:{self.race_port}"}
        env |= {f"TABULA_{game.upper()}_ADDR": f"127.0.0.1:{port}" for game, port in addrs.items()}
        if not limits:
            limiter = unlimited(redis.Redis.from_url(self.redis_url))
        lobby = build(
            settings, 0, SIGNER, env=env, policy=policy, keepalive_ms=300, push=push, limiter=limiter
        )
        if background:
            lobby.start_background(0.1)
        self.started.append(lobby)
        return lobby


@pytest.fixture
def refused_port() -> Iterator[socket.socket]:
    """A loopback port bound and never listened on: a connection to it is refused (a rule service
    that is down), and no other process can take it until the test closes the socket to start a
    server there itself (a port freed for the whole outage could be taken meanwhile)."""
    held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    held.bind(("127.0.0.1", 0))
    yield held
    held.close()


def state_size(client: redis.Redis) -> int:
    """How many keys hold state: all but the rate limits' buckets (a refused request still counts
    against its caller's rate, and changes nothing else)."""
    return sum(1 for _ in client.scan_iter()) - sum(1 for _ in client.scan_iter(f"{PREFIX}:*"))


def unlimited(client: Any) -> Limiter:
    """A limiter with every rate and quota off."""
    return Limiter(client, {name: None for name in RATES}, {"watches_per_token": 0})


@pytest.fixture
def make_lobby(
    redis_url: str, redis_client: redis.Redis, race_server: RunningServer
) -> Iterator[LobbyFactory]:
    factory = LobbyFactory(redis_url, race_server.port, [])
    yield factory
    for lobby in factory.started:
        lobby.stop(0)


@pytest.fixture
def lobby(make_lobby: LobbyFactory) -> Lobby:
    return make_lobby()


@pytest.fixture
def stub(lobby: Lobby) -> Iterator[Any]:
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    yield lobby_pb2_grpc.LobbyServiceStub(channel)
    channel.close()


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


@dataclass(frozen=True)
class Guest:
    player_id: str
    token: str

    @property
    def md(self) -> list[tuple[str, str]]:
        return auth(self.token)


def sign_in(stub: Any, name: str) -> Guest:
    reply = stub.SignInGuest(pb.SignInGuestRequest(display_name=name), timeout=5)
    return Guest(reply.player_id, reply.token)


def fails(call: Callable[[], Any], code: grpc.StatusCode, reason: str | None = None) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == code, err.value.details()
    if reason is not None:
        info = error_info(err.value)
        assert info is not None and info.reason == reason, info
    return err.value


def service_token() -> list[tuple[str, str]]:
    return auth(SIGNER.service("race", caller="test"))
