"""ListMyMatches over real gRPC and a private Redis: where the caller waits (room or ticket), their
matches newest first (private ones too, never other players'), each with a fresh seat token that
the game service accepts, whose turn it is, the seats' names, and the notice head to watch from."""

from __future__ import annotations

from typing import Any

import grpc
from tabula.lobby.v1 import lobby_pb2 as pb

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.adapters.match_index import PlayerMatches
from tests.integration.lobby.conftest import Guest, auth, fails, sign_in
from tests.support.timing import wait_until


def mine(stub: Any, who: Guest, limit: int = 0, game: str = "") -> Any:
    return stub.ListMyMatches(pb.ListMyMatchesRequest(game=game, limit=limit), metadata=who.md, timeout=5)


def start_with_bots(stub: Any, host: Guest, private: bool = False) -> str:
    vis = pb.ROOM_VISIBILITY_PRIVATE if private else pb.ROOM_VISIBILITY_PUBLIC
    request = pb.CreateRoomRequest(game="race", seats=2, visibility=vis)
    room = stub.CreateRoom(request, metadata=host.md, timeout=5)
    bot = pb.AddBotRequest(room_id=room.room.room_id, level=pb.BOT_LEVEL_GREEDY)
    stub.AddBot(bot, metadata=host.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room.room_id), metadata=host.md, timeout=5)
    return str(started.match_id)


def test_the_room_the_caller_sits_in_is_there_until_it_starts(stub: Any) -> None:
    ada = sign_in(stub, "Ada")
    assert not mine(stub, ada).HasField("room") and list(mine(stub, ada).matches) == []
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
    found = mine(stub, ada)
    assert found.room.room.room_id == room.room_id and found.room.seat_token == ""
    assert not found.HasField("ticket")
    bot = pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM)
    stub.AddBot(bot, metadata=ada.md, timeout=5)
    match_id = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5).match_id
    found = mine(stub, ada)
    assert not found.HasField("room") and [m.match_id for m in found.matches] == [match_id]


def test_a_waiting_ticket_is_there(stub: Any) -> None:
    ada = sign_in(stub, "Ada")
    ticket = stub.Enqueue(pb.EnqueueRequest(game="race"), metadata=ada.md, timeout=5).ticket_id
    found = mine(stub, ada)
    assert found.ticket.ticket_id == ticket and found.ticket.status == pb.TICKET_STATUS_WAITING
    assert not found.HasField("room")


def test_matches_come_newest_first_with_seat_tokens_names_and_turns(stub: Any, race_stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    first = start_with_bots(stub, ada)
    second = start_with_bots(stub, ada, private=True)
    start_with_bots(stub, bob)
    found = mine(stub, ada)
    assert [m.match_id for m in found.matches] == [second, first]  # private too; never Bob's
    latest = found.matches[0]
    assert (latest.game, latest.seat, latest.finished, latest.my_turn) == ("race", 0, False, True)
    assert list(latest.seats_to_act) == [0] and latest.version > 0 and latest.created_at_ms > 0
    assert [(s.seat, s.display_name, s.bot_level, s.label) for s in latest.seats] == [
        (0, "Ada", "", "Ada"),
        (1, "", "greedy", "greedy bot"),
    ]
    pb2 = load_game("race").modules.pb2
    view = race_stub.GetView(pb2.GetViewRequest(match_id=second), metadata=auth(latest.seat_token), timeout=5)
    assert view.version == latest.version and len(view.legal_commands) == 1  # the token plays seat 0
    assert [s.label for s in view.seats] == ["Ada", "greedy bot"]  # the game service has the names too
    assert [m.match_id for m in mine(stub, ada, limit=1).matches] == [second]
    assert [m.match_id for m in mine(stub, ada, game="race").matches] == [second, first]


def test_a_finished_match_says_so_with_its_placings(stub: Any, race_stub: Any) -> None:
    ada = sign_in(stub, "Ada")
    room = stub.CreateRoom(
        pb.CreateRoomRequest(game="race", seats=2, options={"goal": "1"}), metadata=ada.md, timeout=5
    ).room
    stub.AddBot(pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM), metadata=ada.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5)
    pb2 = load_game("race").modules.pb2
    roll = pb2.SubmitCommandRequest(
        match_id=started.match_id, expected_version=2, command_id="r", command=pb2.Command(roll=pb2.Roll())
    )
    view = race_stub.GetView(pb2.GetViewRequest(match_id=started.match_id), metadata=auth(started.seat_token))
    roll.expected_version = view.version
    race_stub.SubmitCommand(roll, metadata=auth(started.seat_token), timeout=5)
    [done] = mine(stub, ada).matches
    final = race_stub.GetView(pb2.GetViewRequest(match_id=started.match_id), metadata=auth(done.seat_token))
    assert done.finished and not done.my_turn and list(done.seats_to_act) == []
    assert list(done.placings) == list(final.outcome.placings) and done.version == final.version


def test_a_match_the_game_service_never_created_is_left_out(stub: Any, redis_client: Any) -> None:
    ada = sign_in(stub, "Ada")
    PlayerMatches(redis_client).record("never-made", [ada.player_id], 1)  # as before a refused CreateMatch
    made = start_with_bots(stub, ada)
    assert [m.match_id for m in mine(stub, ada).matches] == [made]


def test_the_notice_head_is_the_last_notice_and_bad_calls_are_refused(stub: Any, redis_client: Any) -> None:
    ada = sign_in(stub, "Ada")
    assert mine(stub, ada).notices_head == "0-0"
    start_with_bots(stub, ada)
    wait_until(lambda: redis_client.xlen(keys.notices(ada.player_id)) >= 2, 30, "Ada's two notices")
    last = redis_client.xrevrange(keys.notices(ada.player_id), count=1)[0][0].decode()
    assert mine(stub, ada).notices_head == last
    fails(lambda: stub.ListMyMatches(pb.ListMyMatchesRequest(), timeout=5), grpc.StatusCode.UNAUTHENTICATED)
    fails(lambda: mine(stub, ada, limit=-1), grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument")
    fails(lambda: mine(stub, ada, game="nosuchgame"), grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument")
