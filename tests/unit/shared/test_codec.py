from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shared.core.codec import (
    CodecError,
    MessageCodec,
    fields_of,
    from_plain,
    to_plain,
    union_field,
    wrap_union,
)
from shared.core.protorender import render_proto
from shared.core.wire import comments_of, message, pb
from shared.runtime.edge import wait
from shared.serving.protogen import compile_protos


class Colour(enum.IntEnum):
    BLACK = 1
    WHITE = 2


@message(tag=2)
class Inner:
    colour: Colour = pb(1)
    tags: tuple[str, ...] = pb(2)


@message(tag=1)
class Outer:
    n: int = pb(1)
    ok: bool = pb(2)
    name: str = pb(3)
    inner: Inner = pb(4)
    many: tuple[Inner, ...] = pb(5)
    maybe: Inner | None = pb(6)
    count: int | None = pb(7)
    colours: tuple[Colour, ...] = pb(8)


SAMPLE = Outer(
    -3, True, "x", Inner(Colour.WHITE, ("a", "b")), (Inner(Colour.BLACK, ()),), None, 0, (Colour.WHITE,)
)


def test_plain_values_round_trip() -> None:
    plain = to_plain(SAMPLE)
    assert plain["inner"] == {"colour": 2, "tags": ["a", "b"]} and plain["maybe"] is None
    assert from_plain(Outer, plain) == SAMPLE


@pytest.mark.parametrize(
    "broken",
    [
        {"n": 1},
        {**to_plain(SAMPLE), "n": "1"},
        {**to_plain(SAMPLE), "ok": 1},
        {**to_plain(SAMPLE), "n": True},
    ],
)
def test_malformed_plain_values_are_refused(broken: dict[str, object]) -> None:
    with pytest.raises(CodecError):
        from_plain(Outer, broken)


@dataclass(frozen=True)
class Bad:
    values: dict[str, int]


@dataclass(frozen=True)
class AlsoBad:
    either: int | str


class Zero(enum.IntEnum):
    NONE = 0


@message
class HasZero:
    z: Zero = pb(1)


def test_unsupported_field_types_are_refused() -> None:
    for cls in (Bad, AlsoBad):
        with pytest.raises(CodecError):
            fields_of(cls)


def test_enum_value_zero_is_reserved() -> None:
    with pytest.raises(CodecError, match="reserved"):
        render_proto("t.v1", [HasZero], {}, "test")


def test_protobuf_round_trip_through_generated_code(tmp_path: Path) -> None:
    folder = tmp_path / "proto" / "tabula" / "codectest" / "v1"
    folder.mkdir(parents=True)
    text = render_proto("tabula.codectest.v1", [Outer], {"Any": [Inner, Outer]}, "codec test")
    assert "optional int32 count = 7;" in text and "COLOUR_UNSPECIFIED = 0;" in text
    (folder / "codectest.proto").write_text(text)
    compile_protos(tmp_path / "proto", tmp_path / "gen")
    pb2 = importlib.import_module("tabula.codectest.v1.codectest_pb2")
    codec = MessageCodec(pb2, [Outer, Inner])
    type_name, payload = codec.encode(SAMPLE)
    assert type_name == "Outer" and codec.decode(type_name, payload) == SAMPLE
    with pytest.raises(CodecError):
        codec.decode("Nope", payload)


class Shade(enum.IntEnum):
    """How dark a tile is."""

    LIGHT = 1  # the default tile
    DARK = 2


@message(tag=5, reserved=(2, 4, "colour"))
class Moved:
    """A piece moved.

    Second line of the docstring."""

    to: int = pb(3)  # where it ended
    # who moved it,
    # seat number
    seat: int = pb(1)
    shade: Shade = pb(5, default=Shade.LIGHT)


@message(tag=1)
class Started:
    seats: int = pb(1)


