"""The turn (seed (p5)-(p6)): sowing with the seed's example, wrapping, time, Trajan tile completion with
the seed's example, effects, the action step, extra actions and [+2] markers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.trajan.rules.commands import (
    AdvanceInSenate,
    ChooseBowl,
    Decline,
    EndRound,
    PlaceWorker,
    RecruitLegionnaire,
    SowMarker,
    TakeForumTile,
    UseExtraAction,
    UseTrajanEffect,
)
from services.trajan.rules.content_types import Action, ForumTile
from services.trajan.rules.events import (
    ArchMoved,
    CommoditiesDrawn,
    DemandRevealed,
    MarkerSown,
    PendingSet,
    PhaseChanged,
    PlusTwoPlaced,
    TimeAdvanced,
    TokensMoved,
    TrajanTileCompleted,
    TrajanTileKept,
    TurnEnded,
    TurnStarted,
)
from services.trajan.rules.model import Origin, Phase, Place, SiteState, StepKind
from shared.core.decider import SYSTEM, Actor, RuleViolation

from .helpers import (
    OR,
    RULES,
    B,
    C,
    G,
    P,
    W,
    Y,
    acting,
    bowls,
    game,
    kinds,
    of_type,
    points,
    then,
    when,
    with_player,
)

WORKERS_ONE_BLUE_GREEN = 23  # trajan_tiles.yaml: workers_one, blue + light green, 5 VP
BREAD_PINK_PINK = 46
VP_ORANGE_ORANGE = 10
PLUS_TWO_GREEN_WHITE = 37


def test_seed_sowing_example_two_markers_from_the_trajan_bowl_end_on_the_seaport() -> None:
    # Seed (p5): the Trajan bowl's 2 markers go clockwise, the last one onto the seaport bowl: the target.
    s = with_player(game(2), 0, bowls=bowls((), (G,), (W,), (P,), (Y, B), ()), slots=(0,) * 6)
    s = then(s, 0, ChooseBowl(5))
    assert s.in_hand == (Y, B) and s.players[0].bowls[4].markers == ()
    events = when(s, 0, SowMarker(Y))
    sown = [(e.bowl, e.colour) for e in of_type(events, MarkerSown)]
    assert sown == [(6, Y), (1, B)]  # the last marker, the only one left, is sown for the player
    assert kinds(of_type(events, PendingSet)[-1].steps) == [(StepKind.ACTION, Action.SEAPORT)]


def test_choosing_a_bowl_advances_time_by_the_markers_taken() -> None:
    s = with_player(game(2), 0, bowls=bowls((), (G, W, P, B), (), (), (), ()))
    events = when(s, 0, ChooseBowl(2))
    assert of_type(events, TimeAdvanced) == [TimeAdvanced(4)]


def test_an_empty_bowl_cannot_be_chosen() -> None:
    s = with_player(game(2), 0, bowls=bowls((Y,), (), (), (), (), ()))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, ChooseBowl(2))
    assert e.value.code == "empty_bowl"


def test_more_than_six_markers_wrap_around_and_fill_the_emptied_bowl_too() -> None:
    # Seed (p5) 注意: one per bowl clockwise, no skipping, possibly a second lap.
    s = with_player(game(2), 0, bowls=bowls((), (), (Y, Y, Y, Y, Y, Y, Y), (), (), ()), slots=(0,) * 6)
    events = when(s, 0, ChooseBowl(3))
    assert [e.bowl for e in of_type(events, MarkerSown)] == [4, 5, 6, 1, 2, 3, 4]
    assert kinds(of_type(events, PendingSet)[-1].steps) == [(StepKind.ACTION, Action.SENATE)]


def test_the_player_chooses_the_colour_for_each_bowl() -> None:
    s = then(with_player(game(2), 0, bowls=bowls((Y, OR, B), (), (), (), (), ())), 0, ChooseBowl(1))
    assert RULES.legal_commands(s, Actor.of_seat(0)) == [SowMarker(Y), SowMarker(OR), SowMarker(B)]
    s = then(s, 0, SowMarker(B))
    assert s.players[0].bowls[1].markers == (B,) and s.next_bowl == 3
    with pytest.raises(RuleViolation):
        when(s, 0, SowMarker(B))  # no blue marker left in hand


def test_seed_completion_example_blue_last_with_green_there_scores_five_and_a_worker() -> None:
    # Seed (p6): the last marker is blue, the bowl holds the tile's two colours: 5 VP, a figure may go to
    # the work area, the tile leaves the game.
    slots = (WORKERS_ONE_BLUE_GREEN, 0, 0, 0, 0, 0)
    s = with_player(game(2), 0, bowls=bowls((G, Y), (), (), (), (), (B,)), slots=slots)
    events = when(s, 0, ChooseBowl(6))
    assert of_type(events, TrajanTileCompleted) == [TrajanTileCompleted(0, 1, WORKERS_ONE_BLUE_GREEN)]
    assert points(events, 0) == 5
    s = then(s, 0, ChooseBowl(6))
    assert s.players[0].slots[0] == 0 and kinds(s.pending)[0] == (StepKind.TRAJAN_EFFECT, None)
    events = when(s, 0, UseTrajanEffect())
    assert of_type(events, TokensMoved) == [TokensMoved(0, Place.SUPPLY, Place.WORK_AREA, 1)]


def test_other_markers_in_the_target_bowl_do_not_matter_but_both_colours_must_be_there() -> None:
    slots = (VP_ORANGE_ORANGE, 0, 0, 0, 0, 0)
    one_orange = with_player(game(2), 0, bowls=bowls((Y, W, P), (), (), (), (), (OR,)), slots=slots)
    assert not of_type(when(one_orange, 0, ChooseBowl(6)), TrajanTileCompleted)
    two_orange = with_player(game(2), 0, bowls=bowls((Y, W, OR), (), (), (), (), (OR,)), slots=slots)
    events = when(two_orange, 0, ChooseBowl(6))
    assert of_type(events, TrajanTileCompleted) and points(events, 0) == 9


def test_only_the_tile_beside_the_target_bowl_is_checked() -> None:
    slots = (0, VP_ORANGE_ORANGE, 0, 0, 0, 0)  # slot II holds a completed pair, but the target is I
    s = with_player(game(2), 0, bowls=bowls((), (OR, OR), (), (), (), (Y,)), slots=slots)
    assert not of_type(when(s, 0, ChooseBowl(6)), TrajanTileCompleted)


def test_the_effect_is_optional_and_can_be_declined() -> None:
    slots = (WORKERS_ONE_BLUE_GREEN, 0, 0, 0, 0, 0)
    s = then(with_player(game(2), 0, bowls=bowls((G,), (), (), (), (), (B,)), slots=slots), 0, ChooseBowl(6))
    s2 = then(s, 0, Decline())
    assert s2.players[0].work_area == s.players[0].work_area
    assert kinds(s2.pending)[0] == (StepKind.ACTION, Action.SEAPORT)


def test_two_figure_effect_moves_what_the_supply_holds() -> None:
    legion_two = 36  # orange + blue, 2 VP, two legionnaires
    slots = (legion_two, 0, 0, 0, 0, 0)
    s = with_player(game(2), 0, bowls=bowls((OR,), (), (), (), (), (B,)), slots=slots, supply=1)
    s = then(s, 0, ChooseBowl(6))
    events = when(s, 0, UseTrajanEffect())
    assert of_type(events, TokensMoved) == [TokensMoved(0, Place.SUPPLY, Place.CAMP, 1)]


def test_an_effect_that_cannot_be_used_is_skipped() -> None:
    slots = (WORKERS_ONE_BLUE_GREEN, 0, 0, 0, 0, 0)
    s = with_player(game(2), 0, bowls=bowls((G,), (), (), (), (), (B,)), slots=slots, supply=0)
    s = then(s, 0, ChooseBowl(6))
    assert kinds(s.pending) == [(StepKind.ACTION, Action.SEAPORT)]


def test_demand_trajan_tiles_stay_on_the_mat_and_free_their_slot() -> None:
    slots = (BREAD_PINK_PINK, 0, 0, 0, 0, 0)
    s = with_player(game(2), 0, bowls=bowls((P,), (), (), (), (), (P,)), slots=slots)
    events = when(s, 0, ChooseBowl(6))
    assert of_type(events, TrajanTileKept) == [TrajanTileKept(0, BREAD_PINK_PINK)] and points(events, 0) == 1
    s = then(s, 0, ChooseBowl(6))
    assert s.players[0].demand_tiles == (BREAD_PINK_PINK,) and s.players[0].slots[0] == 0


def test_plus_two_marker_goes_beside_a_chosen_action_once() -> None:
    slots = (PLUS_TWO_GREEN_WHITE, 0, 0, 0, 0, 0)
    s = with_player(
        game(2), 0, bowls=bowls((G,), (), (), (), (), (W,)), slots=slots, plus_two=(Action.FORUM,)
    )
    s = then(s, 0, ChooseBowl(6))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, UseTrajanEffect(Action.FORUM))
    assert e.value.code == "plus_two_taken"
    with pytest.raises(RuleViolation):
        when(s, 0, UseTrajanEffect())
    assert of_type(when(s, 0, UseTrajanEffect(Action.SENATE)), PlusTwoPlaced) == [
        PlusTwoPlaced(0, Action.SENATE)
    ]


def test_completion_frees_a_slot_for_an_arch_waiting_off_the_mat() -> None:
    full = (VP_ORANGE_ORANGE, 1, 2, 3, 4, 5)
    s = with_player(game(2), 0, bowls=bowls((OR,), (), (), (), (), (OR,)), slots=full, arch=0)
    events = when(s, 0, ChooseBowl(6))
    assert of_type(events, ArchMoved) == [ArchMoved(0, 1)]


def test_the_action_is_optional_and_declining_ends_the_turn() -> None:
    s = then(with_player(game(2), 0, bowls=bowls((), (), (Y,), (), (), ()), slots=(0,) * 6), 0, ChooseBowl(3))
    assert kinds(s.pending) == [(StepKind.ACTION, Action.SENATE)]
    events = when(s, 0, Decline())
    assert of_type(events, TurnEnded) == [TurnEnded(0)] and of_type(events, TurnStarted) == [TurnStarted(1)]


def test_round_ends_only_after_the_turn_in_which_time_passes_the_start() -> None:
    # Seed (p5): four markers move the time marker four spaces, past the start; the turn is finished first.
    s = with_player(game(2), 0, bowls=bowls((), (), (Y, OR, G, W), (), (), ()), slots=(0,) * 6)
    s = replace(s, time=s.lap - 2)
    s = then(s, 0, ChooseBowl(3))
    s = then(s, 0, SowMarker(Y))
    s = then(s, 0, SowMarker(OR))
    s = then(s, 0, SowMarker(G))  # the last (white) lands on bowl I: the seaport
    assert s.phase is Phase.TURNS and s.active == 0 and kinds(s.pending)[0][1] is Action.SEAPORT
    events = when(s, 0, Decline())
    assert of_type(events, PhaseChanged) == [PhaseChanged(Phase.ROUND_END)]
    s = then(s, 0, Decline())
    events = when(s, -1, EndRound())
    assert len(of_type(events, DemandRevealed)) == 1 and of_type(events, TurnStarted) == [TurnStarted(1)]
    assert then(s, -1, EndRound()).time == s.lap + 2  # the marker stays past the start


def test_only_the_system_ends_a_round() -> None:
    s = replace(game(2), phase=Phase.ROUND_END)
    with pytest.raises(RuleViolation) as e:
        when(s, 0, EndRound())
    assert e.value.code == "not_your_turn"
    assert RULES.to_act(s) == (SYSTEM,)


# ---------------------------------------------------------------- extra actions


def test_an_extra_action_tile_repeats_the_action_once_and_leaves_the_game() -> None:
    s = acting(with_player(game(2), 0, forum_tiles=(ForumTile.EXTRA_SENATE,), senate=0), 0, Action.SENATE)
    s = then(s, 0, AdvanceInSenate())
    assert kinds(s.pending) == [(StepKind.EXTRA_ACTION, Action.SENATE)]
    s = then(s, 0, UseExtraAction(ForumTile.EXTRA_SENATE))
    assert s.players[0].forum_tiles == () and s.extra_used
    assert [(x.kind, x.origin) for x in s.pending] == [(StepKind.ACTION, Origin.EXTRA)]
    events = when(s, 0, AdvanceInSenate())
    assert points(events, 0) == 3 and of_type(events, TurnEnded)  # no extra action after an extra action


def test_a_plus_two_marker_makes_the_extra_action_tile_give_two_actions_and_stays() -> None:
    player = {"forum_tiles": (ForumTile.EXTRA_MILITARY,), "plus_two": (Action.MILITARY,), "supply": 5}
    s = acting(with_player(game(2), 0, **player), 0, Action.MILITARY)
    s = then(then(s, 0, RecruitLegionnaire()), 0, UseExtraAction(ForumTile.EXTRA_MILITARY))
    assert [(x.kind, x.origin) for x in s.pending] == [(StepKind.ACTION, Origin.EXTRA)] * 2
    s = then(then(s, 0, RecruitLegionnaire()), 0, RecruitLegionnaire())
    assert s.players[0].supply == 2 and s.players[0].plus_two == (Action.MILITARY,)


def test_a_plus_two_marker_alone_gives_no_extra_action() -> None:
    s = acting(with_player(game(2), 0, plus_two=(Action.SENATE,)), 0, Action.SENATE)
    assert of_type(when(s, 0, AdvanceInSenate()), TurnEnded)


def test_the_wild_extra_action_tile_stands_for_any_action() -> None:
    s = acting(with_player(game(2), 0, forum_tiles=(ForumTile.WILD_EXTRA_ACTION,)), 0, Action.SENATE)
    s = then(s, 0, AdvanceInSenate())
    s = then(s, 0, UseExtraAction(ForumTile.WILD_EXTRA_ACTION))
    assert s.players[0].forum_tiles == () and kinds(s.pending) == [(StepKind.ACTION, Action.SENATE)]


def test_an_extra_action_tile_of_another_action_does_not_help() -> None:
    s = acting(with_player(game(2), 0, forum_tiles=(ForumTile.EXTRA_FORUM,)), 0, Action.SENATE)
    assert of_type(when(s, 0, AdvanceInSenate()), TurnEnded)


def test_a_declined_action_offers_no_extra_action() -> None:
    s = acting(with_player(game(2), 0, forum_tiles=(ForumTile.EXTRA_SENATE,)), 0, Action.SENATE)
    assert of_type(when(s, 0, Decline()), TurnEnded)


def test_an_extra_action_tile_taken_in_the_forum_can_be_used_at_once() -> None:
    s = replace(acting(game(2), 0, Action.FORUM), forum=(ForumTile.BREAD, ForumTile.EXTRA_FORUM))
    s = then(s, 0, TakeForumTile(ForumTile.EXTRA_FORUM))
    assert kinds(s.pending) == [(StepKind.EXTRA_ACTION, Action.FORUM)]
    s = then(then(s, 0, UseExtraAction(ForumTile.EXTRA_FORUM)), 0, TakeForumTile(ForumTile.BREAD))
    assert s.players[0].forum_tiles == (ForumTile.BREAD,)


def test_one_extra_action_per_turn_even_after_a_construction_bonus_action() -> None:
    # Seed (p12) 注意: the bonus action of a first construction tile may use an extra action tile too.
    tiles = (ForumTile.EXTRA_CONSTRUCTION, ForumTile.EXTRA_SENATE)
    s = acting(with_player(game(2), 0, forum_tiles=tiles, work_area=2), 0, Action.CONSTRUCTION)
    door = next(t.id for t in C.construction_tiles if t.kind == "door")
    s = replace(s, sites=tuple(SiteState(x.site, door if x.site == 1 else 0) for x in s.sites))
    s = then(s, 0, PlaceWorker(1))
    assert [(x.kind, x.action, x.origin) for x in s.pending] == [
        (StepKind.ACTION, Action.SENATE, Origin.BUILDING),
        (StepKind.EXTRA_ACTION, Action.CONSTRUCTION, None),
    ]
    s = then(s, 0, AdvanceInSenate())
    s = then(s, 0, UseExtraAction(ForumTile.EXTRA_SENATE))
    s = then(s, 0, AdvanceInSenate())
    assert s.phase is Phase.TURNS and s.active == 1  # the construction extra action was no longer offered
    assert s.players[0].forum_tiles == (ForumTile.EXTRA_CONSTRUCTION,)


def test_a_turn_that_passes_the_start_twice_ends_one_round_and_the_next_after_one_turn() -> None:
    # Decision 10: rounds end when the time moved reaches lap x round; one round per turn at most.
    s = with_player(game(2), 0, bowls=bowls((), (), (Y,), (), (), ()), slots=(0,) * 6)
    s = replace(s, round=2, time=2 * s.lap + 1)  # the last turn of round 1 went past the start twice
    events = when(s, 0, ChooseBowl(3))
    events += when(then(s, 0, ChooseBowl(3)), 0, Decline())
    assert of_type(events, PhaseChanged) == [PhaseChanged(Phase.ROUND_END)]


def test_seed_time_example_two_markers_two_spaces_no_round_end() -> None:
    s = with_player(game(2), 0, bowls=bowls((), (), (Y, OR), (), (), ()), slots=(0,) * 6)
    s = then(then(s, 0, ChooseBowl(3)), 0, SowMarker(Y))
    assert s.time == 2 and s.phase is Phase.TURNS
    assert of_type(when(s, 0, Decline()), TurnStarted) == [TurnStarted(1)]


def test_exactly_six_markers_end_in_the_emptied_bowl() -> None:
    s = with_player(game(2), 0, bowls=bowls((), (Y, Y, Y, Y, Y, Y), (), (), (), ()), slots=(0,) * 6)
    events = when(s, 0, ChooseBowl(2))
    assert [e.bowl for e in of_type(events, MarkerSown)][-1] == 2
    assert kinds(of_type(events, PendingSet)[-1].steps) == [(StepKind.ACTION, Action.FORUM)]


def test_the_draw_cards_effect_draws_two_commodity_cards() -> None:
    draw_two_orange = 1  # trajan_tiles.yaml: draw_cards, orange + orange, 3 VP
    slots = (draw_two_orange, 0, 0, 0, 0, 0)
    s = with_player(game(2), 0, bowls=bowls((OR,), (), (), (), (), (OR,)), slots=slots)
    events = when(s, 0, ChooseBowl(6))
    assert points(events, 0) == 3
    drawn = of_type(when(then(s, 0, ChooseBowl(6)), 0, UseTrajanEffect()), CommoditiesDrawn)
    assert len(drawn) == 1 and len(drawn[0].cards) == 2 and drawn[0].seat == 0
