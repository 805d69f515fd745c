"""The full path on the real game: two guests and two bots start a Lorenzo match from a room."""

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
from tests.integration.lobby.conftest import LobbyFactory, auth, sign_in
from tests.support.game_server import service_stub


def test_two_guests_and_two_bots_start_a_lorenzo_match(
    make_lobby: LobbyFactory, game_server: Callable[[str], RunningServer], redis_client: redis.Redis
) -> None:
    lorenzo, server = load_game("lorenzo"), game_server("lorenzo")
    lobby = make_lobby(lorenzo=server.port)
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    request = pb.CreateRoomRequest(game="lorenzo", seats=4, options={"advanced": "true"}, turn_seconds=120)
    room = stub.CreateRoom(request, metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    for level in (pb.BOT_LEVEL_GREEDY, pb.BOT_LEVEL_MCTS):
        stub.AddBot(pb.AddBotRequest(room_id=room.room_id, level=level), metadata=ada.md, timeout=5)
    stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=bob.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=30)

    meta = wait(RedisEventStore(redis_client).get_meta(started.match_id))
    assert meta["game"] == "lorenzo" and meta["seats"] == "4" and meta["turn_seconds"] == "120"
    assert json.loads(meta["bots"]) == {"2": "greedy", "3": "mcts"}
    assert json.loads(meta["players"]) == [ada.player_id, bob.player_id, "", ""]
    assert json.loads(meta["options"]) == {"advanced": "true"}
    bob_token = stub.GetRoom(pb.GetRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5).seat_token
    with service_stub(lorenzo, server.port) as game_stub:
        for token in (started.seat_token, bob_token):
            view = game_stub.GetView(
                lorenzo.modules.pb2.GetViewRequest(match_id=started.match_id),
                metadata=auth(token),
                timeout=10,
            )
            assert view.version >= 1
    fails_bad_option = pb.CreateRoomRequest(game="lorenzo", seats=2, options={"advanced": "maybe"})
    with pytest.raises(grpc.RpcError) as err:
        stub.CreateRoom(fails_bad_option, metadata=bob.md, timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "option advanced: expected true or false" in (err.value.details() or "")
    channel.close()
