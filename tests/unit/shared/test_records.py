"""``shared.records.copier``: a copy with changes equals ``dataclasses.replace``'s, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from shared.records import builder, copier, plain_record


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    coins: int = 0
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Unslotted:
    seat: int


@dataclass(frozen=True, slots=True)
class Checked:
    seat: int

    def __post_init__(self) -> None:
        if self.seat < 0:
            raise ValueError("seat")


def test_a_copy_equals_replace_and_leaves_the_original_alone() -> None:
    copy = copier(Seat)
    before = Seat(2, 5, (1, 2))
    after = copy(before, {"coins": 7, "cards": (3,)})
    assert after == replace(before, coins=7, cards=(3,)) == Seat(2, 7, (3,))
    assert before == Seat(2, 5, (1, 2))
    assert copy(before, {}) == before and copy(before, {}) is not before


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(AttributeError):
        copier(Seat)(Seat(1), {"colour": "red"})


@pytest.mark.parametrize("cls", [Unslotted, Checked])
def test_only_slotted_records_without_post_init_have_a_copier(cls: type) -> None:
    with pytest.raises(TypeError, match="slotted dataclass without __post_init__"):
        copier(cls)


def test_a_built_record_equals_the_constructed_one() -> None:
    build = builder(Seat)
    assert build(3, 4, (5,)) == Seat(3, 4, (5,))
    assert type(build(3, 4, ())) is Seat
    assert plain_record(Seat) and not plain_record(Checked) and not plain_record(Unslotted)


@dataclass(frozen=True, slots=True)
class Awkward:  # field names the generated code must not confuse with its own
    cls: int
    new: int
    record: int
    set_attr: int


def test_field_names_never_clash_with_the_generated_code() -> None:
    assert builder(Awkward)(1, 2, 3, 4) == Awkward(1, 2, 3, 4)
    assert copier(Awkward)(Awkward(1, 2, 3, 4), {"new": 9}) == Awkward(1, 9, 3, 4)
