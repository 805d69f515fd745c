"""Every bad input gets INVALID_ARGUMENT naming its field, changes nothing, and logs no traceback.

Rule services (the race test game and Lorenzo) and the lobby, over real gRPC and Redis: each case
dumps all of Redis before and after the call, reads the ``BadRequest`` field path of the answer,
and looks at the log.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
import redis
from prometheus_client import REGISTRY
from tabula.lobby.v1 import lobby_pb2 as lb
from tabula.lobby.v1 import seasons_pb2

from services.games import load_game
from shared.serving.errors import MAX_MESSAGE
from tests.integration.hardening.conftest import (
    SERVICE,
    SIGNER,
    Served,
    auth,
    dump,
    errors_logged,
    play,
    refusal,
    seat,
    service,
)

BAD = grpc.StatusCode.INVALID_ARGUMENT


def refused(
    served: Served,
    client: redis.Redis,
    caplog: pytest.LogCaptureFixture,
    method: str,
    request: Any,
    metadata: list[tuple[str, str]] | None,
) -> tuple[str, tuple[str, ...]]:
    """Send a bad request; check it is INVALID_ARGUMENT, wrote nothing and logged nothing; give its
    reason and BadRequest fields."""
    raw = request if isinstance(request, bytes) else request.SerializeToString()
    before = dump(client)
    caplog.clear()
    answer = refusal(lambda: served.call(method, raw, metadata))
    assert answer.code == BAD, (method, answer)
    assert dump(client) == before, f"{method} changed Redis"
    assert errors_logged(caplog) == []
    assert len(answer.details) <= MAX_MESSAGE
    return answer.reason, answer.fields


# ---------------------------------------------------------------- the race rule service


@pytest.fixture(scope="module")
def race_match(race: Served) -> str:
    pb2 = load_game("race").modules.pb2
    race.call(
        "CreateMatch", pb2.CreateMatchRequest(match_id="r1", seats=2, seed=3).SerializeToString(), SERVICE
    )
    return "r1"


def race_cases(pb2: Any) -> list[tuple[str, Any, Any, str]]:
    """(method, request, caller, field): one bad field each."""
    roll = pb2.Command(roll=pb2.Roll())
    me = seat("r1", 0)
    submit = pb2.SubmitCommandRequest
    create = pb2.CreateMatchRequest
    return [
        ("GetView", pb2.GetViewRequest(), me, "match_id"),
        ("GetView", pb2.GetViewRequest(match_id="r1\n"), me, "match_id"),
        ("GetView", pb2.GetViewRequest(match_id="m" * 3_000_000), me, "match_id"),
        ("GetView", pb2.GetViewRequest(match_id="bad id"), me, "match_id"),
        ("SubmitCommand", submit(match_id="r1", expected_version=3, command_id="c"), me, "command"),
        (
            "SubmitCommand",
            submit(match_id="r1", expected_version=3, command_id="c", command=pb2.Command()),
            me,
            "command",
        ),
        ("SubmitCommand", submit(match_id="r1", expected_version=3, command=roll), me, "command_id"),
        (
            "SubmitCommand",
            submit(match_id="r1", expected_version=3, command_id="c" * 129, command=roll),
            me,
            "command_id",
        ),
        (
            "SubmitCommand",
            submit(match_id="r1", expected_version=3, command_id="c\x00", command=roll),
            me,
            "command_id",
        ),
        (
            "SubmitCommand",
            submit(match_id="r1", expected_version=-1, command_id="c", command=roll),
            me,
            "expected_version",
        ),
        ("WatchMatch", pb2.WatchMatchRequest(match_id="r1", from_version=-2), me, "from_version"),
        ("Replay", pb2.ReplayRequest(match_id="r1", version=-1), me, "version"),
        ("Replay", pb2.ReplayRequest(match_id="r1", version=99), me, "version"),
        ("ExportLog", pb2.ExportLogRequest(match_id="x" * 65), me, "match_id"),
        ("CreateMatch", create(match_id="r2", seats=2, seed=-1), SERVICE, "seed"),
        ("CreateMatch", create(match_id="r2", seats=-2), SERVICE, "seats"),
        ("CreateMatch", create(match_id="r2", seats=2, turn_seconds=-5), SERVICE, "turn_seconds"),
        ("CreateMatch", create(match_id="r2", seats=2, bots={5: "greedy"}), SERVICE, "bots"),
        ("CreateMatch", create(match_id="r2", seats=2, bots={1: ""}), SERVICE, "bots"),
        ("CreateMatch", create(match_id="r2", seats=2, players=["a", "b", "c"]), SERVICE, "players"),
        (
            "CreateMatch",
            create(match_id="r2", seats=2, options={f"k{i}": "1" for i in range(17)}),
            SERVICE,
            "options",
        ),
        ("CreateMatch", create(match_id="r2", seats=2, options={"goal": "9" * 65}), SERVICE, "options"),
        (
            "CreateMatch",
            create(match_id="r2", seats=2, options={f"k{i}": "1" for i in range(65)}),
            SERVICE,
            "options",
        ),
        ("CreateMatch", create(match_id="no/slash", seats=2), SERVICE, "match_id"),
    ]


def test_bad_fields_of_the_rule_service_are_named_and_change_nothing(
    race: Served, race_match: str, redis_db: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    pb2 = load_game("race").modules.pb2
    for method, request, caller, field in race_cases(pb2):
        reason, fields = refused(race, redis_db, caplog, method, request, caller)
        assert (reason, fields) == ("invalid_argument", (field,)), (method, request.ListFields()[:2])


def test_bytes_that_are_no_request_are_malformed_not_internal(
    race: Served, race_match: str, redis_db: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    junk = [b"\xff", b"\x0a\x05ab", b"\x0a\x02\xff\xfe", b"\x12\x80", b"\x08" + b"\xff" * 11]
    for method in race.service.methods_by_name:
        # GetContent's request has no fields: bytes that frame well are unknown fields (as ListGames)
        for raw in junk if method != "GetContent" else [j for j in junk if j != b"\x0a\x02\xff\xfe"]:
            assert refused(race, redis_db, caplog, method, raw, seat("r1", 0)) == ("malformed_request", ("",))


def test_a_three_megabyte_match_id_is_refused_without_being_echoed(race: Served, race_match: str) -> None:
    pb2 = load_game("race").modules.pb2
    answer = refusal(
        lambda: race.call(
            "GetView", pb2.GetViewRequest(match_id="m" * 3_000_000).SerializeToString(), seat("r1", 0)
        )
    )
    assert answer.code == BAD and answer.fields == ("match_id",) and "mmmm" not in answer.details


def test_refusals_are_counted_by_reason(race: Served, race_match: str) -> None:
    labels = {
        "service": "game",
        "method": "GetView",
        "code": "INVALID_ARGUMENT",
        "reason": "malformed_request",
    }
    before = REGISTRY.get_sample_value("tabula_rpc_errors_total", labels) or 0.0
    refusal(lambda: race.call("GetView", b"\xff", seat("r1", 0)))
    refusal(lambda: race.call("GetView", b"\xff", seat("r1", 0)))
    assert REGISTRY.get_sample_value("tabula_rpc_errors_total", labels) == before + 2


def test_good_requests_still_work_after_the_bad_ones(race: Served, race_match: str) -> None:
    pb2 = load_game("race").modules.pb2
    view = race.call("GetView", pb2.GetViewRequest(match_id="r1").SerializeToString(), seat("r1", 0))
    request = pb2.SubmitCommandRequest(
        match_id="r1", expected_version=view.version, command_id="good", command=pb2.Command(roll=pb2.Roll())
    )
    done = race.call("SubmitCommand", request.SerializeToString(), seat("r1", 0))
    assert done.first_version == view.version + 1 and not done.duplicate


def test_a_replay_at_version_zero_shows_the_state_before_the_setup(
    race: Served, lorenzo: Served, race_match: str, lorenzo_match: tuple[str, int]
) -> None:
    """Found by the fuzzer: the race game's view of a seat failed before its secret was dealt."""
    for served, game, match_id in ((race, "race", race_match), (lorenzo, "lorenzo", lorenzo_match[0])):
        pb2 = load_game(game).modules.pb2
        spectator = auth(SIGNER.spectator(game, match_id, "s"))
        for caller in (seat(match_id, 0, game), seat(match_id, 1, game), spectator, service(game)):
            reply = served.call(
                "Replay", pb2.ReplayRequest(match_id=match_id, version=0).SerializeToString(), caller
            )
            assert reply.version == 0


