"""WatchMyNotices and InviteToRoom over real gRPC and a private Redis: the notice projector reads the
outbox (no game code), a turn is announced once, a bot's move that makes it a player's turn reaches
that player with a fresh seat token, matches started and ended reach every human, invitations reach
the invitee, and each notice is handed to the push hook."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.domain.notices import Notice
from services.lobby.server import Lobby
from services.lobby.service_layer.notices import NoticeProjector
from services.workers.bots import Budget
from services.workers.jobs import Result, apply_system_step, play_bot_turn
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MatchStatus, OutboxNotice, Progress
from shared.store.redis_store import RedisEventStore, notice_from_entry
from tests.integration.lobby.conftest import Guest, LobbyFactory, auth, fails, sign_in
from tests.support.timing import scaled, wait_until


class RecordingPush:
    """The push hook's test double: every notice handed to it, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, Notice]] = []

    def send(self, player_id: str, notice_id: str, notice: Notice) -> None:
        self.sent.append((player_id, notice_id, notice))


FROM_THE_START = "0-0"


class Notices:
    """A WatchMyNotices stream read by a thread, so a test can wait for the next notice.

    By default from the guest's first notice (every guest here is new, so all its notices belong to
    the test): with ``after=""`` ("only new ones") the server reads the stream's head when the call
    starts on its side, which a loaded machine may delay past the first notices of a match started
    right after (the suite failed that way once under a CPU load)."""

    def __init__(self, stub: Any, guest: Guest, after: str = FROM_THE_START) -> None:
        self.items: list[Any] = []
        self.call = stub.WatchMyNotices(pb.WatchMyNoticesRequest(after=after), metadata=guest.md, timeout=60)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for item in self.call:
                if item.WhichOneof("item") == "notice":
                    self.items.append(item.notice)
        except grpc.RpcError:
            pass  # cancelled at the end of the test

    def wait(self, count: int, timeout_s: float = 30) -> list[Any]:
        deadline = time.monotonic() + scaled(timeout_s)
        while len(self.items) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.items) >= count, [pb.NoticeKind.Name(n.kind) for n in self.items]
        return self.items[:count]

    def close(self) -> None:
        self.call.cancel()


def told(client: redis.Redis, guest: Guest, count: int) -> bool:
    """The guest's notice stream holds at least ``count`` notices (written by the lobby's projector)."""
    return int(client.xlen(keys.notices(guest.player_id))) >= count


@pytest.fixture
def push() -> RecordingPush:
    return RecordingPush()


@pytest.fixture
def lobby(make_lobby: LobbyFactory, push: RecordingPush) -> Lobby:
    return make_lobby(push=push)


@pytest.fixture
def runner(redis_client: redis.Redis) -> MatchRunner[Any]:
    game = load_game("race")
    return MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))


@pytest.fixture
def watchers() -> Iterator[list[Notices]]:
    opened: list[Notices] = []
    yield opened
    for watcher in opened:
        watcher.close()


def kinds(notices: list[Any]) -> list[str]:
    return [pb.NoticeKind.Name(n.kind).removeprefix("NOTICE_KIND_") for n in notices]


def room_with_bot_between(stub: Any, host: Guest, guest: Guest, goal: int = 100) -> tuple[str, str]:
    """A race room: the host (seat 0), a random bot (seat 1), the guest (seat 2); started. (room, match)"""
    request = pb.CreateRoomRequest(game="race", seats=3, options={"goal": str(goal)})
    room = stub.CreateRoom(request, metadata=host.md, timeout=5).room
    bot = pb.AddBotRequest(room_id=room.room_id, level=pb.BOT_LEVEL_RANDOM)
    stub.AddBot(bot, metadata=host.md, timeout=5)
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=guest.md, timeout=5)
    stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=guest.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=host.md, timeout=5)
    return room.room_id, started.match_id


