"""Final scoring exactly per the seed's summary (seed (p11), (p13)) and the tie-break."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from services.trajan.rules.commands import EndGame
from services.trajan.rules.content_types import Commodity, ForumTile
from services.trajan.rules.events import FinalScored, GameEnded
from services.trajan.rules.model import FinalScore, OwnedBonusTile, Phase, ProvinceState, SiteState, State

from .helpers import RULES, C, game, of_type, then, when, with_player

BREAD_BONUS, WORKERS_BONUS, LEGION_BONUS, TILES_BONUS, COLUMNS_FURS = 1, 4, 5, 6, 7
BREAD_TRAJAN_TILE = 46


def _ending(**player: Any) -> State:
    """Seat 0 at the game end with nothing but ``player``'s fields (seat 1 empty too)."""
    s = game(2)
    empty = {
        "hand": (),
        "work_area": 0,
        "camp": 0,
        "slots": (0,) * 6,
        "bonus_tiles": (),
        "forum_tiles": (),
        "construction": (),
        "vp": 0,
        "display": (),
    }
    s = with_player(with_player(s, 0, **{**empty, **player}), 1, **empty)
    sites = tuple(SiteState(x.site, x.tile) for x in s.sites)
    provinces = tuple(ProvinceState(x.province, x.tile) for x in s.provinces)
    return replace(s, phase=Phase.GAME_END, sites=sites, provinces=provinces)


def _score(s: State) -> FinalScore:
    scored: FinalScored = of_type(when(s, -1, EndGame()), FinalScored)[0]
    return scored.scores[0]


def test_one_point_per_hand_card_work_area_worker_camp_legionnaire_and_unfinished_trajan_tile() -> None:
    s = _ending(vp=20, hand=(Commodity.FISH, Commodity.WINE), work_area=3, camp=4, slots=(1, 0, 2, 0, 0, 3))
    f = _score(s)
    assert (f.before, f.hand, f.work_area, f.camp, f.trajan_tiles) == (20, 2, 3, 4, 3)
    assert f.total == 20 + 2 + 3 + 4 + 3


def test_kept_demand_trajan_tiles_are_not_on_the_action_circle() -> None:
    assert _score(_ending(demand_tiles=(BREAD_TRAJAN_TILE,))).trajan_tiles == 0


def _kinds(*names: str) -> tuple[int, ...]:
    out: list[int] = []
    for name in names:
        out.append(next(t.id for t in C.construction_tiles if t.kind == name and t.id not in out))
    return tuple(out)


@pytest.mark.parametrize(
    ("tiles", "wilds", "vp"),
    [
        (("window", "window"), 0, 0),
        (("window", "window", "window"), 0, 10),
        (("window", "window", "window", "window"), 0, 20),
        (("window", "window", "window", "roof", "roof", "roof"), 0, 20),
        (("window", "window", "roof", "roof"), 1, 10),
        (("window", "window", "roof", "roof"), 2, 20),
        (("door", "door", "door"), 1, 20),
    ],
)
def test_construction_sets_score_ten_for_three_twenty_for_four_wilds_fill_gaps(
    tiles: tuple[str, ...], wilds: int, vp: int
) -> None:
    s = _ending(construction=_kinds(*tiles), forum_tiles=(ForumTile.WILD_CONSTRUCTION,) * wilds)
    assert _score(s).construction_sets == vp


def test_demand_bonus_tile_needs_a_forum_tile_of_its_demand_not_a_trajan_tile() -> None:
    yellow, grey = OwnedBonusTile(BREAD_BONUS, True), OwnedBonusTile(BREAD_BONUS, False)
    assert _score(_ending(bonus_tiles=(yellow,), forum_tiles=(ForumTile.BREAD,))).bonus_tiles == 9
    assert _score(_ending(bonus_tiles=(grey,), forum_tiles=(ForumTile.BREAD,))).bonus_tiles == 6
    assert _score(_ending(bonus_tiles=(yellow,), demand_tiles=(BREAD_TRAJAN_TILE,))).bonus_tiles == 0
    assert _score(_ending(bonus_tiles=(yellow,), forum_tiles=(ForumTile.WILD_DEMAND,))).bonus_tiles == 0


def test_commodity_bonus_tile_counts_display_cards_of_its_pictures_and_unused_wilds() -> None:
    display = (Commodity.COLUMNS, Commodity.COLUMNS, Commodity.FURS, Commodity.FISH)
    yellow = OwnedBonusTile(COLUMNS_FURS, True)
    assert _score(_ending(bonus_tiles=(yellow,), display=display)).bonus_tiles == 9
    assert (
        _score(_ending(bonus_tiles=(OwnedBonusTile(COLUMNS_FURS, False),), display=display)).bonus_tiles == 6
    )
    wild = (ForumTile.WILD_COMMODITY,)
    assert _score(_ending(bonus_tiles=(yellow,), display=display, forum_tiles=wild)).bonus_tiles == 12
    hand_only = _ending(bonus_tiles=(yellow,), hand=(Commodity.COLUMNS,))
    assert _score(hand_only).bonus_tiles == 0  # only the display counts


def test_worker_bonus_tile_counts_workers_on_sites_grey_side_half_rounded_up() -> None:
    s = _ending(bonus_tiles=(OwnedBonusTile(WORKERS_BONUS, True),), work_area=5)
    s = replace(s, sites=tuple(SiteState(x.site, 0, (0,) if x.site <= 3 else ()) for x in s.sites))
    assert _score(s).bonus_tiles == 3
    grey = with_player(s, 0, bonus_tiles=(OwnedBonusTile(WORKERS_BONUS, False),))
    assert _score(grey).bonus_tiles == 2  # 3 x 1/2 = 1.5, rounded (seed (p11) 四舍五入)


def test_legionnaire_bonus_tile_counts_legionnaires_in_provinces_not_in_the_camp() -> None:
    s = _ending(bonus_tiles=(OwnedBonusTile(LEGION_BONUS, True),), camp=6)
    s = replace(
        s,
        provinces=tuple(
            ProvinceState(x.province, None, (0,) if x.province <= 2 else ()) for x in s.provinces
        ),
    )
    assert _score(s).bonus_tiles == 4
    assert _score(with_player(s, 0, bonus_tiles=(OwnedBonusTile(LEGION_BONUS, False),))).bonus_tiles == 2


def test_bonus_tiles_bonus_counts_every_yellow_tile_itself_included() -> None:
    tiles = (OwnedBonusTile(TILES_BONUS, True), OwnedBonusTile(BREAD_BONUS, True), OwnedBonusTile(2, False))
    assert _score(_ending(bonus_tiles=tiles)).bonus_tiles == 2 * 3
    grey = (OwnedBonusTile(TILES_BONUS, False), OwnedBonusTile(BREAD_BONUS, True))
    assert _score(_ending(bonus_tiles=grey)).bonus_tiles == 2


def test_most_points_win_and_a_tie_goes_to_the_disc_higher_in_the_senate_stack() -> None:
    s = _ending(vp=10)
    s = with_player(s, 1, vp=10)
    assert of_type(when(replace(s, senate_order=(0, 1)), -1, EndGame()), GameEnded) == [GameEnded((2, 1))]
    assert of_type(when(replace(s, senate_order=(1, 0)), -1, EndGame()), GameEnded) == [GameEnded((1, 2))]
    s = with_player(s, 0, vp=11)
    finished = then(replace(s, senate_order=(0, 1)), -1, EndGame())
    outcome = RULES.outcome(finished)
    assert outcome is not None and outcome.placings == (1, 2) and outcome.scores == (11, 10)
