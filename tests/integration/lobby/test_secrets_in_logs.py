"""No secret and no whole token ever reaches a log line: a full flow captured at DEBUG, refusals included."""

from __future__ import annotations

import logging
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb

from services.games import load_game
from shared.runtime.observability import JsonFormatter
from shared.serving.ratelimit import RATES, Limiter, Rate
from tests.integration.lobby.conftest import SIGNER, LobbyFactory, auth, sign_in
from tests.integration.lobby.test_limits import stub_of

SECRET = SIGNER.keys.current.secret.decode()


def test_a_full_flow_logs_neither_the_secret_nor_a_token(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    rates = {name: Rate.parse(text) for name, text in RATES.items()} | {"join_player": Rate(1, 600)}
    stub = stub_of(make_lobby(limiter=Limiter(redis_client, rates)))
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    tokens = [ada.token, bob.token]
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    with pytest.raises(grpc.RpcError):  # rate limited
        stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    stub.AddBot(pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM), metadata=ada.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10)
    spectator = stub.GetSpectatorToken(
        pb.GetSpectatorTokenRequest(match_id=started.match_id), metadata=bob.md, timeout=5
    ).token
    tokens += [started.seat_token, spectator]
    pb2 = load_game("race").modules.pb2
    view = race_stub.GetView(pb2.GetViewRequest(match_id=started.match_id), metadata=auth(started.seat_token))
    if view.legal_commands:
        request = pb2.SubmitCommandRequest(
            match_id=started.match_id,
            expected_version=view.version,
            command_id="c1",
            command=view.legal_commands[0],
        )
        race_stub.SubmitCommand(request, metadata=auth(started.seat_token), timeout=5)
    stream = race_stub.WatchMatch(
        pb2.WatchMatchRequest(match_id=started.match_id, from_version=1), metadata=auth(spectator), timeout=5
    )
    next(iter(stream))
    stream.cancel()
    for bad in (ada.token + "x", spectator):  # a forged token, a token for another service
        with pytest.raises(grpc.RpcError):
            stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=auth(bad), timeout=5)
    with pytest.raises(grpc.RpcError):
        race_stub.GetView(pb2.GetViewRequest(match_id=started.match_id), metadata=ada.md, timeout=5)
    lines = [JsonFormatter().format(record) for record in caplog.records]
    assert lines, "the flow logged nothing: the check would prove nothing"
    text = "\n".join(lines)
    assert SECRET not in text
    for token in tokens:
        assert token not in text and token.split(".")[2] not in text  # not even its signature
