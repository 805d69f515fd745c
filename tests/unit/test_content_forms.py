"""The generic content loader on records declared once: a file's form read from the records' field
metadata (``shared.core.form``), validated onto the records, and written back the same way."""

from __future__ import annotations

import enum
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import AfterValidator, create_model

from shared.core.content import ContentError, File, dump, dump_record, load_file, record_form, register_form
from shared.core.form import Invalid, content_record, field
from shared.core.protorender import render_proto
from shared.core.records import record
from shared.core.wire import message, pb


class Kind(enum.IntEnum):
    PLAIN = 1
    BONUS = 2


@message
class Amounts:
    gold: int = pb(1, default=0, ge=0)
    silver: int = pb(2, default=0, ge=0)


@record
class KindCount:  # a plain dataclass takes its form in shared.core.form.field
    kind: Kind
    count: int = field(ge=0)


@message
class KindNeed:
    kind: Kind = pb(1)
    count: int = pb(2, ge=0)


@message(name="PieceInfo")
class Piece:
    """A piece."""

    id: int = pb(1, ge=1)
    colour: Kind = pb(2, key="type")
    amounts: Amounts = pb(3, default=Amounts(), inline=True)  # written beside id and type
    effect: Kind = pb(4, default=Kind.PLAIN, key="effect.kind", keys={Kind.PLAIN: (), Kind.BONUS: ("value",)})
    value: int = pb(5, default=0, key=("effect.value", "effect.every"))
    needs: tuple[KindNeed, ...] = pb(6, default=(), by_key=KindNeed)
    text: str = pb(7, default="", skip=True)

    def __post_init__(self) -> None:
        if self.colour is Kind.BONUS and not self.needs:
            raise Invalid("needs", "a bonus piece needs something")


PIECES = File("pieces.yaml", Piece, "pieces", count=2)


def _load(tmp_path: Path, text: str) -> tuple[Piece, ...]:
    (tmp_path / "pieces.yaml").write_text(text)
    loaded: tuple[Piece, ...] = load_file(tmp_path, PIECES)
    return loaded


GOOD = """pieces:
- {id: 1, type: plain, gold: 2}
- {id: 2, type: bonus, effect: {kind: bonus, value: 3}, needs: {bonus: 1, plain: 2}}
"""


def test_a_file_loads_onto_the_records_and_is_written_back_as_it_was(tmp_path: Path) -> None:
    one, two = _load(tmp_path, GOOD)
    assert one == Piece(1, Kind.PLAIN, Amounts(gold=2))
    assert two.effect is Kind.BONUS and two.value == 3
    assert two.needs == (KindNeed(Kind.PLAIN, 2), KindNeed(Kind.BONUS, 1))  # in the enum's order
    assert [dump(p) for p in (one, two)] == [
        {"id": 1, "type": "plain", "gold": 2, "effect": {"kind": "plain"}},
        {
            "id": 2,
            "type": "bonus",
            "effect": {"kind": "bonus", "value": 3},
            "needs": {"plain": 2, "bonus": 1},
        },
    ]


@pytest.mark.parametrize(
    ("old", "new", "entry", "field", "words"),
    [
        ("gold: 2", "gold: -2", 1, "gold", "greater than or equal to 0"),
        ("type: plain", "type: round", 1, "type", "unknown name 'round'"),
        ("value: 3}", "every: 3}", 2, "effect", "bonus needs value; takes no every"),
        ("needs: {bonus: 1, plain: 2}", "needs: {}", 2, "needs", "a bonus piece needs something"),
        ("plain: 2}", "plains: 2}", 2, "needs.plains", "Extra inputs"),
        ("{id: 2,", "{id: 1,", 1, "id", "duplicate id"),
    ],
)
def test_a_broken_entry_is_named_by_its_file_key(
    tmp_path: Path, old: str, new: str, entry: int, field: str, words: str
) -> None:
    with pytest.raises(ContentError) as e:
        _load(tmp_path, GOOD.replace(old, new, 1))
    assert (e.value.file, e.value.entry, e.value.field) == ("pieces.yaml", entry, field)
    assert words in e.value.problem


def test_the_count_of_a_file_is_checked(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="at least 2 items"):
        _load(tmp_path, GOOD.split("- {id: 2")[0])


def test_a_record_keeps_the_name_clients_know_in_the_proto() -> None:
    text = render_proto("t.v1", [Piece], {}, "header")
    assert "message PieceInfo {" in text and "message Piece {" not in text


