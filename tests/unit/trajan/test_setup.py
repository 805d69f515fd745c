"""Setup in the seed's order ((p3) 游戏设定, then (p4) 游戏准备) and the match options."""

from __future__ import annotations

import pytest

from services.trajan.rules.commands import DrawStartCommodity, PlaceStartMarkers, TakeStartTrajanTile
from services.trajan.rules.events import (
    BonusTileDealt,
    CommoditiesDrawn,
    CommodityFlipped,
    ConstructionTilesPlaced,
    DiscardTaken,
    ForumFilled,
    GameStarted,
    ProvinceTilesPlaced,
    SenateOfferDrawn,
    SenateRestacked,
    StartPlayerChosen,
    SuppliesPrepared,
    TokensMoved,
    TrajanStackTopRevealed,
)
from services.trajan.rules.model import Phase, Pile, State
from shared.core.decider import Actor, RuleViolation
from shared.core.rng import Rng

from .helpers import OR, RULES, START_MARKERS, B, C, G, P, Y, fold, of_type, setup_events, then, when


def test_seats_two_to_four_no_options() -> None:
    assert RULES.make_config(3, {}).seats == 3
    for seats in (1, 5):
        with pytest.raises(RuleViolation) as e:
            RULES.make_config(seats, {})
        assert e.value.code == "bad_seats"
    with pytest.raises(RuleViolation) as e:
        RULES.make_config(2, {"variant": "x"})
    assert e.value.code == "bad_option"


@pytest.mark.parametrize(("seats", "lap", "forum"), [(2, 11, 6), (3, 16, 9), (4, 21, 12)])
def test_board_set_up_per_player_count(seats: int, lap: int, forum: int) -> None:
    events = list(RULES.setup(RULES.make_config(seats, {}), Rng(seats)))
    assert [type(e) for e in events[:5]] == [
        GameStarted,
        SuppliesPrepared,
        ProvinceTilesPlaced,
        ForumFilled,
        ConstructionTilesPlaced,
    ]
    s = fold(events)
    assert s.lap == lap and s.phase is Phase.MARKERS
    assert len(s.forum) == forum + 3 and all(p.tile is not None for p in s.provinces)
    assert sorted(x.tile for x in s.sites) == list(range(1, 21))
    assert len(s.forum_stack) == 70 - 10 - forum and len(s.extra_stack) == 9
    for p in s.players:
        assert (p.supply, p.camp, p.work_area, p.arch, p.leader) == (13, 1, 1, 1, 0)
    assert len(of_type(events, TokensMoved)) == 2 * seats


def _markers_done(seats: int = 3) -> State:
    s = fold(list(RULES.setup(RULES.make_config(seats, {}), Rng(7))))
    assert set(RULES.to_act(s)) == {Actor.of_seat(x) for x in range(seats)}  # simultaneous
    for seat in range(seats):
        for bowl, pair in enumerate(START_MARKERS, start=1):
            s = then(s, seat, PlaceStartMarkers(bowl, *pair))
    return s


def test_bowls_take_any_two_markers_in_order_i_to_vi() -> None:
    s = fold(list(RULES.setup(RULES.make_config(2, {}), Rng(1))))
    s = then(s, 0, PlaceStartMarkers(1, Y, Y))  # seed (p3) 任意分配: a double is allowed
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceStartMarkers(3, OR, OR))
    assert e.value.code == "wrong_bowl"
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceStartMarkers(2, Y, B))  # both yellows are used
    assert e.value.code == "no_marker"
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceStartMarkers(2, B, G))
    assert e.value.code == "bad_order"
    listed = RULES.legal_commands(s, Actor.of_seat(0))
    assert PlaceStartMarkers(2, OR, OR) in listed and all(c.first is not Y for c in listed)  # type: ignore[union-attr]


def test_after_the_markers_stacks_start_player_senate_bonus_tiles_and_discards() -> None:
    s = fold(list(RULES.setup(RULES.make_config(3, {}), Rng(7))))
    for seat in range(3):
        for bowl, pair in enumerate(START_MARKERS[:-1], start=1):
            s = then(s, seat, PlaceStartMarkers(bowl, *pair))
    for seat in range(2):
        s = then(s, seat, PlaceStartMarkers(6, P, B))
    events = when(s, 2, PlaceStartMarkers(6, P, B))
    assert len(of_type(events, TrajanStackTopRevealed)) == 6
    start = of_type(events, StartPlayerChosen)[0].seat
    order = tuple((start + i) % 3 for i in range(3))
    assert of_type(events, SenateRestacked) == [SenateRestacked(order)]  # start player at the bottom
    assert [e.seat for e in of_type(events, BonusTileDealt)] == list(order)
    assert len(of_type(events, SenateOfferDrawn)[0].tiles) == 2
    assert [e.pile for e in of_type(events, CommodityFlipped)] == [Pile.LEFT, Pile.RIGHT]
    s = fold(events, s)
    assert s.phase is Phase.START_CARDS and RULES.to_act(s) == (Actor.of_seat(start),)
    assert all(b.yellow for p in s.players for b in p.bonus_tiles) and len(s.bonus_bag) == 12 - 3 - 2


def test_starting_cards_in_turn_order_from_the_deck_or_a_discard_pile() -> None:
    s = _markers_done()
    start = s.start_seat
    top = s.left_pile[-1]
    events = when(s, start, DrawStartCommodity(Pile.LEFT))
    assert of_type(events, DiscardTaken) == [DiscardTaken(start, Pile.LEFT, top)]
    assert len(of_type(events, CommodityFlipped)) == 1  # the emptied pile is refilled from the deck
    s = then(s, start, DrawStartCommodity(Pile.DECK))
    assert len(s.players[start].hand) == 1
    assert (
        RULES.visibility(of_type(when(s, start, DrawStartCommodity(Pile.DECK)), CommoditiesDrawn)[0]).seat
        == start
    )
    s = then(then(s, start, DrawStartCommodity(Pile.RIGHT)), start, DrawStartCommodity(Pile.DECK))
    assert len(s.players[start].hand) == 3 and RULES.to_act(s) == (Actor.of_seat((start + 1) % 3),)


def test_starting_trajan_tiles_three_different_stacks_onto_two_four_six() -> None:
    events = setup_events(3, 4)
    s = fold(events)
    assert s.phase is Phase.TURNS and s.round == 1 and s.quarter == 1 and s.active == s.start_seat
    for p in s.players:
        tiles = [t for t in p.slots if t]
        assert [i + 1 for i, t in enumerate(p.slots) if t] == [2, 4, 6] and p.arch == 1
        assert len({C.trajan_tile[t].stack for t in tiles}) == 3
        assert len(p.hand) == 3


def test_a_second_tile_of_the_same_stack_is_refused() -> None:
    s = _markers_done()
    for _ in range(9):
        seat = RULES.to_act(s)[0].seat
        s = then(s, seat, DrawStartCommodity(Pile.DECK))
    seat = RULES.to_act(s)[0].seat
    s = then(s, seat, TakeStartTrajanTile(1, 4))
    with pytest.raises(RuleViolation) as e:
        when(s, seat, TakeStartTrajanTile(1, 2))
    assert e.value.code == "same_kind"
    with pytest.raises(RuleViolation) as e:
        when(s, seat, TakeStartTrajanTile(2, 4))
    assert e.value.code == "bad_slot"
    with pytest.raises(RuleViolation):
        when(s, seat, TakeStartTrajanTile(2, 1))  # slot I is the arch's, not a start slot
