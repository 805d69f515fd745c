"""The lobby side of ``tabula play`` and ``tabula watch``: sign in, fill a room with bots, start it.

A call refused by a rate limit (a sign-in flood from one address, many rooms in a minute) is sent
again after its RetryInfo delay (``services.client.rpc.retry_limited``): a refused call changed
nothing, so the same request is safe to repeat; meanwhile "busy, retrying in 2 s" goes to stderr.
Other errors are not retried here (a CreateRoom whose answer was lost may have opened the room).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.client.rpc import auth, retry_limited
from services.client.texts import language, t

BOT_LEVELS = {"random": pb.BOT_LEVEL_RANDOM, "greedy": pb.BOT_LEVEL_GREEDY, "mcts": pb.BOT_LEVEL_MCTS}


def bot_levels(spec: str, seats: int) -> list[str]:
    """``--bots`` for ``seats`` seats (one is the player's): one level for every bot seat, or one each."""
    levels = [s.strip().lower() for s in spec.split(",") if s.strip()]
    if len(levels) == 1:
        levels *= seats - 1
    unknown = sorted(set(levels) - set(BOT_LEVELS))
    if unknown:
        raise ValueError(f"unknown bot level {unknown[0]!r}; known: {', '.join(BOT_LEVELS)}")
    if len(levels) != seats - 1:
        raise ValueError(f"{seats} seats need {seats - 1} bot levels (or one for all), got {len(levels)}")
    return levels


@dataclass(frozen=True)
class Started:
    match_id: str
    seat: int
    seat_token: str
    names: tuple[str, ...]  # display name per seat ("greedy bot" for bots)
    room_id: str


def seat_names(room: Any) -> tuple[str, ...]:
    names = []
    for seat in room.seats:
        if seat.bot:
            level = pb.BotLevel.Name(seat.bot).removeprefix("BOT_LEVEL_").lower()
            names.append(seat.display_name or f"{level} bot")
        else:
            names.append(seat.display_name or t("seat", n=seat.index))
    return tuple(names)


def say_busy(wait_s: float) -> None:
    """The line a player sees while a rate-limited lobby call waits (stderr: stdout is the match)."""
    print(t("busy", seconds=f"{max(round(wait_s, 1), 0.1):g}"), file=sys.stderr, flush=True)


class Lobby:
    """The lobby calls of the terminal client, each with a deadline, sent again when rate-limited."""

    def __init__(
        self, channel: Any, deadline_s: float = 10.0, on_limited: Callable[[float], None] = say_busy
    ) -> None:
        self.stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        self.on_limited = on_limited
        self.deadline_s = deadline_s
        self.token = ""
        self.player_id = ""

    def _call(
        self, method: Callable[..., Any], request: Any, timeout_s: float = 0.0, signed: bool = True
    ) -> Any:
        """``method(request)`` with the player's token (unless not ``signed``) and a deadline of
        ``timeout_s`` (0: ``deadline_s``), sent again while a rate limit refuses it."""
        kw: dict[str, Any] = {"timeout": timeout_s or self.deadline_s}
        kw["metadata"] = auth(self.token) if signed else language()
        return retry_limited(lambda: method(request, **kw), self.on_limited)

    def sign_in(self, name: str) -> str:
        request = pb.SignInGuestRequest(display_name=name)
        reply = self._call(self.stub.SignInGuest, request, signed=False)
        self.token, self.player_id = reply.token, reply.player_id
        return str(reply.player_id)

    def start_with_bots(
        self,
        game: str,
        seats: int,
        bots: Sequence[str],
        options: dict[str, str],
        turn_seconds: int = 0,
        public: bool = False,
    ) -> Started:
        """Create a room (private unless ``public``: a public room's match is listed to spectators),
        add one bot per level, start it (the host's start is its ready)."""
        request = pb.CreateRoomRequest(
            game=game,
            seats=seats,
            options=options,
            turn_seconds=turn_seconds,
            visibility=pb.ROOM_VISIBILITY_PUBLIC if public else pb.ROOM_VISIBILITY_PRIVATE,
        )
        room = self._call(self.stub.CreateRoom, request).room
        for level in bots:
            add = pb.AddBotRequest(room_id=room.room_id, level=BOT_LEVELS[level])
            room = self._call(self.stub.AddBot, add).room
        start = pb.StartRoomRequest(room_id=room.room_id)
        started = self._call(self.stub.StartRoom, start, timeout_s=max(self.deadline_s, 30.0))
        return Started(
            match_id=started.match_id,
            seat=started.seat,
            seat_token=started.seat_token,
            names=seat_names(started.room),
            room_id=room.room_id,
        )

    def room(self, room_id: str) -> tuple[Any, str]:
        """(room, the caller's seat token) of a started room: how a player gets back to their seat."""
        reply = self._call(self.stub.GetRoom, pb.GetRoomRequest(room_id=room_id))
        return reply.room, reply.seat_token

    def spectator_token(self, match_id: str) -> tuple[str, str]:
        """(token, game) to watch one match's public view."""
        reply = self._call(self.stub.GetSpectatorToken, pb.GetSpectatorTokenRequest(match_id=match_id))
        return reply.token, reply.game
