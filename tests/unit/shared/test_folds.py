"""``shared.core.folds.Folds``: a decided event is evolved once; anything else is evolved as usual."""

from __future__ import annotations

from dataclasses import dataclass

from shared.core.folds import Folds


@dataclass(frozen=True)
class Add:
    n: int


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: tuple[int, ...], event: Add) -> tuple[int, ...]:
        self.calls += 1
        return (*state, event.n)


def test_folding_what_decide_emitted_is_a_lookup_that_gives_the_same_state() -> None:
    evolve = Counting()
    folds = Folds(evolve)
    start, events = (), [Add(1), Add(2)]
    made = start
    for event in events:
        made = folds.emit(made, event)
    assert evolve.calls == 2
    state = start
    for event in events:
        state = folds.fold(state, event)
    assert state is made and state == (1, 2) and evolve.calls == 2


def test_any_other_pair_is_evolved() -> None:
    evolve = Counting()
    folds = Folds(evolve)
    event = Add(3)
    folds.emit((), event)
    assert folds.fold((9,), event) == (9, 3) and evolve.calls == 2  # another state: evolved
    assert folds.fold((), event) == (3,) and evolve.calls == 3  # the miss above took the entry
    made = folds.emit((), event)
    assert folds.fold((), Add(3)) == (3,) and evolve.calls == 5  # an equal event, not the same one
    assert folds.fold((), event) is made and evolve.calls == 5


def test_the_table_stays_bounded() -> None:
    folds = Folds(Counting(), kept=4)
    events = [Add(i) for i in range(10)]
    for event in events:
        folds.emit((), event)
    assert len(folds._made) <= 4
    assert folds.fold((), events[-1]) == (9,)
