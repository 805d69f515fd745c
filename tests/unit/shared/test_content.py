"""shared.core.content: a YAML file validated by a pydantic model, problems named by file, entry and field."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field, TypeAdapter, ValidationInfo, field_validator

from shared.core.content import CONTENT_CONFIG, UNIQUE_IDS, ContentError, by_name, load


class Colour(enum.IntEnum):
    RED = 1
    DARK_BLUE = 2


class Tile(BaseModel):
    model_config = CONTENT_CONFIG

    id: int
    colour: Annotated[Colour, by_name(Colour)]
    cost: list[int] = []
    size: Annotated[int, Field(ge=0)] = 1

    @field_validator("size")
    @classmethod
    def _fits(cls, size: int, info: ValidationInfo) -> int:
        limit = (info.context or {}).get("max_size", 99)
        if size > limit:
            raise ValueError(f"larger than {limit}")
        return size


class Tiles(BaseModel):
    model_config = CONTENT_CONFIG

    tiles: Annotated[list[Tile], UNIQUE_IDS]
    corners: list[dict[str, int]] = []
    width: int = 1


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tiles.yaml"
    path.write_text(text)
    return path


def _error(path: Path, schema: type[BaseModel] | TypeAdapter[Any] = Tiles) -> ContentError:
    with pytest.raises(ContentError) as e:
        load(path, schema)
    return e.value


def test_a_valid_file_comes_back_validated(tmp_path: Path) -> None:
    tiles = load(_write(tmp_path, "tiles:\n- {id: 7, colour: dark_blue, cost: [1, 2]}\n"), Tiles)
    assert isinstance(tiles, Tiles)
    assert tiles.tiles == [Tile(id=7, colour=Colour.DARK_BLUE, cost=[1, 2], size=1)]


def test_a_type_adapter_works_like_a_model(tmp_path: Path) -> None:
    adapter = TypeAdapter(list[Tile])
    assert load(_write(tmp_path, "- {id: 1, colour: red}\n"), adapter) == [Tile(id=1, colour=Colour.RED)]
    error = _error(_write(tmp_path, "- {id: 1, colour: red}\n- {id: 2, colour: green}\n"), adapter)
    assert (error.entry, error.field) == (2, "colour")


def test_a_problem_in_a_record_names_its_id_and_dotted_field(tmp_path: Path) -> None:
    error = _error(
        _write(tmp_path, "tiles:\n- {id: 1, colour: red}\n- {id: 5, colour: red, cost: [1, -x]}\n")
    )
    assert (error.file, error.entry, error.field) == ("tiles.yaml", 5, "cost[1]")
    assert error.problem == "Input should be a valid integer"
    assert str(error) == "tiles.yaml: entry 5: field cost[1]: Input should be a valid integer"


def test_a_record_without_id_is_named_by_its_index(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, "tiles: []\ncorners:\n- {a: 1}\n- {a: x}\n"))
    assert (error.entry, error.field) == ("#1", "a")


def test_a_problem_above_the_records_has_no_entry(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, "tiles: []\nwidth: true\n"))
    assert (error.entry, error.field) == (None, "width")
    assert str(error) == "tiles.yaml: field width: Input should be a valid integer"  # no coercion


def test_every_problem_is_listed_in_file_order(tmp_path: Path) -> None:
    text = "tiles:\n- {id: 1, colour: pink}\n- {id: 2, colour: red, size: -1, shape: round}\nwidth: x\n"
    error = _error(_write(tmp_path, text))
    assert [(p.entry, p.field) for p in error.problems] == [
        (1, "colour"),
        (2, "size"),
        (2, "shape"),
        (None, "width"),
    ]
    assert "unknown name 'pink'; expected one of: red, dark_blue" in error.problems[0].problem
    assert "Extra inputs are not permitted" in error.problems[2].problem
    assert len(str(error).splitlines()) == 4


def test_repeated_ids_are_each_named_at_their_entry(tmp_path: Path) -> None:
    text = "tiles:\n" + "".join(f"- {{id: {i}, colour: red}}\n" for i in (1, 1, 2, 2))
    error = _error(_write(tmp_path, text))
    assert [(p.entry, p.field, p.problem) for p in error.problems] == [
        (1, "id", "duplicate id, also entry #0"),
        (2, "id", "duplicate id, also entry #2"),
    ]


def test_context_reaches_validators_and_their_words_are_kept(tmp_path: Path) -> None:
    path = _write(tmp_path, "tiles:\n- {id: 3, colour: red, size: 4}\n")
    assert load(path, Tiles, context={"max_size": 4}).tiles[0].size == 4
    with pytest.raises(ContentError) as e:
        load(path, Tiles, context={"max_size": 3})
    assert (e.value.entry, e.value.field, e.value.problem) == (3, "size", "larger than 3")


def test_by_name_takes_lower_case_names_and_extra_values() -> None:
    adapter = TypeAdapter(Annotated[Colour | None, by_name(Colour, any=None)])
    assert adapter.validate_python("dark_blue") is Colour.DARK_BLUE
    assert adapter.validate_python("any") is None
    assert adapter.validate_python(Colour.RED) is Colour.RED
    for wrong in ("DARK_BLUE", "Red", 2, None):
        with pytest.raises(ValueError, match="unknown name"):
            adapter.validate_python(wrong)


def test_broken_yaml_and_an_empty_file_are_content_errors(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, "tiles: [\n"))
    assert (error.file, error.entry, error.field) == ("tiles.yaml", None, "")
    assert error.problem.startswith("not valid YAML")
    error = _error(_write(tmp_path, ""))
    assert (error.entry, error.field) == (None, "")
    assert str(error).startswith("tiles.yaml: Input should be")