# ---------------------------------------------------------------- Lorenzo: commands against the rules' types


@pytest.fixture(scope="module")
def lorenzo_match(lorenzo: Served) -> tuple[str, int]:
    pb2 = load_game("lorenzo").modules.pb2
    lorenzo.call(
        "CreateMatch",
        pb2.CreateMatchRequest(match_id="lz", seats=3, seed=5).SerializeToString(),
        service("lorenzo"),
    )
    return "lz", play(lorenzo, pb2, "lz", 3)


def lorenzo_cases(pb2: Any) -> list[tuple[Any, str]]:
    place = pb2.PlaceFamilyMember
    privileges = pb2.ChooseCouncilPrivileges
    return [
        (pb2.Command(place_family_member=place()), "command.place_family_member.member"),
        (pb2.Command(place_family_member=place(member=99, space=1)), "command.place_family_member.member"),
        (pb2.Command(place_family_member=place(member=-1, space=1)), "command.place_family_member.member"),
        (
            pb2.Command(choose_council_privileges=privileges(privileges=[1, -1])),
            "command.choose_council_privileges.privileges[1]",
        ),
        (
            pb2.Command(choose_council_privileges=privileges(privileges=[0])),
            "command.choose_council_privileges.privileges[0]",
        ),
        (
            pb2.Command(choose_council_privileges=privileges(privileges=[1] * 65)),
            "command.choose_council_privileges.privileges",
        ),
        (
            pb2.Command(activate_leader=pb2.ActivateLeader(leader=1, member=0)),
            "command.activate_leader.member",
        ),
    ]


