"""Rooms: a host gathers humans and bots into seats, everyone readies up, the host starts.

Every operation is a pure function ``Room -> Room`` that raises a typed error and changes
nothing when refused; the repository applies it with a compare-and-set on ``version``, so
two players racing for the last seat see exactly one winner.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace

from shared.serving.errors import Conflict, InvalidArgument, PermissionDenied

STALE_START_MS = 60_000  # a start that never finished (crashed lobby) may be retried after this


class BotLevel(enum.StrEnum):
    RANDOM = "random"
    GREEDY = "greedy"
    MCTS = "mcts"


class RoomStatus(enum.StrEnum):
    OPEN = "open"
    STARTING = "starting"
    STARTED = "started"
    CLOSED = "closed"


class RoomVisibility(enum.StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"


@dataclass(frozen=True, slots=True)
class Seat:
    player_id: str = ""
    name: str = ""
    bot: BotLevel | None = None
    ready: bool = False

    @property
    def is_empty(self) -> bool:
        return not self.player_id and self.bot is None

    @property
    def is_human(self) -> bool:
        return bool(self.player_id)


EMPTY = Seat()


@dataclass(frozen=True, slots=True)
class Room:
    room_id: str
    game: str
    host: str
    seats: tuple[Seat, ...]
    options: tuple[tuple[str, str], ...]
    turn_seconds: int
    visibility: RoomVisibility
    invite_code: str
    status: RoomStatus = RoomStatus.OPEN
    match_id: str = ""
    version: int = 0
    created_ms: int = 0
    starting_ms: int = 0
    spectators_read_chat: bool = False  # the match's spectators may read its players' chat

    @property
    def humans(self) -> tuple[str, ...]:
        return tuple(s.player_id for s in self.seats if s.is_human)

    @property
    def has_empty_seat(self) -> bool:
        return any(s.is_empty for s in self.seats)

    @property
    def is_listed(self) -> bool:
        """Shown by ListRooms: public, open and not full."""
        return (
            self.visibility is RoomVisibility.PUBLIC
            and self.status is RoomStatus.OPEN
            and self.has_empty_seat
        )

    def seat_of(self, player_id: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.player_id == player_id), None)

    def bots(self) -> dict[int, BotLevel]:
        return {i: s.bot for i, s in enumerate(self.seats) if s.bot is not None}

    def players(self) -> list[str]:
        """Player id per seat, "" for bots: what the game service stores in the match meta."""
        return [s.player_id for s in self.seats]


def new_room(
    room_id: str,
    game: str,
    host: str,
    host_name: str,
    seats: int,
    options: Mapping[str, str],
    turn_seconds: int,
    visibility: RoomVisibility,
    invite_code: str,
    now_ms: int,
    spectators_read_chat: bool = False,
) -> Room:
    first = Seat(host, host_name)
    return Room(
        room_id,
        game,
        host,
        (first, *(EMPTY,) * (seats - 1)),
        tuple(sorted(options.items())),
        turn_seconds,
        visibility,
        invite_code,
        created_ms=now_ms,
        spectators_read_chat=spectators_read_chat,
    )


def seen_by(room: Room, player_id: str) -> Room:
    """A private room's invite code is shown only to the players in it."""
    if room.visibility is RoomVisibility.PRIVATE and room.seat_of(player_id) is None:
        return replace(room, invite_code="")
    return room


# ------------------------------------------------------------------ guards


def _require_open(room: Room) -> None:
    if room.status is not RoomStatus.OPEN:
        raise Conflict(
            f"room_{room.status.value}",
            "room {room_id} is {status}, not open",
            room_id=room.room_id,
            status=room.status.value,
        )


def _require_host(room: Room, caller: str) -> None:
    if caller != room.host:
        raise PermissionDenied("only the host may do this")


def _seated(room: Room, player_id: str) -> int:
    seat = room.seat_of(player_id)
    if seat is None:
        raise Conflict("not_in_room", "you are not in room {room_id}", room_id=room.room_id)
    return seat


def _put(room: Room, index: int, seat: Seat) -> Room:
    seats = list(room.seats)
    seats[index] = seat
    return replace(room, seats=tuple(seats))


def _first_empty(room: Room) -> int:
    index = next((i for i, s in enumerate(room.seats) if s.is_empty), None)
    if index is None:
        raise Conflict("room_full", "room {room_id} has no free seat", room_id=room.room_id)
    return index


# ------------------------------------------------------------------ operations


def join(room: Room, player_id: str, name: str) -> tuple[Room, int]:
    """Take the first free seat. Joining a room one already sits in changes nothing."""
    seat = room.seat_of(player_id)
    if seat is not None:
        return room, seat
    _require_open(room)
    index = _first_empty(room)
    return _put(room, index, Seat(player_id, name)), index


def leave(room: Room, player_id: str) -> Room:
    """Free the seat; the next human becomes host; the last human out closes the room."""
    seat = _seated(room, player_id)
    _require_open(room)
    room = _put(room, seat, EMPTY)
    if not room.humans:
        return replace(room, status=RoomStatus.CLOSED)
    if room.host == player_id:
        return replace(room, host=room.humans[0])
    return room


def add_bot(room: Room, caller: str, level: BotLevel) -> tuple[Room, int]:
    _require_host(room, caller)
    _require_open(room)
    index = _first_empty(room)
    return _put(room, index, Seat(bot=level, ready=True)), index


def remove_bot(room: Room, caller: str, seat: int) -> Room:
    _require_host(room, caller)
    _require_open(room)
    if not 0 <= seat < len(room.seats):
        raise InvalidArgument(
            "seat must be between 0 and {last}, not {seat}", "seat", last=len(room.seats) - 1, seat=seat
        )
    if room.seats[seat].bot is None:
        raise Conflict("not_a_bot", "seat {seat} is not a bot", seat=seat)
    return _put(room, seat, EMPTY)


def set_ready(room: Room, player_id: str, ready: bool) -> Room:
    seat = _seated(room, player_id)
    _require_open(room)
    return _put(room, seat, replace(room.seats[seat], ready=ready))


def begin_start(room: Room, caller: str, match_id: str, now_ms: int) -> Room:
    """Freeze the room while the match is created. The host's start counts as the host's ready."""
    _require_host(room, caller)
    if room.status is RoomStatus.STARTING and now_ms - room.starting_ms >= STALE_START_MS:
        return replace(room, starting_ms=now_ms)  # retry a start that never finished, same match id
    _require_open(room)
    if room.has_empty_seat:
        raise Conflict("seats_not_full", "every seat needs a player or a bot before the start")
    waiting = [s.name for s in room.seats if s.is_human and s.player_id != caller and not s.ready]
    if waiting:
        raise Conflict("players_not_ready", "not ready yet: {names}", names=", ".join(waiting))
    return replace(room, status=RoomStatus.STARTING, match_id=match_id, starting_ms=now_ms)


def finish_start(room: Room, match_id: str) -> Room:
    if room.status is not RoomStatus.STARTING or room.match_id != match_id:
        raise Conflict(
            "room_not_starting",
            "room {room_id} is not starting match {match_id}",
            room_id=room.room_id,
            match_id=match_id,
        )
    return replace(room, status=RoomStatus.STARTED)


def abort_start(room: Room, match_id: str) -> Room:
    """The game service refused or failed: reopen the room as it was."""
    if room.status is not RoomStatus.STARTING or room.match_id != match_id:
        return room
    return replace(room, status=RoomStatus.OPEN, match_id="", starting_ms=0)
