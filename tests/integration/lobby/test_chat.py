"""Chat over real gRPC and a private Redis: a room's, a match's players', its spectators' and a direct
channel, who reads and writes each, sending exactly once per client id, pages, the live stream
resumed from a message id, mutes, reports with their context, and refusals that store nothing
(Redis dumped before and after, the limits' counts aside)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import grpc
import redis
from tabula.lobby.v1 import chat_pb2
from tabula.lobby.v1 import lobby_pb2 as pb

from services.lobby.adapters import keys
from services.lobby.domain.chat import CONTEXT, MAX_TEXT
from tests.integration.hardening.conftest import dump
from tests.integration.lobby.conftest import SIGNER, Guest, LobbyFactory, fails, sign_in
from tests.integration.lobby.test_limits import limited, stub_of
from tests.support.timing import scaled

REFUSED = grpc.StatusCode.FAILED_PRECONDITION


def create(stub: Any, host: Guest, seats: int = 2, private: bool = False, open_chat: bool = False) -> Any:
    vis = pb.ROOM_VISIBILITY_PRIVATE if private else pb.ROOM_VISIBILITY_PUBLIC
    request = pb.CreateRoomRequest(game="race", seats=seats, visibility=vis, spectators_read_chat=open_chat)
    return stub.CreateRoom(request, metadata=host.md, timeout=5).room


def join(stub: Any, guest: Guest, room: Any) -> None:
    if room.invite_code:
        stub.JoinRoom(pb.JoinRoomRequest(invite_code=room.invite_code), metadata=guest.md, timeout=5)
    else:
        stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=guest.md, timeout=5)


def started_match(stub: Any, host: Guest, other: Guest, **room: Any) -> str:
    """A race match of ``host`` and ``other`` from a room: its id."""
    created = create(stub, host, **room)
    join(stub, other, created)
    stub.SetReady(pb.SetReadyRequest(room_id=created.room_id, ready=True), metadata=other.md, timeout=5)
    return str(
        stub.StartRoom(pb.StartRoomRequest(room_id=created.room_id), metadata=host.md, timeout=10).match_id
    )


def say(stub: Any, guest: Guest, channel: str, text: str, client_id: str = "") -> Any:
    request = chat_pb2.SendChatMessageRequest(
        channel=channel, text=text, client_message_id=client_id or f"c{time.monotonic_ns()}"
    )
    return stub.SendChatMessage(request, metadata=guest.md, timeout=5).message


def read(stub: Any, guest: Guest, channel: str, **page: Any) -> list[str]:
    request = chat_pb2.ListChatMessagesRequest(channel=channel, **page)
    return [m.text for m in stub.ListChatMessages(request, metadata=guest.md, timeout=5).messages]


def test_a_room_chats_once_per_client_id_and_strangers_are_refused(
    stub: Any, redis_client: redis.Redis
) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    room = create(stub, ada)
    join(stub, bob, room)
    channel = f"room:{room.room_id}"
    first = say(stub, ada, channel, "  hello\x07 Bob  ", "m-1")
    assert (first.text, first.player_id, first.display_name, first.channel) == (
        "hello Bob",
        ada.player_id,
        "Ada",
        channel,
    )
    again = say(stub, ada, channel, "hello Bob", "m-1")  # a retry: the first message, nothing new
    assert again.message_id == first.message_id and again.client_message_id == "m-1"
    say(stub, bob, channel, "hi Ada")
    assert read(stub, bob, channel) == ["hello Bob", "hi Ada"]
    seen_by_bob = stub.ListChatMessages(
        chat_pb2.ListChatMessagesRequest(channel=channel), metadata=bob.md, timeout=5
    ).messages[0]
    assert seen_by_bob.client_message_id == ""  # only its writer sees it
    assert redis_client.xlen(keys.chat(channel)) == 2
    for call in (
        lambda: say(stub, eve, channel, "let me in"),
        lambda: read(stub, eve, channel),
    ):
        fails(call, REFUSED, "chat_not_member")


def test_refusals_store_nothing(make_lobby: LobbyFactory, redis_client: redis.Redis) -> None:
    # no matcher thread: its lock comes and goes in Redis
    stub = stub_of(make_lobby(background=False, env={"TABULA_LIMIT_CHAT_PLAYER": "2/600"}))
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    room = create(stub, ada)
    join(stub, bob, room)
    channel = f"room:{room.room_id}"
    say(stub, ada, channel, "one")  # Ada's first of two
    stub.MuteChatMember(
        chat_pb2.MuteChatMemberRequest(
            channel=channel, player_id=bob.player_id, muted=True, for_everyone=True
        ),
        metadata=ada.md,
        timeout=5,
    )
    before = dump(redis_client)
    refusals = [
        (lambda: say(stub, ada, channel, " \n\t "), "chat_empty"),
        (lambda: say(stub, ada, channel, "x" * (MAX_TEXT + 1)), "chat_too_long"),
        (lambda: say(stub, eve, channel, "hi"), "chat_not_member"),
        (lambda: say(stub, ada, "room:nosuchroom", "hi"), "chat_unknown_channel"),
        (lambda: say(stub, ada, "match:nosuchmatch", "hi"), "chat_unknown_channel"),
        (lambda: say(stub, bob, channel, "hi"), "chat_muted"),
        (lambda: say(stub, ada, f"dm:{ada.player_id}:{eve.player_id}", "hi"), "chat_not_member"),
    ]
    for call, reason in refusals:
        fails(call, REFUSED, reason)
    fails(lambda: say(stub, ada, "lounge:x", "hi"), grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument")
    assert dump(redis_client) == before
    say(stub, ada, channel, "two")  # the refusals took nothing from Ada's bucket
    before = dump(redis_client)
    assert limited(lambda: say(stub, ada, channel, "three"), "chat_player") > 0
    assert dump(redis_client) == before
    assert read(stub, bob, channel) == ["one", "two"]


def test_a_match_has_a_players_channel_and_a_spectators_channel(stub: Any, redis_client: redis.Redis) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    match_id = started_match(stub, ada, bob)
    players, spectators = f"match:{match_id}", f"spectators:{match_id}"
    say(stub, ada, players, "good luck")
    assert read(stub, bob, players) == ["good luck"]
    fails(lambda: read(stub, eve, players), REFUSED, "chat_not_member")  # the room did not allow it
    say(stub, eve, spectators, "go Bob")
    assert read(stub, ada, spectators) == ["go Bob"]  # players read their spectators
    fails(lambda: say(stub, bob, spectators, "thanks"), REFUSED, "chat_not_member")
    fails(lambda: say(stub, eve, players, "psst"), REFUSED, "chat_not_member")
    outside = {k: v for k, v in dump(redis_client).items() if not k.startswith(b"{lobby}:chat")}
    assert any(b":match:" + match_id.encode() in k for k in outside)  # the match's own keys are there
    assert b"good luck" not in repr(outside).encode() and b"go Bob" not in repr(outside).encode()


def test_a_room_may_let_its_spectators_read_the_players_chat(stub: Any) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    match_id = started_match(stub, ada, bob, open_chat=True)
    say(stub, ada, f"match:{match_id}", "nice move")
    assert read(stub, eve, f"match:{match_id}") == ["nice move"]
    fails(lambda: say(stub, eve, f"match:{match_id}", "thanks"), REFUSED, "chat_not_member")


def test_a_private_rooms_match_is_chatted_about_by_its_viewers_only(stub: Any) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    match_id = started_match(stub, ada, bob, private=True, open_chat=True)
    fails(lambda: say(stub, eve, f"spectators:{match_id}", "hi"), REFUSED, "chat_not_member")
    fails(lambda: read(stub, eve, f"match:{match_id}"), REFUSED, "chat_not_member")


def befriend(stub: Any, a: Guest, b: Guest) -> None:
    stub.SendFriendRequest(pb.SendFriendRequestRequest(player_id=b.player_id), metadata=a.md, timeout=5)
    stub.AcceptFriendRequest(pb.AcceptFriendRequestRequest(player_id=a.player_id), metadata=b.md, timeout=5)


def test_direct_messages_between_friends_only_and_never_once_blocked(stub: Any) -> None:
    ada, bob, eve = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Eve")
    dm = f"dm:{bob.player_id}:{ada.player_id}"  # either order names one channel
    room = create(stub, ada)
    join(stub, bob, room)
    fails(lambda: say(stub, ada, dm, "hi"), REFUSED, "chat_not_member")  # a room in common is not enough
    befriend(stub, ada, bob)
    sent = say(stub, ada, dm, "rematch later?")
    assert sent.channel == f"dm:{min(ada.player_id, bob.player_id)}:{max(ada.player_id, bob.player_id)}"
    assert read(stub, bob, f"dm:{ada.player_id}:{bob.player_id}") == ["rematch later?"]
    fails(lambda: read(stub, eve, dm), REFUSED, "chat_not_member")
    fails(lambda: say(stub, eve, f"dm:{eve.player_id}:{ada.player_id}", "hi"), REFUSED, "chat_not_member")
    stub.BlockPlayer(pb.BlockPlayerRequest(player_id=ada.player_id), metadata=bob.md, timeout=5)
    fails(lambda: say(stub, ada, dm, "why?"), REFUSED, "chat_not_member")  # the block ended the friendship
    fails(lambda: say(stub, bob, dm, "bye"), REFUSED, "chat_not_member")
    assert read(stub, ada, dm) == ["rematch later?"]  # their history stays readable


def test_a_mute_hides_a_players_messages_from_the_muter_only(stub: Any) -> None:
    ada, bob, cid = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Cid")
    room = create(stub, ada, seats=3)
    join(stub, bob, room)
    join(stub, cid, room)
    channel = f"room:{room.room_id}"
    for n in range(3):
        say(stub, bob, channel, f"spam {n}")
        say(stub, cid, channel, f"cid {n}")
    mute = chat_pb2.MuteChatMemberRequest(channel=channel, player_id=bob.player_id, muted=True)
    stub.MuteChatMember(mute, metadata=ada.md, timeout=5)
    assert read(stub, ada, channel) == ["cid 0", "cid 1", "cid 2"]
    assert read(stub, ada, channel, limit=2) == ["cid 1", "cid 2"]  # a page fills past muted messages
    assert len(read(stub, cid, channel)) == 6
    fails(
        lambda: stub.MuteChatMember(
            chat_pb2.MuteChatMemberRequest(
                channel=channel, player_id=ada.player_id, muted=True, for_everyone=True
            ),
            metadata=cid.md,
            timeout=5,
        ),
        grpc.StatusCode.PERMISSION_DENIED,
    )
    mute.muted = False
    stub.MuteChatMember(mute, metadata=ada.md, timeout=5)
    assert len(read(stub, ada, channel)) == 6


def test_pages_go_back_and_forth_by_message_id(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada)
    join(stub, bob, room)
    channel = f"room:{room.room_id}"
    ids = [say(stub, ada, channel, f"m{n}").message_id for n in range(7)]
    assert read(stub, bob, channel, limit=3) == ["m4", "m5", "m6"]
    assert read(stub, bob, channel, before=ids[4], limit=3) == ["m1", "m2", "m3"]
    assert read(stub, bob, channel, after=ids[1], limit=2) == ["m2", "m3"]
    assert read(stub, bob, channel, after=ids[1], before=ids[4]) == ["m2", "m3"]
    head = stub.ListChatMessages(
        chat_pb2.ListChatMessagesRequest(channel=channel), metadata=bob.md, timeout=5
    )
    assert head.head == ids[-1]


def test_the_history_is_bounded(stub: Any, redis_client: redis.Redis) -> None:
    from services.lobby.domain.chat import HISTORY

    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada)
    join(stub, bob, room)
    channel = f"room:{room.room_id}"
    pipe = redis_client.pipeline()  # more than the bound, written as the lobby writes them
    for n in range(HISTORY + 300):
        pipe.xadd(keys.chat(channel), {"from": ada.player_id, "name": "Ada", "text": f"m{n}", "cid": f"x{n}"})
    pipe.execute()
    say(stub, ada, channel, "last")  # the lobby's write trims
    assert HISTORY <= redis_client.xlen(keys.chat(channel)) < HISTORY + 200
    assert read(stub, bob, channel, limit=1) == ["last"]


def test_watch_chat_streams_live_and_resumes_after_a_message_id(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada)
    join(stub, bob, room)
    channel = f"room:{room.room_id}"
    first = say(stub, ada, channel, "before the watch")
    items: list[Any] = []
    call = stub.WatchChat(
        chat_pb2.WatchChatRequest(channel=channel, after=first.message_id), metadata=bob.md, timeout=30
    )

    def follow() -> None:
        try:
            for item in call:
                items.append(item)
        except grpc.RpcError:
            pass

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    say(stub, ada, channel, "live one")
    say(stub, ada, channel, "live two")
    deadline = time.monotonic() + scaled(10)
    while time.monotonic() < deadline and not (
        len([i for i in items if i.HasField("message")]) >= 2 and any(i.HasField("keepalive") for i in items)
    ):
        time.sleep(0.05)
    call.cancel()
    texts = [i.message.text for i in items if i.HasField("message")]
    assert texts == ["live one", "live two"]
    assert any(i.HasField("keepalive") for i in items)  # the lobby's keepalive is 300 ms in tests
    resumed = stub.WatchChat(
        chat_pb2.WatchChatRequest(channel=channel, after="0-0"), metadata=bob.md, timeout=scaled(5)
    )
    got = []
    for item in resumed:
        if item.HasField("message"):
            got.append(item.message.text)
        if len(got) == 3:
            resumed.cancel()
            break
    assert got == ["before the watch", "live one", "live two"]


def test_a_report_records_the_message_and_the_ones_before_it(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(background=False, env={"TABULA_LIMIT_CHAT_PLAYER": "off"}))
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada)
    join(stub, bob, room)
    channel = f"room:{room.room_id}"
    sent = [say(stub, ada if n % 2 else bob, channel, f"m{n}") for n in range(CONTEXT + 5)]
    bad = sent[-2]
    request = chat_pb2.ReportChatMessageRequest(channel=channel, message_id=bad.message_id, reason="rude")
    report_id = stub.ReportChatMessage(request, metadata=ada.md, timeout=5).report_id
    ((entry_id, fields),) = redis_client.xrange(keys.chat_reports())
    fields = {k.decode(): v.decode() for k, v in fields.items()}
    assert entry_id.decode() == report_id
    assert (fields["channel"], fields["message_id"], fields["reporter"], fields["reason"]) == (
        channel,
        bad.message_id,
        ada.player_id,
        "rude",
    )
    assert [m["text"] for m in json.loads(fields["message"])] == [bad.text]
    context = json.loads(fields["context"])
    assert [m["text"] for m in context] == [m.text for m in sent[-2 - CONTEXT : -2]]
    assert context[-1]["from"] == sent[-3].player_id
    before = dump(redis_client)
    request.message_id = "1-0"
    fails(
        lambda: stub.ReportChatMessage(request, metadata=ada.md, timeout=5), REFUSED, "chat_unknown_message"
    )
    assert dump(redis_client) == before


def test_chat_needs_a_player_token(stub: Any) -> None:
    seat = SIGNER.seat("race", "m1", 0, "p")
    fails(lambda: say(stub, Guest("p", seat), "match:m1", "hi"), grpc.StatusCode.PERMISSION_DENIED)


def test_a_player_who_leaves_the_room_stops_reading_its_chat(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = create(stub, ada)
    join(stub, bob, room)
    call = stub.WatchChat(
        chat_pb2.WatchChatRequest(channel=f"room:{room.room_id}"), metadata=bob.md, timeout=scaled(10)
    )
    first = next(iter(call))  # a keepalive: the stream is open
    assert first.HasField("keepalive")
    stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)

    def drain() -> None:
        for _ in call:
            pass

    err = fails(drain, REFUSED, "chat_not_member")  # at the next keepalive
    assert err is not None
