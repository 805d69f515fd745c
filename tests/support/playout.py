"""A seeded random match for tests, in the shape they use: ``(events, final state)``.

It is the one playout driver (``shared.matches.simulate.play_game``, every seat random), so the unit tests,
the golden playthroughs (tests/playthroughs/), ``tabula simulate`` and the benches play the same
games from the same seed. Any violation the driver finds (a seat to act with no legal command, a
listed command refused, a log that does not fold to the live state, a broken invariant of the
game, a match that does not end) fails the test at once.
"""

from __future__ import annotations

from typing import Any, TypeVar

from shared.core.decider import Rules
from shared.matches.simulate import StepHook, play_game

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")
EventT = TypeVar("EventT")


def random_playout(
    rules: Rules[ConfigT, StateT, Any, EventT, Any],
    config: ConfigT,
    seed: int,
    on_step: StepHook | None = None,
) -> tuple[list[EventT], StateT]:
    """Play a whole match choosing uniformly among the legal commands; ``on_step(state, actor,
    command, legal, events)`` is told of each step after it is applied, with the state it was
    decided on."""
    result = play_game(rules, config, seed, on_step=on_step)
    if result.violations:
        raise AssertionError(f"seed {seed}: " + "; ".join(result.violations))
    return result.log, result.state
