"""``legal_commands`` lists exactly the placements and card actions ``decide`` accepts.

The playout tests decide every listed command and some near misses; here every placement (and card action)
in a box of members, spaces, servants and cost options is decided on sampled states of seeded games, and
the accepted ones must be exactly the listed ones. Guards the per-call caches and the check shared between
members in ``placement_commands``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from services.lorenzo.rules import Member, Phase, State
from services.lorenzo.rules.commands import Command, PlaceFamilyMember, TakeBonusCard
from services.lorenzo.rules.events import Event
from services.lorenzo.rules.model import DecisionKind
from shared.core.decider import Actor
from tests.support.playout import random_playout

from .helpers import GIVEN, RULES

OPTIONS = ((0, 0), (1, 0), (0, 1), (1, 1), (2, 0))


def _box(state: State, actor: Actor) -> list[Command]:
    rate_max = 2 * 8  # excommunication 2_6 doubles the servants per +1
    if not state.pending:
        return [
            PlaceFamilyMember(m, space, servants, co, do)
            for m in Member
            for space in range(1, 26)
            for servants in range(0, rate_max + 1)
            for co, do in OPTIONS
            if servants <= state.players[actor.seat].goods.servants
        ]
    if state.pending[0].kind is DecisionKind.TAKE_CARD:
        return [
            TakeBonusCard(space, servants, co, do)
            for space in range(1, 17)
            for servants in range(0, rate_max + 1)
            for co, do in OPTIONS
        ]
    return []


def _sweep(seats: int, seed: int, every: int) -> int:
    config = RULES.make_config(seats, {"advanced": "true" if seed % 2 else "false"})
    swept: list[bool] = []

    def on_step(
        state: State, actor: Actor, command: Command, legal: Sequence[Command], events: Sequence[Event]
    ) -> None:
        if state.phase is not Phase.ACTIONS:
            return
        box = _box(state, actor)
        if not box or (not state.pending and (state.acted or len(swept) % every)):
            swept.append(False)
            return
        swept.append(True)
        listed = {c for c in legal if isinstance(c, (PlaceFamilyMember, TakeBonusCard))}
        assert GIVEN.accepted(state, actor, box) == listed

    random_playout(RULES, config, seed, on_step)
    return sum(swept)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_listed_placements_are_exactly_the_accepted_ones(seats: int) -> None:
    for seed in range(2):
        assert _sweep(seats, 300 + seed, every=3) > 0
