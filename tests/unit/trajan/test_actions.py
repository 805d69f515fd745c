"""The six actions with every option (seed (p6)-(p8)), with the seed's examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.trajan.rules.commands import (
    AdvanceInSenate,
    Command,
    DeliverShipment,
    DeployLegionnaire,
    DiscardCommodity,
    DisplayCommodities,
    DrawCommodities,
    LoadCommodity,
    LoadWildCommodity,
    MoveLeader,
    PlaceWorker,
    RecruitLegionnaire,
    RecruitWorker,
    StartShipment,
    TakeDiscard,
    TakeForumTile,
    TakeTrajanTile,
)
from services.trajan.rules.content_types import Action, Commodity, ForumTile
from services.trajan.rules.events import (
    ArchMoved,
    CommoditiesDrawn,
    CommodityFlipped,
    ConstructionTileTaken,
    DiscardsReshuffled,
    Event,
    LegionnaireDeployed,
    ProvinceTileTaken,
    ShipmentDelivered,
    TokensMoved,
    TrajanStackTopRevealed,
    TrajanTileTaken,
    TurnEnded,
)
from services.trajan.rules.model import Origin, Pile, Place, ProvinceState, SiteState, State, StepKind
from shared.core.decider import Actor, RuleViolation

from .helpers import RULES, C, acting, game, kinds, of_type, points, then, when, with_player

COL, FUR, SCR, OIL, FRU = Commodity.COLUMNS, Commodity.FURS, Commodity.SCROLLS, Commodity.OIL, Commodity.FRUIT
IDENTICAL, DIFFERENT, PAIRS = 1, 2, 3
ALPES, RAETIA, NORICUM, BELGICA, BRITANNIA = 1, 2, 3, 6, 9


def _province(key: str) -> int:
    return next(p.id for p in C.provinces if p.key == key)


def _raises(code: str, state: State, command: Command) -> None:
    with pytest.raises(RuleViolation) as e:
        when(state, 0, command)
    assert e.value.code == code


# ---------------------------------------------------------------- seaport


def test_seaport_draw_two_then_discard_one_face_up() -> None:
    s = acting(with_player(game(2), 0, hand=(COL,)), 0, Action.SEAPORT)
    events = when(s, 0, DrawCommodities())
    assert len(of_type(events, CommoditiesDrawn)[0].cards) == 2
    s = then(s, 0, DrawCommodities())
    assert kinds(s.pending)[0] == (StepKind.DISCARD, None) and len(s.players[0].hand) == 3
    with pytest.raises(RuleViolation):
        when(s, 0, TakeDiscard(Pile.LEFT))  # the discard is owed first
    s = then(s, 0, DiscardCommodity(COL, Pile.RIGHT))
    assert s.right_pile[-1] is COL and len(s.players[0].hand) == 2


def test_seaport_take_a_discard_pile_top_and_refill_an_emptied_pile() -> None:
    s = acting(replace(game(2), left_pile=(FRU,), right_pile=(OIL, SCR)), 0, Action.SEAPORT)
    after = then(s, 0, TakeDiscard(Pile.RIGHT))
    assert after.players[0].hand.count(SCR) == s.players[0].hand.count(SCR) + 1 and after.right_pile == (OIL,)
    events = when(s, 0, TakeDiscard(Pile.LEFT))
    flipped = of_type(events, CommodityFlipped)
    assert len(flipped) == 1 and flipped[0].pile is Pile.LEFT
    assert then(s, 0, TakeDiscard(Pile.LEFT)).left_pile == (flipped[0].commodity,)


def test_seaport_play_one_or_two_cards_to_the_display_and_draw_as_many() -> None:
    s = acting(with_player(game(2), 0, hand=(COL, COL, FUR)), 0, Action.SEAPORT)
    listed = [c for c in RULES.legal_commands(s, Actor.of_seat(0)) if isinstance(c, DisplayCommodities)]
    assert [c.cards for c in listed] == [(COL,), (COL, COL), (COL, FUR), (FUR,)]
    after = then(s, 0, DisplayCommodities((COL, FUR)))
    assert after.players[0].display == (COL, FUR) and len(after.players[0].hand) == 3
    _raises("bad_cards", s, DisplayCommodities((COL, COL, FUR)))
    _raises("not_in_hand", s, DisplayCommodities((OIL,)))


def _ship(hand: tuple[Commodity, ...], ship: int, tiles: tuple[ForumTile, ...] = ()) -> State:
    s = acting(with_player(game(2), 0, hand=hand, forum_tiles=tiles), 0, Action.SEAPORT)
    return then(s, 0, StartShipment(ship))


def _deliver(state: State, *loads: Command) -> tuple[list[Event], State]:
    for cmd in loads:
        state = then(state, 0, cmd)
    return when(state, 0, DeliverShipment()), then(state, 0, DeliverShipment())


def test_identical_ship_scores_by_size_and_turns_grey() -> None:
    s = _ship((COL, COL, COL, FUR), IDENTICAL)
    events, after = _deliver(s, LoadCommodity(COL), LoadCommodity(COL), LoadCommodity(COL))
    assert points(events, 0) == 12 and of_type(events, ShipmentDelivered) == [ShipmentDelivered(0, IDENTICAL)]
    assert after.players[0].display == (COL, COL, COL) and after.ships_yellow[IDENTICAL - 1] is False
    grey = acting(with_player(after, 0, hand=(FUR, FUR, FUR)), 0, Action.SEAPORT)
    events, _ = _deliver(then(grey, 0, StartShipment(IDENTICAL)), *[LoadCommodity(FUR)] * 3)
    assert points(events, 0) == 7  # a grey ship can still be used, for its grey value


def test_identical_ship_refuses_a_second_commodity() -> None:
    s = then(_ship((COL, FUR), IDENTICAL), 0, LoadCommodity(COL))
    _raises("cannot_ship", s, LoadCommodity(FUR))


def test_different_ship_takes_different_commodities_only() -> None:
    s = then(_ship((COL, COL, FUR), DIFFERENT), 0, LoadCommodity(COL))
    _raises("cannot_ship", s, LoadCommodity(COL))
    events, _ = _deliver(s, LoadCommodity(FUR))
    assert points(events, 0) == 4


def test_pairs_ship_takes_pairs_of_different_commodities_and_wilds_complete_them() -> None:
    s = _ship((COL, COL, FUR), PAIRS, (ForumTile.WILD_COMMODITY,))
    s = then(then(s, 0, LoadCommodity(COL)), 0, LoadCommodity(COL))
    s = then(s, 0, LoadCommodity(FUR))
    _raises("incomplete", s, DeliverShipment())  # a single fur is no pair
    events, after = _deliver(s, LoadWildCommodity())
    assert points(events, 0) == 10
    assert (
        after.players[0].display == (COL, COL, FUR)
        and ForumTile.WILD_COMMODITY not in after.players[0].forum_tiles
    )


def test_a_ship_that_no_cards_can_fill_cannot_be_started() -> None:
    s = acting(with_player(game(2), 0, hand=(COL, FUR, OIL)), 0, Action.SEAPORT)
    _raises("cannot_ship", s, StartShipment(PAIRS))
    assert StartShipment(DIFFERENT) in RULES.legal_commands(s, Actor.of_seat(0))


def test_a_card_that_makes_the_cargo_impossible_to_complete_cannot_be_loaded() -> None:
    s = _ship((COL, COL, FUR), PAIRS)
    _raises("cannot_ship", s, LoadCommodity(FUR))  # the lone fur could never be paired


def test_an_empty_draw_pile_is_remade_from_the_discards_below_their_tops() -> None:
    s = replace(game(2), deck=(), left_pile=(COL, FUR), right_pile=(OIL,))
    s = acting(s, 0, Action.SEAPORT)
    events = when(s, 0, DrawCommodities())
    assert of_type(events, DiscardsReshuffled) == [DiscardsReshuffled((COL,))]
    assert of_type(events, CommoditiesDrawn)[0].cards == (COL,)  # only one card could be had
    s = replace(s, left_pile=(FUR,))
    assert DrawCommodities() not in RULES.legal_commands(s, Actor.of_seat(0))


# ---------------------------------------------------------------- forum


def test_forum_takes_any_tile_onto_the_mat() -> None:
    s = replace(acting(game(2), 0, Action.FORUM), forum=(ForumTile.SENATE_3, ForumTile.WILD_DEMAND))
    after = then(s, 0, TakeForumTile(ForumTile.WILD_DEMAND))
    assert after.forum == (ForumTile.SENATE_3,) and ForumTile.WILD_DEMAND in after.players[0].forum_tiles
    _raises("not_in_forum", s, TakeForumTile(ForumTile.BREAD))


# ---------------------------------------------------------------- military


def test_recruiting_moves_a_figure_from_the_supply_to_the_camp() -> None:
    s = acting(game(2), 0, Action.MILITARY)
    assert of_type(when(s, 0, RecruitLegionnaire()), TokensMoved) == [
        TokensMoved(0, Place.SUPPLY, Place.CAMP, 1)
    ]


def test_seed_adjacency_example_britannia_is_reached_across_the_dotted_lines() -> None:
    assert (_province("alpes"), _province("raetia"), _province("noricum")) == (ALPES, RAETIA, NORICUM)
    s = acting(game(2), 0, Action.MILITARY)
    moves = sorted(c.province for c in RULES.legal_commands(s, Actor.of_seat(0)) if isinstance(c, MoveLeader))
    assert moves == [ALPES, RAETIA, NORICUM]  # from the camp
    _raises("not_adjacent", s, MoveLeader(BRITANNIA))
    s = acting(with_player(game(2), 0, leader=BELGICA), 0, Action.MILITARY)
    assert MoveLeader(BRITANNIA) in RULES.legal_commands(s, Actor.of_seat(0))
    _raises("not_adjacent", s, MoveLeader(0))  # never back into the camp


def test_the_leader_takes_the_tile_of_the_province_it_enters() -> None:
    s = acting(game(2), 0, Action.MILITARY)
    tile = s.provinces[ALPES - 1].tile
    assert tile is not None
    assert of_type(when(s, 0, MoveLeader(ALPES)), ProvinceTileTaken) == [ProvinceTileTaken(0, ALPES, tile)]
    after = then(s, 0, MoveLeader(ALPES))
    assert after.provinces[ALPES - 1].tile is None and after.players[0].leader == ALPES


def _deploying(province: int, there: tuple[int, ...], seats: int = 4) -> State:
    s = with_player(game(seats), 0, leader=province, camp=1)
    provinces = tuple(
        ProvinceState(p.province, p.tile, there if p.province == province else ()) for p in s.provinces
    )
    return acting(replace(s, provinces=provinces), 0, Action.MILITARY)


def test_a_legionnaire_alone_in_a_province_scores_its_value() -> None:
    events = when(_deploying(BRITANNIA, ()), 0, DeployLegionnaire())
    assert (
        of_type(events, LegionnaireDeployed) == [LegionnaireDeployed(0, BRITANNIA)]
        and points(events, 0) == 10
    )


def test_each_foreign_legionnaire_already_there_costs_three_never_below_zero() -> None:
    assert points(when(_deploying(BRITANNIA, (1,)), 0, DeployLegionnaire()), 0) == 7
    assert points(when(_deploying(BRITANNIA, (1, 2, 3)), 0, DeployLegionnaire()), 0) == 1
    assert points(when(_deploying(ALPES, (2,)), 0, DeployLegionnaire()), 0) == 0


def test_one_own_legionnaire_per_province_and_only_where_the_leader_stands() -> None:
    _raises("already_there", _deploying(BELGICA, (0,)), DeployLegionnaire())
    _raises(
        "leader_in_camp", acting(with_player(game(2), 0, camp=2), 0, Action.MILITARY), DeployLegionnaire()
    )
    _raises(
        "no_legionnaire",
        acting(with_player(game(2), 0, leader=ALPES, camp=0), 0, Action.MILITARY),
        DeployLegionnaire(),
    )


# ---------------------------------------------------------------- Trajan


def test_seed_trajan_action_example_tile_on_slot_one_arch_moves_on_to_three() -> None:
    # Seed (p7): the tile goes to the arch's slot I; the arch moves clockwise to the next empty slot, III.
    s = acting(game(2), 0, Action.TRAJAN)
    assert s.players[0].arch == 1 and s.players[0].slots[1] and not s.players[0].slots[2]
    top = s.trajan_stacks[1].top
    events = when(s, 0, TakeTrajanTile(2))
    assert of_type(events, TrajanTileTaken) == [TrajanTileTaken(0, 2, 1, top)]
    assert of_type(events, ArchMoved) == [ArchMoved(0, 3)]
    assert len(of_type(events, TrajanStackTopRevealed)) == 1


def test_with_every_slot_full_the_arch_leaves_the_mat_and_the_action_is_impossible() -> None:
    s = acting(with_player(game(2), 0, slots=(0, 1, 2, 3, 4, 5), arch=1), 0, Action.TRAJAN)
    assert of_type(when(s, 0, TakeTrajanTile(3)), ArchMoved) == [ArchMoved(0, 0)]
    full = acting(with_player(game(2), 0, slots=(9, 1, 2, 3, 4, 5), arch=0), 0, Action.TRAJAN)
    _raises("slots_full", full, TakeTrajanTile(3))
    assert RULES.legal_commands(full, Actor.of_seat(0)) == [
        __import__("services.trajan.rules.commands", fromlist=["Decline"]).Decline()
    ]


# ---------------------------------------------------------------- senate


def test_seed_senate_example_from_the_four_space_to_the_five_space_scores_five() -> None:
    s = acting(with_player(game(2), 0, senate=3), 0, Action.SENATE)
    assert C.board.senate_track[3] == 4
    events = when(s, 0, AdvanceInSenate())
    assert points(events, 0) == 5 and then(s, 0, AdvanceInSenate()).players[0].senate == 4


def test_a_disc_entering_an_occupied_space_goes_on_top() -> None:
    s = with_player(with_player(game(2), 1, senate=2), 0, senate=1)
    s = replace(acting(s, 0, Action.SENATE), senate_order=(1, 0))
    assert then(s, 0, AdvanceInSenate()).senate_order == (1, 0)
    s = replace(s, senate_order=(0, 1))
    assert then(s, 0, AdvanceInSenate()).senate_order == (1, 0)


def test_on_the_eight_space_no_senate_action_this_quarter() -> None:
    s = acting(with_player(game(2), 0, senate=len(C.board.senate_track) - 1), 0, Action.SENATE)
    _raises("senate_top", s, AdvanceInSenate())


# ---------------------------------------------------------------- construction


def _sites(s: State, tiles: dict[int, int], workers: dict[int, tuple[int, ...]]) -> State:
    return replace(s, sites=tuple(SiteState(x, tiles.get(x, 0), workers.get(x, ())) for x in range(1, 21)))


def test_recruiting_a_worker_moves_a_figure_to_the_work_area() -> None:
    s = acting(game(2), 0, Action.CONSTRUCTION)
    assert of_type(when(s, 0, RecruitWorker()), TokensMoved) == [
        TokensMoved(0, Place.SUPPLY, Place.WORK_AREA, 1)
    ]


def test_the_first_worker_goes_anywhere_later_ones_orthogonally_beside_an_own_worker() -> None:
    s = acting(with_player(game(2), 0, work_area=2), 0, Action.CONSTRUCTION)
    assert {c.site for c in RULES.legal_commands(s, Actor.of_seat(0)) if isinstance(c, PlaceWorker)} == set(
        range(1, 21)
    )
    s = _sites(s, {}, {7: (0,)})
    listed = {c.site for c in RULES.legal_commands(s, Actor.of_seat(0)) if isinstance(c, PlaceWorker)}
    assert listed == {2, 6, 8, 12}  # no diagonal, not its own site
    _raises("not_adjacent", s, PlaceWorker(1))


def test_seed_example_a_site_with_another_players_worker_gives_nothing_but_leads_on() -> None:
    # Seed (p8): green joins blue's site: no tile, no VP; next time green may reach the 4-VP tile beside it.
    four = next(t.id for t in C.construction_tiles if t.vp == 4)
    s = _sites(acting(with_player(game(2), 0, work_area=2), 0, Action.CONSTRUCTION), {8: four}, {7: (1,)})
    events = when(s, 0, PlaceWorker(7))
    assert not of_type(events, ConstructionTileTaken) and points(events, 0) == 0
    s = acting(then(s, 0, PlaceWorker(7)), 0, Action.CONSTRUCTION)
    events = when(s, 0, PlaceWorker(8))
    assert (
        of_type(events, ConstructionTileTaken) == [ConstructionTileTaken(0, 8, four)]
        and points(events, 0) == 4
    )


def test_the_first_tile_of_a_kind_brings_its_bonus_action_the_second_does_not() -> None:
    windows = [t.id for t in C.construction_tiles if t.kind == "window"]
    s = _sites(
        acting(with_player(game(2), 0, work_area=2), 0, Action.CONSTRUCTION),
        {1: windows[0], 2: windows[1]},
        {},
    )
    s = then(s, 0, PlaceWorker(1))
    assert (s.pending[0].kind, s.pending[0].action, s.pending[0].origin) == (
        StepKind.ACTION,
        Action.MILITARY,
        Origin.BUILDING,
    )
    s = acting(s, 0, Action.CONSTRUCTION)
    assert of_type(when(s, 0, PlaceWorker(2)), TurnEnded)  # no bonus action, nothing else to do


def test_no_worker_in_the_work_area_no_placement() -> None:
    s = acting(with_player(game(2), 0, work_area=0), 0, Action.CONSTRUCTION)
    _raises("no_worker", s, PlaceWorker(1))


def test_a_shipment_of_wild_commodity_tiles_only_is_a_shipment() -> None:
    s = _ship((), IDENTICAL, (ForumTile.WILD_COMMODITY, ForumTile.WILD_COMMODITY))
    events, after = _deliver(s, LoadWildCommodity(), LoadWildCommodity())
    assert points(events, 0) == 6 and after.players[0].display == () and after.players[0].forum_tiles == ()


def test_an_empty_trajan_stack_cannot_be_taken_from() -> None:
    s = acting(game(2), 0, Action.TRAJAN)
    stacks = (replace(s.trajan_stacks[0], top=0, rest=()), *s.trajan_stacks[1:])
    _raises("empty_stack", replace(s, trajan_stacks=stacks), TakeTrajanTile(1))
