"""Market, Council Palace, harvest and production (with the rulebook's worked examples), turn structure."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.lorenzo.rules.commands import (
    ChooseCouncilPrivileges,
    ChooseExchange,
    EndRound,
    EndTurn,
    Pass,
    PlaceFamilyMember,
)
from services.lorenzo.rules.events import DecisionsQueued, RoundEnded, TurnEnded
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import DecisionKind, Member, Phase, Privilege, Source
from shared.core.decider import SYSTEM, Actor, RuleViolation

from .helpers import RULES, game, net, of_type, then, when, with_player

B, W, OR, N = Member.BLACK, Member.WHITE, Member.ORANGE, Member.NEUTRAL
FOREST, MONASTERY, MANOR_HOUSE, MARBLE_PIT = 5, 6, 15, 20
CARPENTER, TREASURY, FORTRESS = 29, 34, 44


def test_rulebook_harvest_example_is_worth_five() -> None:
    # Seed 000: member of value 3 + 2 servants = 5 on the first harvest space; Monastery (6) does not fire.
    s = game(dice=(3, 3, 3))
    s = with_player(s, 0, goods=Goods(servants=2), territories=(FOREST, MANOR_HOUSE, MARBLE_PIT, MONASTERY))
    events = when(s, 0, PlaceFamilyMember(B, 22, servants=2))
    assert net(events, 0, Source.HARVEST) == Goods(
        wood=1 + 3, stone=1 + 2, servants=1 + 2, military=2, victory=1
    )
    assert net(events, 0) == Goods(wood=4, stone=3, servants=1, military=2, victory=1)


def _production_example(servants: int) -> list[object]:
    s = game(seats=3, dice=(6, 6, 6))
    s = with_player(s, 0, goods=Goods(servants=2, wood=2), buildings=(TREASURY, CARPENTER, FORTRESS))
    return when(s, 0, PlaceFamilyMember(B, 25, servants=servants))  # large space: 6 - 3 = 3


def test_rulebook_production_example_option_a_only_treasury_and_tile() -> None:
    events = _production_example(0)
    assert net(events, 0, Source.PRODUCTION) == Goods(coins=2, military=1)
    # the tile's 2 coins cannot pay the Treasury: no exchange is owed
    assert not of_type(events, DecisionsQueued)


def test_rulebook_production_example_option_b_also_carpenters_shop() -> None:
    events = _production_example(1)
    queued = of_type(events, DecisionsQueued)[0].decisions
    assert [(d.kind, d.card) for d in queued] == [(DecisionKind.EXCHANGE, CARPENTER)]


def test_rulebook_production_example_option_c_also_fortress() -> None:
    events = _production_example(2)
    assert net(events, 0, Source.PRODUCTION) == Goods(coins=2, military=1, victory=2)
    kinds = [d.kind for d in of_type(events, DecisionsQueued)[0].decisions]
    assert kinds == [DecisionKind.EXCHANGE, DecisionKind.PRIVILEGES]


def test_exchanges_are_paid_only_from_goods_owned_before_the_action() -> None:
    s = game(dice=(3, 3, 3))
    s = with_player(s, 0, goods=Goods(coins=1), buildings=(TREASURY, 32))  # Residence: 1 coin -> privilege
    s = then(s, 0, PlaceFamilyMember(B, 24))
    assert s.budget.coins == 1 and s.players[0].goods.coins == 3
    s = then(s, 0, ChooseExchange(TREASURY, 1))
    assert s.players[0].goods.victory == 3
    # the Residence exchange is still owed but nothing of the old coins is left
    with pytest.raises(RuleViolation) as e:
        when(s, 0, ChooseExchange(32, 1))
    assert e.value.code == "cannot_afford"
    assert RULES.legal_commands(s, Actor.of_seat(0)) == [ChooseExchange(32, 0)]


def test_large_production_space_subtracts_three() -> None:
    s = with_player(game(seats=3, dice=(3, 3, 3)), 0, goods=Goods(servants=1))
    with pytest.raises(RuleViolation):
        when(s, 0, PlaceFamilyMember(B, 25))
    assert when(s, 0, PlaceFamilyMember(B, 25, servants=1))


def test_large_spaces_and_last_market_spaces_are_covered_with_two_players() -> None:
    s = game(seats=2, dice=(6, 6, 6))
    for space in (19, 20, 23, 25):
        with pytest.raises(RuleViolation) as e:
            when(s, 0, PlaceFamilyMember(B, space))
        assert e.value.code == "space_covered"
    s3 = game(seats=3, dice=(6, 6, 6))
    assert when(s3, 0, PlaceFamilyMember(B, 23))
    with pytest.raises(RuleViolation):
        when(s3, 0, PlaceFamilyMember(B, 19))


def test_one_coloured_member_per_harvest_area_but_the_neutral_may_join() -> None:
    s = with_player(game(seats=3, dice=(6, 6, 6)), 0, goods=Goods(servants=6))
    s = replace(then(s, 0, PlaceFamilyMember(B, 22)), turn_index=0, acted=False)
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(W, 23))
    assert e.value.code == "colored_member_in_area"
    assert when(s, 0, PlaceFamilyMember(N, 23, servants=4))


def test_the_first_harvest_space_holds_one_member() -> None:
    s = then(game(dice=(6, 6, 6)), 0, PlaceFamilyMember(B, 22))
    with pytest.raises(RuleViolation) as e:
        when(s, 1, PlaceFamilyMember(B, 22))
    assert e.value.code == "space_occupied"


@pytest.mark.parametrize(
    ("space", "gain"), [(17, Goods(coins=5)), (18, Goods(servants=5)), (19, Goods(military=3, coins=2))]
)
def test_market_spaces_give_their_bonus(space: int, gain: Goods) -> None:
    events = when(game(seats=4, dice=(1, 1, 1)), 0, PlaceFamilyMember(B, space))
    assert net(events, 0, Source.MARKET) == gain


def test_market_privileges_must_all_differ() -> None:
    s = then(game(seats=4, dice=(1, 1, 1)), 0, PlaceFamilyMember(B, 20))
    assert s.pending[0].count == 2
    with pytest.raises(RuleViolation) as e:
        when(s, 0, ChooseCouncilPrivileges((Privilege.COINS, Privilege.COINS)))
    assert e.value.code == "bad_privileges"
    events = when(s, 0, ChooseCouncilPrivileges((Privilege.WOOD_AND_STONE, Privilege.FAITH)))
    assert net(events, 0) == Goods(wood=1, stone=1, faith=1)
    assert len(RULES.legal_commands(s, Actor.of_seat(0))) == 10


def test_council_palace_gives_a_coin_and_a_privilege() -> None:
    s = then(game(dice=(1, 1, 1)), 0, PlaceFamilyMember(B, 21))
    assert s.players[0].goods == Goods(coins=1)
    assert s.pending[0].kind is DecisionKind.PRIVILEGES and s.pending[0].count == 1


def test_council_palace_order_sets_the_next_turn_order() -> None:
    s = game(seats=3, dice=(1, 1, 1), order=(0, 1, 2))
    s = replace(s, occupants=(), phase=Phase.ROUND_END)
    from services.lorenzo.rules.model import Occupant

    s = replace(s, occupants=(Occupant(21, 2, N), Occupant(21, 1, B), Occupant(21, 2, B)))
    events = when(s, -1, EndRound())
    assert of_type(events, RoundEnded)[0].turn_order == (2, 1, 0)


def test_turn_order_is_kept_when_nobody_visits_the_council() -> None:
    s = replace(game(seats=3, order=(1, 2, 0)), phase=Phase.ROUND_END)
    assert of_type(when(s, -1, EndRound()), RoundEnded)[0].turn_order == (1, 2, 0)


def test_pass_is_only_allowed_when_no_member_can_be_placed() -> None:
    s = game()
    with pytest.raises(RuleViolation) as e:
        when(s, 0, Pass())
    assert e.value.code == "can_place"
    s = with_player(s, 0, placed=(B, W, OR))  # only the neutral member (0) and no servants left
    assert RULES.legal_commands(s, Actor.of_seat(0)) == [Pass()]
    assert of_type(when(s, 0, Pass()), TurnEnded)


def test_turn_ends_by_itself_when_no_leader_action_remains() -> None:
    events = when(game(dice=(1, 1, 1)), 0, PlaceFamilyMember(B, 17))
    assert of_type(events, TurnEnded)


def test_turn_waits_for_end_turn_while_a_leader_can_still_be_discarded() -> None:
    s = with_player(game(dice=(1, 1, 1)), 0, hand=(5,))
    s = then(s, 0, PlaceFamilyMember(B, 17))
    assert s.acted and s.active_seat == 0
    assert EndTurn() in RULES.legal_commands(s, Actor.of_seat(0))
    assert RULES.to_act(then(s, 0, EndTurn())) == (Actor.of_seat(1),)


def test_round_runs_four_turns_each_then_waits_for_the_system() -> None:
    s = game(seats=2, dice=(1, 1, 1))
    s = replace(s, turn_index=7)
    s = with_player(s, 1, placed=(B, W, OR))
    s = with_player(s, 1, goods=Goods(servants=1))
    s = then(s, 1, PlaceFamilyMember(N, 21, servants=1))
    s = then(s, 1, ChooseCouncilPrivileges((Privilege.COINS,)))
    assert s.phase is Phase.ROUND_END and RULES.to_act(s) == (SYSTEM,)