def test_a_misspelt_form_key_is_refused() -> None:
    with pytest.raises(TypeError, match="unknown content form key"):
        pb(1, kee="type")
    with pytest.raises(TypeError, match="unknown content form key"):
        field(gee=0)
    assert KindCount(Kind.PLAIN, 1).count == 1


@content_record
class Route:
    """A one-record file whose ``stops`` the file names by the pieces' names, the record by id."""

    stops: tuple[int, ...] = field(min_length=1)
    length: int = field(ge=1)

    def __post_init__(self) -> None:
        if len(self.stops) > self.length:
            raise Invalid("stops", "more stops than the route is long")


def _stop_ids(route: Any, context: Mapping[str, Any]) -> Any:
    if not isinstance(route, dict) or not isinstance(route.get("stops"), list):
        return route  # left to the validation
    ids: Mapping[str, int] = context["ids"]
    unknown = [s for s in route["stops"] if s not in ids]
    if unknown:
        raise Invalid("stops", f"unknown stop {unknown[0]}")
    return {**route, "stops": [ids[s] for s in route["stops"]]}


ROUTE = File("route.yaml", Route, before=_stop_ids)


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("stops: [north, nowhere]\nlength: 3", "stops", "unknown stop nowhere"),
        ("stops: north\nlength: 3", "stops", "valid list"),  # not understood: validated as written
        ("stops: [north, south]\nlength: 1", "stops", "more stops"),
        ("stops: [north]\nlength: 0", "length", "greater than or equal to 1"),
    ],
)
def test_a_files_own_step_runs_before_validation_and_reports_at_its_field(
    tmp_path: Path, text: str, field: str, words: str
) -> None:
    context = {"ids": {"north": 1, "south": 2}}
    (tmp_path / "route.yaml").write_text("stops: [south, north]\nlength: 2")
    assert load_file(tmp_path, ROUTE, context) == Route((2, 1), 2)
    (tmp_path / "route.yaml").write_text(text)
    with pytest.raises(ContentError) as e:
        load_file(tmp_path, ROUTE, context)
    assert (e.value.file, e.value.entry, e.value.field) == ("route.yaml", None, field)
    assert words in e.value.problem


def test_a_list_files_own_step_reports_at_the_list(tmp_path: Path) -> None:
    def no_second(pieces: Any, context: Mapping[str, Any]) -> Any:
        if isinstance(pieces, list) and len(pieces) > 1:
            raise Invalid("", "one piece only")
        return pieces

    (tmp_path / "pieces.yaml").write_text(GOOD)
    with pytest.raises(ContentError) as e:
        load_file(tmp_path, File("pieces.yaml", Piece, "pieces", before=no_second))
    assert (e.value.entry, e.value.field, e.value.problem) == (None, "pieces", "one piece only")


def test_a_file_without_a_count_or_a_check_loads(tmp_path: Path) -> None:
    (tmp_path / "pieces.yaml").write_text(GOOD)
    assert len(load_file(tmp_path, File("pieces.yaml", Piece, "pieces"))) == 2


@message
class Tagged:
    id: int = pb(1, ge=1)
    gold: int = pb(2, default=0, ge=0)


def _tagged(model: Any) -> Any:
    if model.tag != "ok":
        raise ValueError("not tagged ok")
    return model


def test_a_hand_written_form_may_wrap_the_field_by_field_one(tmp_path: Path) -> None:
    model, *checks = typing.get_args(record_form(Tagged))
    wrapped = create_model("TaggedForm", __base__=model, tag=(str, ...))
    register_form(Tagged, Annotated[wrapped, AfterValidator(_tagged), *checks], lambda t: {"tagged": t.id})
    tagged = File("tagged.yaml", Tagged, "tagged")
    (tmp_path / "tagged.yaml").write_text("tagged:\n- {id: 1, gold: 2, tag: ok}\n- {id: 2, tag: bad}\n")
    with pytest.raises(ContentError) as e:
        load_file(tmp_path, tagged)
    assert (e.value.entry, e.value.problem) == (2, "not tagged ok")
    (tmp_path / "tagged.yaml").write_text("tagged:\n- {id: 1, gold: -2, tag: ok}\n")
    with pytest.raises(ContentError, match="greater than or equal to 0"):  # the record's own bounds
        load_file(tmp_path, tagged)
    (tmp_path / "tagged.yaml").write_text("tagged:\n- {id: 1, gold: 2, tag: ok}\n")
    (one,) = load_file(tmp_path, tagged)
    assert one == Tagged(1, 2)
    assert (dump(one), dump_record(one)) == ({"tagged": 1}, {"id": 1, "gold": 2})
