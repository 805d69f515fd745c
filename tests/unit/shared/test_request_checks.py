"""What a client sends is checked before it is used: the codec's enum checks with field paths,
the generic bounds on every request, and the error table's shapes (BadRequest, RetryInfo, clipping)."""

from __future__ import annotations

import enum
import importlib
from pathlib import Path
from types import ModuleType

import grpc
import pytest
import redis.exceptions as redis_errors
from google.rpc import error_details_pb2, status_pb2
from tabula.lobby.v1 import lobby_pb2 as lb

from shared.core.codec import CodecError, MessageCodec, from_proto, union_field
from shared.core.protorender import render_proto
from shared.core.wire import message, pb
from shared.serving import bounds
from shared.serving.errors import MAX_DETAIL, MAX_MESSAGE, InvalidArgument, Mapped, map_error, to_status
from shared.serving.protogen import compile_protos
from shared.store.base import NewEvent, check_append


class Suit(enum.IntEnum):
    CUPS = 1
    COINS = 2


@message
class Card:
    suit: Suit = pb(1)
    rank: int = pb(2)


@message(tag=1)
class PlayCards:
    cards: tuple[Card, ...] = pb(1)
    lead: Suit = pb(2)
    trump: Suit | None = pb(3)
    suits: tuple[Suit, ...] = pb(4, default=())


@pytest.fixture(scope="module")
def pb2(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    root = tmp_path_factory.mktemp("checks")
    folder = root / "proto" / "tabula" / "checkstest" / "v1"
    folder.mkdir(parents=True)
    text = render_proto("tabula.checkstest.v1", [], {"Command": [PlayCards]}, "request checks test")
    (folder / "checkstest.proto").write_text(text)
    compile_protos(root / "proto", root / "gen", includes=(Path("proto"),))
    return importlib.import_module("tabula.checkstest.v1.checkstest_pb2")


def field_of(pb2: ModuleType, **fields: object) -> str:
    with pytest.raises(CodecError) as caught:
        from_proto(PlayCards, pb2.PlayCards(**fields), "command.play_cards")
    return caught.value.field


def test_an_enum_left_at_zero_or_out_of_range_is_refused_with_its_path(pb2: ModuleType) -> None:
    assert field_of(pb2) == "command.play_cards.lead"
    assert field_of(pb2, lead=99) == "command.play_cards.lead"
    assert field_of(pb2, lead=-1) == "command.play_cards.lead"
    assert field_of(pb2, lead=1, trump=0) == "command.play_cards.trump"
    assert field_of(pb2, lead=1, suits=[2, 0]) == "command.play_cards.suits[1]"
    assert field_of(pb2, lead=1, cards=[{"suit": 1}, {"suit": 7}]) == "command.play_cards.cards[1].suit"


def test_the_error_says_what_the_members_are(pb2: ModuleType) -> None:
    with pytest.raises(CodecError, match=r"lead: 0 is not a Suit; one of 1 \(CUPS\), 2 \(COINS\)"):
        from_proto(PlayCards, pb2.PlayCards(), "")


def test_defined_members_and_absent_optionals_decode(pb2: ModuleType) -> None:
    message = pb2.PlayCards(lead=2, cards=[{"suit": 1, "rank": -4}], suits=[1, 2])
    assert from_proto(PlayCards, message) == PlayCards(
        (Card(Suit.CUPS, -4),), Suit.COINS, None, (Suit.CUPS, Suit.COINS)
    )


def test_an_empty_oneof_names_its_field(pb2: ModuleType) -> None:
    with pytest.raises(CodecError) as caught:
        union_field(pb2.Command(), "command")
    assert caught.value.field == "command"
    codec = MessageCodec(pb2, [PlayCards])
    with pytest.raises(CodecError) as bad:
        codec.from_message(pb2.PlayCards(lead=5), "command.play_cards")
    assert bad.value.field == "command.play_cards.lead"


# ---------------------------------------------------------------- generic bounds


def refused_field(message: object) -> str:
    with pytest.raises(InvalidArgument) as caught:
        bounds.check_request(message)  # type: ignore[arg-type]
    return caught.value.field


def test_every_string_repeated_and_map_field_is_bounded_and_enums_are_defined() -> None:
    assert refused_field(lb.SignInGuestRequest(display_name="x" * (bounds.MAX_TEXT + 1))) == "display_name"
    assert refused_field(lb.EnqueueRequest(seat_counts=[2] * (bounds.MAX_ITEMS + 1))) == "seat_counts"
    options = {str(i): "" for i in range(bounds.MAX_ITEMS + 1)}
    assert refused_field(lb.CreateRoomRequest(options=options)) == "options"
    assert refused_field(lb.CreateRoomRequest(options={"k": "v" * 300})) == "options['k']"
    assert refused_field(lb.CreateRoomRequest(visibility=3)) == "visibility"
    assert refused_field(lb.AddBotRequest(level=-1)) == "level"
    bounds.check_request(lb.SignInGuestRequest(display_name="x" * bounds.MAX_TEXT))
    bounds.check_request(lb.CreateRoomRequest(game="race", visibility=2, options={"goal": "3"}))


def test_nested_messages_are_checked_with_their_path(pb2: ModuleType) -> None:
    command = pb2.Command(play_cards=pb2.PlayCards(cards=[{"suit": 1}, {"suit": 9}]))
    assert refused_field(command) == "play_cards.cards[1].suit"


def test_bytes_that_are_no_message_are_a_malformed_request() -> None:
    for raw in (b"\xff", b"\x0a\x05ab", b"\x0a\x02\xff\xfe", b"\x0a" + b"\x80" * 11):
        with pytest.raises(InvalidArgument) as caught:
            bounds.parse(lb.SignInGuestRequest, raw)
        assert (caught.value.reason, caught.value.field) == ("malformed_request", "")
    assert bounds.parse(lb.SignInGuestRequest, b"\x0a\x03Ada").display_name == "Ada"


def test_ids_versions_and_counts() -> None:
    good, bad = ("a-Z_0.9", "x" * 64), ("", "m\n", "a b", "x" * 65, "é", "a/b")
    for match_id in good:
        assert bounds.match_id(match_id) == match_id
        check_append(match_id, 0, [NewEvent("T", b"")], "c")  # what the edge accepts, the store does
    for match_id in bad:
        with pytest.raises(InvalidArgument):
            bounds.match_id(match_id)
    assert bounds.command_id("c" * 128) == "c" * 128
    for command_id in ("", "c" * 129, "a\tb"):
        with pytest.raises(InvalidArgument):
            bounds.command_id(command_id)
    assert bounds.count(0, "v") == 0
    with pytest.raises(InvalidArgument) as caught:
        bounds.count(-1, "expected_version")
    assert caught.value.field == "expected_version"


# ---------------------------------------------------------------- the error table


def details(mapped: Mapped) -> tuple[status_pb2.Status, dict[str, object]]:
    status = to_status(mapped, "tabula.game")
    ((key, raw),) = status.trailing_metadata
    assert key == "grpc-status-details-bin"
    full = status_pb2.Status.FromString(raw)
    out: dict[str, object] = {}
    for detail in full.details:
        for kind in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest, error_details_pb2.RetryInfo):
            found = kind()
            if detail.Unpack(found):
                out[kind.__name__] = found
    return full, out


