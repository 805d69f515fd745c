"""Room use cases: validate, apply a pure room operation atomically, and start the match.

Starting is three steps so a room is never half-started: freeze the room (STARTING, with the
match id), ask the game service to create the match, then mark it STARTED (or reopen it if
the game service refused, or could not be reached: then the start is UNAVAILABLE and may simply
be retried). A lobby that dies in between leaves a STARTING room that the host may start again
after a minute, with the same match id.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from services.lobby.adapters.games import GameCatalog, MatchRequest
from services.lobby.adapters.rooms_repo import RoomRepository
from services.lobby.domain import rooms, validation
from services.lobby.domain.rooms import BotLevel, Room, RoomStatus, RoomVisibility
from services.lobby.service_layer.identity import Identity
from shared.serving.errors import Conflict, PermissionDenied, Unavailable
from shared.serving.tokens import Claims

Clock = Callable[[], int]  # milliseconds


@dataclass(frozen=True, slots=True)
class RoomSeen:
    """A room as one player sees it, with that player's seat token once it has started."""

    room: Room
    seat: int | None
    seat_token: str


def new_invite_code() -> str:
    return "".join(secrets.choice(validation.INVITE_ALPHABET) for _ in range(validation.INVITE_LENGTH))


class RoomService:
    def __init__(
        self,
        repo: RoomRepository,
        catalog: GameCatalog,
        identity: Identity,
        clock: Clock,
        blocked_by: Callable[[str, Sequence[str]], list[str]] | None = None,
        open_chat: Callable[[str], None] = lambda match_id: None,
    ) -> None:
        """``blocked_by(player, others)``: those of ``others`` who blocked ``player``
        (``FriendRepository.blocked_by``): they keep the player out of their private rooms.
        ``open_chat(match_id)``: a match whose spectators may read its players' chat (chat.py)."""
        self.repo, self.catalog, self.identity, self.clock = repo, catalog, identity, clock
        self.blocked_by = blocked_by
        self.open_chat = open_chat

    # ------------------------------------------------------------ reads
    def seen(self, room: Room, player_id: str) -> RoomSeen:
        seat = room.seat_of(player_id)
        token = ""
        if room.status is RoomStatus.STARTED and seat is not None:
            token = self.identity.seat_token(room.game, player_id, room.match_id, seat)
        return RoomSeen(rooms.seen_by(room, player_id), seat, token)

    def get(self, caller: Claims, room_id: str) -> RoomSeen:
        return self.seen(self.repo.get(validation.identifier(room_id, "room_id")), caller.player_id)

    def list_open(self, game: str, limit: int) -> list[Room]:
        validation.game_name(game, self.catalog.names())
        return [rooms.seen_by(r, "") for r in self.repo.list_open(game, validation.limit(limit, 50, 200))]

    def watch(self, caller: Claims, room_id: str, block_ms: int) -> Iterator[RoomSeen | None]:
        """The room now and after each change (None: a quiet ``block_ms``); ends once started or closed."""
        room = self.repo.get(validation.identifier(room_id, "room_id"))
        if room.visibility is RoomVisibility.PRIVATE and room.seat_of(caller.player_id) is None:
            raise PermissionDenied("only the players in a private room may watch it")
        return self._follow(caller, room_id, block_ms)

    def _follow(self, caller: Claims, room_id: str, block_ms: int) -> Iterator[RoomSeen | None]:
        changes, sent = self.repo.watch(room_id, block_ms), -1
        while True:
            room = self.repo.get(room_id)
            if room.version != sent:
                sent = room.version
                yield self.seen(room, caller.player_id)
            if room.status in (RoomStatus.STARTED, RoomStatus.CLOSED):
                return
            if not next(changes):
                yield None

    # ------------------------------------------------------------ membership
    def create(
        self,
        caller: Claims,
        game: str,
        seats: int,
        options: Mapping[str, str],
        turn_seconds: int,
        visibility: RoomVisibility,
        spectators_read_chat: bool = False,
    ) -> RoomSeen:
        info, rules = self.catalog.manifest(game), self.catalog.rules(game)
        validation.seat_count(seats, info)
        options = validation.game_options(options, seats, info, rules)
        validation.turn_seconds(turn_seconds)
        code = new_invite_code() if visibility is RoomVisibility.PRIVATE else ""
        room = rooms.new_room(
            uuid.uuid4().hex,
            game,
            caller.player_id,
            caller.name,
            seats,
            options,
            turn_seconds,
            visibility,
            code,
            self.clock(),
            spectators_read_chat,
        )
        return self.seen(self.repo.create(room), caller.player_id)

    def join_by_id(self, caller: Claims, room_id: str) -> RoomSeen:
        target = self.repo.get(validation.identifier(room_id, "room_id"))
        if target.visibility is RoomVisibility.PRIVATE and target.seat_of(caller.player_id) is None:
            raise PermissionDenied("a private room is joined with its invite code")
        return self._join(caller, room_id)

    def join_by_code(self, caller: Claims, code: str) -> RoomSeen:
        """A private room, unless a player seated in it blocked the caller (``blocked``: checked
        against the seats of each try of the compare-and-set)."""
        room_id = self.repo.by_invite(validation.invite_code(code)).room_id
        return self._join(caller, room_id, keep_out=True)

    def _join(self, caller: Claims, room_id: str, keep_out: bool = False) -> RoomSeen:
        blocked_by = self.blocked_by if keep_out else None

        def join(room: Room) -> tuple[Room, int]:
            others = [p for p in room.players() if p and p != caller.player_id]
            if blocked_by is not None and others and blocked_by(caller.player_id, others):
                raise Conflict("blocked", "a player in this room does not take you in their rooms")
            return rooms.join(room, caller.player_id, caller.name)

        room, _ = self.repo.update(room_id, join)
        return self.seen(room, caller.player_id)

    def leave(self, caller: Claims, room_id: str) -> RoomSeen:
        return self._change(caller, room_id, lambda r: rooms.leave(r, caller.player_id))

    def add_bot(self, caller: Claims, room_id: str, level: BotLevel) -> tuple[RoomSeen, int]:
        room, seat = self.repo.update(
            validation.identifier(room_id, "room_id"), lambda r: rooms.add_bot(r, caller.player_id, level)
        )
        return self.seen(room, caller.player_id), seat

    def remove_bot(self, caller: Claims, room_id: str, seat: int) -> RoomSeen:
        return self._change(caller, room_id, lambda r: rooms.remove_bot(r, caller.player_id, seat))

    def set_ready(self, caller: Claims, room_id: str, ready: bool) -> RoomSeen:
        return self._change(caller, room_id, lambda r: rooms.set_ready(r, caller.player_id, ready))

    def _change(self, caller: Claims, room_id: str, change: Callable[[Room], Room]) -> RoomSeen:
        room, _ = self.repo.update(validation.identifier(room_id, "room_id"), lambda r: (change(r), None))
        return self.seen(room, caller.player_id)

    # ------------------------------------------------------------ start
    def start(self, caller: Claims, room_id: str) -> RoomSeen:
        validation.identifier(room_id, "room_id")
        fresh_id, now = uuid.uuid4().hex, self.clock()
        room, _ = self.repo.update(
            room_id, lambda r: (rooms.begin_start(r, caller.player_id, fresh_id, now), None)
        )
        match_id = room.match_id
        invitees = (
            self.identity.private.invitees(room_id) if room.visibility is RoomVisibility.PRIVATE else set()
        )
        if room.spectators_read_chat:
            self.open_chat(match_id)  # before the match exists, like its private viewers
        try:
            self.catalog.create_match(_match_request(room, invitees))
        except (Conflict, Unavailable):
            self.repo.update(room_id, lambda r: (rooms.abort_start(r, match_id), None))
            raise
        room, _ = self.repo.update(room_id, lambda r: (rooms.finish_start(r, match_id), None))
        return self.seen(room, caller.player_id)


def _match_request(room: Room, invitees: set[str]) -> MatchRequest:
    """What to create for ``room``; a private room's match is watched only by its players and invitees."""
    bots = {seat: level.value for seat, level in room.bots().items()}
    private = room.visibility is RoomVisibility.PRIVATE
    return MatchRequest(
        room.game,
        room.match_id,
        len(room.seats),
        dict(room.options),
        bots,
        tuple(room.players()),
        room.turn_seconds,
        listed=not private,
        names=tuple(s.name if s.is_human else "" for s in room.seats),
        viewers=frozenset({*room.players(), *invitees} - {""}) if private else frozenset(),
    )
