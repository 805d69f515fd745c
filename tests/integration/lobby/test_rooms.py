"""Rooms through the real LobbyService on real Redis, starting real matches on the race rule service."""

from __future__ import annotations

import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import grpc
import pytest
import redis
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game, load_rules
from services.lobby.adapters import games as game_catalog
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import start_server
from shared.serving.tokens import LOBBY, Scope, game_audience
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import SIGNER, Guest, LobbyFactory, auth, fails, sign_in, state_size
from tests.support.timing import wait_until

INVALID, DENIED, UNAUTH = (
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
)
REFUSED, MISSING = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND


def create(stub: Any, host: Guest, seats: int = 4, private: bool = False, **options: str) -> Any:
    vis = pb.ROOM_VISIBILITY_PRIVATE if private else pb.ROOM_VISIBILITY_PUBLIC
    request = pb.CreateRoomRequest(game="race", seats=seats, options=options, visibility=vis, turn_seconds=60)
    return stub.CreateRoom(request, metadata=host.md, timeout=5).room


def join(stub: Any, guest: Guest, room_id: str) -> Any:
    return stub.JoinRoom(pb.JoinRoomRequest(room_id=room_id), metadata=guest.md, timeout=5)


def add_bot(stub: Any, host: Guest, room_id: str, level: int = pb.BOT_LEVEL_GREEDY) -> Any:
    return stub.AddBot(pb.AddBotRequest(room_id=room_id, level=level), metadata=host.md, timeout=5)


def ready(stub: Any, guest: Guest, room_id: str) -> Any:
    return stub.SetReady(pb.SetReadyRequest(room_id=room_id, ready=True), metadata=guest.md, timeout=5)


def retry_delay_s(err: grpc.RpcError) -> float:
    """The RetryInfo delay of a refusal (0: none)."""
    status = rpc_status.from_call(err)
    for detail in status.details if status is not None else []:
        info = error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            return float(info.retry_delay.ToNanoseconds()) / 1e9
    return 0.0


def test_guest_sign_in_gives_a_guest_token_with_the_name(stub: Any) -> None:
    reply = stub.SignInGuest(pb.SignInGuestRequest(display_name="  Ada   Lovelace "), timeout=5)
    claims = SIGNER.verify(reply.token, LOBBY)
    assert (claims.player_id, claims.scope, claims.name) == (reply.player_id, Scope.PLAYER, "Ada Lovelace")


def test_list_games_describes_each_game_from_its_manifest(stub: Any) -> None:
    games = {g.name: g for g in stub.ListGames(pb.ListGamesRequest(), timeout=5).games}
    race = games["race"]
    assert (race.title, race.min_seats, race.max_seats) == ("Dice race", 2, 4)
    goal, undo = race.options  # the game's own, then the platform's (every game's)
    assert (undo.name, undo.type, undo.default_value) == ("undo", pb.GAME_OPTION_TYPE_BOOL, "true")
    assert (goal.name, goal.type, goal.default_value, goal.minimum, goal.maximum) == (
        "goal",
        pb.GAME_OPTION_TYPE_INT,
        "20",
        1,
        100,
    )
    assert goal.HasField("minimum") and goal.HasField("maximum")
    assert all(
        o.type == pb.GAME_OPTION_TYPE_BOOL for g in games.values() if g.name != "race" for o in g.options
    )


BOOL = pb.GAME_OPTION_TYPE_BOOL


@pytest.mark.parametrize(
    ("name", "seats", "options", "word"),
    [
        ("lorenzo", ("Lorenzo il Magnifico", 2, 4), [("advanced", BOOL, "true")], "Vatican"),
        ("trajan", ("Trajan", 2, 4), [], "Trajan tiles"),
        ("florenza", ("Florenza", 2, 5), [("hidden_certificates", BOOL, "true")], "certificates"),
    ],
)
def test_list_games_gives_each_real_game_its_seats_and_options(
    stub: Any, name: str, seats: tuple[str, int, int], options: list[tuple[str, int, str]], word: str
) -> None:
    """Title, seat range and options as the manifest has them; ``word`` is in the texts a player reads
    (the description, an option's)."""
    (game,) = [g for g in stub.ListGames(pb.ListGamesRequest(), timeout=5).games if g.name == name]
    assert (game.title, game.min_seats, game.max_seats) == seats
    assert [(o.name, o.type, o.default_value) for o in game.options] == [*options, ("undo", BOOL, "true")]
    assert word in " ".join([game.description, *(o.description for o in game.options)])


