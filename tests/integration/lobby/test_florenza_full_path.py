"""The full path on Florenza: a guest and four bots start a five-seat Florenza room in the lobby, a real
Celery worker and reactor play the bots, the income, district and round-end steps and the final
scoring, the guest plays its seat through the rule service, and the lobby's history records the result
the event log folds to."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import LoadedGame, load_game
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.grpc_server import RunningServer
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import SIGNER, LobbyFactory, auth, sign_in
from tests.integration.workers.conftest import Processes, command_ids, wait_for
from tests.support.game_server import serving

pytestmark = pytest.mark.timeout(600)
ROOT = Path(__file__).resolve().parents[3]
BOTS = (pb.BOT_LEVEL_RANDOM, pb.BOT_LEVEL_GREEDY, pb.BOT_LEVEL_MCTS, pb.BOT_LEVEL_RANDOM)


@pytest.fixture
def florenza() -> LoadedGame:
    return load_game("florenza")


@pytest.fixture
def florenza_server(florenza: LoadedGame, redis_client: redis.Redis) -> Iterator[RunningServer]:
    with serving(florenza, redis_client, SIGNER) as running:
        yield running


@pytest.fixture
def workers(redis_url: str, tmp_path: Path) -> Iterator[Processes]:
    env = {
        **{k: v for k, v in os.environ.items() if k != "TABULA_EXTRA_GAMES"},
        "REDIS_URL": redis_url,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
        "TABULA_WORKER_POOL": "solo",
        "TABULA_METRICS_PORT": "-1",
        "TABULA_MCTS_SECONDS": "0.05",
        "TABULA_MCTS_ITERATIONS": "10",
    }
    running = Processes(env, tmp_path)
    yield running
    running.stop_all()


def _play_seat(stub: Any, pb2: Any, match_id: str, token: str, seat: int) -> int:
    """The guest's seat, always the first legal command, until the match has an outcome."""
    sent, deadline = 0, time.monotonic() + 500
    while time.monotonic() < deadline:
        view = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=auth(token), timeout=10)
        if view.HasField("outcome"):
            return sent
        if seat not in view.seats_to_act or not view.legal_commands:
            time.sleep(0.05)
            continue
        request = pb2.SubmitCommandRequest(
            match_id=match_id,
            expected_version=view.version,
            command_id=f"guest-{view.version}",
            command=view.legal_commands[0],
        )
        try:
            stub.SubmitCommand(request, metadata=auth(token), timeout=10)
            sent += 1
        except grpc.RpcError as err:  # a bot or the system moved first: look again
            assert err.code() == grpc.StatusCode.ABORTED, err.details()
    raise AssertionError(f"the match did not end ({sent} commands sent)")


def test_a_guest_and_four_bots_play_a_five_seat_florenza_room_to_the_end(
    make_lobby: LobbyFactory,
    florenza: LoadedGame,
    florenza_server: RunningServer,
    redis_client: redis.Redis,
    workers: Processes,
) -> None:
    lobby = make_lobby(florenza=florenza_server.port)
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada = sign_in(stub, "Ada")
    request = pb.CreateRoomRequest(game="florenza", seats=5, visibility=pb.ROOM_VISIBILITY_PUBLIC)
    room = stub.CreateRoom(request, metadata=ada.md, timeout=5).room
    for level in BOTS:
        stub.AddBot(pb.AddBotRequest(room_id=room.room_id, level=level), metadata=ada.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=30)

    store = RedisEventStore(redis_client)
    meta = wait(store.get_meta(started.match_id))
    assert meta["game"] == "florenza" and meta["seats"] == "5"
    assert json.loads(meta["bots"]) == {"1": "random", "2": "greedy", "3": "mcts", "4": "random"}
    workers.start("worker")
    workers.start("reactor")
    game_channel = grpc.insecure_channel(f"127.0.0.1:{florenza_server.port}")
    game_stub: Any = florenza.modules.pb2_grpc.FlorenzaServiceStub(game_channel)
    sent = _play_seat(game_stub, florenza.modules.pb2, started.match_id, started.seat_token, started.seat)

    assert sent > 10
    wait_for(
        lambda: wait(store.get_meta(started.match_id)).get("status") == "finished", 30, "the finished status"
    )
    events = wait(store.read(started.match_id))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    ids = command_ids(store, started.match_id)
    assert len(ids) == len(set(ids))  # every command applied once
    actors = {e.actor for e in events}
    assert {"bot:1:random", "bot:2:greedy", "bot:3:mcts", "bot:4:random", "system"} <= actors
    state = wait(MatchRunner(florenza.rules, florenza.codec, store).load(started.match_id)).state
    outcome = florenza.rules.outcome(state)
    assert outcome is not None and state.round == 8 and len(outcome.scores) == 5
    history = wait_for(
        lambda: stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=ada.md, timeout=5).entries,
        30,
        "the lobby's match history",
    )
    (entry,) = [h for h in history if h.match_id == started.match_id]
    assert (entry.game, entry.seats, entry.seat) == ("florenza", 5, started.seat)
    assert list(entry.placings) == list(outcome.placings) and entry.placing == outcome.placings[started.seat]
    game_channel.close()
    channel.close()


def test_the_lobby_lists_florenza_with_two_to_five_seats_and_its_hidden_certificates_option(
    make_lobby: LobbyFactory,
) -> None:
    lobby = make_lobby()
    with grpc.insecure_channel(f"127.0.0.1:{lobby.port}") as channel:
        reply = lobby_pb2_grpc.LobbyServiceStub(channel).ListGames(pb.ListGamesRequest(), timeout=5)
    (game,) = [g for g in reply.games if g.name == "florenza"]
    assert (game.title, game.min_seats, game.max_seats) == ("Florenza", 2, 5)
    (option,) = game.options
    assert (option.name, option.type, option.default_value) == (
        "hidden_certificates",
        pb.GAME_OPTION_TYPE_BOOL,
        "true",
    )
    assert "certificates" in option.description
