"""A full 4-player Lorenzo match through the gRPC rule service on real Redis."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from services.games import LoadedGame, load_game
from shared.core.rng import Rng
from shared.serving.errors import error_info, localized_message
from shared.serving.tokens import TokenSigner
from tests.support.game_server import Callers, play_out, served_stub

SIGNER = TokenSigner(b"lorenzo-test-secret-0123456789abcdef")
CALLERS = Callers(SIGNER, "lorenzo")
SERVICE, seat_auth = CALLERS.service, CALLERS.seat


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game("lorenzo")


@pytest.fixture
def stub(game: LoadedGame, redis_client: redis.Redis) -> Iterator[Any]:
    with served_stub(game, redis_client, SIGNER) as stub:
        yield stub


def no_other_hand(view: Any, seat: int | None) -> None:
    """A seat never sees another seat's leaders in hand."""
    for player in view.view.players:
        if seat is not None and player.seat != view.view.viewer_seat:
            assert not player.hand and not player.draft_hand


def test_a_four_player_match_plays_to_the_end_through_grpc(stub: Any, game: LoadedGame) -> None:
    pb2 = game.modules.pb2
    created = stub.CreateMatch(
        pb2.CreateMatchRequest(match_id="full", seats=4, options={"advanced": "true"}, seed=2024),
        metadata=SERVICE,
        timeout=10,
    )
    assert created.version > 0
    view = play_out(stub, game, CALLERS, "full", Rng(7), no_other_hand)
    assert len(view.outcome.scores) == 4
    assert sorted(view.outcome.placings)[0] == 1


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


def test_a_refusal_comes_in_the_callers_language(game: LoadedGame, redis_client: redis.Redis) -> None:
    """The rules' refusal keeps its code and English message, and carries the message in Chinese
    (``services/lorenzo/locales/zh-CN.yaml``) with its value filled in; nothing is created."""
    assert game.manifest.texts is not None
    with served_stub(game, redis_client, SIGNER, texts=game.manifest.texts()) as stub:
        refused_in_chinese(stub, game)


def refused_in_chinese(stub: Any, game: LoadedGame) -> None:
    pb2 = game.modules.pb2
    request = pb2.CreateMatchRequest(match_id="zh", seats=2, options={"advanced": "maybe"}, seed=1)
    with pytest.raises(grpc.RpcError) as err:
        stub.CreateMatch(request, metadata=[*SERVICE, ("accept-language", "zh-CN,zh;q=0.9")], timeout=10)
    info = error_info(err.value)
    assert info is not None and info.reason == "bad_option"
    assert err.value.details() == "advanced must be 'true' or 'false', not 'maybe'"
    localized = localized_message(err.value)
    assert localized is not None
    assert (localized.locale, localized.message) == (
        "zh-CN",
        "advanced 必须是 'true' 或 'false'，不是 'maybe'",
    )
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetView(pb2.GetViewRequest(match_id="zh"), metadata=SERVICE, timeout=10)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
