"""Card effect families: gains per card / per points, bonus actions, action bonuses, discounts, Preacher."""

from __future__ import annotations

from services.lorenzo.rules.commands import (
    ChooseCouncilPrivileges,
    PerformBonusAction,
    PlaceFamilyMember,
    SkipBonusAction,
    TakeBonusCard,
)
from services.lorenzo.rules.events import CardTaken, FamilyMemberPlaced
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import DecisionKind, Member, Privilege, Source
from shared.core.decider import Actor

from .helpers import RULES, game, net, of_type, then, when, with_player

B = Member.BLACK


def test_paramour_counts_itself_among_the_characters() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 67}), 0, goods=Goods(coins=7), characters=(49, 50))
    assert net(when(s, 0, PlaceFamilyMember(B, 5)), 0, Source.CARD_EFFECT) == Goods(victory=6)


def test_general_gives_one_victory_point_per_two_military_points() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 71}), 0, goods=Goods(coins=5, military=7))
    assert net(when(s, 0, PlaceFamilyMember(B, 5)), 0, Source.CARD_EFFECT) == Goods(victory=3)


def test_architect_takes_a_building_at_six_with_wood_and_stone_discount() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 58, 12: 37}), 0, goods=Goods(coins=4, stone=1))
    s = then(s, 0, PlaceFamilyMember(B, 5))
    assert s.pending[0].kind is DecisionKind.TAKE_CARD
    legal = RULES.legal_commands(s, Actor.of_seat(0))
    # 6 reaches floors 1-3 of the building tower only; Stonemasons' Guild (1 wood 2 stone) needs floor 4
    assert TakeBonusCard(12, 1) not in legal  # no servants to reach 7
    s = with_player(s, 0, goods=Goods(stone=1, servants=1))
    events = when(s, 0, TakeBonusCard(12, 1))
    assert of_type(events, CardTaken)[0].card == 37
    assert net(events, 0, Source.CARD_COST) == Goods(stone=-1)


def test_bonus_card_action_pays_the_occupied_tower_fee_and_gets_the_floor_bonus() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 56}), 0, goods=Goods(coins=3 + 3))  # Abbess
    s = then(s, 0, PlaceFamilyMember(B, 5))
    s = with_player(s, 0, goods=Goods(coins=3 + 4, servants=1))  # fee + Dame
    events = when(s, 0, TakeBonusCard(7, 1))  # character floor 3 (value 5) with 4 + 1 servant
    assert net(events, 0, Source.TOWER_FEE) == Goods(coins=-3)
    assert net(events, 0, Source.FLOOR_BONUS) == Goods(stone=1)


def test_bonus_actions_may_be_skipped() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 56}), 0, goods=Goods(coins=3))
    s = then(s, 0, PlaceFamilyMember(B, 5))
    assert not then(s, 0, SkipBonusAction()).pending


def test_cardinal_gives_a_harvest_action_of_four() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 69}), 0, goods=Goods(coins=4), territories=(4,))
    s = then(s, 0, PlaceFamilyMember(B, 5))
    assert s.pending[0].kind is DecisionKind.HARVEST
    events = when(s, 0, PerformBonusAction(0))
    assert net(events, 0, Source.HARVEST) == Goods(wood=1, stone=1 + 2, servants=1)


def test_farmer_raises_every_harvest_action_by_two() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, characters=(53,), territories=(3,))  # Village activates at 3
    assert net(when(s, 0, PlaceFamilyMember(B, 22)), 0, Source.HARVEST) == Goods(
        wood=1, stone=1, servants=2, coins=1
    )


def test_warlord_raises_territory_actions_by_two() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, characters=(49,))
    assert of_type(when(s, 0, PlaceFamilyMember(B, 2)), FamilyMemberPlaced)[0].value == 3


def test_dame_discounts_characters_by_one_coin() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, characters=(51,), goods=Goods(coins=1))
    assert net(when(s, 0, PlaceFamilyMember(B, 5)), 0, Source.CARD_COST) == Goods(coins=-1)  # Warlord 2 - 1


def test_stonemason_discount_is_wood_or_stone_to_choose() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, characters=(50,), goods=Goods(wood=1, stone=2))  # Mint: 1w 3s
    legal = RULES.legal_commands(s, Actor.of_seat(0))
    assert PlaceFamilyMember(B, 9, 0, 0, 1) in legal and PlaceFamilyMember(B, 9, 0, 0, 0) not in legal


def test_preacher_takes_no_floor_bonus() -> None:
    s = with_player(game(dice=(6, 6, 6)), 0, characters=(55,), goods=Goods(servants=1, coins=2))
    events = when(s, 0, PlaceFamilyMember(B, 4, servants=1))
    assert net(events, 0, Source.FLOOR_BONUS) == Goods()


def test_royal_messenger_gives_three_different_privileges() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 64}), 0, goods=Goods(coins=5))
    s = then(s, 0, PlaceFamilyMember(B, 5))
    assert s.pending[0].count == 3
    assert len(RULES.legal_commands(s, Actor.of_seat(0))) == 10
    s = then(s, 0, ChooseCouncilPrivileges((Privilege.SERVANTS, Privilege.COINS, Privilege.MILITARY)))
    assert s.players[0].goods == Goods(servants=2, coins=2, military=2)


def test_production_per_card_gain_counts_owned_cards() -> None:
    s = with_player(game(dice=(6, 6, 6)), 0, buildings=(26,), territories=(1, 2, 3))  # Tax Office
    assert net(when(s, 0, PlaceFamilyMember(B, 24)), 0, Source.PRODUCTION) == Goods(coins=2 + 3, military=1)


def test_bishop_gives_a_production_action_of_four() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={5: 70}), 0, goods=Goods(coins=5))
    s = then(s, 0, PlaceFamilyMember(B, 5))
    assert s.pending[0].kind is DecisionKind.PRODUCTION and s.pending[0].value == 4
