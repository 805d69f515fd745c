from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from shared.codec import CodecError, MessageCodec, fields_of, from_plain, render_proto, to_plain
from shared.protogen import compile_protos


class Colour(enum.IntEnum):
    BLACK = 1
    WHITE = 2


@dataclass(frozen=True, slots=True)
class Inner:
    colour: Colour
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Outer:
    n: int
    ok: bool
    name: str
    inner: Inner
    many: tuple[Inner, ...]
    maybe: Inner | None
    count: int | None
    colours: tuple[Colour, ...]


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


@dataclass(frozen=True)
class HasZero:
    z: Zero


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