def test_enum_values_of_a_command_must_be_defined_members(
    lorenzo: Served, lorenzo_match: tuple[str, int], redis_db: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    pb2 = load_game("lorenzo").modules.pb2
    match_id, version = lorenzo_match
    for n, (command, field) in enumerate(lorenzo_cases(pb2)):
        request = pb2.SubmitCommandRequest(
            match_id=match_id, expected_version=version, command_id=f"bad-{n}", command=command
        )
        for caller in (service("lorenzo"), seat(match_id, 0, "lorenzo"), seat(match_id, 2, "lorenzo")):
            assert refused(lorenzo, redis_db, caplog, "SubmitCommand", request, caller) == (
                "invalid_argument",
                (field,),
            )


# ---------------------------------------------------------------- the lobby


@pytest.fixture(scope="module")
def guest(lobby: Served) -> list[tuple[str, str]]:
    reply = lobby.call("SignInGuest", lb.SignInGuestRequest(display_name="Ada").SerializeToString())
    return auth(reply.token)


@pytest.fixture(scope="module")
def room_id(lobby: Served, guest: list[tuple[str, str]]) -> str:
    request = lb.CreateRoomRequest(game="race", seats=2)
    return str(lobby.call("CreateRoom", request.SerializeToString(), guest).room.room_id)


def lobby_cases(room: str) -> list[tuple[str, Any, bool, str]]:
    """(method, request, as the guest, field)."""
    return [
        ("SignInGuest", lb.SignInGuestRequest(), False, "display_name"),
        ("SignInGuest", lb.SignInGuestRequest(display_name="x" * 40), False, "display_name"),
        ("SignInGuest", lb.SignInGuestRequest(display_name="x" * 5000), False, "display_name"),
        ("SignInGuest", lb.SignInGuestRequest(display_name="a\x07b"), False, "display_name"),
        ("CreateRoom", lb.CreateRoomRequest(game="nope", seats=2), True, "game"),
        ("CreateRoom", lb.CreateRoomRequest(game="g" * 1_000_000, seats=2), True, "game"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=9), True, "seats"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=-1), True, "seats"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=2, visibility=7), True, "visibility"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=2, turn_seconds=-1), True, "turn_seconds"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=2, options={"goal": "abc"}), True, "options"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=2, options={"goal": "0"}), True, "options"),
        ("CreateRoom", lb.CreateRoomRequest(game="race", seats=2, options={"x" * 300: "1"}), True, "options"),
        ("ListRooms", lb.ListRoomsRequest(game="race", limit=-1), True, "limit"),
        ("ListRooms", lb.ListRoomsRequest(), True, "game"),
        ("GetRoom", lb.GetRoomRequest(room_id="no such/room"), True, "room_id"),
        ("GetRoom", lb.GetRoomRequest(room_id=room + "\n"), True, "room_id"),
        ("JoinRoom", lb.JoinRoomRequest(), True, "room_id"),
        ("JoinRoom", lb.JoinRoomRequest(invite_code="bad"), True, "invite_code"),
        ("LeaveRoom", lb.LeaveRoomRequest(), True, "room_id"),
        ("AddBot", lb.AddBotRequest(room_id=room), True, "level"),
        ("AddBot", lb.AddBotRequest(room_id=room, level=9), True, "level"),
        ("RemoveBot", lb.RemoveBotRequest(room_id=room, seat=-1), True, "seat"),
        ("RemoveBot", lb.RemoveBotRequest(room_id=room, seat=7), True, "seat"),
        ("SetReady", lb.SetReadyRequest(room_id="r" * 65, ready=True), True, "room_id"),
        ("StartRoom", lb.StartRoomRequest(room_id=""), True, "room_id"),
        ("WatchRoom", lb.WatchRoomRequest(room_id="?"), True, "room_id"),
        ("GetSpectatorToken", lb.GetSpectatorTokenRequest(), True, "match_id"),
        ("Enqueue", lb.EnqueueRequest(game="race", bot_level=99), True, "bot_level"),
        ("Enqueue", lb.EnqueueRequest(game="race", seat_counts=[9]), True, "seat_counts"),
        ("Enqueue", lb.EnqueueRequest(game="race", seat_counts=[2] * 100), True, "seat_counts"),
        (
            "Enqueue",
            lb.EnqueueRequest(game="race", bot_fill_after_seconds=-1),
            True,
            "bot_fill_after_seconds",
        ),
        ("Enqueue", lb.EnqueueRequest(game="race", turn_seconds=3), True, "turn_seconds"),
        ("CancelQueue", lb.CancelQueueRequest(ticket_id=""), True, "ticket_id"),
        ("WatchQueue", lb.WatchQueueRequest(ticket_id="a b"), True, "ticket_id"),
        ("GetLeaderboard", lb.GetLeaderboardRequest(game="race", limit=-5), True, "limit"),
        ("GetLeaderboard", lb.GetLeaderboardRequest(game="race", season="a season"), True, "season"),
        ("ListSeasons", seasons_pb2.ListSeasonsRequest(limit=-1), True, "limit"),
        ("GetMatchHistory", lb.GetMatchHistoryRequest(player_id="bad id"), True, "player_id"),
        *account_cases(),
    ]


