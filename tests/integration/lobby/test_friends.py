"""Friends over real gRPC and a real Redis: requests (by id and by an account's name) told live through
WatchMyNotices, accepted, declined, cancelled, removed; blocks that end everything between two players
and keep the blocked one out (requests, invitations, private rooms by code); presence told live to
friends (online, offline with last seen, the game of a match, its id only when the friend may watch
it); and every refusal with its reason code, changing nothing (Redis dumped before and after, the
presence and the limits' counts aside: any call renews its caller's presence)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from typer.testing import CliRunner

from services.cli import app
from services.lobby.adapters import keys
from services.lobby.adapters.friends_repo import FriendRepository
from services.lobby.domain import friends as limits
from services.lobby.server import Lobby
from services.lobby.service_layer.friends import is_blocked
from tests.integration.hardening.conftest import dump
from tests.integration.lobby.conftest import Guest, LobbyFactory, fails, sign_in
from tests.integration.lobby.test_limits import limited, limiter, stub_of
from tests.integration.lobby.test_notices import Notices
from tests.support.timing import scaled

F = grpc.StatusCode.FAILED_PRECONDITION
QUIET = {"TABULA_LIMIT_SIGN_IN_IP": "off"}  # many sign-ins from one address in a test
# Online this long after the last call or renewal, so going offline is seen soon (the presence test;
# elsewhere the default, so that no player comes online again, telling friends, while Redis is compared).
PRESENCE_TTL_S = 2


@pytest.fixture
def lobby(make_lobby: LobbyFactory) -> Lobby:
    return make_lobby(background=False, env=QUIET)


@pytest.fixture
def stub(lobby: Lobby) -> Any:
    return stub_of(lobby)


@pytest.fixture
def watchers() -> Iterator[list[Notices]]:
    opened: list[Notices] = []
    yield opened
    for watcher in opened:
        watcher.close()


def kind(notice: Any) -> str:
    return str(pb.NoticeKind.Name(notice.kind)).removeprefix("NOTICE_KIND_")


def next_notice(watcher: Notices, wanted: Callable[[Any], bool], seen: int = 0, timeout_s: float = 20) -> Any:
    """The first notice after the ``seen`` first ones that ``wanted`` takes, waited for."""
    deadline = time.monotonic() + scaled(timeout_s)
    while time.monotonic() < deadline:
        for notice in watcher.items[seen:]:
            if wanted(notice):
                return notice
        time.sleep(0.05)
    raise AssertionError([(kind(n), n.from_display_name) for n in watcher.items])


def of_kind(name: str, who: Guest | None = None) -> Callable[[Any], bool]:
    return lambda n: kind(n) == name and (who is None or n.from_player_id == who.player_id)


def request(stub: Any, who: Guest, player_id: str = "", name: str = "") -> Any:
    target = {"player_id": player_id} if player_id else {"display_name": name}
    return stub.SendFriendRequest(pb.SendFriendRequestRequest(**target), metadata=who.md, timeout=5)


def call(stub: Any, rpc: str, who: Guest, **fields: Any) -> Any:
    return getattr(stub, rpc)(getattr(pb, f"{rpc}Request")(**fields), metadata=who.md, timeout=5)


def lists(stub: Any, who: Guest) -> dict[str, list[str]]:
    """The caller's four lists, as display names."""
    reply = call(stub, "ListFriends", who)
    return {
        name: [f.display_name for f in getattr(reply, name)]
        for name in ("friends", "incoming", "outgoing", "blocked")
    }


def befriend(stub: Any, a: Guest, b: Guest) -> None:
    request(stub, a, b.player_id)
    call(stub, "AcceptFriendRequest", b, player_id=a.player_id)


def unchanged(client: redis.Redis, refused: Callable[[], Any], reason: str, code: Any = F) -> None:
    before = dump(client)  # the presence and the limits' counts aside
    fails(refused, code, reason)
    assert dump(client) == before