def test_field_numbers_come_from_pb_not_from_the_order_of_fields() -> None:
    text = render_proto("t.v1", [], {"Event": [Moved, Started]}, "test")
    body = text[text.index("message Moved {") :]
    body = body[: body.index("}")]
    assert body.splitlines()[1:] == [
        "  reserved 2, 4;",
        '  reserved "colour";',
        "  // who moved it,",
        "  // seat number",
        "  int32 seat = 1;",
        "  // where it ended",
        "  int32 to = 3;",
        "  Shade shade = 5;",
    ]


def test_docstrings_and_comments_become_proto_comments() -> None:
    text = render_proto("t.v1", [], {"Event": [Moved, Started]}, "test")
    assert "// A piece moved.\n//\n// Second line of the docstring.\nmessage Moved {" in text
    assert "// How dark a tile is.\nenum Shade {" in text
    assert "  // the default tile\n  SHADE_LIGHT = 1;\n  SHADE_DARK = 2;" in text
    assert "message Started {\n  int32 seats = 1;\n}" in text  # no docstring, no comment


def test_union_members_use_their_tags_and_reserved_tags_are_rendered() -> None:
    text = render_proto("t.v1", [], {"Event": [Moved, Started]}, "test", {"Event": (3, 2, "jumped")})
    union = text[text.index("message Event {") :]
    assert union.splitlines()[1:6] == [
        "  reserved 2, 3;",
        '  reserved "jumped";',
        "  oneof kind {",
        "    Started started = 1;",
        "    Moved moved = 5;",
    ]


@message
class Untagged:
    n: int = pb(1)


@message(tag=1)
class SameTag:
    n: int = pb(1)


@dataclass(frozen=True, slots=True)
class Plain:
    n: int


@message(tag=2)
class HoldsPlain:
    plain: Plain = pb(1)


@pytest.mark.parametrize(
    ("members", "reserved", "error"),
    [
        ([Started, Untagged], (), "Untagged: needs a stable tag"),
        ([Started, SameTag], (), "SameTag and Started share tag 1"),
        ([Started, Moved], (5,), "Moved: tag 5 or its name is reserved"),
        ([Started, Moved], ("moved",), "Moved: tag 5 or its name is reserved"),
        ([Started, HoldsPlain], (), "Plain: a type in a .proto must be a @message"),
        ([Started, Plain], (), "Plain: a type in a .proto must be a @message"),
    ],
)
def test_unions_refuse_missing_shared_or_reserved_tags_and_plain_dataclasses(
    members: list[type], reserved: tuple[int, ...], error: str
) -> None:
    with pytest.raises(CodecError, match=error):
        render_proto("t.v1", [], {"Event": members}, "test", {"Event": reserved})


def test_message_refuses_fields_without_numbers_and_reused_numbers() -> None:
    with pytest.raises(TypeError, match="needs a number"):

        @message
        class NoNumber:
            n: int

    with pytest.raises(TypeError, match="share number 1"):

        @message
        class Twice:
            a: int = pb(1)
            b: int = pb(1)

    with pytest.raises(TypeError, match="number 2 or the name is reserved"):

        @message(reserved=(2,))
        class Reused:
            a: int = pb(2)

    with pytest.raises(TypeError, match="number 3 or the name is reserved"):

        @message(reserved=("a",))
        class ReusedName:
            a: int = pb(3)


def test_a_message_without_source_renders_without_comments() -> None:
    built = message(tag=1)(type("Built", (), {"__annotations__": {"n": int}, "n": pb(1)}))
    assert comments_of(built).doc == ""
    assert "message Built {\n  int32 n = 1;\n}" in render_proto("t.v1", [], {"Event": [built]}, "test")


