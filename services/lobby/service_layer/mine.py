"""Coming back to the lobby (``ListMyMatches``): where the caller waits, and their matches.

Everything is read as it is now: the room or ticket from the player's ``busy`` mark, the matches
from the player's index (``adapters/match_index.py``) and each match's meta in the event store
(status, version, seats to act, outcome, seats' names), without game code. Seat tokens are signed
fresh for each read (never stored), so a client that lost its token gets a new one here.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.lobby.adapters.match_index import PlayerMatches
from services.lobby.domain import validation
from services.lobby.service_layer.identity import Identity
from services.lobby.service_layer.matchmaking import QueueService, TicketSeen
from services.lobby.service_layer.notices import Notices
from services.lobby.service_layer.rooms import RoomSeen, RoomService
from shared.core.seats import SeatInfo
from shared.runtime.edge import wait
from shared.serving.errors import NotFound
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta


@dataclass(frozen=True, slots=True)
class MyMatch:
    match_id: str
    game: str
    seat: int
    seat_token: str
    finished: bool
    version: int
    seats: tuple[SeatInfo, ...]
    to_act: tuple[int, ...]
    created_ms: int
    placings: tuple[int, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat in self.to_act


@dataclass(frozen=True, slots=True)
class Whereabouts:
    matches: list[MyMatch]
    room: RoomSeen | None
    ticket: TicketSeen | None
    notices_head: str


class MyMatches:
    def __init__(
        self,
        mine: PlayerMatches,
        store: EventStore,
        identity: Identity,
        rooms: RoomService,
        queue: QueueService,
        notices: Notices,
    ) -> None:
        self.mine, self.store, self.identity = mine, store, identity
        self.rooms, self.queue, self.notices = rooms, queue, notices

    def list(self, caller: Claims, game: str, limit: int) -> Whereabouts:
        """``game`` "" for every game; the room or ticket is the caller's whatever its game."""
        if game:
            validation.game_name(game, self.rooms.catalog.names())
        most = validation.limit(limit, 20, 100)
        head = self.notices.head(caller.player_id)  # first: notices after it are never missed
        room, ticket = self._waiting(caller)
        found: list[MyMatch] = []
        for match_id, created_ms in self.mine.newest(caller.player_id):
            if len(found) >= most:
                break
            match = self._match(caller.player_id, match_id, created_ms)
            if match is not None and (not game or match.game == game):
                found.append(match)
        return Whereabouts(found, room, ticket, head)

    def _waiting(self, caller: Claims) -> tuple[RoomSeen | None, TicketSeen | None]:
        busy = self.rooms.repo.busy_with(caller.player_id)
        try:
            if busy is not None and busy[0] == "room":
                return self.rooms.get(caller, busy[1]), None
            if busy is not None and busy[0] == "ticket":
                return None, self.queue.seen(self.queue.repo.get(busy[1]))
        except NotFound:
            pass  # it expired between the two reads: the player waits nowhere
        return None, None

    def _match(self, player_id: str, match_id: str, created_ms: int) -> MyMatch | None:
        meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
        seats = meta.seat_infos
        seat = next((s.seat for s in seats if s.player_id == player_id), None)
        if not meta.game or seat is None:
            return None  # never created (the game service refused), or not the player's
        progress = meta.progress
        return MyMatch(
            match_id,
            meta.game,
            seat,
            self.identity.seat_token(meta.game, player_id, match_id, seat),
            meta.finished,
            meta.head,
            seats,
            progress.to_act if progress is not None else (),
            created_ms,
            tuple(progress.outcome.placings) if progress is not None and progress.outcome else (),
        )
