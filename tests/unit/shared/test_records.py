"""``shared.core.records``: a copy with changes equals ``dataclasses.replace``'s, a built record and one made
by the generated ``__init__`` equal the dataclass's own, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from shared.core.records import builder, copier, initializer, plain_record, record
from shared.core.wire import message, pb


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


@dataclass(frozen=True, slots=True)
class Defaults:
    seat: int
    unset: list[int] = field(default_factory=list)  # named like nothing the generated code may use
    set_0: tuple[int, ...] = (1,)
    tags: dict[str, int] = field(default_factory=dict)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1,), {}),
        ((1, [2]), {}),
        ((1,), {"tags": {"a": 1}}),
        ((), {"seat": 3, "set_0": ()}),
        ((1, [], (), {}), {}),
    ],
)
def test_the_generated_init_takes_what_the_dataclass_init_takes(args: tuple, kwargs: dict) -> None:
    fast = Defaults.__new__(Defaults)
    initializer(Defaults)(fast, *args, **kwargs)
    assert fast == Defaults(*args, **kwargs)


def test_the_generated_init_calls_each_default_factory_once_per_record() -> None:
    init = initializer(Defaults)
    one, two = Defaults.__new__(Defaults), Defaults.__new__(Defaults)
    init(one, 1)
    init(two, 2)
    assert one.unset == [] and one.unset is not two.unset and one.tags is not two.tags


def test_the_generated_init_refuses_what_the_dataclass_init_refuses() -> None:
    init = initializer(Defaults)
    for args, kwargs in (((), {}), ((1,), {"colour": 2}), ((1, [], (), {}, 5), {})):
        with pytest.raises(TypeError):
            Defaults(*args, **kwargs)
        with pytest.raises(TypeError):
            init(Defaults.__new__(Defaults), *args, **kwargs)


@message
class Placed:
    member: int = pb(1)
    space: int = pb(2)
    servants: int = pb(3, default=0)


@record
class Plan:
    space: int
    value: int = 0


def test_messages_and_records_get_the_generated_init_and_stay_frozen() -> None:
    for cls in (Placed, Plan):
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
        assert "__set_0" in cls.__init__.__code__.co_names  # not the dataclass's own __init__
    assert Placed(1, space=4) == Placed(1, 4, 0) and hash(Placed(1, 4)) == hash(Placed(1, 4, 0))
    assert Plan(2) == Plan(2, 0) != Plan(2, 1)
    with pytest.raises(AttributeError):
        Plan(2).value = 3  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Base:
    seat: int


@dataclass(frozen=True, slots=True)
class Derived(Base):
    coins: int


def test_copies_and_built_records_are_of_the_class_itself_and_behave_so() -> None:
    copy, build = copier(Seat), builder(Seat)
    for made in (copy(Seat(1, 2, (3,)), {"coins": 4}), build(1, 4, (3,))):
        assert type(made) is Seat and made == Seat(1, 4, (3,)) and hash(made) == hash(Seat(1, 4, (3,)))
        with pytest.raises(AttributeError):
            made.coins = 5  # type: ignore[misc]  # still frozen


def test_a_record_with_a_base_class_of_its_own_is_left_to_its_dataclass() -> None:
    assert not plain_record(Derived)
    with pytest.raises(TypeError, match="slotted dataclass"):
        builder(Derived)