def test_a_stored_payload_of_the_current_schema_is_the_message_the_decoder_would_rebuild() -> None:
    from services.games import load_game
    from shared.matches.runner import MatchRunner
    from shared.matches.simulate import play_match
    from shared.store import MemoryEventStore

    game = load_game("lorenzo")
    runner = MatchRunner(game.rules, game.codec, MemoryEventStore())
    wait(runner.create("m1", 3, {}, seed=5))
    wait(play_match(runner, "m1", seed=5, check=False, max_steps=60))
    stored = wait(runner.store.read("m1"))
    assert len({event.type for event in stored}) > 5
    for event in stored:
        direct = game.codec.stored_message(event.type, event.payload, event.schema_version)
        assert direct == game.codec.to_message(runner.decode(event))
        assert game.codec.stored_message(event.type, event.payload, event.schema_version - 1) is None
    assert game.codec.stored_message("NoSuchEvent", b"", 1) is None
    with pytest.raises(CodecError):
        game.codec.stored_message(stored[0].type, b"\xff\xff", stored[0].schema_version)


def _lorenzo_log() -> tuple[MessageCodec, list[Any]]:
    """A fresh codec of Lorenzo's events (nothing decoded yet) and a random match's stored events."""
    from services.games import load_game
    from shared.matches.runner import MatchRunner
    from shared.matches.simulate import play_match
    from shared.store import MemoryEventStore

    game = load_game("lorenzo")
    runner = MatchRunner(game.rules, game.codec, MemoryEventStore())
    wait(runner.create("m1", 3, {}, seed=5))
    wait(play_match(runner, "m1", seed=5, check=False, max_steps=60))
    return MessageCodec(game.modules.pb2, game.rules.event_types), wait(runner.store.read("m1"))


def test_a_payload_decoded_again_is_the_value_kept_and_equals_a_fresh_decode() -> None:
    codec, stored = _lorenzo_log()
    first = [codec.decode(e.type, e.payload, e.schema_version) for e in stored]
    again = [codec.decode(e.type, e.payload, e.schema_version) for e in stored]
    assert all(a is b for a, b in zip(first, again, strict=True))
    fresh, _ = _lorenzo_log()
    assert first == [fresh.decode(e.type, e.payload, e.schema_version) for e in stored]
    assert len({(e.type, e.payload) for e in stored}) < len(stored)  # a log repeats payloads


def test_a_refused_payload_is_refused_every_time() -> None:
    codec, stored = _lorenzo_log()
    for _ in range(2):
        with pytest.raises(CodecError):
            codec.decode(stored[0].type, b"\xff\xff", stored[0].schema_version)


def test_the_decoded_payloads_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import shared.core.codec

    monkeypatch.setattr(shared.core.codec, "DECODED_KEPT", 3)
    codec, stored = _lorenzo_log()
    distinct = list({(e.type, e.payload, e.schema_version): e for e in stored}.values())[:10]
    first = codec.decode(distinct[0].type, distinct[0].payload, distinct[0].schema_version)
    for e in distinct:
        codec.decode(e.type, e.payload, e.schema_version)
    assert len(codec._decoded) <= 3
    again = codec.decode(distinct[0].type, distinct[0].payload, distinct[0].schema_version)
    assert again == first and again is not first  # let go, decoded anew


def test_a_union_filled_in_place_is_the_wrapped_message() -> None:
    """``fill_union`` builds the member inside the wrapper; the bytes are ``wrap_union``'s, a member
    without fields (EndTurn) set all the same."""
    from services.games import load_game

    game = load_game("lorenzo")
    pb2, codec = game.modules.pb2, game.codec
    by_name = {cls.__name__: cls for cls in game.rules.command_types}
    member = next(m for m in fields_of(by_name["PlaceFamilyMember"]) if m.name == "member").target
    assert member is not None
    commands = [by_name["EndTurn"](), by_name["PlaceFamilyMember"](list(member)[1], 3, 2, 1, 0)]
    for command in commands:
        filled = codec.fill_union(pb2.Command(), command)
        wrapped = wrap_union(pb2.Command(), codec.to_message(command))
        assert filled.WhichOneof("kind") == wrapped.WhichOneof("kind") is not None
        assert filled.SerializeToString() == wrapped.SerializeToString()
        assert codec.from_message(union_field(filled)) == command