def test_a_request_is_seen_live_accepted_and_both_see_the_other_online(
    stub: Any, watchers: list[Notices]
) -> None:
    # given Ada and Bob, Bob watching his notices
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    watchers += [Notices(stub, ada), Notices(stub, bob)]
    ada_sees, bob_sees = watchers
    # when Ada asks Bob
    sent = request(stub, ada, bob.player_id)
    # then Bob is told at once, and both lists show the request
    assert (sent.friend.display_name, sent.friends) == ("Bob", False)
    asked = next_notice(bob_sees, of_kind("FRIEND_REQUEST", ada))
    assert asked.from_display_name == "Ada" and asked.seat_token == ""
    assert lists(stub, bob)["incoming"] == ["Ada"] and lists(stub, ada)["outgoing"] == ["Bob"]
    # when Bob accepts
    accepted = call(stub, "AcceptFriendRequest", bob, player_id=ada.player_id)
    # then Ada is told, they are friends, and each sees the other online
    assert accepted.friend.display_name == "Ada" and accepted.friend.presence.online
    next_notice(ada_sees, of_kind("FRIEND_ACCEPTED", bob))
    for me, other in ((ada, "Bob"), (bob, "Ada")):
        reply = call(stub, "ListFriends", me)
        assert [f.display_name for f in reply.friends] == [other]
        assert reply.friends[0].presence.online and reply.friends[0].presence.last_seen_ms > 0
        assert not reply.incoming and not reply.outgoing


def test_an_account_is_found_by_its_exact_name_and_a_mutual_request_makes_friends(
    stub: Any, watchers: list[Notices]
) -> None:
    # given an account named Grace and a guest named Lin
    up = pb.SignUpRequest(email="grace@example.org", password="correct horse battery", display_name="Grace")
    session = stub.SignUp(up, timeout=10).session
    grace, lin = Guest(session.player_id, session.access_token), sign_in(stub, "Lin")
    watchers.append(Notices(stub, lin))
    # when Lin asks "grace" by name (case aside), then the account is asked
    assert request(stub, lin, name="  grace ").friend.player_id == grace.player_id
    # a guest's name finds nobody (guests' names are not unique): Lin is asked by id
    fails(lambda: request(stub, grace, name="Lin"), grpc.StatusCode.NOT_FOUND, "not_found")
    # when Grace asks Lin back, then they are friends at once and Lin is told so
    back = request(stub, grace, lin.player_id)
    assert back.friends and back.friend.presence.online
    next_notice(watchers[0], of_kind("FRIEND_ACCEPTED", grace))
    assert lists(stub, lin) == {"friends": ["Grace"], "incoming": [], "outgoing": [], "blocked": []}


def test_declining_cancelling_and_removing_end_it_for_both_and_tell_the_other(
    stub: Any, watchers: list[Notices]
) -> None:
    ada, bob, cy = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Cy")
    watchers += [Notices(stub, ada), Notices(stub, bob)]
    ada_sees, bob_sees = watchers
    # declined: Ada's request to Bob
    request(stub, ada, bob.player_id)
    call(stub, "DeclineFriendRequest", bob, player_id=ada.player_id)
    next_notice(ada_sees, of_kind("FRIENDS_CHANGED", bob))
    assert lists(stub, ada)["outgoing"] == [] and lists(stub, bob)["incoming"] == []
    # cancelled: Ada's next request, withdrawn
    request(stub, ada, bob.player_id)
    seen = len(bob_sees.items)
    call(stub, "CancelFriendRequest", ada, player_id=bob.player_id)
    next_notice(bob_sees, of_kind("FRIENDS_CHANGED", ada), seen)
    assert lists(stub, bob)["incoming"] == []
    # removed: Ada and Cy were friends
    befriend(stub, ada, cy)
    call(stub, "RemoveFriend", cy, player_id=ada.player_id)
    next_notice(ada_sees, of_kind("FRIENDS_CHANGED", cy))
    assert lists(stub, ada)["friends"] == [] and lists(stub, cy)["friends"] == []