def test_the_lobby_loads_every_games_rules_before_it_serves(
    make_lobby: LobbyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not in the first call that lists or validates (seconds per game on a loaded machine: a first
    ListGames ran out of its deadline)."""
    loaded: list[str] = []
    real = load_rules  # what the catalog module imported

    def counted(name: str) -> Any:
        loaded.append(name)
        return real(name)

    monkeypatch.setattr(game_catalog, "load_rules", counted)
    lobby = make_lobby(background=False)
    assert sorted(loaded) == sorted(lobby.catalog.names())
    with grpc.insecure_channel(f"127.0.0.1:{lobby.port}") as channel:
        listed = lobby_pb2_grpc.LobbyServiceStub(channel).ListGames(pb.ListGamesRequest(), timeout=5)
    assert {g.name for g in listed.games} <= set(loaded) and len(loaded) == len(set(loaded))


def test_a_room_keeps_its_options_canonical_with_the_defaults_filled_in(stub: Any) -> None:
    assert dict(create(stub, sign_in(stub, "Ada")).options) == {"goal": "20"}
    assert dict(create(stub, sign_in(stub, "Bob"), goal=" 012").options) == {"goal": "12"}
    # the platform's option (every game's) is kept when given, canonical, and the rules never see it
    assert dict(create(stub, sign_in(stub, "Cy"), undo="NO").options) == {"goal": "20", "undo": "false"}


def test_bad_names_and_tokens_are_refused(stub: Any, redis_client: redis.Redis) -> None:
    before = state_size(redis_client)
    for name in ("", "   ", "x" * 33, "bad\x00name"):
        request = pb.SignInGuestRequest(display_name=name)
        fails(partial(stub.SignInGuest, request, timeout=5), INVALID)
    assert state_size(redis_client) == before
    guest = sign_in(stub, "Ada")
    request = pb.ListRoomsRequest(game="race")
    fails(lambda: stub.ListRooms(request, timeout=5), UNAUTH, "bad_token")
    fails(lambda: stub.ListRooms(request, metadata=auth(guest.token + "x"), timeout=5), UNAUTH, "bad_token")
    expired = SIGNER.player(guest.player_id, "Ada", ttl_s=-1)
    fails(lambda: stub.ListRooms(request, metadata=auth(expired), timeout=5), UNAUTH, "bad_token")
    seat = SIGNER.seat("race", "m", 0, guest.player_id)
    fails(lambda: stub.ListRooms(request, metadata=auth(seat), timeout=5), DENIED, "forbidden")


def test_bad_rooms_are_refused_and_change_nothing(stub: Any, redis_client: redis.Redis) -> None:
    host = sign_in(stub, "Ada")
    before = state_size(redis_client)
    bad = [
        pb.CreateRoomRequest(game="chess", seats=2),
        pb.CreateRoomRequest(game="race", seats=1),
        pb.CreateRoomRequest(game="race", seats=5),
        pb.CreateRoomRequest(game="race", seats=2, options={"goal": "zero"}),
        pb.CreateRoomRequest(game="race", seats=2, turn_seconds=3),
        pb.CreateRoomRequest(game="race", seats=2, visibility=7),
    ]
    for request in bad:
        fails(partial(stub.CreateRoom, request, metadata=host.md, timeout=5), INVALID, "invalid_argument")
    assert state_size(redis_client) == before
    err = fails(lambda: stub.CreateRoom(bad[0], metadata=host.md, timeout=5), INVALID)
    assert "unknown game 'chess'" in (err.details() or "")


def test_two_guests_and_two_bots_start_a_race_match(
    stub: Any, race_stub: Any, redis_client: redis.Redis
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada, goal="30")
    listed = stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=bob.md, timeout=5).rooms
    assert [r.room_id for r in listed] == [room.room_id]
    assert join(stub, bob, room.room_id).seat == 1
    assert add_bot(stub, ada, room.room_id).seat == 2
    assert add_bot(stub, ada, room.room_id, pb.BOT_LEVEL_MCTS).seat == 3
    fails(
        lambda: stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5),
        REFUSED,
        "players_not_ready",
    )
    ready(stub, bob, room.room_id)
    fails(
        lambda: stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5), DENIED
    )
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10)
    assert started.room.status == pb.ROOM_STATUS_STARTED and started.seat == 0 and started.match_id
    meta = wait(RedisEventStore(redis_client).get_meta(started.match_id))
    assert json.loads(meta["bots"]) == {"2": "greedy", "3": "mcts"}
    assert json.loads(meta["players"]) == [ada.player_id, bob.player_id, "", ""]
    assert json.loads(meta["options"]) == {"goal": "30"} and meta["turn_seconds"] == "60"
    bob_view = stub.GetRoom(pb.GetRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    claims = SIGNER.verify(bob_view.seat_token, game_audience("race"))
    assert (claims.scope, claims.match_id, claims.seat) == (Scope.SEAT, started.match_id, 1)
    race_pb = race_stub_pb()
    view = race_stub.GetView(
        race_pb.GetViewRequest(match_id=started.match_id), metadata=auth(bob_view.seat_token), timeout=5
    )
    assert view.view.HasField("my_secret") and list(view.view.positions) == [0, 0, 0, 0]
    assert not stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=bob.md, timeout=5).rooms


def race_stub_pb() -> Any:
    from services.games import load_game

    return load_game("race").modules.pb2


def test_exactly_one_of_many_takes_the_last_seat(stub: Any) -> None:
    host = sign_in(stub, "Host")
    room = create(stub, host, seats=2)
    guests = [sign_in(stub, f"G{i}") for i in range(12)]
    barrier = threading.Barrier(len(guests))

    def try_join(guest: Guest) -> str:
        barrier.wait()
        try:
            join(stub, guest, room.room_id)
            return "ok"
        except grpc.RpcError as err:
            assert err.code() == REFUSED, err.details()
            return "refused"

    with ThreadPoolExecutor(len(guests)) as pool:
        results = list(pool.map(try_join, guests))
    assert results.count("ok") == 1
    final = stub.GetRoom(pb.GetRoomRequest(room_id=room.room_id), metadata=host.md, timeout=5).room
    winner = guests[results.index("ok")]
    assert [s.player_id for s in final.seats] == [host.player_id, winner.player_id]


def test_private_rooms_are_joined_by_invite_code_only(stub: Any) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    room = create(stub, ada, seats=3, private=True)
    assert len(room.invite_code) == 8
    assert not stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=bob.md, timeout=5).rooms
    fails(lambda: join(stub, bob, room.room_id), DENIED)
    seen = stub.GetRoom(pb.GetRoomRequest(room_id=room.room_id), metadata=eve.md, timeout=5).room
    assert seen.invite_code == ""
    for code in ("", "short", "TOOLONGCODE1", "lower!!!"):
        fails(
            partial(stub.JoinRoom, pb.JoinRoomRequest(invite_code=code), metadata=bob.md, timeout=5),
            INVALID,
        )
    fails(
        lambda: stub.JoinRoom(pb.JoinRoomRequest(invite_code="ABCDEFGH"), metadata=bob.md, timeout=5), MISSING
    )
    fails(lambda: stub.JoinRoom(pb.JoinRoomRequest(), metadata=bob.md, timeout=5), INVALID)
    joined = stub.JoinRoom(
        pb.JoinRoomRequest(invite_code=room.invite_code.lower()), metadata=bob.md, timeout=5
    )
    assert joined.seat == 1 and joined.room.invite_code == room.invite_code


def test_leaving_hands_over_the_host_and_the_last_one_out_closes(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada)
    join(stub, bob, room.room_id)
    after = stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5).room
    assert after.host_player_id == bob.player_id and after.seats[0].empty
    fails(
        lambda: stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5),
        REFUSED,
        "not_in_room",
    )
    closed = stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5).room
    assert closed.status == pb.ROOM_STATUS_CLOSED
    fails(lambda: join(stub, ada, room.room_id), REFUSED, "room_closed")
    assert not stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=ada.md, timeout=5).rooms


def test_a_player_waits_in_one_room_at_a_time(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    first = create(stub, ada)
    second = create(stub, bob)
    fails(lambda: join(stub, ada, second.room_id), REFUSED, "busy")
    fails(lambda: create(stub, ada), REFUSED, "busy")
    stub.LeaveRoom(pb.LeaveRoomRequest(room_id=first.room_id), metadata=ada.md, timeout=5)
    assert join(stub, ada, second.room_id).seat == 1


def test_bots_are_managed_by_the_host(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada, seats=2)
    fails(lambda: add_bot(stub, bob, room.room_id), DENIED)
    fails(lambda: add_bot(stub, ada, room.room_id, pb.BOT_LEVEL_UNSPECIFIED), INVALID)
    add_bot(stub, ada, room.room_id, pb.BOT_LEVEL_RANDOM)
    fails(lambda: add_bot(stub, ada, room.room_id), REFUSED, "room_full")
    fails(lambda: join(stub, bob, room.room_id), REFUSED, "room_full")
    remove = pb.RemoveBotRequest(room_id=room.room_id, seat=0)
    fails(lambda: stub.RemoveBot(remove, metadata=ada.md, timeout=5), REFUSED, "not_a_bot")
    fails(
        lambda: stub.RemoveBot(pb.RemoveBotRequest(room_id=room.room_id, seat=9), metadata=ada.md, timeout=5),
        INVALID,
    )
    after = stub.RemoveBot(pb.RemoveBotRequest(room_id=room.room_id, seat=1), metadata=ada.md, timeout=5).room
    assert after.seats[1].empty
    fails(
        lambda: stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5),
        REFUSED,
        "seats_not_full",
    )
    fails(
        lambda: stub.GetRoom(pb.GetRoomRequest(room_id="nope"), metadata=ada.md, timeout=5),
        MISSING,
        "not_found",
    )


def test_watch_room_pushes_changes_and_ends_with_the_seat_token(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada, seats=2)
    stream = stub.WatchRoom(pb.WatchRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=20)
    first = next(stream)
    assert first.room.room.version == room.version
    join(stub, bob, room.room_id)
    ready(stub, bob, room.room_id)
    stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10)
    rooms = [item.room for item in stream if item.WhichOneof("item") == "room"]
    assert rooms[-1].room.status == pb.ROOM_STATUS_STARTED
    assert SIGNER.verify(rooms[-1].seat_token, game_audience("race")).seat == 1
    versions = [r.room.version for r in rooms]
    assert versions == sorted(set(versions))


def test_a_start_while_the_rule_service_is_down_is_unavailable_and_changes_nothing(
    make_lobby: LobbyFactory, refused_port: socket.socket, redis_client: redis.Redis
) -> None:
    """UNAVAILABLE (retryable), not FAILED_PRECONDITION: the room stays startable as it was (no
    match id, no match in the players' lists, no viewers kept for a private match), and the very
    same request starts it once the rule service is back."""
    port = refused_port.getsockname()[1]
    channel = grpc.insecure_channel(f"127.0.0.1:{make_lobby(race=port).port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada, seats=3, private=True)
    stub.JoinRoom(pb.JoinRoomRequest(invite_code=room.invite_code), metadata=bob.md, timeout=5)
    ready(stub, bob, room.room_id)
    add_bot(stub, ada, room.room_id)
    before = stub.GetRoom(pb.GetRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5).room
    keys_before = state_size(redis_client)
    request = pb.StartRoomRequest(room_id=room.room_id)
    err = fails(
        lambda: stub.StartRoom(request, metadata=ada.md, timeout=20),
        grpc.StatusCode.UNAVAILABLE,
        "game_service_unavailable",
    )
    assert retry_delay_s(err) > 0
    after = stub.GetRoom(pb.GetRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5).room
    assert after.status == pb.ROOM_STATUS_OPEN and after.match_id == ""
    after.version = before.version  # the room was frozen and reopened: only its version moved
    assert after == before
    assert state_size(redis_client) == keys_before  # no match listed for Ada or Bob, no viewers
    for guest in (ada, bob):
        mine = stub.ListMyMatches(pb.ListMyMatchesRequest(), metadata=guest.md, timeout=5)
        assert not mine.matches
    game = load_game("race")
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))
    refused_port.close()  # the service comes back on its port
    back = start_server([GameServicer(runner, game.modules, SIGNER).registration()], port=port)
    try:

        def start() -> Any:
            try:
                return stub.StartRoom(request, metadata=ada.md, timeout=20)
            except grpc.RpcError as retried:  # the lobby's channel may still wait to reconnect
                assert retried.code() is grpc.StatusCode.UNAVAILABLE, retried.details()
                return None

        started = wait_until(start, 30, "a retried start once the rule service is back", interval=0.2)
        assert started.match_id and started.room.status == pb.ROOM_STATUS_STARTED
        assert wait(runner.load(started.match_id)).meta.fields()["players"] == json.dumps(
            [ada.player_id, bob.player_id, ""]
        )
        mine = stub.ListMyMatches(pb.ListMyMatchesRequest(), metadata=bob.md, timeout=5)
        assert [m.match_id for m in mine.matches] == [started.match_id]
    finally:
        back.stop(0)
        channel.close()


def test_spectator_tokens_see_the_public_view(stub: Any, race_stub: Any) -> None:
    ada, eve = sign_in(stub, "Ada"), sign_in(stub, "Eve")
    room = create(stub, ada, seats=2)
    add_bot(stub, ada, room.room_id)
    match_id = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10).match_id
    reply = stub.GetSpectatorToken(pb.GetSpectatorTokenRequest(match_id=match_id), metadata=eve.md, timeout=5)
    assert reply.game == "race" and SIGNER.verify(reply.token, game_audience("race")).scope is Scope.SPECTATOR
    race_pb = race_stub_pb()
    view = race_stub.GetView(race_pb.GetViewRequest(match_id=match_id), metadata=auth(reply.token), timeout=5)
    assert not view.view.HasField("my_secret") and not view.legal_commands
    fails(
        lambda: stub.GetSpectatorToken(
            pb.GetSpectatorTokenRequest(match_id="nope"), metadata=eve.md, timeout=5
        ),
        MISSING,
    )
