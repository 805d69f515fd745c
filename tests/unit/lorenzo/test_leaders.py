"""Advanced rules: bonus tile choice, leader draft, leader actions and all 20 leader abilities."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.lorenzo.rules.commands import (
    ActivateLeader,
    ChooseBonusTile,
    DiscardLeader,
    DraftLeader,
    PerformBonusAction,
    PlaceFamilyMember,
    PlayLeader,
)
from services.lorenzo.rules.events import CardTaken, DraftHandReceived, FamilyMemberPlaced, LeaderPlayed
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import DecisionKind, Member, Phase, PlayedLeader, Source
from shared.core.decider import Actor, RuleViolation
from shared.core.rng import Rng

from .helpers import RULES, fold, game, net, of_type, then, when, with_player

B, W, OR, N = Member.BLACK, Member.WHITE, Member.ORANGE, Member.NEUTRAL


def _advanced(seats: int = 3) -> object:
    return fold(list(RULES.setup(RULES.make_config(seats, {"advanced": "true"}), Rng(5))))


def test_bonus_tiles_are_chosen_in_reverse_turn_order() -> None:
    s = _advanced()
    order = s.turn_order  # type: ignore[attr-defined]
    assert RULES.to_act(s) == (Actor.of_seat(order[-1]),)  # type: ignore[arg-type]
    s = then(s, order[-1], ChooseBonusTile(2))  # type: ignore[arg-type]
    assert RULES.to_act(s) == (Actor.of_seat(order[-2]),)
    assert ChooseBonusTile(2) not in RULES.legal_commands(s, Actor.of_seat(order[-2]))


def test_leader_draft_is_simultaneous_and_passes_to_the_right() -> None:
    s = _advanced(3)
    for seat in reversed(s.turn_order):  # type: ignore[attr-defined]
        s = then(s, seat, ChooseBonusTile(s.bonus_tiles_left[0]))  # type: ignore[attr-defined]
    assert s.phase is Phase.DRAFT_LEADERS  # type: ignore[attr-defined]
    assert len(RULES.to_act(s)) == 3  # type: ignore[arg-type]
    hands = [p.draft_hand for p in s.players]  # type: ignore[attr-defined]
    s = then(s, 0, DraftLeader(hands[0][0]))
    s = then(s, 1, DraftLeader(hands[1][0]))
    with pytest.raises(RuleViolation):
        when(s, 0, DraftLeader(hands[0][1]))
    events = when(s, 2, DraftLeader(hands[2][0]))
    received = {e.seat: e.leaders for e in of_type(events, DraftHandReceived)}
    assert received[0] == hands[1][1:] and received[2] == hands[0][1:]
    assert RULES.visibility(of_type(events, DraftHandReceived)[0]).kind.name == "SEAT"


def test_leader_requirements_are_owned_not_paid() -> None:
    s = with_player(game(), 0, hand=(7,), goods=Goods(wood=10))  # Sandro Botticelli: 10 wood
    s = then(s, 0, PlayLeader(7))
    assert s.players[0].goods == Goods(wood=10)
    with pytest.raises(RuleViolation) as e:
        when(with_player(game(), 0, hand=(7,), goods=Goods(wood=9)), 0, PlayLeader(7))
    assert e.value.code == "leader_requirement"


def test_discarding_a_leader_gives_a_privilege() -> None:
    s = then(with_player(game(), 0, hand=(7,)), 0, DiscardLeader(7))
    assert s.pending[0].kind is DecisionKind.PRIVILEGES and s.players[0].discarded == (7,)


@pytest.mark.parametrize(
    ("leader", "gain"),
    [
        (5, Goods(faith=1)),
        (6, Goods(coins=1, wood=1, stone=1)),
        (7, Goods(military=2, victory=1)),
        (8, Goods(coins=3)),
        (19, Goods(servants=3, victory=1)),
        (20, Goods(victory=4)),
    ],
)
def test_once_per_round_gains(leader: int, gain: Goods) -> None:
    s = with_player(game(), 0, leaders=(leader,))
    s = then(s, 0, ActivateLeader(leader))
    assert s.players[0].goods == gain
    with pytest.raises(RuleViolation):
        when(s, 0, ActivateLeader(leader))


def test_ludovico_gonzaga_gives_a_privilege() -> None:
    assert then(with_player(game(), 0, leaders=(9,)), 0, ActivateLeader(9)).pending[0].count == 1


def test_francesco_sforza_harvests_at_one_raised_only_by_servants() -> None:
    s = with_player(game(), 0, leaders=(1,), characters=(53,), territories=(2,), goods=Goods(servants=1))
    s = then(s, 0, ActivateLeader(1))
    assert s.pending[0].kind is DecisionKind.HARVEST
    legal = RULES.legal_commands(s, Actor.of_seat(0))
    assert PerformBonusAction(1) in legal  # Farmer's +2 does not apply: 1 + 1 servant = 2 fires Woods
    assert net(when(s, 0, PerformBonusAction(1)), 0, Source.HARVEST) == Goods(wood=2, stone=1, servants=1)


def test_leonardo_produces_at_zero() -> None:
    s = then(with_player(game(), 0, leaders=(10,), goods=Goods(servants=1)), 0, ActivateLeader(10))
    assert s.pending[0].kind is DecisionKind.PRODUCTION and s.pending[0].value == 0
    assert net(when(s, 0, PerformBonusAction(0)), 0, Source.PRODUCTION) == Goods()
    assert net(when(s, 0, PerformBonusAction(1)), 0, Source.PRODUCTION) == Goods(coins=2, military=1)


def test_federico_da_montefeltro_sets_a_coloured_member_to_six() -> None:
    s = then(with_player(game(dice=(1, 1, 1)), 0, leaders=(4,)), 0, ActivateLeader(4, W))
    assert of_type(when(s, 0, PlaceFamilyMember(W, 3, 0)), FamilyMemberPlaced)[0].value == 6
    with pytest.raises(RuleViolation):
        when(with_player(game(), 0, leaders=(4,)), 0, ActivateLeader(4, N))


def test_ludovico_ariosto_places_in_occupied_spaces_but_not_on_taken_cards() -> None:
    s = then(game(dice=(1, 1, 1)), 0, PlaceFamilyMember(B, 17))
    s = with_player(s, 1, leaders=(2,))
    assert when(s, 1, PlaceFamilyMember(B, 17))
    s = then(s, 1, PlaceFamilyMember(B, 1))
    with pytest.raises(RuleViolation):
        when(replace(s, turn_index=1, acted=False), 1, PlaceFamilyMember(N, 1))


def test_filippo_brunelleschi_skips_the_occupied_tower_fee() -> None:
    s = with_player(then(game(dice=(3, 3, 3)), 0, PlaceFamilyMember(B, 1)), 1, leaders=(3,))
    assert net(when(s, 1, PlaceFamilyMember(B, 2)), 1, Source.TOWER_FEE) == Goods()


def test_pico_della_mirandola_takes_three_coins_off_card_costs() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, leaders=(11,), goods=Goods(coins=1))
    events = when(s, 0, PlaceFamilyMember(B, 13))  # Hiring Recruits: 4 coins -> 1
    assert net(events, 0, Source.CARD_COST) == Goods(coins=-1)


def test_lucrezia_borgia_and_sigismondo_malatesta_raise_members() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, leaders=(13, 14))
    assert of_type(when(s, 0, PlaceFamilyMember(B, 2)), FamilyMemberPlaced)[0].value == 3
    assert of_type(when(s, 0, PlaceFamilyMember(N, 2)), FamilyMemberPlaced)[0].value == 3


def test_ludovico_il_moro_makes_coloured_members_five() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, leaders=(16,))
    assert of_type(when(s, 0, PlaceFamilyMember(OR, 3)), FamilyMemberPlaced)[0].value == 5


def test_cesare_borgia_ignores_territory_military_requirements() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, leaders=(17,), territories=(5, 6, 7, 8))
    assert of_type(when(s, 0, PlaceFamilyMember(B, 1)), CardTaken)


def test_santa_rita_doubles_card_resources_but_not_points() -> None:
    s = with_player(game(dice=(1, 1, 1), towers={1: 6}), 0, leaders=(18,))  # Monastery: 1 servant 2 MP
    assert net(when(s, 0, PlaceFamilyMember(B, 1)), 0, Source.CARD_EFFECT) == Goods(servants=2, military=2)


def test_lorenzo_de_medici_copies_a_leader_played_by_another_player() -> None:
    s = with_player(game(dice=(1, 1, 1)), 1, leaders=(16, 15))
    s = with_player(s, 0, hand=(15,), goods=Goods(victory=35))
    legal = RULES.legal_commands(s, Actor.of_seat(0))
    assert PlayLeader(15, 16) in legal and PlayLeader(15, 15) not in legal and PlayLeader(15) not in legal
    s = then(s, 0, PlayLeader(15, 16))
    assert s.players[0].played == (PlayedLeader(15, 16),)
    assert of_type(when(s, 0, PlaceFamilyMember(B, 3)), FamilyMemberPlaced)[0].value == 5


def test_lorenzo_de_medici_copying_a_once_per_round_ability_activates_it() -> None:
    s = with_player(game(), 0, leaders=(PlayedLeader(15, 20),))
    assert ActivateLeader(15) in RULES.legal_commands(s, Actor.of_seat(0))
    assert then(s, 0, ActivateLeader(15)).players[0].goods == Goods(victory=4)


def test_lorenzo_de_medici_needs_someone_to_copy() -> None:
    s = with_player(game(), 0, hand=(15,), goods=Goods(victory=40))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlayLeader(15))
    assert e.value.code == "bad_copy"


def test_leader_plays_are_public() -> None:
    s = with_player(game(), 0, hand=(7,), goods=Goods(wood=10))
    e = of_type(when(s, 0, PlayLeader(7)), LeaderPlayed)[0]
    assert RULES.visibility(e).kind.name == "PUBLIC"
