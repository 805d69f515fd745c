"""Trajan through its real gRPC rule service on real Redis: a whole 4-player match, and what another
seat and a spectator may see of it (GetView, WatchMatch, Replay).

The secret parts of Trajan are the commodity hands and the draw pile (docs/rules/trajan.md, "Hidden
information"); every other face-down pool (forum and extra action tiles, the bonus bag, the demand
tiles, the Trajan tiles beneath each stack's top) is unordered and drawn from only when a draw happens,
so no order exists to leak, and views show those pools' sizes only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from services.games import LoadedGame, load_game
from shared.core.codec import union_field
from shared.core.decider import Visibility, VisibilityKind
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore
from tests.support.game_server import Callers, play_out, served_stub, step

SIGNER = TokenSigner(b"trajan-test-secret-0123456789abcdef")
CALLERS = Callers(SIGNER, "trajan")
SERVICE, seat_auth, spectator_auth = CALLERS.service, CALLERS.seat, CALLERS.spectator
SECRET_EVENTS = {"CommoditiesDrawn"}  # the only events with something a seat may not see


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game("trajan")


@pytest.fixture
def store(redis_client: redis.Redis) -> RedisEventStore:
    return RedisEventStore(redis_client)


@pytest.fixture
def stub(game: LoadedGame, redis_client: redis.Redis) -> Iterator[Any]:
    with served_stub(game, redis_client, SIGNER, keepalive_s=0.2) as stub:
        yield stub


def create(stub: Any, pb2: Any, match_id: str, seed: int) -> None:
    request = pb2.CreateMatchRequest(match_id=match_id, seats=4, seed=seed)
    assert stub.CreateMatch(request, metadata=SERVICE, timeout=10).version > 0


def watched(stub: Any, pb2: Any, match_id: str, auth: list[tuple[str, str]], head: int) -> list[Any]:
    """Every event WatchMatch sends ``auth`` from version 1 until the head (as the rules' records)."""
    request = pb2.WatchMatchRequest(match_id=match_id, from_version=1)
    out = []
    for item in stub.WatchMatch(request, metadata=auth, timeout=30):
        top = item.event.envelope.version if item.HasField("event") else item.keepalive.head_version
        if item.HasField("event"):
            out.append(item.event)
        if top >= head:
            return out
    return out


def test_a_four_player_trajan_match_plays_to_the_end_through_grpc(stub: Any, game: LoadedGame) -> None:
    pb2 = game.modules.pb2
    create(stub, pb2, "full", 2026)
    view = play_out(stub, game, CALLERS, "full", Rng(7))
    assert len(view.outcome.scores) == 4
    assert sorted(view.outcome.placings) == [1, 2, 3, 4]  # Trajan breaks every tie (the senate stack)
    assert [f.total for f in view.view.final] == list(view.outcome.scores)


def test_hands_and_the_draw_pile_reach_no_other_seat_nor_a_spectator(
    stub: Any, game: LoadedGame, store: RedisEventStore
) -> None:
    pb2, rules = game.modules.pb2, game.rules
    create(stub, pb2, "secret", 31)
    rng = Rng(3)
    for n in range(400):  # through the set-up and well into the first quarter
        step(stub, pb2, CALLERS, "secret", rng, n)
    stored = wait(store.read("secret"))
    head = stored[-1].version
    state = wait(MatchRunner(rules, game.codec, store).load("secret")).state
    assert all(p.hand for p in state.players) and state.deck, "every seat holds cards, the pile is not empty"

    # Every draw from the pile is recorded seat-only, for the seat that drew; everything else is public.
    for e in stored:
        seen = Visibility.decode(e.visibility)
        if e.type in SECRET_EVENTS:
            drawn = game.codec.decode(e.type, e.payload, e.schema_version)
            assert (seen.kind, seen.seat) == (VisibilityKind.SEAT, drawn.seat)
        else:
            assert seen.kind is VisibilityKind.PUBLIC, e.type
    draws = {seat: [e.version for e in stored if e.visibility == f"seat:{seat}"] for seat in range(4)}
    assert all(draws.values()), "every seat drew from the pile"

    for viewer, auth in ((1, seat_auth("secret", 1)), (-1, spectator_auth("secret"))):
        reply = stub.GetView(pb2.GetViewRequest(match_id="secret"), metadata=auth, timeout=10)
        view = reply.view
        assert view.viewer_seat == viewer and not view.deck and view.deck_size == len(state.deck)
        for p in view.players:
            hand = state.players[p.seat].hand
            assert p.hand_size == len(hand)
            assert list(p.hand) == ([int(c) for c in hand] if p.seat == viewer else [])
        assert view.demand_pool_size == len(state.demand_pool)
        assert [(s.top, s.beneath) for s in view.trajan_stacks] == [
            (s.top, len(s.rest)) for s in state.trajan_stacks
        ]
        events = watched(stub, pb2, "secret", auth, head)
        got = [e.envelope.version for e in events]
        hidden = {v for seat, versions in draws.items() if seat != viewer for v in versions}
        assert got == [e.version for e in stored if e.version not in hidden]
        for e in events:  # what is sent is the stored event itself, nothing more
            assert e.envelope.type in SECRET_EVENTS or e.envelope.type == stored[e.envelope.version - 1].type
            if e.envelope.type in SECRET_EVENTS:
                assert game.codec.from_message(union_field(e.event)).seat == viewer
        replay = stub.Replay(
            pb2.ReplayRequest(match_id="secret", version=head // 2), metadata=auth, timeout=10
        )
        earlier = wait(MatchRunner(rules, game.codec, store).load("secret", at_version=head // 2)).state
        for p in replay.view.players:
            assert p.hand_size == len(earlier.players[p.seat].hand)
            assert list(p.hand) == (
                [int(c) for c in earlier.players[p.seat].hand] if p.seat == viewer else []
            )
        assert not replay.view.deck

    mine = stub.GetView(pb2.GetViewRequest(match_id="secret"), metadata=seat_auth("secret", 2), timeout=10)
    assert list(mine.view.players[2].hand) == [int(c) for c in state.players[2].hand]  # a seat sees its own
    with pytest.raises(grpc.RpcError) as err:  # and the whole log only once the match is over
        stub.ExportLog(pb2.ExportLogRequest(match_id="secret"), metadata=seat_auth("secret", 1), timeout=10)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