def test_every_refusal_has_its_reason_and_changes_nothing(
    stub: Any, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada, bob, cy, dee, eve, fay, gus = (
        sign_in(stub, n) for n in ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
    )
    befriend(stub, ada, bob)
    request(stub, ada, cy.player_id)
    call(stub, "BlockPlayer", dee, player_id=ada.player_id)
    call(stub, "BlockPlayer", ada, player_id=eve.player_id)

    unchanged(redis_client, lambda: request(stub, ada, ada.player_id), "yourself")
    unchanged(redis_client, lambda: call(stub, "BlockPlayer", ada, player_id=ada.player_id), "yourself")
    unchanged(redis_client, lambda: request(stub, ada, bob.player_id), "already_friends")
    unchanged(redis_client, lambda: request(stub, ada, cy.player_id), "already_requested")
    unchanged(redis_client, lambda: request(stub, ada, "g-nobody"), "not_found", grpc.StatusCode.NOT_FOUND)
    unchanged(redis_client, lambda: request(stub, ada, name="Nobody"), "not_found", grpc.StatusCode.NOT_FOUND)
    unchanged(
        redis_client,
        lambda: request(stub, ada, "no/such"),
        "invalid_argument",
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    unchanged(redis_client, lambda: request(stub, ada, dee.player_id), "blocked")
    unchanged(redis_client, lambda: request(stub, ada, eve.player_id), "you_blocked")
    unchanged(
        redis_client, lambda: call(stub, "AcceptFriendRequest", ada, player_id=cy.player_id), "no_request"
    )
    unchanged(
        redis_client, lambda: call(stub, "DeclineFriendRequest", bob, player_id=cy.player_id), "no_request"
    )
    unchanged(
        redis_client, lambda: call(stub, "CancelFriendRequest", cy, player_id=ada.player_id), "no_request"
    )
    unchanged(redis_client, lambda: call(stub, "RemoveFriend", ada, player_id=cy.player_id), "not_friends")
    unchanged(
        redis_client, lambda: call(stub, "BlockPlayer", ada, player_id=eve.player_id), "already_blocked"
    )
    unchanged(redis_client, lambda: call(stub, "UnblockPlayer", ada, player_id=bob.player_id), "not_blocked")
    unchanged(
        redis_client,
        lambda: call(stub, "ListFriends", Guest("g-x", "forged")).friends,
        "bad_token",
        grpc.StatusCode.UNAUTHENTICATED,
    )

    # the limits, each at its edge (declared once, in domain/friends.py)
    monkeypatch.setattr(limits, "MAX_OUTGOING", 1)
    unchanged(redis_client, lambda: request(stub, ada, fay.player_id), "requests_full")
    monkeypatch.setattr(limits, "MAX_OUTGOING", 50)
    monkeypatch.setattr(limits, "MAX_INCOMING", 1)
    unchanged(redis_client, lambda: request(stub, bob, cy.player_id), "requests_full")  # Cy has Ada's
    monkeypatch.setattr(limits, "MAX_FRIENDS", 1)
    unchanged(
        redis_client, lambda: call(stub, "AcceptFriendRequest", cy, player_id=ada.player_id), "friends_full"
    )
    unchanged(redis_client, lambda: request(stub, bob, gus.player_id), "friends_full")
    monkeypatch.setattr(limits, "MAX_BLOCKED", 1)
    unchanged(redis_client, lambda: call(stub, "BlockPlayer", ada, player_id=cy.player_id), "blocked_full")


def test_a_block_ends_everything_between_the_two_and_keeps_the_blocked_out(
    stub: Any, redis_client: redis.Redis, watchers: list[Notices]
) -> None:
    # given Ada and Bob friends, with Ada's private room open, and Cy who asked Ada
    ada, bob, cy = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Cy")
    befriend(stub, ada, bob)
    request(stub, cy, ada.player_id)
    watchers.append(Notices(stub, bob))
    private = pb.CreateRoomRequest(game="race", seats=3, visibility=pb.ROOM_VISIBILITY_PRIVATE)
    room = stub.CreateRoom(private, metadata=ada.md, timeout=5).room
    # when Ada blocks Bob and Cy
    call(stub, "BlockPlayer", ada, player_id=bob.player_id)
    call(stub, "BlockPlayer", ada, player_id=cy.player_id)
    # then the friendship and the request are gone for both, Bob is told only that it ended
    next_notice(watchers[0], of_kind("FRIENDS_CHANGED", ada))
    assert lists(stub, ada) == {"friends": [], "incoming": [], "outgoing": [], "blocked": ["Cy", "Bob"]}
    assert lists(stub, bob)["friends"] == [] and lists(stub, cy)["outgoing"] == []
    # and the blocked cannot ask, invite, or join Ada's private room by its code
    unchanged(redis_client, lambda: request(stub, bob, ada.player_id), "blocked")
    bobs = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=bob.md, timeout=5).room
    invite = pb.InviteToRoomRequest(room_id=bobs.room_id, player_id=ada.player_id)
    unchanged(redis_client, lambda: stub.InviteToRoom(invite, metadata=bob.md, timeout=5), "blocked")
    back = pb.InviteToRoomRequest(room_id=room.room_id, player_id=bob.player_id)
    unchanged(redis_client, lambda: stub.InviteToRoom(back, metadata=ada.md, timeout=5), "you_blocked")
    join = pb.JoinRoomRequest(invite_code=room.invite_code)
    unchanged(redis_client, lambda: stub.JoinRoom(join, metadata=cy.md, timeout=5), "blocked")
    # and the service layer's check (the chat's) says so both ways
    repo = FriendRepository(redis_client)
    assert is_blocked(repo, bob.player_id, ada.player_id) and is_blocked(repo, ada.player_id, bob.player_id)
    assert not is_blocked(repo, bob.player_id, cy.player_id)
    # when Ada unblocks Cy, then Cy may join and ask again (they are not friends by it)
    call(stub, "UnblockPlayer", ada, player_id=cy.player_id)
    assert not is_blocked(repo, cy.player_id, ada.player_id)
    assert stub.JoinRoom(join, metadata=cy.md, timeout=5).seat == 1
    assert not request(stub, cy, ada.player_id).friends


def test_presence_is_told_live_online_offline_and_playing(
    make_lobby: LobbyFactory, redis_client: redis.Redis, watchers: list[Notices]
) -> None:
    # given friends Ada and Bob, Bob holding his notices stream (which keeps him online)
    stub = stub_of(make_lobby(env={**QUIET, "TABULA_PRESENCE_TTL_S": str(PRESENCE_TTL_S)}))
    ada, bob, cy = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Cy")
    befriend(stub, ada, cy)  # Cy goes quiet first, so is offline while Ada's presence changes
    befriend(stub, ada, bob)
    watchers.append(Notices(stub, bob))
    bob_sees = watchers[0]

    def presence_of_ada(seen: int, online: bool) -> Any:
        def wanted(n: Any) -> bool:
            return of_kind("FRIEND_PRESENCE", ada)(n) and n.presence.online == online

        return next_notice(bob_sees, wanted, seen)

    # when Ada makes no call for the presence's time, then Bob is told she went offline, with last seen
    went = presence_of_ada(0, online=False)
    assert 0 < went.presence.last_seen_ms <= time.time() * 1000
    friend = call(stub, "ListFriends", bob).friends[0]
    assert not friend.presence.online and friend.presence.last_seen_ms == went.presence.last_seen_ms
    # when Ada calls again, then Bob is told she is online
    seen = len(bob_sees.items)
    call(stub, "ListFriends", ada)
    presence_of_ada(seen, online=True)
    # when she starts a public room's match, then Bob sees its game and its id (he may watch it)
    seen = len(bob_sees.items)
    public = start_with_a_bot(stub, ada, pb.ROOM_VISIBILITY_PUBLIC)
    playing = next_notice(
        bob_sees, lambda n: of_kind("FRIEND_PRESENCE", ada)(n) and n.presence.playing_game, seen
    )
    assert (playing.presence.playing_game, playing.presence.playing_match_id) == ("race", public)
    listed = call(stub, "ListFriends", bob).friends[0].presence
    assert (listed.online, listed.playing_game, listed.playing_match_id) == (True, "race", public)
    # a private room's match: the game only (Bob is neither a player nor invited)
    seen = len(bob_sees.items)
    private = start_with_a_bot(stub, ada, pb.ROOM_VISIBILITY_PRIVATE)
    playing = next_notice(
        bob_sees, lambda n: of_kind("FRIEND_PRESENCE", ada)(n) and n.presence.playing_game, seen
    )
    assert (playing.presence.playing_game, playing.presence.playing_match_id) == ("race", "")
    assert private and call(stub, "ListFriends", bob).friends[0].presence.playing_match_id == ""
    # Bob, who made no call for longer than the presence's time, is online by his stream alone
    time.sleep(scaled(PRESENCE_TTL_S + 1))
    bob_seen = [f for f in call(stub, "ListFriends", ada).friends if f.player_id == bob.player_id]
    assert bob_seen[0].presence.online
    # Cy, offline meanwhile, was told nothing of it (his capped stream keeps room for his matches)
    assert not [
        n for n in redis_client.xrange(keys.notices(cy.player_id)) if b"friend_presence" in n[1].values()
    ]


def start_with_a_bot(stub: Any, host: Guest, visibility: Any) -> str:
    """A race room of the host and a random bot, started: its match id."""
    created = pb.CreateRoomRequest(game="race", seats=2, visibility=visibility, options={"goal": "100"})
    room = stub.CreateRoom(created, metadata=host.md, timeout=5).room
    stub.AddBot(
        pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM), metadata=host.md, timeout=5
    )
    return str(
        stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=host.md, timeout=10).match_id
    )


