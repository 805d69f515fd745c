"""Final scoring (seed (p11) 游戏结束与最终结算, (p13) 游戏摘要) and the placings."""

from __future__ import annotations

import functools
from itertools import combinations_with_replacement

from services.trajan.rules.content_types import BonusKind, BonusTile, Content, ForumTile, SetScore
from services.trajan.rules.model import FinalScore, OwnedBonusTile, PlayerState, State


def round_half_up(units: int, points: int, per_units: int) -> int:
    """``units * points / per_units`` rounded half up (seed (p11) 四舍五入)."""
    return (2 * units * points + per_units) // (2 * per_units)


def construction_sets(c: Content, p: PlayerState) -> int:
    """10 VP for 3 tiles of a kind, 20 for 4 (seed (p13)); each wild construction tile stands for one tile
    of whichever kind scores best (seed (p12) 万用建筑卡 … 最終结算时以利於加分)."""
    wilds = p.forum_tiles.count(ForumTile.WILD_CONSTRUCTION)
    kinds_taken = [c.construction_tile[t].kind for t in p.construction]
    if not wilds:  # the common case, and the bots' hot path: nothing to choose
        return sum(_set_value(c.scoring.construction_sets, kinds_taken.count(k)) for k in set(kinds_taken))
    counts = tuple(sorted(kinds_taken.count(k.name) for k in c.construction_kinds))
    return _best_sets(c.scoring.construction_sets, counts, wilds)


@functools.lru_cache(maxsize=1024)
def _best_sets(sets: tuple[SetScore, ...], counts: tuple[int, ...], wilds: int) -> int:
    """The most construction-set VP when each wild tile joins any kind (``counts``: tiles of each kind; which
    kind has which count does not matter)."""
    best = 0
    for choice in combinations_with_replacement(range(len(counts)), wilds):
        filled = list(counts)
        for kind in choice:
            filled[kind] += 1
        best = max(best, sum(_set_value(sets, n) for n in filled))
    return best


def _set_value(sets: tuple[SetScore, ...], n: int) -> int:
    return next((s.vp for s in sets if n >= s.tiles), 0)


BOARD_KINDS = (BonusKind.WORKERS, BonusKind.LEGIONNAIRES)  # bonus tiles that count figures on the board
OwnedTiles = tuple[tuple[BonusTile, OwnedBonusTile], ...]


def _own_units(c: Content, p: PlayerState, tile: BonusTile) -> int:
    match tile.kind:
        case BonusKind.DEMAND:  # a forum tile of the demand, not a Trajan tile (seed (p11))
            return int(any(c.forum_tile[t].demand is tile.demand for t in p.forum_tiles))
        case BonusKind.COMMODITIES:
            return sum(1 for x in p.display if x in tile.commodities)
        case BonusKind.BONUS_TILES:
            return sum(1 for x in p.bonus_tiles if x.yellow)
        case _:
            raise ValueError(f"{tile.kind.name} bonus tiles count figures on the board")


def _points(tile: BonusTile, owned: OwnedBonusTile, units: int) -> int:
    return round_half_up(units, tile.yellow if owned.yellow else tile.grey, tile.per_units)


def own_bonus_points(c: Content, p: PlayerState) -> tuple[int, OwnedTiles]:
    """The points of the bonus tiles that count the player's own pieces, and the tiles that count its
    figures on the board (``board_bonus_points``): together ``bonus_points``. Unused wild commodity tiles
    count as cards for the commodity tile that pays most per card (seed (p12) 万用商品卡 …
    在最終结算的时候可以搭配奖励板块使用)."""
    if not p.bonus_tiles:
        return 0, ()
    owned = [(c.bonus_tile[x.tile], x) for x in p.bonus_tiles]
    own = [(t, x) for t, x in owned if t.kind not in BOARD_KINDS]
    units = [_own_units(c, p, t) for t, _ in own]
    wilds = p.forum_tiles.count(ForumTile.WILD_COMMODITY)
    commodity = [i for i, (t, _) in enumerate(own) if t.kind is BonusKind.COMMODITIES]
    if wilds and commodity:
        best = max(commodity, key=lambda i: _points(own[i][0], own[i][1], 1))
        units[best] += wilds
    points = sum(_points(t, x, n) for (t, x), n in zip(own, units, strict=True))
    return points, tuple((t, x) for t, x in owned if t.kind in BOARD_KINDS)


def board_bonus_points(tiles: OwnedTiles, workers: int, legionnaires: int) -> int:
    """The points of bonus tiles that count the owner's workers in the construction area (on sites) and its
    legionnaires in the provinces."""
    return sum(_points(t, x, workers if t.kind is BonusKind.WORKERS else legionnaires) for t, x in tiles)


def figures_on_board(s: State) -> tuple[list[int], list[int]]:
    """Workers on construction sites and legionnaires in provinces, by seat."""
    workers, legionnaires = [0] * len(s.players), [0] * len(s.players)
    for site in s.sites:
        for seat in site.workers:
            workers[seat] += 1
    for province in s.provinces:
        for seat in province.legionnaires:
            legionnaires[seat] += 1
    return workers, legionnaires


def bonus_points(c: Content, s: State, p: PlayerState) -> int:
    """Every bonus tile by its side (seed (p11)): its units times its points per units, rounded half up."""
    own, on_board = own_bonus_points(c, p)
    workers = sum(x.workers.count(p.seat) for x in s.sites)
    legionnaires = sum(x.legionnaires.count(p.seat) for x in s.provinces)
    return own + board_bonus_points(on_board, workers, legionnaires)


def mat_parts(c: Content, p: PlayerState) -> tuple[int, int, int, int, int]:
    """The parts of the final score that the player's own pieces decide (seed (p13)): cards in hand,
    workers in the work area, legionnaires in the camp, Trajan tiles on the circle, construction sets."""
    f = c.scoring
    return (
        len(p.hand) * f.per_hand_card,
        p.work_area * f.per_work_area_worker,
        p.camp * f.per_camp_legionnaire,
        (len(p.slots) - p.slots.count(0)) * f.per_trajan_tile,
        construction_sets(c, p),
    )


def final_score(c: Content, s: State, seat: int) -> FinalScore:
    """The mat's parts, then the bonus tiles (which also count pieces on the board)."""
    p = s.players[seat]
    parts = (*mat_parts(c, p), bonus_points(c, s, p))
    return FinalScore(seat, p.vp, *parts, p.vp + sum(parts))


def placings(s: State, scores: tuple[FinalScore, ...]) -> tuple[int, ...]:
    """Most VP wins; a tie goes to the disc higher in the senate stack, which after the last quarter's
    scoring all lie on the start space (seed (p11) 依元老院的位置来判定, 位置越高的玩家为赢家)."""
    height = {seat: i for i, seat in enumerate(s.senate_order)}
    ranked = sorted(scores, key=lambda f: (-f.total, -height[f.seat]))
    out = [0] * len(scores)
    for place, f in enumerate(ranked, start=1):
        out[f.seat] = place
    return tuple(out)
