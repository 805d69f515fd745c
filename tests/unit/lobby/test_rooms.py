"""Rooms as pure functions: every refusal is typed and leaves the room as it was."""

from __future__ import annotations

import pytest

from services.lobby.domain import rooms
from services.lobby.domain.rooms import BotLevel, Room, RoomStatus, RoomVisibility
from shared.serving.errors import Conflict, InvalidArgument, PermissionDenied


def a_room(seats: int = 3, visibility: RoomVisibility = RoomVisibility.PUBLIC) -> Room:
    return rooms.new_room("r1", "race", "ada", "Ada", seats, {"goal": "9"}, 0, visibility, "ABCDEFGH", 1000)


def reason(err: pytest.ExceptionInfo[Conflict]) -> str:
    return err.value.reason


def test_the_host_sits_first_and_joiners_take_the_next_free_seat() -> None:
    room, seat = rooms.join(a_room(), "bob", "Bob")
    assert seat == 1 and room.humans == ("ada", "bob") and room.is_listed


def test_joining_twice_changes_nothing() -> None:
    room, _ = rooms.join(a_room(), "bob", "Bob")
    assert rooms.join(room, "bob", "Bob") == (room, 1)


def test_a_full_room_refuses_joiners_and_bots() -> None:
    room, _ = rooms.join(a_room(2), "bob", "Bob")
    assert not room.is_listed
    with pytest.raises(Conflict) as err:
        rooms.join(room, "cat", "Cat")
    assert reason(err) == "room_full"
    with pytest.raises(Conflict):
        rooms.add_bot(room, "ada", BotLevel.RANDOM)


def test_only_the_host_manages_bots_and_starts() -> None:
    room, _ = rooms.join(a_room(2), "bob", "Bob")
    with pytest.raises(PermissionDenied):
        rooms.add_bot(a_room(), "bob", BotLevel.GREEDY)
    with pytest.raises(PermissionDenied):
        rooms.begin_start(room, "bob", "m1", 0)


def test_removing_a_bot_needs_a_bot_seat_in_range() -> None:
    room, seat = rooms.add_bot(a_room(), "ada", BotLevel.MCTS)
    assert room.bots() == {1: BotLevel.MCTS}
    with pytest.raises(InvalidArgument):
        rooms.remove_bot(room, "ada", 7)
    with pytest.raises(Conflict):
        rooms.remove_bot(room, "ada", 0)
    assert rooms.remove_bot(room, "ada", seat).seats[seat].is_empty


def test_the_next_human_becomes_host_and_the_last_one_out_closes() -> None:
    room, _ = rooms.join(a_room(), "bob", "Bob")
    room, _ = rooms.add_bot(room, "ada", BotLevel.RANDOM)
    room = rooms.leave(room, "ada")
    assert room.host == "bob" and room.status is RoomStatus.OPEN
    assert rooms.leave(room, "bob").status is RoomStatus.CLOSED


def test_start_needs_full_seats_and_ready_guests_but_not_a_ready_host() -> None:
    room, _ = rooms.join(a_room(2), "bob", "Bob")
    with pytest.raises(Conflict) as err:
        rooms.begin_start(room, "ada", "m1", 0)
    assert reason(err) == "players_not_ready"
    room = rooms.set_ready(room, "bob", True)
    starting = rooms.begin_start(room, "ada", "m1", 0)
    assert (starting.status, starting.match_id, starting.players()) == (
        RoomStatus.STARTING,
        "m1",
        ["ada", "bob"],
    )
    with pytest.raises(Conflict) as err:
        rooms.leave(starting, "bob")
    assert reason(err) == "room_starting"
    assert rooms.finish_start(starting, "m1").status is RoomStatus.STARTED
    assert rooms.abort_start(starting, "m1") == rooms.set_ready(room, "bob", True)


def test_an_empty_seat_blocks_the_start() -> None:
    with pytest.raises(Conflict) as err:
        rooms.begin_start(a_room(2), "ada", "m1", 0)
    assert reason(err) == "seats_not_full"


def test_a_stale_start_may_be_retried_with_the_same_match_id() -> None:
    room, _ = rooms.add_bot(a_room(2), "ada", BotLevel.RANDOM)
    starting = rooms.begin_start(room, "ada", "m1", 0)
    with pytest.raises(Conflict):
        rooms.begin_start(starting, "ada", "m2", 1000)
    retried = rooms.begin_start(starting, "ada", "m2", rooms.STALE_START_MS)
    assert retried.match_id == "m1" and retried.status is RoomStatus.STARTING


def test_a_private_code_is_shown_only_to_members() -> None:
    room = a_room(visibility=RoomVisibility.PRIVATE)
    assert rooms.seen_by(room, "ada").invite_code == "ABCDEFGH"
    assert rooms.seen_by(room, "eve").invite_code == ""
    assert not room.is_listed