@pytest.mark.parametrize(
    "err",
    [
        redis_errors.ConnectionError("refused"),
        redis_errors.BusyLoadingError("LOADING"),
        redis_errors.TimeoutError("timeout"),
        redis_errors.ClusterDownError("CLUSTERDOWN"),
        redis_errors.MasterDownError("MASTERDOWN"),
        redis_errors.TryAgainError("TRYAGAIN"),
        redis_errors.ReadOnlyError("READONLY"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_redis_outages_are_unavailable_and_retryable(err: Exception) -> None:
    mapped = map_error(err)
    assert mapped is not None and (mapped.code, mapped.reason) == (
        grpc.StatusCode.UNAVAILABLE,
        "store_unavailable",
    )
    _, found = details(mapped)
    retry = found["RetryInfo"]
    assert isinstance(retry, error_details_pb2.RetryInfo) and retry.retry_delay.seconds >= 1


def test_a_redis_error_no_retry_cures_stays_unexpected() -> None:
    assert map_error(redis_errors.ResponseError("ERR wrong number of arguments")) is None


def test_bad_requests_carry_their_field_and_clipped_texts() -> None:
    huge = "m" * 3_000_000
    mapped = map_error(InvalidArgument(f"no match {huge}", "match_id"))
    assert mapped is not None and mapped.code is grpc.StatusCode.INVALID_ARGUMENT
    full, found = details(mapped)
    assert len(full.message) <= MAX_MESSAGE and full.message.endswith("...")
    request = found["BadRequest"]
    assert isinstance(request, error_details_pb2.BadRequest)
    (violation,) = request.field_violations
    assert violation.field == "match_id" and len(violation.description) <= MAX_DETAIL
    info = found["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo) and info.reason == "invalid_argument"


def test_errors_that_are_not_bad_requests_carry_no_bad_request() -> None:
    from shared.matches.runner import MatchNotFound

    mapped = map_error(MatchNotFound("x" * 1000))
    assert mapped is not None
    _, found = details(mapped)
    assert "BadRequest" not in found and "RetryInfo" not in found
    info = found["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo) and len(info.metadata["match_id"]) <= MAX_DETAIL
