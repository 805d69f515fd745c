"""The full path on Trajan: a guest and three bots in a 4-seat room, started by the lobby, played to the
end with a real Celery worker and reactor (bot turns, round and quarter ends, final scoring) while the
guest answers its own turns through the rule service; the lobby's history then holds the result."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import LoadedGame, load_game
from shared.runtime.edge import wait
from shared.serving.grpc_server import RunningServer
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import SIGNER, LobbyFactory, auth, sign_in
from tests.integration.workers.conftest import Processes, command_ids, wait_for
from tests.support.game_server import serving

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.timeout(600)


@pytest.fixture
def trajan() -> LoadedGame:
    return load_game("trajan")


@pytest.fixture
def trajan_server(trajan: LoadedGame, redis_client: redis.Redis) -> Iterator[RunningServer]:
    with serving(trajan, redis_client, SIGNER) as running:
        yield running


@pytest.fixture
def workers(redis_url: str, tmp_path: Path) -> Iterator[Processes]:
    """A worker and a reactor on the test's Redis; bots search briefly (the result is what is checked)."""
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


def test_a_guest_and_three_bots_play_a_four_seat_trajan_room_to_the_end(
    make_lobby: LobbyFactory,
    trajan: LoadedGame,
    trajan_server: RunningServer,
    redis_client: redis.Redis,
    workers: Processes,
) -> None:
    lobby = make_lobby(trajan=trajan_server.port)
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada = sign_in(stub, "Ada")
    room = stub.CreateRoom(pb.CreateRoomRequest(game="trajan", seats=4), metadata=ada.md, timeout=5).room
    for level in (pb.BOT_LEVEL_RANDOM, pb.BOT_LEVEL_GREEDY, pb.BOT_LEVEL_MCTS):
        stub.AddBot(pb.AddBotRequest(room_id=room.room_id, level=level), metadata=ada.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=30)
    store = RedisEventStore(redis_client)
    meta = wait(store.get_meta(started.match_id))
    assert meta["game"] == "trajan" and meta["seats"] == "4"
    assert json.loads(meta["bots"]) == {"1": "random", "2": "greedy", "3": "mcts"}

    pb2 = trajan.modules.pb2
    game = trajan.modules.pb2_grpc.TrajanServiceStub(grpc.insecure_channel(f"127.0.0.1:{trajan_server.port}"))
    seat = auth(started.seat_token)
    request = pb2.GetViewRequest(match_id=started.match_id)
    answered = 0

    def finished_or_my_turn() -> Any:
        """Ada's turns are answered here (her first legal command); the workers do everything else."""
        nonlocal answered
        view = game.GetView(request, metadata=seat, timeout=10)
        if view.HasField("outcome"):
            return view
        if view.legal_commands:
            submit = pb2.SubmitCommandRequest(
                match_id=started.match_id,
                expected_version=view.version,
                command_id=f"ada-{view.version}",
                command=view.legal_commands[0],
            )
            try:
                game.SubmitCommand(submit, metadata=seat, timeout=10)
                answered += 1
            except grpc.RpcError as err:  # a worker appended first: look again
                assert err.code() == grpc.StatusCode.ABORTED, err.details()
        return None

    final = wait_for(finished_or_my_turn, 540, "the Trajan match to finish")
    assert answered > 20, "Ada played her own turns"
    assert sorted(final.outcome.placings) == [1, 2, 3, 4]
    events = wait(store.read(started.match_id))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    ids = command_ids(store, started.match_id)
    assert len(ids) == len(set(ids)), "every command appended once"
    actors = {e.actor for e in events}
    assert {"bot:1:random", "bot:2:greedy", "bot:3:mcts", "system", "seat:0"} <= actors
    types = {e.type for e in events}
    assert {"RoundEnded", "QuarterEnded", "SenateScored", "FinalScored", "GameEnded"} <= types
    state = trajan.rules.initial_state()
    for e in events:
        state = trajan.rules.evolve(state, trajan.codec.decode(e.type, e.payload, e.schema_version))
    assert state.round == 16 and trajan.rules.outcome(state).placings == tuple(final.outcome.placings)
    assert [f.total for f in final.view.final] == list(final.outcome.scores)

    history = wait_for(
        lambda: stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=ada.md, timeout=5).entries,
        30,
        "the lobby's history to record the match",
    )
    (entry,) = [h for h in history if h.match_id == started.match_id]
    assert (entry.game, entry.seat, entry.seats) == ("trajan", 0, 4)
    assert list(entry.placings) == list(final.outcome.placings)
    channel.close()


def test_the_lobby_lists_trajan_for_two_to_four_seats_without_options(make_lobby: LobbyFactory) -> None:
    lobby = make_lobby()
    with grpc.insecure_channel(f"127.0.0.1:{lobby.port}") as channel:
        reply = lobby_pb2_grpc.LobbyServiceStub(channel).ListGames(pb.ListGamesRequest(), timeout=5)
    (game,) = [g for g in reply.games if g.name == "trajan"]
    assert (game.title, game.min_seats, game.max_seats, list(game.options)) == ("Trajan", 2, 4, [])
    assert "Trajan tiles" in game.description
