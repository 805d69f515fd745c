"""A full 4-player Lorenzo match through the gRPC rule service on real Redis."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from services.games import LoadedGame, load_game
from shared.core.codec import union_field
from shared.core.rng import Rng
from shared.serving.errors import error_info
from shared.serving.grpc_server import RunningServer
from shared.serving.tokens import TokenSigner
from tests.support.game_server import serving

SIGNER = TokenSigner(b"lorenzo-test-secret-0123456789abcdef")
SERVICE = [("authorization", "Bearer " + SIGNER.service("lorenzo"))]


def seat_auth(match_id: str, seat: int) -> list[tuple[str, str]]:
    return [("authorization", "Bearer " + SIGNER.seat("lorenzo", match_id, seat, f"p{seat}"))]


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game("lorenzo")


@pytest.fixture
def server(game: LoadedGame, redis_client: redis.Redis) -> Iterator[RunningServer]:
    with serving(game, redis_client, SIGNER) as running:
        yield running


@pytest.fixture
def stub(server: RunningServer, game: LoadedGame) -> Iterator[Any]:
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield game.modules.pb2_grpc.LorenzoServiceStub(channel)


def step(stub: Any, pb2: Any, match_id: str, rng: Rng, n: int) -> Any:
    """One command by whoever is to act (the system with a service token), chosen among its legal ones."""
    head = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=SERVICE, timeout=10)
    auth = SERVICE if head.system_to_act else seat_auth(match_id, rng.choice(list(head.seats_to_act)))
    view = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=auth, timeout=10)
    for player in view.view.players:  # a seat never sees another seat's leaders in hand
        if auth is not SERVICE and player.seat != view.view.viewer_seat:
            assert not player.hand and not player.draft_hand
    command = rng.choice(list(view.legal_commands))
    request = pb2.SubmitCommandRequest(
        match_id=match_id, expected_version=view.version, command_id=f"c{n}", command=command
    )
    return stub.SubmitCommand(request, metadata=auth, timeout=10)


def test_a_four_player_match_plays_to_the_end_through_grpc(stub: Any, game: LoadedGame) -> None:
    pb2 = game.modules.pb2
    created = stub.CreateMatch(
        pb2.CreateMatchRequest(match_id="full", seats=4, options={"advanced": "true"}, seed=2024),
        metadata=SERVICE,
        timeout=10,
    )
    assert created.version > 0
    rng = Rng(7)
    for n in range(5000):
        view = stub.GetView(pb2.GetViewRequest(match_id="full"), metadata=SERVICE, timeout=10)
        if view.HasField("outcome"):
            break
        step(stub, pb2, "full", rng, n)
    assert view.HasField("outcome") and len(view.outcome.scores) == 4
    assert sorted(view.outcome.placings)[0] == 1
    log = stub.ExportLog(pb2.ExportLogRequest(match_id="full"), metadata=seat_auth("full", 0), timeout=30)
    assert [e.envelope.version for e in log.events] == list(range(1, view.version + 1))
    rules, state = game.rules, game.rules.initial_state()
    for e in log.events:
        state = rules.evolve(state, game.codec.from_message(union_field(e.event)))
    assert rules.outcome(state).scores == tuple(view.outcome.scores)


def test_an_illegal_move_is_refused_with_the_rule_reason_and_changes_nothing(
    stub: Any, game: LoadedGame
) -> None:
    pb2 = game.modules.pb2
    stub.CreateMatch(pb2.CreateMatchRequest(match_id="m", seats=2, seed=5), metadata=SERVICE, timeout=10)
    head = stub.GetView(pb2.GetViewRequest(match_id="m"), metadata=SERVICE, timeout=10)
    idle = next(s for s in range(2) if s not in head.seats_to_act) if len(head.seats_to_act) < 2 else None
    actor = head.seats_to_act[0]
    legal = stub.GetView(pb2.GetViewRequest(match_id="m"), metadata=seat_auth("m", actor), timeout=10)
    request = pb2.SubmitCommandRequest(
        match_id="m", expected_version=head.version, command_id="x", command=legal.legal_commands[0]
    )
    if idle is not None:
        with pytest.raises(grpc.RpcError) as err:
            stub.SubmitCommand(request, metadata=seat_auth("m", idle), timeout=10)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error_info(err.value) is not None
    with pytest.raises(grpc.RpcError) as err:
        stub.SubmitCommand(
            pb2.SubmitCommandRequest(
                match_id="m",
                expected_version=head.version + 3,
                command_id="y",
                command=legal.legal_commands[0],
            ),
            metadata=seat_auth("m", actor),
            timeout=10,
        )
    assert err.value.code() == grpc.StatusCode.ABORTED
    after = stub.GetView(pb2.GetViewRequest(match_id="m"), metadata=SERVICE, timeout=10)
    assert after.version == head.version
    done = stub.SubmitCommand(request, metadata=seat_auth("m", actor), timeout=10)
    assert done.first_version == head.version + 1


def test_bad_options_and_seat_counts_are_refused(stub: Any, game: LoadedGame) -> None:
    pb2 = game.modules.pb2
    for request in (
        pb2.CreateMatchRequest(match_id="a", seats=5),
        pb2.CreateMatchRequest(match_id="b", seats=1),
        pb2.CreateMatchRequest(match_id="c", seats=3, options={"advanced": "maybe"}),
    ):
        with pytest.raises(grpc.RpcError) as err:
            stub.CreateMatch(request, metadata=SERVICE, timeout=10)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
