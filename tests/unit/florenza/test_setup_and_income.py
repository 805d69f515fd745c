"""Setup (seed "游戏准备") and step 1, income."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.florenza.rules.commands import ChooseStartingWorkshop, CollectIncome
from services.florenza.rules.events import (
    CharactersArrived,
    GameStarted,
    GoodsGained,
    IncomeDieRolled,
    StartingWorkshopChosen,
)
from services.florenza.rules.goods import Goods, Resource
from services.florenza.rules.model import Phase, Source
from shared.core.decider import SYSTEM, Actor, RuleViolation
from shared.core.rng import Rng

from .helpers import (
    ATRIO,
    CASA,
    CASAMENTO,
    PALAGIO,
    RULES,
    B,
    C,
    Dice,
    fold,
    game,
    net,
    of_type,
    prestige,
    then,
    when,
    with_player,
    with_spot,
)


def _setup(seats: int, seed: int = 1) -> list[object]:
    return list(RULES.setup(RULES.make_config(seats, {}), Rng(seed)))


@pytest.mark.parametrize(("seats", "drawn"), [(2, 6), (3, 7), (4, 8), (5, 9)])
def test_setup_draws_six_to_nine_characters_by_player_count(seats: int, drawn: int) -> None:
    s = fold(_setup(seats))
    assert len(s.present) == drawn
    assert len(s.bag) == 40 - drawn
    # each under the Life in Florenza card of its mark (seed 2.5)
    assert all(p.card == C.mark(p.character) for p in s.present)


def test_setup_gives_money_one_of_each_resource_and_four_workers_of_eight() -> None:
    s = fold(_setup(3))
    for p in s.players:
        assert p.goods == Goods(300, 1, 1, 1, 1, 1, 1)
        assert (p.workers, p.reserve) == (4, 4)
        assert (p.prestige, p.church, p.certificates) == (0, 0, 0)
    assert s.supply == B.supply - Goods(0, 3, 3, 3, 3, 3, 3)


def test_setup_turn_order_is_random() -> None:
    orders = {of_type(_setup(4, seed), GameStarted)[0].turn_order for seed in range(12)}
    assert len(orders) > 1
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)


def test_starting_workshops_are_chosen_last_player_first_twice_into_spaces_one_and_two() -> None:
    s = fold(_setup(3))
    order = s.turn_order
    assert s.pickers == tuple(reversed(order)) * 2
    assert sorted(s.starting_pool) == [3, 4, 11, 12, 14, 15, 18, 19, 20, 22, 27, 28]
    picks = [3, 4, 11, 12, 14, 15]
    chosen = []
    for kind in picks:
        seat = RULES.to_act(s)[0].seat
        events = when(s, seat, ChooseStartingWorkshop(kind))
        chosen += [(e.seat, e.slot) for e in of_type(events, StartingWorkshopChosen)]
        s = fold(events, s)
    assert chosen == [(seat, 1) for seat in reversed(order)] + [(seat, 2) for seat in reversed(order)]
    assert all(p.district[0].built and p.district[1].built for p in s.players)
    # the six left go back to the supply; round 1 starts with step 4 (steps 1 to 3 skipped)
    assert s.starting_pool == () and len(s.workshop_supply) == 45 - 6
    assert (s.round, s.phase, s.active) == (1, Phase.PLACEMENT, order[0])


def test_a_starting_workshop_already_taken_is_refused() -> None:
    s = fold(_setup(2))
    first = RULES.to_act(s)[0].seat
    s = then(s, first, ChooseStartingWorkshop(3))
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, RULES.to_act(s)[0].seat, ChooseStartingWorkshop(3))


def test_only_the_picker_chooses() -> None:
    s = fold(_setup(2))
    other = 1 - RULES.to_act(s)[0].seat
    with pytest.raises(RuleViolation, match="not_your_turn"):
        RULES.decide(s, Actor.of_seat(other), ChooseStartingWorkshop(3), Rng(0))


def test_income_gives_money_marble_wood_four_workers_and_the_die_resource() -> None:
    s = game(seats=2, phase=Phase.INCOME, round=2, workers=0)
    events = when(s, -1, CollectIncome(), Dice(4))
    assert of_type(events, IncomeDieRolled)[0].resource is Resource.GOLD
    for seat in (0, 1):
        assert net(events, seat) == Goods(money=200, marble=1, wood=1, gold=1)
    s = fold(events, s)
    assert [(p.workers, p.reserve) for p in s.players] == [(4, 4), (4, 4)]
    assert (s.phase, s.active) == (Phase.PLACEMENT, 0)  # no Captain, no Bishop


def test_a_sold_out_die_resource_pays_one_hundred_fiorini_to_each_family_left_without() -> None:
    s = game(seats=3, phase=Phase.INCOME, round=2, order=(2, 0, 1))
    s = fold([GoodsGained(2, Goods(gold=11), Source.SETUP)], s)  # one gold cube left
    events = when(s, -1, CollectIncome(), Dice(4))
    die = [(e.seat, e.goods) for e in of_type(events, GoodsGained) if e.source is not Source.INCOME]
    assert die == [(2, Goods(gold=1)), (0, Goods(money=100)), (1, Goods(money=100))]


def test_base_income_cubes_run_out_in_turn_order_without_compensation() -> None:
    s = game(seats=2, phase=Phase.INCOME, round=2, order=(1, 0))
    s = fold([GoodsGained(0, Goods(marble=17), Source.SETUP)], s)
    events = when(s, -1, CollectIncome(), Dice(3))
    assert net(events, 1, Source.INCOME).marble == 1
    assert net(events, 0, Source.INCOME).marble == 0


def test_purple_workshops_and_completed_works_pay_income_and_workers_stop_at_eight() -> None:
    s = game(seats=2, phase=Phase.INCOME, round=3, workers=0)
    s = with_player(
        s, 0, district={1: (CASA, True), 2: (CASAMENTO, True), 3: (PALAGIO, True), 4: (CASA, False)}
    )
    s = with_spot(s, ATRIO, crest=0)
    s = with_player(s, 0, reserve=6, workers=0)  # two of the eight are elsewhere
    events = when(s, -1, CollectIncome(), Dice(1))
    assert net(events, 0, Source.WORKSHOP_INCOME) == Goods(money=50 + 100 + 100)
    assert net(events, 0, Source.WORK_INCOME) == Goods(money=100)
    assert prestige(events, 0, Source.WORKSHOP_INCOME) == 1
    after = fold(events, s).players[0]
    assert (after.workers, after.reserve) == (6, 0)  # 4 + 3 wanted, 6 could come


def test_income_is_not_collected_in_round_one() -> None:
    s = fold(_setup(2))
    assert s.phase is Phase.CHOOSE_WORKSHOPS
    with pytest.raises(RuleViolation, match="not_your_turn"):
        when(s, -1, CollectIncome())


def test_the_system_step_is_the_only_command_while_income_is_due() -> None:
    s = game(phase=Phase.INCOME, round=2)
    assert RULES.to_act(s) == (SYSTEM,)
    assert list(RULES.legal_commands(s, SYSTEM)) == [CollectIncome()]
    assert RULES.legal_commands(s, Actor.of_seat(0)) == []


def test_setup_characters_come_from_the_bag_in_a_public_event() -> None:
    events = _setup(2)
    arrived = of_type(events, CharactersArrived)[0].arrivals
    assert all(RULES.visibility(e).kind.name == "PUBLIC" for e in events)
    assert {p.character for p in arrived} <= set(C.named_characters)


def test_after_income_the_captain_then_the_bishop_use_their_privileges() -> None:
    s = replace(game(seats=3, phase=Phase.INCOME, round=2), captain=2, bishop=1)
    s = fold(when(s, -1, CollectIncome(), Dice(1)), s)
    assert (s.phase, s.active) == (Phase.CAPTAIN, 2)
    s = replace(game(seats=3, phase=Phase.INCOME, round=2), bishop=1)
    s = fold(when(s, -1, CollectIncome(), Dice(1)), s)
    assert (s.phase, s.active) == (Phase.BISHOP, 1)
