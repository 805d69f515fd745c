"""``legal_commands`` lists exactly the commands ``decide`` accepts.

On sampled states of seeded random games every command in a box of parameters (all kinds, every seat,
slot, work, character, resource and die in range) is decided; the accepted ones must be exactly the
listed ones. ``near_misses`` gives the playout tests random commands from the same box.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from services.florenza.rules import Phase, State
from services.florenza.rules.commands import (
    BuyResource,
    ChooseDie,
    ChooseStartingWorkshop,
    CollectIncome,
    Command,
    CompleteArtWork,
    DeclinePrivilege,
    EndRound,
    ExchangeResources,
    ExpelPreacher,
    HireArtist,
    LeaveMarket,
    LureWorker,
    MakeOffering,
    Pass,
    PlanWorkshop,
    ResolveDistricts,
    ScoreGame,
    SellResource,
    VisitMarket,
    WithholdArtist,
    WithholdWorker,
    WorkWorkshop,
)
from services.florenza.rules.content_types import Skill
from services.florenza.rules.goods import Resource
from shared.core.decider import Actor
from shared.core.rng import Rng

from .helpers import GIVEN, RULES, C, fold

SEATS = range(-1, 6)
SLOTS = range(0, 10)
WORKSHOPS = range(0, len(C.workshops) + 2)
WORKS = range(0, len(C.works) + 2)
CHARACTERS = range(0, 50)


def box() -> list[Command]:
    """Every command with every parameter in (and just outside) its range."""
    out: list[Command] = [DeclinePrivilege(), VisitMarket(), Pass(), LeaveMarket()]
    out += [CollectIncome(), ResolveDistricts(), EndRound(), ScoreGame()]
    out += [ChooseStartingWorkshop(k) for k in WORKSHOPS] + [PlanWorkshop(k) for k in WORKSHOPS]
    out += [WithholdWorker(s) for s in SEATS] + [LureWorker(s) for s in SEATS]
    out += [WithholdArtist(c) for c in CHARACTERS] + [ExpelPreacher(c) for c in CHARACTERS]
    out += [WorkWorkshop(o, slot) for o, slot in product(SEATS, SLOTS)]
    out += [HireArtist(w, a) for w, a in product(WORKS, CHARACTERS)]
    out += [MakeOffering(p, d) for p, d in product(CHARACTERS, (False, True))]
    out += [ChooseDie(d) for d in range(0, 8)]
    out += [SellResource(r) for r in Resource] + [BuyResource(r) for r in Resource]
    out += [ExchangeResources(g, t) for g, t in product(Resource, Resource)]
    out += [CompleteArtWork(w, k) for w, k in product(WORKS, Skill)]
    return out


BOX = box()


def near_misses(state: State, actor: Actor, rng: Rng) -> list[Command]:
    """A dozen random commands from the box (most of them illegal now)."""
    return [rng.choice(BOX) for _ in range(12)]


def sweep(seats: int, seed: int, every: int) -> Counter[str]:
    """Sweep every ``every``-th state of one random game and every rare one (a system step, a choice of
    dice, a privilege, a market trade); counts the swept states by phase."""
    rng = Rng(seed)
    state = fold(list(RULES.setup(RULES.make_config(seats, {}), rng.fork("setup"))))
    swept: Counter[str] = Counter()
    for step in range(5000):
        actors = RULES.to_act(state)
        if not actors:
            return swept
        actor = rng.choice(actors)
        legal = list(RULES.legal_commands(state, actor))
        assert len(set(legal)) == len(legal), "a command listed twice"
        rare = actor.is_system or state.pending is not None
        rare = rare or state.phase in (Phase.CAPTAIN, Phase.BISHOP, Phase.MARKET)
        if rare or step % every == 0:
            assert GIVEN.accepted(state, actor, BOX) == set(legal), state.phase
            for outsider in range(seats):
                if Actor.of_seat(outsider) not in actors:
                    assert RULES.legal_commands(state, Actor.of_seat(outsider)) == []
            swept["dice" if state.pending else state.phase.name] += 1
        state = fold(list(RULES.decide(state, actor, rng.choice(legal), rng.fork(str(step)))), state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_listed_commands_are_exactly_the_accepted_ones(seats: int) -> None:
    swept: Counter[str] = Counter()
    for seed in range(2):
        swept += sweep(seats, 300 + 10 * seed + seats, every=5)
    assert set(swept) >= {p.name for p in Phase if p is not Phase.FINISHED} - {"CAPTAIN", "BISHOP"}
    assert swept["PLACEMENT"] > 20


def test_the_sweep_reaches_the_privileges_and_the_dice() -> None:
    swept: Counter[str] = Counter()
    for seed in range(16):  # random play elects a Captain in about one game of four
        swept += sweep(2 + seed % 4, 700 + seed, every=1000)
    assert swept["CAPTAIN"] and swept["BISHOP"] and swept["dice"]
