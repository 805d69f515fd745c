"""Round and quarter ends (seed (p9)-(p10)): demands with the seed's example, the senate with the seed's
example, removals and refills, the next quarter and the game end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.trajan.rules.commands import (
    ChooseBonusTile,
    EndGame,
    EndQuarter,
    EndRound,
    MeetDemands,
    ScoreQuarter,
)
from services.trajan.rules.content_types import Demand, ForumTile
from services.trajan.rules.events import (
    BonusTileAwarded,
    DemandChoicesAsked,
    DemandRevealed,
    DemandsMet,
    ForumFilled,
    MatTilesRemoved,
    PhaseChanged,
    ProvinceTilesPlaced,
    SenateOfferDrawn,
    SenateRestacked,
    SenateScored,
    ShipsReset,
    TurnStarted,
)
from services.trajan.rules.model import Payment, Phase, ProvinceState, State
from shared.core.decider import SYSTEM, Actor, RuleViolation

from .helpers import RULES, fold, game, of_type, points, then, when, with_player

BREAD, GAMES, RELIGION = Demand
T, F, WILD, UNMET = Payment
RELIGION_TRAJAN_TILE, BREAD_TRAJAN_TILE = 52, 46


def _quarter_over(
    seats: int = 2, demands: tuple[Demand, ...] = (GAMES, RELIGION, BREAD), quarter: int = 1
) -> State:
    """The last turn of a quarter's fourth round is over; the system is to end the round."""
    s = game(seats)
    return replace(s, phase=Phase.ROUND_END, round=4 * quarter, quarter=quarter, demands=demands, active=1)


def _demands(s: State) -> State:
    return then(s, -1, EndRound())


def test_rounds_one_to_three_reveal_a_demand_round_four_does_not() -> None:
    s = replace(game(2), phase=Phase.ROUND_END, round=3, demands=(BREAD, GAMES))
    assert len(of_type(when(s, -1, EndRound()), DemandRevealed)) == 1
    events = when(_quarter_over(), -1, EndRound())
    assert not of_type(events, DemandRevealed) and of_type(events, PhaseChanged) == [
        PhaseChanged(Phase.DEMANDS)
    ]


def test_seed_demand_example_helmet_tile_paid_trajan_tile_kept_bread_unmet_costs_four() -> None:
    # Seed (p9-10): two forum tiles and one Trajan tile; the helmet forum tile is paid (and removed), the
    # Trajan tile is paid (and stays); the bread demand cannot be met: -4.
    s = _quarter_over()
    s = with_player(
        s, 0, forum_tiles=(ForumTile.SENATE_3, ForumTile.GAMES), demand_tiles=(RELIGION_TRAJAN_TILE,)
    )
    s = _demands(s)
    assert s.demand_choosers == ()  # one way only: no choice is asked
    events = when(s, -1, ScoreQuarter())
    met = next(e for e in of_type(events, DemandsMet) if e.seat == 0)
    assert met == DemandsMet(0, (F, T, UNMET), (ForumTile.GAMES,))
    assert points(events, 0) == -4
    after = then(s, -1, ScoreQuarter())
    assert after.players[0].forum_tiles == (ForumTile.SENATE_3,)
    assert after.players[0].demand_tiles == (RELIGION_TRAJAN_TILE,)


@pytest.mark.parametrize(("unmet", "penalty"), [(1, -4), (2, -9), (3, -15)])
def test_unmet_demands_cost_four_nine_fifteen(unmet: int, penalty: int) -> None:
    held = (ForumTile.GAMES, ForumTile.RELIGION, ForumTile.BREAD)[: 3 - unmet]
    s = _demands(with_player(_quarter_over(), 0, forum_tiles=tuple(sorted(held))))
    assert points(when(s, -1, ScoreQuarter()), 0) == penalty


