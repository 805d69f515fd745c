"""ListMatches: live and recent matches of public rooms for spectators, newest first, with the seats'
names and bots, read from the event store as it is now (a private room's match is never listed), a
page at a time."""

from __future__ import annotations

from typing import Any

import grpc
from tabula.lobby.v1 import lobby_pb2 as pb

from tests.integration.lobby.conftest import Guest, fails, sign_in


def start_room(stub: Any, host: Guest, guest: Guest | None, private: bool = False) -> str:
    """A 3-seat race room: the host, a public room's ``guest`` (or a bot) and a random bot; the match id."""
    vis = pb.ROOM_VISIBILITY_PRIVATE if private else pb.ROOM_VISIBILITY_PUBLIC
    request = pb.CreateRoomRequest(game="race", seats=3, visibility=vis)
    room = stub.CreateRoom(request, metadata=host.md, timeout=5).room
    if guest is not None:
        stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=guest.md, timeout=5)
        stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=guest.md, timeout=5)
    else:
        stub.AddBot(
            pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_GREEDY), metadata=host.md, timeout=5
        )
    stub.AddBot(
        pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM), metadata=host.md, timeout=5
    )
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=host.md, timeout=5)
    return str(started.match_id)


def test_public_matches_are_listed_newest_first_with_names_and_bots(stub: Any) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    first = start_room(stub, ada, bob)
    start_room(stub, eve, None, private=True)
    second = start_room(stub, bob, None)
    reply = stub.ListMatches(pb.ListMatchesRequest(), metadata=eve.md, timeout=5)
    assert [m.match_id for m in reply.matches] == [second, first]
    listed = reply.matches[1]
    assert listed.game == "race" and not listed.finished and listed.version > 0
    assert [(s.seat, s.display_name, s.bot) for s in listed.seats] == [
        (0, "Ada", False),
        (1, "Bob", False),
        (2, "random", True),
    ]
    assert listed.seats[0].player_id == ada.player_id and listed.seats[2].player_id == ""
    assert [s.display_name for s in reply.matches[0].seats] == ["Bob", "greedy", "random"]
    limited = stub.ListMatches(pb.ListMatchesRequest(game="race", limit=1), metadata=eve.md, timeout=5)
    assert [m.match_id for m in limited.matches] == [second]


def test_listing_needs_a_guest_token_and_a_known_game(stub: Any) -> None:
    fails(lambda: stub.ListMatches(pb.ListMatchesRequest(), timeout=5), grpc.StatusCode.UNAUTHENTICATED)
    ada = sign_in(stub, "Ada")
    request = pb.ListMatchesRequest(game="nosuchgame")
    fails(lambda: stub.ListMatches(request, metadata=ada.md, timeout=5), grpc.StatusCode.INVALID_ARGUMENT)


def test_matches_come_a_page_at_a_time_and_new_ones_shift_no_page(stub: Any) -> None:
    ada, eve = sign_in(stub, "Ada"), sign_in(stub, "Eve")
    started = [start_room(stub, ada, None) for _ in range(5)]  # oldest first
    first = stub.ListMatches(pb.ListMatchesRequest(limit=2), metadata=eve.md, timeout=5)
    assert [m.match_id for m in first.matches] == [started[4], started[3]] and first.next_page_token
    newer = start_room(stub, ada, None)  # created between two pages: it is on no later page
    request = pb.ListMatchesRequest(limit=2, page_token=first.next_page_token)
    second = stub.ListMatches(request, metadata=eve.md, timeout=5)
    assert [m.match_id for m in second.matches] == [started[2], started[1]] and second.next_page_token
    request = pb.ListMatchesRequest(limit=2, page_token=second.next_page_token)
    last = stub.ListMatches(request, metadata=eve.md, timeout=5)
    assert [m.match_id for m in last.matches] == [started[0]] and last.next_page_token == ""
    exact = stub.ListMatches(pb.ListMatchesRequest(limit=6), metadata=eve.md, timeout=5)
    assert [m.match_id for m in exact.matches] == [newer, *reversed(started)]
    assert exact.next_page_token == ""  # a page that holds the rest is the last
    for bad in ("nonsense", "12:", ":m1", "12:bad id"):
        request = pb.ListMatchesRequest(page_token=bad)
        fails(
            lambda r=request: stub.ListMatches(r, metadata=eve.md, timeout=5),
            grpc.StatusCode.INVALID_ARGUMENT,
        )
