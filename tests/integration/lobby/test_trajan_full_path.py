"""The full path on Trajan: a guest and three bots in a 4-seat room, started by the lobby, played to the
end with a real Celery worker and reactor (bot turns, round and quarter ends, final scoring) while the
guest answers its own turns through the rule service; the lobby's history then holds the result."""

from __future__ import annotations

import json
from collections.abc import Callable

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from shared.runtime.edge import wait
from shared.serving.grpc_server import RunningServer
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import LobbyFactory, appended_once, play_guest, sign_in, start_with_bots
from tests.integration.workers.conftest import Processes, wait_for

pytestmark = pytest.mark.timeout(600)


def test_a_guest_and_three_bots_play_a_four_seat_trajan_room_to_the_end(
    make_lobby: LobbyFactory,
    game_server: Callable[[str], RunningServer],
    redis_client: redis.Redis,
    workers: Processes,
) -> None:
    trajan, server = load_game("trajan"), game_server("trajan")
    lobby = make_lobby(trajan=server.port)
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada = sign_in(stub, "Ada")
    started = start_with_bots(
        stub, ada, "trajan", (pb.BOT_LEVEL_RANDOM, pb.BOT_LEVEL_GREEDY, pb.BOT_LEVEL_MCTS)
    )
    store = RedisEventStore(redis_client)
    meta = wait(store.get_meta(started.match_id))
    assert meta["game"] == "trajan" and meta["seats"] == "4"
    assert json.loads(meta["bots"]) == {"1": "random", "2": "greedy", "3": "mcts"}

    final, answered = play_guest("trajan", server.port, started.match_id, started.seat_token, 540)
    assert answered > 20, "Ada played her own turns"
    assert sorted(final.outcome.placings) == [1, 2, 3, 4]
    events = appended_once(store, started.match_id)
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
