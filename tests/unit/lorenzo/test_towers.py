"""Towers: floor values, servants, occupied-tower fee, floor bonuses, colours, card limits, slots."""

from __future__ import annotations

import pytest

from services.lorenzo.rules.commands import PlaceFamilyMember
from services.lorenzo.rules.events import CardTaken, FamilyMemberPlaced
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Member, Source
from shared.core.decider import RuleViolation

from .helpers import game, net, of_type, then, when, with_player

B, W, OR, N = Member.BLACK, Member.WHITE, Member.ORANGE, Member.NEUTRAL


def test_coloured_member_takes_its_die_value() -> None:
    s = game(dice=(2, 5, 6))
    events = when(s, 0, PlaceFamilyMember(W, 3))  # territory floor 3 needs 5
    assert of_type(events, FamilyMemberPlaced)[0].value == 5


def test_floor_values_are_one_three_five_seven() -> None:
    s = game(dice=(4, 4, 4))
    when(s, 0, PlaceFamilyMember(B, 2))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(B, 3))
    assert e.value.code == "wrong_servants"


def test_servants_raise_the_value_one_for_one() -> None:
    s = with_player(game(dice=(4, 4, 4)), 0, goods=Goods(servants=3))
    events = when(s, 0, PlaceFamilyMember(B, 4, servants=3))
    assert net(events, 0, Source.SERVANTS) == Goods(servants=-3)
    assert of_type(events, CardTaken)[0].card == 4


def test_servants_beyond_what_the_tower_needs_are_refused() -> None:
    s = with_player(game(dice=(6, 6, 6)), 0, goods=Goods(servants=3))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(B, 1, servants=1))
    assert e.value.code == "wrong_servants"


def test_neutral_member_is_worth_zero() -> None:
    s = game()
    with pytest.raises(RuleViolation):
        when(s, 0, PlaceFamilyMember(N, 1))
    s = with_player(s, 0, goods=Goods(servants=1))
    assert of_type(when(s, 0, PlaceFamilyMember(N, 1, servants=1)), CardTaken)


def test_occupied_tower_costs_three_coins() -> None:
    s = with_player(game(dice=(3, 3, 3)), 1, goods=Goods(coins=3))
    s = then(s, 0, PlaceFamilyMember(B, 1))
    events = when(s, 1, PlaceFamilyMember(B, 2))
    assert net(events, 1, Source.TOWER_FEE) == Goods(coins=-3)


def test_occupied_tower_without_three_coins_is_refused() -> None:
    s = with_player(game(dice=(3, 3, 3)), 1, goods=Goods(coins=2))
    s = then(s, 0, PlaceFamilyMember(B, 1))
    with pytest.raises(RuleViolation) as e:
        when(s, 1, PlaceFamilyMember(B, 2))
    assert e.value.code == "cannot_pay_tower_fee"


def test_floor_coin_bonus_cannot_pay_the_tower_fee() -> None:
    # venture floor 4 gives 2 coins; with 1 coin the player cannot pay the 3-coin fee
    s = with_player(game(dice=(6, 6, 6)), 1, goods=Goods(coins=1, servants=1, wood=5, stone=5))
    s = with_player(s, 0, goods=Goods(coins=4))
    s = then(s, 0, PlaceFamilyMember(B, 13, servants=0))
    with pytest.raises(RuleViolation) as e:
        when(s, 1, PlaceFamilyMember(B, 16, servants=1))
    assert e.value.code == "cannot_pay_tower_fee"


def test_floor_bonus_can_pay_the_card_cost() -> None:
    s = game(dice=(6, 6, 6), towers={8: 52})  # Knight (2 coins) on character floor 4 (bonus 2 stone)
    s = with_player(s, 0, goods=Goods(coins=2, servants=1))
    events = when(s, 0, PlaceFamilyMember(B, 8, servants=1))
    assert net(events, 0, Source.FLOOR_BONUS) == Goods(stone=2)


def test_coin_floor_bonus_helps_pay_a_venture() -> None:
    s = game(dice=(6, 6, 6), towers={16: 73})  # Hiring Recruits costs 4 coins; floor 4 gives 2
    s = with_player(s, 0, goods=Goods(coins=2, servants=1))
    events = when(s, 0, PlaceFamilyMember(B, 16, servants=1))
    assert of_type(events, CardTaken)[0].card == 73


def test_one_coloured_member_per_tower_but_the_neutral_may_join() -> None:
    s = with_player(game(dice=(3, 3, 3)), 0, goods=Goods(coins=6, servants=3))
    s = then(s, 0, PlaceFamilyMember(B, 1))
    with pytest.raises(RuleViolation) as e:
        when(_my_turn(s), 0, PlaceFamilyMember(W, 2))
    assert e.value.code == "colored_member_in_area"
    assert of_type(when(_my_turn(s), 0, PlaceFamilyMember(N, 2, servants=3)), CardTaken)


def _my_turn(s):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(s, turn_index=0, acted=False)


def test_a_tower_space_holds_one_member() -> None:
    s = then(game(), 0, PlaceFamilyMember(B, 1))
    with pytest.raises(RuleViolation) as e:
        when(s, 1, PlaceFamilyMember(B, 1))
    assert e.value.code in ("space_occupied", "no_card")


def test_no_more_than_six_cards_of_a_type() -> None:
    s = with_player(game(), 0, goods=Goods(military=30), territories=(5, 6, 7, 8, 9, 10))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(B, 1))
    assert e.value.code == "card_limit"


@pytest.mark.parametrize(
    ("owned", "military", "ok"), [(2, 2, False), (2, 3, True), (3, 6, False), (5, 18, True)]
)
def test_territory_slots_need_military_points(owned: int, military: int, ok: bool) -> None:
    s = with_player(game(), 0, goods=Goods(military=military), territories=(17, 18, 19, 20, 21)[:owned])
    if ok:
        assert of_type(when(s, 0, PlaceFamilyMember(B, 1)), CardTaken)
    else:
        with pytest.raises(RuleViolation) as e:
            when(s, 0, PlaceFamilyMember(B, 1))
        assert e.value.code == "territory_slot_locked"


def test_venture_military_alternative_needs_and_spends_military_points() -> None:
    s = game(towers={13: 80})  # Support to the Bishop: 2 coins+wood+stone OR need 4 MP, pay 2
    s = with_player(s, 0, goods=Goods(military=4))
    events = when(s, 0, PlaceFamilyMember(B, 13, cost_option=1))
    assert net(events, 0, Source.CARD_COST) == Goods(military=-2)
    s = with_player(s, 0, goods=Goods(military=3))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(B, 13, cost_option=1))
    assert e.value.code == "military_requirement"


def test_cards_must_be_paid_in_full() -> None:
    s = with_player(game(), 0, goods=Goods(coins=1))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(B, 5))  # Warlord costs 2 coins
    assert e.value.code == "cannot_afford"
