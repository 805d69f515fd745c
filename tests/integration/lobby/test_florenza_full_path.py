"""The full path on Florenza: a guest and four bots start a five-seat Florenza room in the lobby, a real
Celery worker and reactor play the bots, the income, district and round-end steps and the final
scoring, the guest plays its seat through the rule service, and the lobby's history records the result
the event log folds to."""

from __future__ import annotations

import json
from collections.abc import Callable

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.grpc_server import RunningServer
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import LobbyFactory, appended_once, play_guest, sign_in, start_with_bots
from tests.integration.workers.conftest import Processes, wait_for

pytestmark = pytest.mark.timeout(600)
BOTS = (pb.BOT_LEVEL_RANDOM, pb.BOT_LEVEL_GREEDY, pb.BOT_LEVEL_MCTS, pb.BOT_LEVEL_RANDOM)


def test_a_guest_and_four_bots_play_a_five_seat_florenza_room_to_the_end(
    make_lobby: LobbyFactory,
    game_server: Callable[[str], RunningServer],
    redis_client: redis.Redis,
    workers: Processes,
) -> None:
    florenza, server = load_game("florenza"), game_server("florenza")
    lobby = make_lobby(florenza=server.port)
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada = sign_in(stub, "Ada")
    started = start_with_bots(stub, ada, "florenza", BOTS, visibility=pb.ROOM_VISIBILITY_PUBLIC)

    store = RedisEventStore(redis_client)
    meta = wait(store.get_meta(started.match_id))
    assert meta["game"] == "florenza" and meta["seats"] == "5"
    assert json.loads(meta["bots"]) == {"1": "random", "2": "greedy", "3": "mcts", "4": "random"}
    _, sent = play_guest("florenza", server.port, started.match_id, started.seat_token)
    assert sent > 10
    wait_for(
        lambda: wait(store.get_meta(started.match_id)).get("status") == "finished", 30, "the finished status"
    )
    events = appended_once(store, started.match_id)
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
    channel.close()
