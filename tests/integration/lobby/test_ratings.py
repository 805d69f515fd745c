"""Ratings and history from the outbox: a race match played to the end is rated exactly once."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import grpc
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.server import Lobby
from services.lobby.service_layer.projections import RatingsProjector
from shared.core.decider import Outcome
from shared.runtime.edge import wait
from shared.store import MatchStatus, NewEvent, Progress
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import Guest, LobbyFactory, auth, sign_in
from tests.support.timing import scaled


def play_to_the_end(stub: Any, race_stub: Any, ada: Guest, bob: Guest) -> tuple[str, list[int]]:
    """A 2-seat race to 1: the first roll (Ada's, seat 0) ends it. Who won is the secret bonuses'
    call (the race's rule 5) and the lobby seeds the match at random, so the placings (Ada's, Bob's)
    are read from the finished match, never assumed."""
    request = pb.CreateRoomRequest(game="race", seats=2, options={"goal": "1"})
    room = stub.CreateRoom(request, metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=bob.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10)
    race = load_game("race").modules.pb2
    roll = race.SubmitCommandRequest(
        match_id=started.match_id, expected_version=3, command_id="r1", command=race.Command(roll=race.Roll())
    )
    race_stub.SubmitCommand(roll, metadata=auth(started.seat_token), timeout=5)
    match_id: str = started.match_id
    final = race_stub.GetView(
        race.GetViewRequest(match_id=match_id), metadata=auth(started.seat_token), timeout=5
    )
    return match_id, list(final.outcome.placings)


def eventually(check: Callable[[], Any], timeout_s: float = 30) -> Any:
    deadline = time.monotonic() + scaled(timeout_s)
    while not (result := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return result


def leaderboard(stub: Any, guest: Guest) -> list[Any]:
    return list(
        stub.GetLeaderboard(pb.GetLeaderboardRequest(game="race"), metadata=guest.md, timeout=5).entries
    )


def test_a_finished_match_updates_ratings_leaderboard_and_history(stub: Any, race_stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    match_id, placings = play_to_the_end(stub, race_stub, ada, bob)
    board = eventually(lambda: leaderboard(stub, bob))
    assert sorted((e.display_name, e.matches) for e in board) == [("Ada", 1), ("Bob", 1)]
    assert [e.rank for e in board] == [1, 2]
    if placings[0] != placings[1]:  # the winner is first, above the start rating; the loser below
        first, second = ("Ada", "Bob") if placings[0] < placings[1] else ("Bob", "Ada")
        assert [e.display_name for e in board] == [first, second]
        assert board[0].mu > 25 > board[1].mu
    else:  # equal scores share the placing: a draw moves neither rating apart
        assert board[0].mu == board[1].mu and board[0].rating == board[1].rating
    assert board[0].rating == board[0].mu - 3 * board[0].sigma
    mine = stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=bob.md, timeout=5).entries
    assert [(h.match_id, h.seat, h.placing, list(h.placings)) for h in mine] == [
        (match_id, 1, placings[1], placings)
    ]
    theirs = stub.GetMatchHistory(
        pb.GetMatchHistoryRequest(player_id=ada.player_id), metadata=bob.md, timeout=5
    )
    ada_entry = next(e for e in board if e.display_name == "Ada")
    assert theirs.entries[0].placing == placings[0] and theirs.entries[0].rating_after == ada_entry.rating


def test_a_player_who_resigns_is_rated_and_listed_last(stub: Any, race_stub: Any) -> None:
    """Ada resigns before any roll (docs/workers.md, "Resigning"): the match of two ends at once, Bob
    first whatever the scores, and the ratings and the history follow."""
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=bob.md, timeout=5)
    started = stub.StartRoom(pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10)
    race = load_game("race").modules.pb2
    request = race.ResignRequest(match_id=started.match_id, command_id="quit")
    race_stub.Resign(request, metadata=auth(started.seat_token), timeout=5)
    board = eventually(lambda: leaderboard(stub, bob))
    assert [e.display_name for e in board] == ["Bob", "Ada"] and board[0].mu > 25 > board[1].mu
    mine = stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=bob.md, timeout=5).entries
    assert [(h.match_id, h.placing, list(h.placings)) for h in mine] == [(started.match_id, 1, [2, 1])]


def test_each_match_is_rated_once_even_when_notices_are_replayed(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis
) -> None:
    first, second = make_lobby(), make_lobby()  # two projectors in one consumer group
    channel = grpc.insecure_channel(f"127.0.0.1:{first.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    match_id, _ = play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: leaderboard(stub, ada))
    before = redis_client.hgetall(keys.ratings("race"))
    _replay_outbox([first, second], redis_client)
    assert second.projector.poll() >= 1
    assert not first.projector.project(match_id)
    assert redis_client.hgetall(keys.ratings("race")) == before
    assert redis_client.zcard(keys.history(ada.player_id)) == 1
    channel.close()


def _replay_outbox(lobbies: list[Lobby], client: redis.Redis) -> None:
    """Stop the background projectors, then rewind the group so every notice is delivered again."""
    for lobby in lobbies:
        lobby.stopping.set()
        for thread in lobby.threads:
            thread.join(scaled(30))
            assert not thread.is_alive(), f"{thread.name} did not stop"
    store = RedisEventStore(client)
    for shard in range(store.shards):
        client.xgroup_setid(store.outbox_key(shard), keys.GROUP, "0")


def test_the_outcome_comes_from_the_recorded_progress_without_game_code(redis_client: redis.Redis) -> None:
    """A game no process knows: the projection never asks for its rules."""
    store = RedisEventStore(redis_client)
    projector = RatingsProjector(store, RatingsRepository(redis_client), "solo", block_ms=10)
    projector.follower.ensure_groups()
    players = {"players": '["p-ada", "", "p-bob"]', "game": "unknown-game"}
    active = Progress((0,), False, MatchStatus.ACTIVE)
    wait(store.append("g1", 0, [NewEvent("Started", b"")], "c0", meta=players, progress=active))
    finished = Progress((), False, MatchStatus.FINISHED, Outcome((4, 9, 6), (3, 1, 2)))
    wait(store.append("g1", 1, [NewEvent("Ended", b"")], "c1", progress=finished))
    assert projector.poll() == 2
    ada: list[Any] = redis_client.zrange(keys.history("p-ada"), 0, -1)
    bob: list[Any] = redis_client.zrange(keys.history("p-bob"), 0, -1)
    assert [json.loads(h)["placings"] for h in ada] == [[3, 1, 2]]
    assert [json.loads(h)["placing"] for h in bob] == [2]


def test_a_match_finished_before_outcomes_were_recorded_is_left_pending(redis_client: redis.Redis) -> None:
    store = RedisEventStore(redis_client)
    projector = RatingsProjector(store, RatingsRepository(redis_client), "solo", block_ms=10)
    projector.follower.ensure_groups()
    meta = {"players": '["p-ada", "p-bob"]', "game": "unknown-game", "status": "finished"}
    wait(store.append("old", 0, [NewEvent("Ended", b"")], "c0", meta=meta))  # the old format: no progress
    projector.poll()
    assert not redis_client.exists(keys.history("p-ada"))
    pending = [redis_client.xpending(store.outbox_key(s), keys.GROUP)["pending"] for s in range(store.shards)]
    assert sum(pending) == 1  # claimed again later, then dead-lettered (shared.store.outbox)
