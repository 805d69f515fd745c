"""Abuse limits over real gRPC and a private Redis: token buckets shared by every instance, the
sign-in and room floods of issue 13 cut off, quotas, the client address the gateway signs, and
guest names that expire with their identity."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
import redis
import redis.asyncio
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.adapters.ratings_repo import RatingsRepository
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving import forwarded
from shared.serving.errors import ResourceExhausted, error_info
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, on_loop, start_server
from shared.serving.ratelimit import PREFIX, RATES, Limiter, Rate
from shared.serving.tokens import Keyring
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import SIGNER, Guest, LobbyFactory, auth, fails, sign_in
from tests.support.timing import scaled

EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


def limiter(client: redis.Redis, watches: int = 8, **rates: str) -> Limiter:
    """The defaults, with ``rates`` (``sign_in_ip="3/1"``) instead."""
    chosen = {name: Rate.parse(rates.get(name, text)) for name, text in RATES.items()}
    return Limiter(client, chosen, {"watches_per_token": watches}, SIGNER.keys)


def from_address(address: str) -> list[tuple[str, str]]:
    """The metadata of a call the gateway forwards for a client at ``address``."""
    return [(forwarded.HEADER, forwarded.sign(SIGNER.keys.current, address))]


def retry_delay_s(err: grpc.RpcError) -> float:
    status = rpc_status.from_call(err)
    assert status is not None
    for detail in status.details:
        info = error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            return float(info.retry_delay.ToNanoseconds()) / 1e9
    raise AssertionError("no RetryInfo")


def limited(call: Any, limit: str, reason: str = "rate_limited") -> float:
    """``call`` is RESOURCE_EXHAUSTED for ``limit``; its retry delay in seconds."""
    err = fails(call, EXHAUSTED, reason)
    info = error_info(err)
    assert info is not None and info.metadata["limit"] == limit, info
    return retry_delay_s(err)


def stub_of(lobby: Any) -> Any:
    return lobby_pb2_grpc.LobbyServiceStub(grpc.insecure_channel(f"127.0.0.1:{lobby.port}"))


def sign_in_request(name: str = "Ada") -> pb.SignInGuestRequest:
    return pb.SignInGuestRequest(display_name=name)


# ---------------------------------------------------------------- the bucket


def test_the_bucket_refills_and_says_when(make_lobby: LobbyFactory, redis_client: redis.Redis) -> None:
    # one token every 3 s: slow enough that the four calls below never earn one back in between
    stub = stub_of(make_lobby(limiter=limiter(redis_client, sign_in_ip="3/9")))
    for _ in range(3):
        stub.SignInGuest(sign_in_request(), timeout=5)
    delay = limited(lambda: stub.SignInGuest(sign_in_request(), timeout=5), "sign_in_ip")
    assert 0 < delay <= 3 + 0.01
    time.sleep(delay + 0.05)
    assert stub.SignInGuest(sign_in_request(), timeout=5).token
    limited(lambda: stub.SignInGuest(sign_in_request(), timeout=5), "sign_in_ip")


def test_two_lobby_instances_share_one_bucket(make_lobby: LobbyFactory, redis_client: redis.Redis) -> None:
    first = stub_of(make_lobby(limiter=limiter(redis_client, sign_in_ip="5/600")))
    second = stub_of(make_lobby(limiter=limiter(redis_client, sign_in_ip="5/600")))
    for stub in (first, second, first, second, first):
        stub.SignInGuest(sign_in_request(), timeout=5)
    for stub in (first, second):
        limited(lambda s=stub: s.SignInGuest(sign_in_request(), timeout=5), "sign_in_ip")


def test_a_limiter_on_an_event_loop_takes_from_the_same_buckets(redis_client: redis.Redis) -> None:
    kwargs = redis_client.connection_pool.connection_kwargs
    chosen = limiter(redis_client, command_ip="4/60", command_player="2/60")
    context = Peer("ipv4:127.0.0.1:4000")

    async def calls() -> tuple[ResourceExhausted, ResourceExhausted]:
        looped = redis.asyncio.Redis(host=kwargs["host"], port=kwargs["port"])
        limits = Limiter(redis_client, chosen.rates, chosen.quotas, async_client=looped)
        try:
            await limits.check("command", context, "p1")
            wait(chosen.check("command", context, "p1"))  # the same buckets, from another limiter and loop
            with pytest.raises(ResourceExhausted) as by_player:
                await limits.check("command", context, "p1")
            await limits.check("command", context, "p2")  # another player: the address's fourth
            with pytest.raises(ResourceExhausted) as by_address:
                await limits.check("command", context, "p3")
            return by_player.value, by_address.value
        finally:
            await looped.aclose()

    by_player, by_address = asyncio.run(calls())
    assert (by_player.limit, by_player.reason) == ("command_player", "rate_limited")
    assert (by_address.limit, by_address.reason) == ("command_ip", "rate_limited")
    assert 0 < by_player.retry_after_s <= 30 and 0 < by_address.retry_after_s <= 15


class Peer:
    """The parts of a gRPC context the limiter reads."""

    def __init__(self, peer: str) -> None:
        self._peer = peer

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return ()


class Unread(Peer):
    """A context the limiter must not read: every read fails the test."""

    def peer(self) -> str:
        raise AssertionError("the limiter read the caller's address")

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        raise AssertionError("the limiter read the forwarded address")


def test_an_action_whose_limits_are_off_takes_from_no_bucket(redis_client: redis.Redis) -> None:
    kwargs = redis_client.connection_pool.connection_kwargs
    chosen = limiter(redis_client, command_ip="off", command_player="off", read_ip="off", read_player="1/60")

    async def calls() -> None:
        looped = redis.asyncio.Redis(host=kwargs["host"], port=kwargs["port"])
        limits = Limiter(redis_client, chosen.rates, chosen.quotas, async_client=looped)
        try:
            for _ in range(3):
                await limits.check("command", Unread("ipv4:127.0.0.1:4000"), "p1")
            assert redis_client.keys(f"{PREFIX}:command_*") == []
            # one limit of the action on: the call counts (and reads the address for the other)
            await limits.check("read", Peer("ipv4:127.0.0.1:4000"), "p1")
            with pytest.raises(ResourceExhausted) as err:
                await limits.check("read", Peer("ipv4:127.0.0.1:4000"), "p1")
            assert err.value.limit == "read_player"
        finally:
            await looped.aclose()

    asyncio.run(calls())


def test_the_limiter_itself_refuses_with_the_limit_and_a_delay(redis_client: redis.Redis) -> None:
    limits = limiter(redis_client, join_player="2/10")
    started = time.monotonic()
    wait(limits.take("join_player", "p1"))
    wait(limits.take("join_player", "p1"))
    wait(limits.take("join_player", "p2"))  # another identity has its own bucket
    with pytest.raises(ResourceExhausted) as err:
        wait(limits.take("join_player", "p1"))
    refilling = time.monotonic() - started  # the empty bucket has been refilling since (ms rounding)
    assert (err.value.limit, err.value.reason) == ("join_player", "rate_limited")
    assert 5 - refilling - 0.01 <= err.value.retry_after_s <= 5  # one token every 5 s


# ---------------------------------------------------------------- the floods of issue 13


def test_a_flood_of_sign_ins_is_cut_off_at_the_default_rate(make_lobby: LobbyFactory) -> None:
    stub = stub_of(make_lobby())
    started = time.monotonic()

    def attempt(_: int) -> str:
        try:
            stub.SignInGuest(sign_in_request("Flood"), timeout=10)
            return "ok"
        except grpc.RpcError as err:
            assert err.code() == EXHAUSTED, err.details()
            return "limited"

    with ThreadPoolExecutor(32) as pool:
        results = Counter(pool.map(attempt, range(400)))
    refilled = (time.monotonic() - started) * 30 / 60  # the default: 30 at once, then 30 a minute
    assert 30 <= results["ok"] <= 30 + refilled + 1, results
    assert results["limited"] == 400 - results["ok"]


def test_a_flood_of_rooms_is_cut_off_per_address_and_per_player(make_lobby: LobbyFactory) -> None:
    stub = stub_of(make_lobby())
    # many identities (tokens are cheap to get once sign-ins are spread over time) from one address
    guests = [Guest(f"g-{n}", SIGNER.player(f"g-{n}", f"Flood {n}")) for n in range(60)]

    def create(guest: Guest) -> str:
        try:
            stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=guest.md, timeout=10)
            return "ok"
        except grpc.RpcError as err:
            assert err.code() == EXHAUSTED, err.details()
            return "limited"

    started = time.monotonic()
    with ThreadPoolExecutor(16) as pool:
        results = Counter(pool.map(create, guests))
    refilled = (time.monotonic() - started) * 30 / 60  # 30 at once, then 30 a minute: slower, more
    assert 30 <= results["ok"] <= 30 + refilled + 1 and results["limited"] == 60 - results["ok"], results
    listed = stub.ListRooms(pb.ListRoomsRequest(game="race", limit=200), metadata=guests[0].md, timeout=5)
    assert len(listed.rooms) == results["ok"]


def test_one_player_opening_and_closing_rooms_is_limited(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(limiter=limiter(redis_client, create_room_player="4/600")))
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    for _ in range(4):
        room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
        stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5)  # closes it
    request = pb.CreateRoomRequest(game="race", seats=2)
    limited(lambda: stub.CreateRoom(request, metadata=ada.md, timeout=5), "create_room_player")
    assert stub.CreateRoom(request, metadata=bob.md, timeout=5).room.room_id  # Bob has his own bucket


def test_joins_are_limited_per_player(make_lobby: LobbyFactory, redis_client: redis.Redis) -> None:
    stub = stub_of(make_lobby(limiter=limiter(redis_client, join_player="2/600")))
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=3), metadata=ada.md, timeout=5).room
    join = pb.JoinRoomRequest(room_id=room.room_id)
    for _ in range(2):
        stub.JoinRoom(join, metadata=bob.md, timeout=5)
        stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    limited(lambda: stub.JoinRoom(join, metadata=bob.md, timeout=5), "join_player")
    enqueue = pb.EnqueueRequest(game="race")
    limited(lambda: stub.Enqueue(enqueue, metadata=bob.md, timeout=5), "join_player")  # a join too


# ---------------------------------------------------------------- quotas


def test_a_player_has_one_open_room_at_a_time(stub: Any) -> None:
    """The open-room quota per player is one: a player sits in one room (or queue) at a time."""
    ada = sign_in(stub, "Ada")
    request = pb.CreateRoomRequest(game="race", seats=2)
    room = stub.CreateRoom(request, metadata=ada.md, timeout=5).room
    fails(
        lambda: stub.CreateRoom(request, metadata=ada.md, timeout=5),
        grpc.StatusCode.FAILED_PRECONDITION,
        "busy",
    )
    stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5)
    assert stub.CreateRoom(request, metadata=ada.md, timeout=5).room.room_id


def first_of(stream: Any) -> Any:
    return next(iter(stream))


def test_open_watch_streams_per_token_are_capped_and_given_back(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(limiter=limiter(redis_client, watches=2)))
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=3), metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    watch = pb.WatchRoomRequest(room_id=room.room_id)
    open_ = [stub.WatchRoom(watch, metadata=ada.md, timeout=30) for _ in range(2)]
    for stream in open_:
        assert first_of(stream).room.room.room_id == room.room_id
    third = stub.WatchRoom(watch, metadata=ada.md, timeout=30)
    limited(lambda: first_of(third), "watches_per_token", "quota_exceeded")
    notices = stub.WatchMyNotices(pb.WatchMyNoticesRequest(), metadata=ada.md, timeout=30)
    limited(lambda: first_of(notices), "watches_per_token", "quota_exceeded")  # every lobby stream counts
    assert first_of(stub.WatchRoom(watch, metadata=bob.md, timeout=30)).room  # Bob's token: his own quota
    open_[0].cancel()  # the cancelled call gives its lease back at once
    deadline = time.monotonic() + scaled(10)
    while True:
        again = stub.WatchRoom(watch, metadata=ada.md, timeout=30)
        try:
            assert first_of(again).room.room.room_id == room.room_id
            break
        except grpc.RpcError:
            assert time.monotonic() < deadline, "the lease of the cancelled stream was not given back"
            time.sleep(0.05)
    again.cancel()
    open_[1].cancel()


def serve_race(client: redis.Redis, limits: Limiter) -> RunningServer:
    game = load_game("race")
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(client))
    return start_server([GameServicer(runner, game.modules, SIGNER, limiter=limits).registration()])


@pytest.fixture(params=["async", "sync"])
def limited_race(
    race_pb: Any, redis_client: redis.Redis, request: pytest.FixtureRequest
) -> Iterator[RunningServer]:
    """The race rule service with limits: 3 commands per player a minute, 1 watch per token; its
    SubmitCommand takes from the buckets with a ``redis.asyncio`` client as a deployed one does, or
    with the one the limiter makes like its synchronous client."""
    kwargs = redis_client.connection_pool.connection_kwargs
    looped = (
        redis.asyncio.Redis(host=kwargs["host"], port=kwargs["port"]) if request.param == "async" else None
    )
    chosen = limiter(redis_client, watches=1, command_player="3/60")
    limits = Limiter(redis_client, chosen.rates, chosen.quotas, async_client=looped)
    running = serve_race(redis_client, limits)
    yield running
    running.stop(0)
    if looped is not None:
        on_loop(looped.aclose(), 10)


def test_commands_and_watches_on_the_rule_service_are_limited(
    limited_race: RunningServer, make_lobby: LobbyFactory
) -> None:
    stub = stub_of(make_lobby(race=limited_race.port))
    race = load_game("race").modules
    game = race.pb2_grpc.RaceServiceStub(grpc.insecure_channel(f"127.0.0.1:{limited_race.port}"))
    ada = sign_in(stub, "Ada")
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
    stub.AddBot(pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM), metadata=ada.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10)
    seat = auth(started.seat_token)
    match_id = started.match_id
    for n in range(3):  # refused by the rules or stale, each still counts as a command
        request = race.pb2.SubmitCommandRequest(
            match_id=match_id,
            expected_version=0,
            command_id=f"c{n}",
            command=race.pb2.Command(roll=race.pb2.Roll()),
        )
        with pytest.raises(grpc.RpcError) as err:
            game.SubmitCommand(request, metadata=seat, timeout=5)
        assert err.value.code() != EXHAUSTED
    limited(lambda: game.SubmitCommand(request, metadata=seat, timeout=5), "command_player")
    spectator = stub.GetSpectatorToken(
        pb.GetSpectatorTokenRequest(match_id=match_id), metadata=ada.md, timeout=5
    )
    watch = race.pb2.WatchMatchRequest(match_id=match_id, from_version=1)
    first = game.WatchMatch(watch, metadata=auth(spectator.token), timeout=30)
    assert first_of(first)
    second = game.WatchMatch(watch, metadata=auth(spectator.token), timeout=30)
    limited(lambda: first_of(second), "watches_per_token", "quota_exceeded")
    first.cancel()


def test_reads_on_the_rule_service_are_limited_per_player_and_per_address(
    race_pb: Any, redis_client: redis.Redis
) -> None:
    """GetView, Replay and ExportLog of seats and spectators share the read limits; service tokens
    (the lobby, bots) read without limit."""
    running = serve_race(redis_client, limiter(redis_client, read_player="3/600", read_ip="9/5400"))
    race = load_game("race").modules
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    try:
        game = race.pb2_grpc.RaceServiceStub(channel)
        service = auth(SIGNER.service("race"))
        create = race.pb2.CreateMatchRequest(match_id="reads", seats=2)
        head = game.CreateMatch(create, metadata=service, timeout=5).version
        ada = auth(SIGNER.seat("race", "reads", 0, "ada"))
        view = race.pb2.GetViewRequest(match_id="reads")
        replay = race.pb2.ReplayRequest(match_id="reads", version=1)
        export = race.pb2.ExportLogRequest(match_id="reads")
        assert game.GetView(view, metadata=ada, timeout=5).version == head
        assert game.Replay(replay, metadata=ada, timeout=5).version == 1
        fails(lambda: game.ExportLog(export, metadata=ada, timeout=5), grpc.StatusCode.PERMISSION_DENIED)
        for read in (
            lambda: game.GetView(view, metadata=ada, timeout=5),
            lambda: game.Replay(replay, metadata=ada, timeout=5),
            lambda: game.ExportLog(export, metadata=ada, timeout=5),
        ):
            assert 0 < limited(read, "read_player") <= 600 / 3  # one read every 200 s
        for _ in range(10):
            assert game.GetView(view, metadata=service, timeout=5).version == head
        # the address counts every read, the refused ones too: six of its nine are gone, three are left
        watcher = auth(SIGNER.spectator("race", "reads", "watcher"))
        bob = auth(SIGNER.seat("race", "reads", 1, "bob"))
        assert game.GetView(view, metadata=watcher, timeout=5).version == head
        assert game.Replay(replay, metadata=bob, timeout=5).version == 1
        assert game.GetView(view, metadata=bob, timeout=5).version == head
        eve = auth(SIGNER.spectator("race", "reads", "eve"))
        assert 0 < limited(lambda: game.GetView(view, metadata=eve, timeout=5), "read_ip") <= 5400 / 9
        forged = [*eve, ("x-forwarded-for", "203.0.113.5")]  # a direct caller cannot choose its address
        limited(lambda: game.GetView(view, metadata=forged, timeout=5), "read_ip")
        elsewhere = [*eve, *from_address("203.0.113.5")]  # the gateway's signed address is believed
        assert game.GetView(view, metadata=elsewhere, timeout=5).version == head
    finally:
        channel.close()
        running.stop(0)


# ---------------------------------------------------------------- who is calling


def test_the_address_the_gateway_signs_is_the_one_counted(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(limiter=limiter(redis_client, sign_in_ip="2/600")))
    for _ in range(2):
        stub.SignInGuest(sign_in_request(), metadata=from_address("203.0.113.7"), timeout=5)
    from_there = from_address("203.0.113.7")
    limited(lambda: stub.SignInGuest(sign_in_request(), metadata=from_there, timeout=5), "sign_in_ip")
    assert stub.SignInGuest(sign_in_request(), metadata=from_address("203.0.113.8"), timeout=5).token


def test_a_caller_without_the_secret_cannot_choose_its_address(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(limiter=limiter(redis_client, sign_in_ip="2/600")))
    other = forwarded.sign(Keyring.of(b"not-the-lobby-secret-0123456789abcdef").current, "203.0.113.1")
    for metadata in ([("x-forwarded-for", "203.0.113.0")], [(forwarded.HEADER, other)]):
        stub.SignInGuest(sign_in_request(), metadata=metadata, timeout=5)
    elsewhere = [("x-forwarded-for", "203.0.113.99")]
    limited(lambda: stub.SignInGuest(sign_in_request(), metadata=elsewhere, timeout=5), "sign_in_ip")


# ---------------------------------------------------------------- guests expire


def test_a_guest_name_expires_with_the_identity_and_each_call_refreshes_it(
    stub: Any, redis_client: redis.Redis
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    name_key = keys.guest(ada.player_id)
    assert redis_client.get(name_key) == b"Ada"
    assert keys.GUEST_TTL_S - 5 <= redis_client.ttl(name_key) <= keys.GUEST_TTL_S
    redis_client.expire(name_key, 30)
    stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=ada.md, timeout=5)  # a call refreshes it
    assert redis_client.ttl(name_key) > keys.GUEST_TTL_S - 5
    # a guest who stops calling is forgotten: name, match list and history go together
    redis_client.zadd(keys.mine(ada.player_id), {"m1": 1})
    redis_client.zadd(keys.history(ada.player_id), {"{}": 1})
    RatingsRepository(redis_client).set_name(ada.player_id, "Ada", ttl_s=1)
    time.sleep(1.2)
    assert not redis_client.exists(name_key, keys.mine(ada.player_id), keys.history(ada.player_id))
    assert RatingsRepository(redis_client).names([ada.player_id, bob.player_id]) == ["", "Bob"]
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=bob.md, timeout=5).room
    invite = pb.InviteToRoomRequest(room_id=room.room_id, player_id=ada.player_id)
    fails(lambda: stub.InviteToRoom(invite, metadata=bob.md, timeout=5), grpc.StatusCode.NOT_FOUND)
    assert not redis_client.exists("{lobby}:names")  # no hash of every name ever given
