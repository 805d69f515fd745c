"""Matchmaking through the real LobbyService: grouping, bot fill, cancel, watch, and a 500-enqueue race."""

from __future__ import annotations

import json
import socket
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.adapters.games import MatchRequest
from services.lobby.adapters.queue_repo import QueueRepository
from services.lobby.domain.matchmaking import Ticket, TicketStatus
from services.lobby.server import now_ms
from services.lobby.service_layer.matchmaking import Matcher
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import start_server
from shared.serving.tokens import Scope, game_audience
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import SIGNER, Guest, LobbyFactory, auth, fails, sign_in, state_size
from tests.support.timing import scaled, wait_until

REFUSED = grpc.StatusCode.FAILED_PRECONDITION


def enqueue(
    stub: Any, guest: Guest, counts: tuple[int, ...] = (2,), fill_after: int = 0, **options: str
) -> str:
    request = pb.EnqueueRequest(
        game="race", seat_counts=counts, bot_fill_after_seconds=fill_after, options=options
    )
    ticket_id: str = stub.Enqueue(request, metadata=guest.md, timeout=5).ticket_id
    return ticket_id


def until_done(stub: Any, guest: Guest, ticket_id: str) -> list[Any]:
    stream = stub.WatchQueue(pb.WatchQueueRequest(ticket_id=ticket_id), metadata=guest.md, timeout=20)
    return [item.ticket for item in stream if item.WhichOneof("item") == "ticket"]