def roll(race_stub: Any, match_id: str, token: str) -> int:
    pb2 = load_game("race").modules.pb2
    view = race_stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=auth(token), timeout=5)
    request = pb2.SubmitCommandRequest(
        match_id=match_id,
        expected_version=view.version,
        command_id=f"roll-{view.version}",
        command=pb2.Command(roll=pb2.Roll()),
    )
    return int(race_stub.SubmitCommand(request, metadata=auth(token), timeout=5).last_version)


def test_a_bots_move_that_makes_it_your_turn_reaches_you_with_a_seat_token(
    stub: Any, race_stub: Any, runner: MatchRunner[Any], push: RecordingPush, watchers: list[Notices]
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    watchers += [Notices(stub, ada), Notices(stub, bob)]
    ada_sees, bob_sees = watchers
    _, match_id = room_with_bot_between(stub, ada, bob)
    started = ada_sees.wait(2)
    assert kinds(started) == ["MATCH_STARTED", "YOUR_TURN"] and started[1].seat == 0
    assert kinds(bob_sees.wait(1)) == ["MATCH_STARTED"] and bob_sees.items[0].seat == 2

    after_ada = roll(race_stub, match_id, started[1].seat_token)  # now the bot (seat 1) is to move
    time.sleep(0.5)
    assert kinds(bob_sees.items) == ["MATCH_STARTED"]  # the bot's turn is nobody's notice
    assert play_bot_turn(runner, match_id, 1, after_ada, "random", Budget()) is Result.APPLIED

    turn = bob_sees.wait(2)[1]
    assert kinds([turn]) == ["YOUR_TURN"]
    assert (turn.match_id, turn.seat, turn.game, turn.version) == (match_id, 2, "race", after_ada + 1)
    assert turn.created_at_ms > 0 and turn.notice_id
    assert roll(race_stub, match_id, turn.seat_token) == after_ada + 2  # the token plays seat 2
    assert kinds(ada_sees.items) == ["MATCH_STARTED", "YOUR_TURN"]  # Bob's turn is not Ada's

    assert apply_system_step(runner, match_id, after_ada + 2) is Result.APPLIED  # round ends: Ada again
    assert kinds(ada_sees.wait(3)) == ["MATCH_STARTED", "YOUR_TURN", "YOUR_TURN"]
    pushed = [(player, n.kind.value, n.match_id) for player, _, n in push.sent]
    assert pushed == [
        (ada.player_id, "match_started", match_id),
        (bob.player_id, "match_started", match_id),
        (ada.player_id, "your_turn", match_id),
        (bob.player_id, "your_turn", match_id),
        (ada.player_id, "your_turn", match_id),
    ]
    to_bob = [notice_id for player, notice_id, _ in push.sent if player == bob.player_id]
    assert to_bob == [n.notice_id for n in bob_sees.items]


def test_a_finished_match_is_told_to_every_human_with_their_placing(
    stub: Any, race_stub: Any, watchers: list[Notices], redis_client: redis.Redis
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    watchers += [Notices(stub, ada), Notices(stub, bob)]
    _, match_id = room_with_bot_between(stub, ada, bob, goal=1)  # the first roll ends the race
    turn = watchers[0].wait(2)[1]
    last = roll(race_stub, match_id, turn.seat_token)
    ended_ada, ended_bob = watchers[0].wait(3)[2], watchers[1].wait(2)[1]
    request = load_game("race").modules.pb2.GetViewRequest(match_id=match_id)
    outcome = race_stub.GetView(request, metadata=auth(turn.seat_token), timeout=5).outcome
    assert kinds([ended_ada, ended_bob]) == ["MATCH_ENDED", "MATCH_ENDED"]
    assert (ended_ada.placing, ended_bob.placing) == (outcome.placings[0], outcome.placings[2])
    assert ended_ada.version == ended_bob.version == last


def test_a_resignation_that_leaves_one_person_ends_the_match_the_resigner_placed_last(
    stub: Any, race_stub: Any, watchers: list[Notices]
) -> None:
    """Ada resigns (docs/workers.md, "Resigning"): Bob is the only person left, so the match ends at
    once; Bob first, the bot next, Ada last, and each person's MATCH_ENDED says so."""
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    watchers += [Notices(stub, ada), Notices(stub, bob)]
    _, match_id = room_with_bot_between(stub, ada, bob)
    turn = watchers[0].wait(2)[1]
    pb2 = load_game("race").modules.pb2
    request = pb2.ResignRequest(match_id=match_id, command_id="quit")
    last = race_stub.Resign(request, metadata=auth(turn.seat_token), timeout=5).last_version
    ended_ada, ended_bob = watchers[0].wait(3)[2], watchers[1].wait(2)[1]
    assert kinds([ended_ada, ended_bob]) == ["MATCH_ENDED", "MATCH_ENDED"]
    assert (ended_ada.placing, ended_bob.placing) == (3, 1)
    assert ended_ada.version == ended_bob.version == last


def test_a_redelivered_outbox_notice_tells_nothing_twice(
    stub: Any, race_stub: Any, lobby: Lobby, redis_client: redis.Redis
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room_with_bot_between(stub, ada, bob)
    wait_until(lambda: told(redis_client, ada, 2) and told(redis_client, bob, 1), 30, "the start's notices")
    store = RedisEventStore(redis_client)
    raw: Any = redis_client
    entries = [e for shard in range(store.shards) for e in raw.xrange(store.outbox_key(shard))]
    before = {g.player_id: redis_client.xlen(keys.notices(g.player_id)) for g in (ada, bob)}
    assert before == {ada.player_id: 2, bob.player_id: 1}
    for entry_id, fields in entries:  # every outbox notice again, as a redelivery would bring it
        lobby.notices.handle(notice_from_entry(entry_id, fields))
    assert {g.player_id: redis_client.xlen(keys.notices(g.player_id)) for g in (ada, bob)} == before


def test_watching_resumes_after_a_notice_id_and_checks_it(
    stub: Any, race_stub: Any, watchers: list[Notices]
) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    watchers.append(Notices(stub, ada))
    _, match_id = room_with_bot_between(stub, ada, bob)
    first, second = watchers[0].wait(2)
    watchers.append(Notices(stub, ada, after=first.notice_id))
    assert [n.notice_id for n in watchers[1].wait(1)] == [second.notice_id]
    watchers.append(Notices(stub, ada, after=""))  # only new ones: not the two already there
    time.sleep(1)
    assert watchers[2].items == []
    for bad in ("abc", "1-", "-1", "1-2-3", "9" * 30 + "-0"):
        call = stub.WatchMyNotices(pb.WatchMyNoticesRequest(after=bad), metadata=ada.md, timeout=5)
        opening: Any = lambda call=call: next(iter(call))  # noqa: E731
        err = fails(opening, grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument")
        assert "after" in (err.details() or "")
    anonymous = stub.WatchMyNotices(pb.WatchMyNoticesRequest(), timeout=5)
    fails(lambda: next(iter(anonymous)), grpc.StatusCode.UNAUTHENTICATED)
    assert match_id


def test_an_invitation_reaches_the_invitee_with_the_room_and_its_code(
    stub: Any, push: RecordingPush, watchers: list[Notices]
) -> None:
    ada, carl, eve = sign_in(stub, "Ada"), sign_in(stub, "Carl"), sign_in(stub, "Eve")
    watchers.append(Notices(stub, carl))
    request = pb.CreateRoomRequest(game="race", seats=2, visibility=pb.ROOM_VISIBILITY_PRIVATE)
    room = stub.CreateRoom(request, metadata=ada.md, timeout=5).room
    invite = pb.InviteToRoomRequest(room_id=room.room_id, player_id=carl.player_id)
    stub.InviteToRoom(invite, metadata=ada.md, timeout=5)
    [got] = watchers[0].wait(1)
    assert kinds([got]) == ["INVITED"] and got.seat_token == "" and got.match_id == ""
    assert (got.room_id, got.invite_code, got.game) == (room.room_id, room.invite_code, "race")
    assert (got.from_player_id, got.from_display_name) == (ada.player_id, "Ada")
    assert push.sent[-1][0] == carl.player_id and push.sent[-1][1] == got.notice_id
    joined = stub.JoinRoom(pb.JoinRoomRequest(invite_code=got.invite_code), metadata=carl.md, timeout=5)
    assert joined.seat == 1

    def refused(who: Guest, room_id: str, player_id: str) -> Any:
        return lambda: stub.InviteToRoom(
            pb.InviteToRoomRequest(room_id=room_id, player_id=player_id), metadata=who.md, timeout=5
        )

    fails(refused(eve, room.room_id, ada.player_id), grpc.StatusCode.PERMISSION_DENIED, "forbidden")
    fails(refused(ada, room.room_id, "g-nobody"), grpc.StatusCode.NOT_FOUND, "not_found")
    fails(refused(ada, room.room_id, ada.player_id), grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument")
    fails(refused(ada, room.room_id, carl.player_id), grpc.StatusCode.FAILED_PRECONDITION, "already_in_room")
    fails(refused(ada, "no/such", eve.player_id), grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument")
    fails(refused(ada, "nosuchroom", eve.player_id), grpc.StatusCode.NOT_FOUND, "not_found")
    stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=carl.md, timeout=5)
    stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5)
    fails(refused(ada, room.room_id, eve.player_id), grpc.StatusCode.FAILED_PRECONDITION, "room_started")


def test_a_failing_push_provider_loses_no_notice(make_lobby: LobbyFactory, redis_client: redis.Redis) -> None:
    class Broken:
        def send(self, player_id: str, notice_id: str, notice: Notice) -> None:
            raise ConnectionError("provider down")

    lobby = make_lobby(push=Broken())
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    from tabula.lobby.v1 import lobby_pb2_grpc

    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room_with_bot_between(stub, ada, bob)
    wait_until(lambda: told(redis_client, ada, 2) and told(redis_client, bob, 1), 30, "the start's notices")
    assert redis_client.xlen(keys.notices(ada.player_id)) == 2  # started, your turn
    assert redis_client.xlen(keys.notices(bob.player_id)) == 1
    channel.close()


def test_the_projector_reads_what_it_wrote_from_memory_and_reads_again_after_another_writer(
    redis_client: redis.Redis,
) -> None:
    """Each append of a match of people is one compare-and-set script, without reading the match's
    acting value first when this projector wrote the last one; another writer in between (a second
    lobby) makes the script refuse, and the projector reads, decides again and tells each turn once."""
    store, repo, push = RedisEventStore(redis_client), NoticeRepository(redis_client), RecordingPush()
    wait(store.set_meta("mp", {"players": '["ada", "bob"]', "seats": "2"}))
    projector = NoticeProjector(store, repo, push, "c1")
    reads: list[str] = []
    acting, acting_many = repo.acting, repo.acting_many
    repo.acting = lambda match_id: reads.append(match_id) or acting(match_id)  # type: ignore[method-assign]
    repo.acting_many = lambda ids: reads.extend(ids) or acting_many(ids)  # type: ignore[method-assign]

    def append(first: int, last: int, to_act: tuple[int, ...]) -> None:
        progress = Progress(to_act, False, MatchStatus.ACTIVE)
        projector.handle(OutboxNotice(f"{last}-0", "mp", first, last, ("X",), "race", progress))

    append(1, 1, (0,))  # started: ada's turn (nothing written before: read once)
    append(2, 2, (1,))  # bob's turn: from memory
    assert reads == ["mp"]
    other = NoticeProjector(store, NoticeRepository(redis_client), RecordingPush(), "c2")
    other.handle(OutboxNotice("3-0", "mp", 3, 3, ("X",), "race", Progress((0,), False, MatchStatus.ACTIVE)))
    append(4, 4, (1,))  # this projector's memory is stale now: refused, read, decided again
    append(4, 4, (1,))  # redelivered: handled already (from memory), nothing told twice
    assert reads == ["mp", "mp"]
    told = [(player, n.kind.value, n.version) for player, _, n in push.sent]
    assert told == [
        ("ada", "match_started", 1),
        ("bob", "match_started", 1),
        ("ada", "your_turn", 1),
        ("bob", "your_turn", 2),
        ("bob", "your_turn", 4),
    ]
