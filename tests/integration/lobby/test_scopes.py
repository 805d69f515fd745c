"""Token scopes end to end: the lobby issues, the race rule service checks (issue 13, point 3).

A player (lobby) token reads no match; a spectator token from GetSpectatorToken is needed to watch,
view or replay a match as a spectator, and only for its match; a seat token acts for its seat of its
match only; a private room's match gets spectator tokens only for its players and invitees.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import grpc
from tabula.lobby.v1 import lobby_pb2 as pb

from services.games import load_game
from tests.integration.lobby.conftest import SIGNER, Guest, auth, fails, service_token, sign_in

DENIED = grpc.StatusCode.PERMISSION_DENIED
UNAUTH = grpc.StatusCode.UNAUTHENTICATED


def race() -> Any:
    return load_game("race").modules.pb2


def a_roll(match_id: str, version: int) -> Any:
    """A roll of the race game's dice at ``version`` of the match."""
    pb2 = race()
    command = pb2.Command(roll=pb2.Roll())
    return pb2.SubmitCommandRequest(
        match_id=match_id, expected_version=version, command_id="c", command=command
    )


def started_match(stub: Any, host: Guest, private: bool = False, invite: Guest | None = None) -> Any:
    visibility = pb.ROOM_VISIBILITY_PRIVATE if private else pb.ROOM_VISIBILITY_PUBLIC
    request = pb.CreateRoomRequest(game="race", seats=2, visibility=visibility)
    room = stub.CreateRoom(request, metadata=host.md, timeout=5).room
    if invite is not None:
        invitation = pb.InviteToRoomRequest(room_id=room.room_id, player_id=invite.player_id)
        stub.InviteToRoom(invitation, metadata=host.md, timeout=5)
    stub.AddBot(
        pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM), metadata=host.md, timeout=5
    )
    return stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=host.md, timeout=10)


def reads(race_stub: Any, match_id: str, md: list[tuple[str, str]]) -> list[Any]:
    """GetView, Replay and the first WatchMatch reply, with ``md``."""
    pb2 = race()
    view = race_stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=md, timeout=5)
    replay = race_stub.Replay(pb2.ReplayRequest(match_id=match_id, version=1), metadata=md, timeout=5)
    stream = race_stub.WatchMatch(
        pb2.WatchMatchRequest(match_id=match_id, from_version=1), metadata=md, timeout=5
    )
    try:
        first = next(iter(stream))
    finally:
        stream.cancel()
    return [view, replay, first]


def refused_everywhere(
    race_stub: Any, match_id: str, md: list[tuple[str, str]], code: grpc.StatusCode
) -> None:
    pb2 = race()
    calls = [
        lambda: race_stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=md, timeout=5),
        lambda: race_stub.Replay(pb2.ReplayRequest(match_id=match_id, version=1), metadata=md, timeout=5),
        lambda: next(
            iter(race_stub.WatchMatch(pb2.WatchMatchRequest(match_id=match_id), metadata=md, timeout=5))
        ),
        lambda: race_stub.ExportLog(pb2.ExportLogRequest(match_id=match_id), metadata=md, timeout=5),
    ]
    for call in calls:
        fails(call, code, "forbidden" if code is DENIED else "bad_token")


def test_a_player_token_reads_no_match(stub: Any, race_stub: Any) -> None:
    ada = sign_in(stub, "Ada")
    started = started_match(stub, ada)
    refused_everywhere(race_stub, started.match_id, ada.md, DENIED)


def test_a_spectator_token_reads_its_match_only_and_sends_nothing(stub: Any, race_stub: Any) -> None:
    ada, eve = sign_in(stub, "Ada"), sign_in(stub, "Eve")
    first, second = started_match(stub, ada), started_match(stub, sign_in(stub, "Bob"))
    token = stub.GetSpectatorToken(
        pb.GetSpectatorTokenRequest(match_id=first.match_id), metadata=eve.md, timeout=5
    ).token
    view, replay, watched = reads(race_stub, first.match_id, auth(token))
    assert not view.view.HasField("my_secret") and not view.legal_commands and replay.version == 1
    assert watched.WhichOneof("item") == "event"
    refused_everywhere(race_stub, second.match_id, auth(token), DENIED)
    roll = a_roll(first.match_id, view.version)
    fails(lambda: race_stub.SubmitCommand(roll, metadata=auth(token), timeout=5), DENIED, "forbidden")
    # a spectator token is for the lobby's callers, not for the lobby itself
    fails(lambda: stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=auth(token), timeout=5), DENIED)


def test_a_seat_token_acts_only_for_its_seat_of_its_match(stub: Any, race_stub: Any) -> None:
    ada = sign_in(stub, "Ada")
    first, second = started_match(stub, ada), started_match(stub, sign_in(stub, "Bob"))
    mine = auth(first.seat_token)
    view, _, _ = reads(race_stub, first.match_id, mine)
    assert view.view.HasField("my_secret")  # its own seat's secret
    refused_everywhere(race_stub, second.match_id, mine, DENIED)
    roll = a_roll(first.match_id, view.version)
    fails(
        lambda: race_stub.SubmitCommand(
            roll, metadata=auth(SIGNER.seat("chess", first.match_id, 0, "x")), timeout=5
        ),
        DENIED,
    )


def test_only_the_lobby_service_token_creates_matches(stub: Any, race_stub: Any) -> None:
    pb2 = race()
    create = pb2.CreateMatchRequest(match_id="by-hand", seats=2)
    ada = sign_in(stub, "Ada")
    spectator = auth(SIGNER.spectator("race", "by-hand", "s"))
    for md in (ada.md, spectator, auth(SIGNER.seat("race", "by-hand", 0, "p"))):
        fails(partial(race_stub.CreateMatch, create, metadata=md, timeout=5), DENIED, "forbidden")
    other_game = auth(SIGNER.service("chess"))
    fails(lambda: race_stub.CreateMatch(create, metadata=other_game, timeout=5), DENIED, "forbidden")
    assert race_stub.CreateMatch(create, metadata=service_token(), timeout=5).match_id == "by-hand"


def test_a_private_match_is_watched_by_its_players_and_invitees_only(stub: Any, race_stub: Any) -> None:
    ada, ivy, eve = sign_in(stub, "Ada"), sign_in(stub, "Ivy"), sign_in(stub, "Eve")
    started = started_match(stub, ada, private=True, invite=ivy)
    ask = pb.GetSpectatorTokenRequest(match_id=started.match_id)
    fails(lambda: stub.GetSpectatorToken(ask, metadata=eve.md, timeout=5), DENIED, "forbidden")
    for guest in (ada, ivy):
        token = stub.GetSpectatorToken(ask, metadata=guest.md, timeout=5).token
        assert reads(race_stub, started.match_id, auth(token))[0].version >= 1
    public = started_match(stub, sign_in(stub, "Bob"))
    assert stub.GetSpectatorToken(
        pb.GetSpectatorTokenRequest(match_id=public.match_id), metadata=eve.md, timeout=5
    ).token
    listed = stub.ListMatches(pb.ListMatchesRequest(), metadata=eve.md, timeout=5).matches
    assert {m.match_id for m in listed} == {public.match_id}
