"""Rule services (the race test game and Lorenzo) and a lobby over real gRPC on the private Redis,
with what the input tests need: raw calls (any bytes), the status details of a refusal, and a dump
of everything in Redis to prove that a refused call changed nothing.

Servers are started once per module; each test dumps Redis before and after its calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
import redis
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.rpc import error_details_pb2
from tabula.lobby.v1 import lobby_pb2

from services.games import LoadedGame, load_game
from services.lobby.adapters import keys as lobby_keys
from services.lobby.server import Lobby, build
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.runtime.config import Settings
from shared.serving.errors import bad_request, error_info
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.ratelimit import PREFIX
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisClient, RedisEventStore
from tests.support.race.protos import race_game_modules

LIMIT_KEYS = PREFIX.encode() + b":"
# Presence: every call renews its caller's, refused or not (services/lobby/service_layer/friends.py).
PRESENCE_KEYS = (lobby_keys.online().encode(), lobby_keys.presence("").encode())
SIGNER = TokenSigner(b"hardening-test-secret-0123456789")
RACE = "tests.support.race.manifest:MANIFEST"


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def service(game: str = "race") -> list[tuple[str, str]]:
    return auth(SIGNER.service(game))


SERVICE = service()  # the race rule service's


def seat(match_id: str, n: int, game: str = "race") -> list[tuple[str, str]]:
    return auth(SIGNER.seat(game, match_id, n, f"p{n}"))


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The race game registered (and its generated code compiled) for this module's tests."""
    race_game_modules(tmp_path_factory.mktemp("hardening-race"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TABULA_EXTRA_GAMES", RACE)
        yield


@pytest.fixture(scope="module")
def redis_db(redis_url: str) -> Iterator[redis.Redis]:
    """The session's private Redis, emptied once for the module (servers keep their caches)."""
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    yield client
    client.close()


def dump(client: redis.Redis) -> dict[Any, Any]:
    """Every key of the (small, private) Redis with its whole content, but the rate limits' buckets
    (a refused request still counts against its caller's rate: that is the point of the limit) and
    the callers' presence (any call renews it)."""
    out: dict[Any, Any] = {}
    keys: list[Any] = client.keys("*")
    for key in sorted(k for k in keys if not bytes(k).startswith((LIMIT_KEYS, *PRESENCE_KEYS))):
        kind = client.type(key)
        if kind == b"stream":
            out[key] = client.xrange(key)
        elif kind == b"hash":
            out[key] = client.hgetall(key)
        elif kind == b"zset":
            out[key] = client.zrange(key, 0, -1, withscores=True)
        elif kind == b"set":
            out[key] = sorted(client.smembers(key))
        elif kind == b"list":
            out[key] = client.lrange(key, 0, -1)
        else:
            out[key] = client.get(key)
    return out


@dataclass
class Served:
    """A running gRPC service and a channel to it; ``call`` sends any bytes to any method."""

    running: RunningServer
    channel: grpc.Channel
    service: ServiceDescriptor

    @property
    def game(self) -> str:
        """``race`` for tabula.race.v1.RaceService: the audience of its tokens."""
        return self.service.full_name.split(".")[1]

    def method(self, name: str) -> MethodDescriptor:
        return self.service.methods_by_name[name]

    def request_type(self, name: str) -> Any:
        return message_factory.GetMessageClass(self.method(name).input_type)

    def call(
        self, name: str, raw: bytes, metadata: list[tuple[str, str]] | None = None, timeout: float = 5
    ) -> Any:
        """One call with raw request bytes; a stream answers its first item (then is cancelled)."""
        method = self.method(name)
        path = f"/{self.service.full_name}/{name}"
        parse = message_factory.GetMessageClass(method.output_type).FromString
        if method.server_streaming:
            stream = self.channel.unary_stream(path, response_deserializer=parse)(
                raw, metadata=metadata, timeout=timeout
            )
            try:
                return next(stream)
            finally:
                stream.cancel()
        return self.channel.unary_unary(path, response_deserializer=parse)(
            raw, metadata=metadata, timeout=timeout
        )


def serve_game(game: LoadedGame, client: RedisClient) -> Served:
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(client))
    running = start_server([GameServicer(runner, game.modules, SIGNER, keepalive_s=0.2).registration()])
    service = game.modules.pb2.DESCRIPTOR.services_by_name[f"{game.modules.name}Service"]
    return Served(running, grpc.insecure_channel(f"127.0.0.1:{running.port}"), service)


@pytest.fixture(scope="module")
def race(registered: None, redis_db: redis.Redis) -> Iterator[Served]:
    served = serve_game(load_game("race"), redis_db)
    yield served
    served.channel.close()
    served.running.stop(0)


@pytest.fixture(scope="module")
def lorenzo(redis_db: redis.Redis) -> Iterator[Served]:
    served = serve_game(load_game("lorenzo"), redis_db)
    yield served
    served.channel.close()
    served.running.stop(0)


def serve_lobby(redis_url: str, games: dict[str, int]) -> tuple[Served, Callable[[], None]]:
    """A lobby without its background threads (nothing writes to Redis but the calls), reaching the
    rule service of each game of ``games`` on its port; and how to stop it."""
    settings = Settings.from_env({"REDIS_URL": redis_url})
    env = {f"TABULA_{game.upper()}_ADDR": f"127.0.0.1:{port}" for game, port in games.items()}
    started: Lobby = build(settings, 0, SIGNER, env=env, keepalive_ms=200)
    served = Served(
        started.server,
        grpc.insecure_channel(f"127.0.0.1:{started.port}"),
        lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"],
    )

    def stop() -> None:
        served.channel.close()
        started.stop(0)

    return served, stop


@pytest.fixture(scope="module")
def lobby(registered: None, redis_url: str, redis_db: redis.Redis, race: Served) -> Iterator[Served]:
    """A lobby reaching the race rule service."""
    served, stop = serve_lobby(redis_url, {"race": race.running.port})
    yield served
    stop()


@dataclass(frozen=True)
class Refusal:
    code: grpc.StatusCode
    details: str
    reason: str
    fields: tuple[str, ...]  # the BadRequest field paths


def refusal(call: Callable[[], Any]) -> Refusal:
    """The status of a call that must fail."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    err = caught.value
    info = error_info(err)
    request = bad_request(err) or error_details_pb2.BadRequest()
    return Refusal(
        err.code(),
        err.details() or "",
        info.reason if info is not None else "",
        tuple(v.field for v in request.field_violations),
    )


def play(served: Served, pb2: Any, match_id: str, steps: int, seed: int = 1) -> int:
    """``steps`` legal commands by whoever is to act; the version after them."""
    rng, system = Rng(seed), service(served.game)
    for n in range(steps):
        head = view(served, pb2, match_id, system)
        who = (
            system if head.system_to_act else seat(match_id, rng.choice(list(head.seats_to_act)), served.game)
        )
        mine = view(served, pb2, match_id, who)
        request = pb2.SubmitCommandRequest(
            match_id=match_id,
            expected_version=mine.version,
            command_id=f"setup-{match_id}-{n}",
            command=rng.choice(list(mine.legal_commands)),
        )
        served.call("SubmitCommand", request.SerializeToString(), who)
    return int(view(served, pb2, match_id, system).version)


def view(served: Served, pb2: Any, match_id: str, metadata: list[tuple[str, str]]) -> Any:
    return served.call("GetView", pb2.GetViewRequest(match_id=match_id).SerializeToString(), metadata)


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Log lines at ERROR or above (a client's mistake must log none, and no traceback)."""
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= 40 or r.exc_info]
