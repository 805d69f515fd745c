"""``legal_commands`` lists exactly the commands ``decide`` accepts.

On sampled states of seeded games (every phase, every step kind), every command of a box of every type
over ranges wider than the legal values (``box.py``) is decided: the accepted ones must be exactly the
listed ones, and every refusal is a ``RuleViolation`` with a code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from services.trajan.rules.commands import Command
from services.trajan.rules.events import Event
from services.trajan.rules.model import Phase, State, StepKind
from shared.core.decider import Actor
from tests.support.playout import random_playout

from .box import box
from .helpers import GIVEN, RULES


def _sweep(seats: int, seed: int, every: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    steps = [0]

    def on_step(
        state: State, actor: Actor, command: Command, legal: Sequence[Command], events: Sequence[Event]
    ) -> None:
        steps[0] += 1
        key = state.phase.name if state.phase is not Phase.TURNS else state.pending[0].kind.name
        if steps[0] % every and seen[key] >= 2:
            return
        seen[key] += 1
        assert GIVEN.accepted(state, actor, box(state)) == set(legal)

    random_playout(RULES, RULES.make_config(seats, {}), seed, on_step)
    return seen


def test_listed_commands_are_exactly_the_accepted_ones_in_every_phase_and_step() -> None:
    seen: Counter[str] = Counter()
    for seats in (2, 3, 4):
        for seed in (300, 301):
            seen += _sweep(seats, seed + 10 * seats, every=5)
    every_kind = {
        *(p.name for p in Phase if p not in (Phase.TURNS, Phase.FINISHED)),
        *(k.name for k in StepKind),
    }
    assert every_kind <= set(seen), every_kind - set(seen)