def test_two_players_are_matched_and_their_seat_tokens_work(stub: Any, race_stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    ada_ticket = enqueue(stub, ada)
    stream = stub.WatchQueue(pb.WatchQueueRequest(ticket_id=ada_ticket), metadata=ada.md, timeout=20)
    assert next(stream).ticket.status == pb.TICKET_STATUS_WAITING
    enqueue(stub, bob)
    final = [item.ticket for item in stream if item.WhichOneof("item") == "ticket"][-1]
    assert final.status == pb.TICKET_STATUS_MATCHED and final.match_id
    claims = SIGNER.verify(final.seat_token, game_audience("race"))
    assert (claims.scope, claims.match_id, claims.seat, claims.player_id) == (
        Scope.SEAT,
        final.match_id,
        final.seat,
        ada.player_id,
    )
    race_pb = load_game("race").modules.pb2
    view = race_stub.GetView(
        race_pb.GetViewRequest(match_id=final.match_id), metadata=auth(final.seat_token), timeout=5
    )
    assert view.view.HasField("my_secret")


def test_a_lonely_player_is_filled_with_bots_after_the_wait(stub: Any, redis_client: redis.Redis) -> None:
    ada = sign_in(stub, "Ada")
    ticket_id = stub.Enqueue(
        pb.EnqueueRequest(
            game="race",
            seat_counts=[3],
            bot_fill_after_seconds=1,
            bot_level=pb.BOT_LEVEL_RANDOM,
            options={"goal": "9"},
        ),
        metadata=ada.md,
        timeout=5,
    ).ticket_id
    final = until_done(stub, ada, ticket_id)[-1]
    assert final.status == pb.TICKET_STATUS_MATCHED and final.seat == 0 and final.waited_seconds >= 1
    meta = wait(RedisEventStore(redis_client).get_meta(final.match_id))
    assert json.loads(meta["bots"]) == {"1": "random", "2": "random"}
    assert json.loads(meta["players"]) == [ada.player_id, "", ""] and json.loads(meta["options"]) == {
        "goal": "9"
    }


def test_cancel_works_while_waiting_and_only_for_the_owner(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    ticket_id = enqueue(stub, ada, counts=(4,))
    fails(lambda: enqueue(stub, ada), REFUSED, "busy")
    cancel = pb.CancelQueueRequest(ticket_id=ticket_id)
    fails(lambda: stub.CancelQueue(cancel, metadata=bob.md, timeout=5), grpc.StatusCode.PERMISSION_DENIED)
    stub.CancelQueue(cancel, metadata=ada.md, timeout=5)
    fails(lambda: stub.CancelQueue(cancel, metadata=ada.md, timeout=5), REFUSED, "already_cancelled")
    assert until_done(stub, ada, ticket_id)[-1].status == pb.TICKET_STATUS_CANCELLED
    fails(
        lambda: stub.CancelQueue(pb.CancelQueueRequest(ticket_id="nope"), metadata=ada.md, timeout=5),
        grpc.StatusCode.NOT_FOUND,
    )
    enqueue(stub, ada)  # free to queue again


def test_bad_queue_requests_are_refused_and_change_nothing(stub: Any, redis_client: redis.Redis) -> None:
    ada = sign_in(stub, "Ada")
    before = state_size(redis_client)
    bad = [
        pb.EnqueueRequest(game="chess"),
        pb.EnqueueRequest(game="race", seat_counts=[2, 5]),
        pb.EnqueueRequest(game="race", seat_counts=[1]),
        pb.EnqueueRequest(game="race", options={"goal": "-1"}),
        pb.EnqueueRequest(game="race", bot_fill_after_seconds=-1),
        pb.EnqueueRequest(game="race", turn_seconds=1),
        pb.EnqueueRequest(game="race", bot_level=9),
    ]
    for request in bad:
        fails(partial(stub.Enqueue, request, metadata=ada.md, timeout=5), grpc.StatusCode.INVALID_ARGUMENT)
    assert state_size(redis_client) == before


def test_a_claim_takes_all_tickets_of_a_group_or_none(redis_client: redis.Redis) -> None:
    repo = QueueRepository(redis_client)
    tickets = [Ticket(f"t{i}", f"p{i}", "race", 25.0, (2,), i) for i in range(3)]
    for ticket in tickets:
        repo.add(ticket)
    assert repo.claim(tickets[:2], "m1", 0)
    assert not repo.claim(tickets[1:], "m2", 0)
    assert [t.ticket_id for t in repo.waiting("race")] == ["t2"]
    repo.release(tickets[:2], "m2")  # not their match: nothing changes
    assert [t.ticket_id for t in repo.waiting("race")] == ["t2"]
    repo.release(tickets[:2], "m1")
    assert [t.ticket_id for t in repo.waiting("race")] == ["t0", "t1", "t2"]


def test_claims_left_by_a_dead_matcher_are_seated_or_requeued(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    # No background matcher: this test's tick must be the only one (a background tick holding the
    # game's lock made this tick return 0, and the asserts then raced it; seen once under load 13).
    lobby = make_lobby(background=False)
    repo, store = QueueRepository(redis_client), RedisEventStore(redis_client)
    tickets = [Ticket(f"t{i}", f"p{i}", "race", 25.0, (2,), i) for i in range(4)]
    for ticket in tickets:
        repo.add(ticket)
    assert repo.claim(tickets[:2], "made", 0) and repo.claim(tickets[2:], "lost", 0)
    request = MatchRequest("race", "made", 2, {}, {}, ("p1", "p0"), 0)  # died after CreateMatch
    lobby.catalog.create_match(request)
    Matcher(repo, lobby.catalog, lambda: 10**6, store).tick_game("race")
    seated = {t.player_id: (t.status, t.match_id, t.seat) for t in map(repo.get, ["t0", "t1"])}
    assert seated == {"p0": (TicketStatus.MATCHED, "made", 1), "p1": (TicketStatus.MATCHED, "made", 0)}
    requeued = [repo.get(t) for t in ("t2", "t3")]  # their match never existed: they were grouped again
    assert {t.status for t in requeued} == {TicketStatus.MATCHED} and requeued[0].match_id not in (
        "lost",
        "made",
    )
    assert not redis_client.zcard(keys.claimed("race"))


class UnlockedQueue(QueueRepository):
    """Pretends every lock is free, so only the claim script keeps matchers apart."""

    def lock(self, game: str, ttl_ms: int) -> str | None:
        return "always"


@pytest.mark.timeout(int(scaled(180)))
def test_500_concurrent_enqueues_on_two_lobbies_match_everyone_once(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    lobbies = [make_lobby(background=False, limits=False), make_lobby(background=False, limits=False)]
    channels = [grpc.insecure_channel(f"127.0.0.1:{lobby.port}") for lobby in lobbies]
    stubs = [lobby_pb2_grpc.LobbyServiceStub(c) for c in channels]
    players = [f"p{i:03d}" for i in range(500)]
    attempts = [
        p for i, p in enumerate(players) for _ in range(2 if i % 5 == 0 else 1)
    ]  # 100 queue twice at once

    def attempt(index: int) -> str:
        player = attempts[index]
        token = SIGNER.player(player, player)
        request = pb.EnqueueRequest(game="race", seat_counts=[2, 3, 4], bot_fill_after_seconds=2)
        try:
            stubs[index % 2].Enqueue(request, metadata=auth(token), timeout=30)
            return "ok"
        except grpc.RpcError as err:
            assert err.code() == REFUSED, err.details()
            return "busy"

    with ThreadPoolExecutor(64) as pool:
        results = Counter(pool.map(attempt, range(len(attempts))))
        assert results == {"ok": 500, "busy": 100}
        for lobby in lobbies:
            lobby.start_background(0.05)
        unlocked = Matcher(
            UnlockedQueue(redis_client), lobbies[0].catalog, now_ms, RedisEventStore(redis_client)
        )
        racing = [pool.submit(_tick_for, unlocked, 3.0) for _ in range(4)]
        tickets = _wait_all_done(redis_client, 500)
        for future in racing:
            future.result()
    by_player = Counter(t.player_id for t in tickets if t.status is TicketStatus.MATCHED)
    assert set(by_player) == set(players) and set(by_player.values()) == {1}
    seats = Counter((t.match_id, t.seat) for t in tickets)
    assert max(seats.values()) == 1
    store = RedisEventStore(redis_client)
    for ticket in tickets:
        assert json.loads(wait(store.get_meta(ticket.match_id))["players"])[ticket.seat] == ticket.player_id
    for channel in channels:
        channel.close()


def _tick_for(matcher: Matcher, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        matcher.tick_game("race")


def _wait_all_done(client: redis.Redis, count: int, timeout_s: float = 120) -> list[Ticket]:
    repo = QueueRepository(client)
    deadline = time.monotonic() + scaled(timeout_s)
    while True:
        ids = [
            keys.text(k).split(":")[-1]
            for k in client.scan_iter(match=keys.ticket("*"))
            if not keys.text(k).endswith(":feed")
        ]
        tickets = [repo.get(i) for i in ids]
        if len(tickets) == count and all(t.status is TicketStatus.MATCHED for t in tickets):
            return tickets
        assert time.monotonic() < deadline, Counter(t.status for t in tickets)
        time.sleep(0.2)


def test_a_group_waits_again_while_its_rule_service_is_down(
    make_lobby: LobbyFactory, refused_port: socket.socket, redis_client: redis.Redis
) -> None:
    port = refused_port.getsockname()[1]
    lobby = make_lobby(background=False, race=port)
    channel = grpc.insecure_channel(f"127.0.0.1:{lobby.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    tickets = [enqueue(stub, ada), enqueue(stub, bob)]
    repo = QueueRepository(redis_client)
    assert lobby.matcher.tick_game("race") == 0
    assert [repo.get(t).status for t in tickets] == [TicketStatus.WAITING] * 2
    assert not redis_client.exists(keys.mine(ada.player_id), keys.mine(bob.player_id))
    game = load_game("race")
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))
    refused_port.close()  # the service comes back on its port
    back = start_server([GameServicer(runner, game.modules, SIGNER).registration()], port=port)
    try:  # the lobby's channel reconnects after its back-off: the next ticks match them
        wait_until(lambda: lobby.matcher.tick_game("race"), 30, "the group matched once the service is back")
        matched = [repo.get(t) for t in tickets]
        assert {t.status for t in matched} == {TicketStatus.MATCHED}
        assert wait(runner.load(matched[0].match_id)).meta.game == "race"
    finally:
        back.stop(0)
        channel.close()