def account_cases() -> list[tuple[str, Any, bool, str]]:
    """(method, request, as the guest, field) of the account RPCs."""
    good = {"email": "ada@example.org", "password": "a fine password", "display_name": "Ada"}
    return [
        ("SignUp", lb.SignUpRequest(**(good | {"email": ""})), False, "email"),
        ("SignUp", lb.SignUpRequest(**(good | {"email": "ada@localhost"})), False, "email"),
        ("SignUp", lb.SignUpRequest(**(good | {"password": "short"})), False, "password"),
        ("SignUp", lb.SignUpRequest(**(good | {"password": "x" * 129})), False, "password"),
        ("SignUp", lb.SignUpRequest(**(good | {"display_name": "a\x07b"})), False, "display_name"),
        ("SignIn", lb.SignInRequest(email="ada"), False, "email"),
        ("SignIn", lb.SignInRequest(email="ada@example.org"), False, "password"),
        ("RefreshSession", lb.RefreshSessionRequest(refresh_token="garbage"), False, "refresh_token"),
        ("SignOut", lb.SignOutRequest(everywhere=True), False, "refresh_token"),
        ("UpgradeGuest", lb.UpgradeGuestRequest(**(good | {"email": "x@y"})), True, "email"),
        ("UpgradeGuest", lb.UpgradeGuestRequest(**(good | {"password": ""})), True, "password"),
        ("VerifyEmail", lb.VerifyEmailRequest(code="1234"), False, "code"),
        ("RequestPasswordReset", lb.RequestPasswordResetRequest(email="@example.org"), False, "email"),
        (
            "ResetPassword",
            lb.ResetPasswordRequest(code="A" * 43, new_password="short"),
            False,
            "new_password",
        ),
        (
            "ResetPassword",
            lb.ResetPasswordRequest(code="A" * 44, new_password="a fine password"),
            False,
            "code",
        ),
    ]


def test_bad_fields_of_the_lobby_are_named_and_change_nothing(
    lobby: Served,
    guest: list[tuple[str, str]],
    room_id: str,
    redis_db: redis.Redis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    for method, request, signed_in, field in lobby_cases(room_id):
        reason, fields = refused(lobby, redis_db, caplog, method, request, guest if signed_in else None)
        assert (reason, fields) == ("invalid_argument", (field,)), (method, request)


def test_bytes_that_are_no_lobby_request_are_malformed(
    lobby: Served, guest: list[tuple[str, str]], redis_db: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    for method in lobby.service.methods_by_name:
        junk = [b"\x0a\x05ab", b"\xff", b"\x12\x80"]
        first = lobby.request_type(method).DESCRIPTOR.fields_by_number.get(1)
        if first is not None and first.type == first.TYPE_STRING:  # else bytes that frame well are
            junk.append(b"\x0a\x02\xff\xfe")  # unknown fields; here field 1 is a string: not UTF-8
        for raw in junk:
            assert refused(lobby, redis_db, caplog, method, raw, guest) == ("malformed_request", ("",))