def test_a_trajan_demand_tile_meets_one_demand_every_quarter() -> None:
    s = _demands(
        with_player(_quarter_over(demands=(BREAD, BREAD, GAMES)), 0, demand_tiles=(BREAD_TRAJAN_TILE,))
    )
    met = next(e for e in of_type(when(s, -1, ScoreQuarter()), DemandsMet) if e.seat == 0)
    assert met.payments == (T, UNMET, UNMET)


def test_a_player_with_more_than_one_way_chooses_and_must_meet_all_they_can() -> None:
    tiles = (ForumTile.BREAD, ForumTile.WILD_DEMAND, ForumTile.WILD_DEMAND)
    s = _quarter_over(demands=(BREAD, GAMES, RELIGION))
    s = _demands(with_player(s, 0, forum_tiles=tiles, demand_tiles=(RELIGION_TRAJAN_TILE,)))
    assert s.demand_choosers == (0,) and RULES.to_act(s) == (Actor.of_seat(0),)
    listed = {c.payments for c in RULES.legal_commands(s, Actor.of_seat(0)) if isinstance(c, MeetDemands)}
    assert listed == {(F, WILD, T), (WILD, WILD, T), (F, WILD, WILD)}
    with pytest.raises(RuleViolation) as e:
        when(s, 0, MeetDemands((WILD, UNMET, T)))  # the games demand could be met: it must be
    assert e.value.code == "bad_payment"
    s = then(s, 0, MeetDemands((WILD, WILD, T)))
    assert s.players[0].forum_tiles == (ForumTile.BREAD,) and RULES.to_act(s) == (SYSTEM,)


def test_which_of_two_equal_demands_a_tile_meets_is_no_choice() -> None:
    s = _quarter_over(demands=(BREAD, BREAD, GAMES))
    s = _demands(with_player(s, 0, forum_tiles=(ForumTile.BREAD,)))
    assert s.demand_choosers == ()


def test_demand_choices_are_asked_of_every_seat_with_one() -> None:
    s = _quarter_over(seats=3, demands=(BREAD,))
    for seat in (0, 2):
        s = with_player(s, seat, forum_tiles=(ForumTile.BREAD, ForumTile.WILD_DEMAND))
    events = when(s, -1, EndRound())
    assert of_type(events, DemandChoicesAsked) == [DemandChoicesAsked((0, 2))]


# ---------------------------------------------------------------- senate


def _senate(green_tiles: tuple[ForumTile, ...] = (), brown_tiles: tuple[ForumTile, ...] = ()) -> State:
    s = _quarter_over(demands=())
    s = with_player(s, 0, senate=4, forum_tiles=green_tiles)  # green: the 5 space
    s = with_player(s, 1, senate=4, forum_tiles=brown_tiles)  # brown: the 5 space too
    return _demands(replace(s, senate_order=(1, 0), senate_offer=(3, 9)))  # green's disc on top


def test_seed_senate_example_a_senate_tile_of_three_makes_brown_consul_eight_to_five() -> None:
    s = _senate(brown_tiles=(ForumTile.SENATE_3,))
    events = when(s, -1, ScoreQuarter())
    assert of_type(events, SenateScored) == [SenateScored((1, 0), (5, 8))]
    s = then(s, -1, ScoreQuarter())
    assert s.phase is Phase.CONSUL and RULES.to_act(s) == (Actor.of_seat(1),)
    events = when(s, 1, ChooseBonusTile(3))  # the consul picks the left one
    assert of_type(events, BonusTileAwarded) == [BonusTileAwarded(1, 3, True), BonusTileAwarded(0, 9, False)]
    assert of_type(events, SenateRestacked) == [SenateRestacked((0, 1))]  # fewest votes bottom, consul top


def test_seed_senate_example_without_the_tile_the_disc_on_top_wins_the_tie() -> None:
    s = then(_senate(), -1, ScoreQuarter())
    assert (s.consul, s.proconsul) == (0, 1)


