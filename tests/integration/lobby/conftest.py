"""A real lobby over gRPC and a private Redis, in front of the test race game's real rule service (and
of the real games' for the full-path tests, with a real worker and reactor playing their bots)."""

from __future__ import annotations

import fnmatch
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.domain.matchmaking import Policy
from services.lobby.server import Lobby, build
from shared.runtime.config import Settings
from shared.runtime.edge import wait
from shared.serving.errors import error_info
from shared.serving.grpc_server import RunningServer
from shared.serving.ratelimit import PREFIX, RATES, Limiter
from shared.serving.tokens import TokenSigner
from shared.store import EventStore, StoredEvent
from tests.integration.workers.conftest import Processes, command_ids
from tests.support.game_server import service_stub, serving
from tests.support.race.protos import race_game_modules

ROOT = Path(__file__).resolve().parents[3]
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


@pytest.fixture
def game_server(redis_client: redis.Redis) -> Iterator[Callable[[str], RunningServer]]:
    """Starts a real game's rule service on the test's Redis, by name (all stopped after the test)."""
    with ExitStack() as started:
        yield lambda name: started.enter_context(serving(load_game(name), redis_client, SIGNER))


@pytest.fixture
def workers(redis_url: str, tmp_path: Path) -> Iterator[Processes]:
    """A worker and a reactor for the real games on the test's Redis; bots search briefly (the result
    is what is checked)."""
    env = {k: v for k, v in os.environ.items() if k != "TABULA_EXTRA_GAMES"}
    env |= {
        "REDIS_URL": redis_url,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
        "TABULA_WORKER_POOL": "solo",
        "TABULA_REACTOR_BLOCK_MS": "100",
        "TABULA_METRICS_PORT": "-1",
        "TABULA_MCTS_SECONDS": "0.05",
        "TABULA_MCTS_ITERATIONS": "10",
    }
    running = Processes(env, tmp_path)
    running.start("worker")
    running.start("reactor")
    yield running
    running.stop_all()


def start_with_bots(stub: Any, guest: Guest, game: str, bots: Sequence[int], **room: Any) -> Any:
    """A room of ``game`` created by ``guest`` (seat 0) with a bot of each level of ``bots`` in the other
    seats, started: the ``StartRoom`` reply."""
    request = pb.CreateRoomRequest(game=game, seats=1 + len(bots), **room)
    room_id = stub.CreateRoom(request, metadata=guest.md, timeout=5).room.room_id
    for level in bots:
        stub.AddBot(pb.AddBotRequest(room_id=room_id, level=level), metadata=guest.md, timeout=5)
    return stub.StartRoom(pb.StartRoomRequest(room_id=room_id), metadata=guest.md, timeout=30)


def appended_once(store: EventStore, match_id: str) -> list[StoredEvent]:
    """The match's stored events, after checking they are numbered from 1 and each command appended once."""
    events = wait(store.read(match_id))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    ids = command_ids(store, match_id)
    assert len(ids) == len(set(ids)), "every command appended once"
    return events


def play_guest(game: str, port: int, match_id: str, token: str, seconds: float = 500) -> tuple[Any, int]:
    """A guest's seat of a real game's match, always its first legal command, while bots and the system
    play the rest: the view with the outcome, and how many commands the guest sent."""
    pb2, sent, deadline = load_game(game).modules.pb2, 0, time.monotonic() + seconds
    with service_stub(load_game(game), port) as stub:
        while time.monotonic() < deadline:
            view = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=auth(token), timeout=10)
            if view.HasField("outcome"):
                return view, sent
            sent += _first_legal(stub, pb2, view, match_id, token)
    raise AssertionError(f"the match did not end ({sent} commands sent)")


def _first_legal(stub: Any, pb2: Any, view: Any, match_id: str, token: str) -> int:
    """1 when the view's first legal command was taken; 0 when there is none yet or another actor
    moved first."""
    if not view.legal_commands:
        time.sleep(0.05)
        return 0
    request = pb2.SubmitCommandRequest(
        match_id=match_id,
        expected_version=view.version,
        command_id=f"guest-{view.version}",
        command=view.legal_commands[0],
    )
    try:
        stub.SubmitCommand(request, metadata=auth(token), timeout=10)
        return 1
    except grpc.RpcError as err:  # a bot or the system moved first: look again
        assert err.code() == grpc.StatusCode.ABORTED, err.details()
        return 0


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
        env: dict[str, str] | None = None,
        **addrs: int,
    ) -> Lobby:
        """A lobby with the default abuse limits, or ``limiter``'s (``limits=False``: none: load tests);
        ``env``: more of its environment (``TABULA_MAIL_DIR``, ``TABULA_LIMIT_PASSWORD_TRIES_*`` ...)."""
        settings = Settings.from_env({"REDIS_URL": self.redis_url})
        env = {"TABULA_RACE_ADDR": f"127.0.0.1:{self.race_port}", **(env or {})}
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
    against its caller's rate, and changes nothing else), the callers' presence (any call renews it)
    and the matcher's per-game lock (taken and released by every matching pass)."""
    kept = (f"{PREFIX}:*", keys.online(), keys.presence("*"), keys.queue_lock("*"))
    # one scan: a bucket expiring between two scans would be counted by one and not the other
    names = (raw.decode() for raw in client.scan_iter())
    return sum(1 for name in names if not any(fnmatch.fnmatchcase(name, p) for p in kept))


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