def test_the_room_screen_lists_the_friends_not_seated_online_first(
    stub: Any, redis_client: redis.Redis
) -> None:
    ada, bob, cy, dee = (sign_in(stub, n) for n in ("Ada", "Bob", "Cy", "Dee"))
    for other in (bob, cy, dee):
        befriend(stub, ada, other)
    redis_client.zadd(keys.online(), {cy.player_id: 1})  # Cy went quiet long ago
    redis_client.hset(keys.presence(cy.player_id), "seen", 1)
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=3), metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=dee.md, timeout=5)
    found = call(stub, "ListRoomInvitees", ada, room_id=room.room_id).friends
    assert [(f.display_name, f.presence.online) for f in found] == [("Bob", True), ("Cy", False)]
    outside = lambda: call(stub, "ListRoomInvitees", bob, room_id=room.room_id)  # noqa: E731
    fails(outside, grpc.StatusCode.PERMISSION_DENIED, "forbidden")


def test_a_guests_friends_expire_with_it_and_an_upgrade_keeps_them(
    stub: Any, redis_client: redis.Redis
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    befriend(stub, ada, bob)
    assert 0 < redis_client.ttl(keys.friends(ada.player_id)) <= 2 * keys.GUEST_TTL_S
    up = pb.UpgradeGuestRequest(email="ada@example.org", password="correct horse battery")
    stub.UpgradeGuest(up, metadata=ada.md, timeout=10)
    assert redis_client.ttl(keys.friends(ada.player_id)) == -1  # kept
    assert lists(stub, bob)["friends"] == ["Ada"]


def test_the_terminal_client_lists_asks_and_answers(lobby: Lobby, stub: Any) -> None:
    """``tabula friends`` against the lobby: ask by player id, accept, and the list with presence."""
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    cli = CliRunner()

    def run(who: Guest, *args: str) -> str:
        done = cli.invoke(app, ["friends", *args, "--token", who.token, "--lobby", f"127.0.0.1:{lobby.port}"])
        assert done.exit_code == 0, done.output
        return str(done.output)

    assert run(ada, "add", bob.player_id).strip() == "asked Bob"
    assert f"Ada  {ada.player_id}" in run(bob).split("Asking you:")[1]
    assert run(bob, "accept", ada.player_id).strip() == "Ada and you are friends now"
    assert f"Bob  {bob.player_id}  online" in run(ada).split("Asking you")[0]
    refused = cli.invoke(
        app, ["friends", "add", bob.player_id, "--token", ada.token, "--lobby", f"127.0.0.1:{lobby.port}"]
    )
    assert refused.exit_code == 1 and "already_friends" in refused.output
    # in Portuguese: the list's words, the presence and the lobby's refusal
    listed = run(ada, "--lang", "pt-BR")
    assert listed.startswith("Amigos:") and f"Bob  {bob.player_id}  online" in listed
    assert "Pedindo sua amizade: nenhum" in listed
    # in Chinese from the environment
    chinese = cli.invoke(
        app,
        ["friends", "--token", bob.token, "--lobby", f"127.0.0.1:{lobby.port}"],
        env={"LANG": "zh_CN.UTF-8"},
    )
    assert chinese.exit_code == 0 and chinese.output.startswith("好友：") and "已屏蔽：无" in chinese.output
    again = ["friends", "add", bob.player_id, "--token", ada.token, "--lobby", f"127.0.0.1:{lobby.port}"]
    refused = cli.invoke(app, [*again, "--lang", "zh-CN"])  # the friends script's refusal, translated
    assert (
        refused.exit_code == 1 and "你们已经是好友" in refused.output and "already_friends" in refused.output
    )


def test_friends_changes_are_rate_limited_per_player(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    stub = stub_of(
        make_lobby(background=False, limiter=limiter(redis_client, friend_player="2/600", sign_in_ip="off"))
    )
    ada, bob, cy = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Cy")
    request(stub, ada, bob.player_id)
    call(stub, "CancelFriendRequest", ada, player_id=bob.player_id)
    limited(lambda: request(stub, ada, bob.player_id), "friend_player")  # no flood of Bob's notices
    assert not request(stub, cy, bob.player_id).friends  # Cy has his own bucket
    assert call(stub, "ListFriends", ada).outgoing == []  # reading is not a change