def test_equal_votes_go_first_to_the_higher_senate_space() -> None:
    s = _quarter_over(demands=())
    s = with_player(s, 0, senate=5)  # 6 votes on the 6 space
    s = with_player(s, 1, senate=3, forum_tiles=(ForumTile.SENATE_2,))  # 4 + 2 = 6 votes
    s = replace(s, senate_order=(0, 1))
    assert then(_demands(s), -1, ScoreQuarter()).consul == 0


def test_only_the_consul_chooses_and_only_an_offered_tile() -> None:
    s = then(_senate(brown_tiles=(ForumTile.SENATE_5,)), -1, ScoreQuarter())
    with pytest.raises(RuleViolation):
        when(s, 0, ChooseBonusTile(3))
    with pytest.raises(RuleViolation) as e:
        when(s, 1, ChooseBonusTile(4))
    assert e.value.code == "not_offered"


# ---------------------------------------------------------------- removals, refills, next quarter


def _cleanup(quarter: int = 1) -> State:
    s = _quarter_over(demands=(), quarter=quarter)
    s = with_player(s, 0, forum_tiles=(ForumTile.SENATE_4, ForumTile.BREAD), leader=1)
    provinces = tuple(
        ProvinceState(p.province, None if p.province <= 4 else p.tile, (1,) if p.province == 2 else ())
        for p in s.provinces
    )
    s = replace(s, provinces=provinces, ships_yellow=(False, True, False))
    s = then(_demands(s), -1, ScoreQuarter())
    s = then(s, s.consul, ChooseBonusTile(s.senate_offer[0]))
    assert s.phase is Phase.QUARTER_END
    return s


def test_quarter_end_removes_senate_tiles_and_the_forum_and_refills_the_board() -> None:
    s = _cleanup()
    events = when(s, -1, EndQuarter())
    assert of_type(events, MatTilesRemoved) == [MatTilesRemoved(0, (ForumTile.SENATE_4,))]
    assert len(of_type(events, SenateOfferDrawn)[0].tiles) == 2
    # provinces 1-4 have no tile; 1 holds seat 0's leader, 2 a legionnaire: only 3 and 4 are refilled
    assert of_type(events, ProvinceTilesPlaced)[0].provinces == (3, 4)
    filled = of_type(events, ForumFilled)[0]
    assert (len(filled.forum_tiles), len(filled.extra_tiles)) == (6, 3)
    assert of_type(events, ShipsReset) == [ShipsReset()]
    after = then(s, -1, EndQuarter())
    assert after.players[0].forum_tiles == (ForumTile.BREAD,) and after.ships_yellow == (True, True, True)
    assert sorted(after.forum) == sorted((*filled.forum_tiles, *filled.extra_tiles))
    assert (after.quarter, after.round, after.demands) == (2, 5, ())
    assert of_type(events, TurnStarted) == [TurnStarted(0)]  # seat 1 ended the quarter: seat 0 goes next


def test_after_the_fourth_quarter_nothing_is_refilled_and_the_game_ends() -> None:
    s = _cleanup(quarter=4)
    events = when(s, -1, EndQuarter())
    assert not of_type(events, ForumFilled) and not of_type(events, SenateOfferDrawn)
    s = then(s, -1, EndQuarter())
    assert s.phase is Phase.GAME_END and RULES.legal_commands(s, SYSTEM) == [EndGame()]
    s = then(s, -1, EndGame())
    assert s.phase is Phase.FINISHED and RULES.outcome(s) is not None and RULES.to_act(s) == ()


def test_a_short_forum_stack_fills_the_provinces_first() -> None:
    s = replace(_cleanup(), forum_stack=(ForumTile.BREAD,))
    events = when(s, -1, EndQuarter())
    assert of_type(events, ProvinceTilesPlaced)[0].provinces == (3,)
    assert of_type(events, ForumFilled)[0].forum_tiles == ()


def test_demands_and_choices_fold_from_events() -> None:
    s = _quarter_over(demands=(BREAD,))
    s = with_player(s, 0, forum_tiles=(ForumTile.BREAD, ForumTile.WILD_DEMAND))
    assert fold(when(s, -1, EndRound()), s).demand_choosers == (0,)
