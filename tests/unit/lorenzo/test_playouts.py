"""Seeded random playouts: every listed command is accepted, unlisted ones rejected, invariants hold."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from services.lorenzo.manifest import MANIFEST
from services.lorenzo.rules import LorenzoRules, Member, Phase, State
from services.lorenzo.rules.commands import (
    ActivateLeader,
    ChooseCouncilPrivileges,
    ChooseExchange,
    Command,
    DiscardLeader,
    EndTurn,
    Pass,
    PerformBonusAction,
    PlaceFamilyMember,
    PlayLeader,
    TakeBonusCard,
)
from services.lorenzo.rules.events import Event
from services.lorenzo.rules.goods import ZERO
from services.lorenzo.rules.model import Privilege
from shared.core.decider import SPECTATOR, Actor, RuleViolation
from shared.core.rng import Rng
from tests.support.playout import random_playout

RULES: LorenzoRules = MANIFEST.load_rules()


def _fold(events: list[object], state: State | None = None) -> State:
    state = state or RULES.initial_state()
    for e in events:
        state = RULES.evolve(state, e)  # type: ignore[arg-type]
    return state


def _check_state(state: State) -> None:
    for p in state.players:
        assert p.goods.floor0() == p.goods, f"negative goods {p.goods}"
        for cards in (p.territories, p.buildings, p.characters, p.ventures):
            assert len(cards) <= 6
        assert len(p.territories) <= 6
    assert state.budget.covers(ZERO)


def _check_views(state: State) -> None:
    for seat in range(len(state.players)):
        v = RULES.view(state, Actor.of_seat(seat))
        for pv in v.players:
            if pv.seat != seat:
                assert pv.hand == () and pv.draft_hand == ()
                assert pv.vatican_answer is None
        assert v.decks == ()
    spectator = RULES.view(state, SPECTATOR)
    assert all(pv.hand == () for pv in spectator.players)


def _mutants(command: Command, rng: Rng) -> list[Command]:
    """Nearby commands, some of them illegal."""
    out: list[Command] = [Pass(), EndTurn(), DiscardLeader(rng.randint(1, 20))]
    out.append(PlayLeader(rng.randint(1, 20)))
    out.append(ActivateLeader(rng.randint(1, 20), rng.choice([None, Member.BLACK])))
    out.append(ChooseCouncilPrivileges((Privilege(rng.randint(1, 5)),) * rng.randint(1, 2)))
    out.append(ChooseExchange(rng.randint(25, 48), rng.randint(0, 2)))
    out.append(PerformBonusAction(rng.randint(0, 8)))
    out.append(TakeBonusCard(rng.randint(1, 17), rng.randint(0, 3), rng.randint(0, 1), rng.randint(0, 1)))
    if isinstance(command, PlaceFamilyMember):
        out.append(PlaceFamilyMember(command.member, command.space, command.servants + rng.randint(1, 2)))
        space = rng.randint(1, 26)
        out.append(PlaceFamilyMember(command.member, space, rng.randint(0, 3), rng.randint(0, 1)))
    else:
        out.append(PlaceFamilyMember(rng.choice(list(Member)), rng.randint(1, 26), rng.randint(0, 3)))
    return out


def _play(seats: int, seed: int, exhaustive: bool) -> None:
    config = RULES.make_config(seats, {"advanced": "true" if seed % 5 else "false"})
    rng = Rng(seed * 7919 + seats)
    steps = [0]

    def on_step(
        state: State, actor: Actor, command: Command, legal: Sequence[Command], events: Sequence[Event]
    ) -> None:
        steps[0] += 1
        _check_state(state)
        if steps[0] % 25 == 0:
            _check_views(state)
        to_try = legal if exhaustive else [rng.choice(legal)]
        for cmd in to_try:
            RULES.decide(state, actor, cmd, Rng(1))
        if exhaustive or steps[0] % 3 == 0:
            listed = set(legal)
            for cmd in _mutants(command, rng):
                if cmd not in listed:
                    with pytest.raises(RuleViolation):
                        RULES.decide(state, actor, cmd, Rng(1))

    events, final = random_playout(RULES, config, seed, on_step)
    _check_state(final)
    assert final.phase is Phase.FINISHED and final.round == 6
    assert RULES.outcome(final) is not None
    assert _fold(events) == final  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_exhaustive_playouts_accept_every_listed_command(seats: int) -> None:
    for seed in range(3):
        _play(seats, 1000 + seed, exhaustive=True)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_one_hundred_random_playouts_keep_every_invariant(seats: int) -> None:
    for seed in range(100):
        _play(seats, seed, exhaustive=False)


def _leaders_in_play(seats: int, seed: int) -> None:
    """Random play where every seat has played all four drafted leaders before round 1 (Lorenzo copying
    another seat's leader), so every leader ability meets the random rules in play."""
    from dataclasses import replace

    from services.lorenzo.rules.model import PlayedLeader

    rng = Rng(seed)
    state = _fold(list(RULES.setup(RULES.make_config(seats, {"advanced": "true"}), rng.fork("setup"))))
    while state.phase is not Phase.ROUND_START:
        actor = RULES.to_act(state)[0]
        cmd = rng.choice(list(RULES.legal_commands(state, actor)))
        state = _fold(list(RULES.decide(state, actor, cmd, Rng(0))), state)
    players = []
    for p in state.players:
        other = state.players[(p.seat + 1) % seats].hand[0]
        played = tuple(PlayedLeader(x, other if x == 15 and other != 15 else None) for x in p.hand)
        players.append(replace(p, hand=(), played=tuple(x for x in played if x.leader != 15 or x.copied)))
    state = replace(state, players=tuple(players))
    for step in range(3000):
        actors = RULES.to_act(state)
        if not actors:
            break
        actor = rng.choice(actors)
        legal = list(RULES.legal_commands(state, actor))
        for cmd in legal:
            RULES.decide(state, actor, cmd, Rng(step))
        _check_state(state)
        cmd = rng.choice(legal)
        state = _fold(list(RULES.decide(state, actor, cmd, Rng(step))), state)
    assert state.phase is Phase.FINISHED


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_playouts_with_every_leader_in_play(seats: int) -> None:
    for seed in range(4):
        _leaders_in_play(seats, 500 + seed)
