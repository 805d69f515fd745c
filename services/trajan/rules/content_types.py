"""Typed content of Trajan: tiles, cards, ships, provinces and the board, as plain frozen records.

Built by ``services.trajan.content`` from the YAML files; the rules read these records and never a file.
The enums name closed sets the rules branch on (colours, actions, commodities, tile kinds); everything
that is a number on a component (VP, votes, counts, adjacency) is data.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Colour(enum.IntEnum):
    """Action-marker colours (seed (p1-2): 黄、橘、绿、白、粉红、蓝)."""

    YELLOW = 1
    ORANGE = 2
    LIGHT_GREEN = 3
    WHITE = 4
    PINK = 5
    BLUE = 6


class Action(enum.IntEnum):
    """The six actions; the value is the bowl (and Trajan slot) numeral I..VI they sit at."""

    SEAPORT = 1
    FORUM = 2
    MILITARY = 3
    SENATE = 4
    TRAJAN = 5
    CONSTRUCTION = 6


class Commodity(enum.IntEnum):
    """The 12 commodities of the 60 commodity cards (5 of each)."""

    COLUMNS = 1
    FURS = 2
    SCROLLS = 3
    OIL = 4
    FRUIT = 5
    CERAMICS = 6
    WINE = 7
    FISH = 8
    JEWELRY = 9
    GEMS = 10
    CATTLE = 11
    WHEAT = 12


class Demand(enum.IntEnum):
    """The people's three demands (seed: 面包、头盔、火焰)."""

    BREAD = 1
    GAMES = 2  # helmet icon
    RELIGION = 3  # flame icon


class ForumTile(enum.IntEnum):
    """A forum tile (70, one face-down stack) or an extra action tile (12, own stack) by what it is."""

    SENATE_2 = 1
    SENATE_3 = 2
    SENATE_4 = 3
    SENATE_5 = 4
    BREAD = 5
    GAMES = 6
    RELIGION = 7
    WILD_COMMODITY = 8
    WILD_DEMAND = 9
    WILD_CONSTRUCTION = 10
    WILD_EXTRA_ACTION = 11
    EXTRA_SEAPORT = 12
    EXTRA_FORUM = 13
    EXTRA_MILITARY = 14
    EXTRA_SENATE = 15
    EXTRA_TRAJAN = 16
    EXTRA_CONSTRUCTION = 17


class ForumKind(enum.IntEnum):
    SENATE = 1  # votes for this quarter's senate scoring, then removed
    DEMAND = 2  # pays one demand of its kind
    WILD_COMMODITY = 3
    WILD_DEMAND = 4
    WILD_CONSTRUCTION = 5
    WILD_EXTRA_ACTION = 6
    EXTRA_ACTION = 7  # one more action of its kind, then removed


class TrajanEffect(enum.IntEnum):
    """What completing a Trajan tile does besides its VP (seed 图拉真板块的特殊行动 (p12))."""

    DRAW_CARDS = 1  # draw ``amount`` commodity cards from the draw pile
    WORKERS = 2  # ``amount`` tokens from the supply to the work area
    LEGIONNAIRES = 3  # ``amount`` tokens from the supply to the military camp
    VICTORY_POINTS = 4  # nothing more
    PLUS_TWO = 5  # a [+2] marker beside one extra-action space of the mat
    DEMAND = 6  # kept on the mat; meets one demand of its kind every quarter


class ShipKind(enum.IntEnum):
    IDENTICAL = 1  # 1-4 cards of one commodity
    DIFFERENT = 2  # 1-4 cards of different commodities
    PAIRS = 3  # 1-3 pairs, each of one commodity, the pairs of different commodities


class BonusKind(enum.IntEnum):
    DEMAND = 1  # flat points if the owner holds a forum tile of the demand
    COMMODITIES = 2  # points per display card of either commodity shown
    WORKERS = 3  # points per own worker on a construction site
    LEGIONNAIRES = 4  # points per own legionnaire in a province
    BONUS_TILES = 5  # points per own bonus tile lying yellow side up


@dataclass(frozen=True, slots=True)
class TrajanTile:
    id: int
    stack: int  # 1..6: the supply stack (one per picture)
    colours: tuple[Colour, Colour]  # unordered; a double colour needs two markers of it
    vp: int
    effect: TrajanEffect
    amount: int = 0  # cards or tokens for DRAW_CARDS / WORKERS / LEGIONNAIRES
    demand: Demand | None = None  # DEMAND tiles


@dataclass(frozen=True, slots=True)
class ForumTileSpec:
    tile: ForumTile
    kind: ForumKind
    count: int  # copies among the 70 forum tiles
    votes: int = 0  # SENATE
    demand: Demand | None = None  # DEMAND
    action: Action | None = None  # EXTRA_ACTION


@dataclass(frozen=True, slots=True)
class Ship:
    id: int
    kind: ShipKind
    yellow: tuple[int, ...]  # VP by size (cards, or pairs for PAIRS), size 1 first
    grey: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BonusTile:
    id: int
    kind: BonusKind
    yellow: int  # points (per ``per_units`` units; flat for DEMAND)
    grey: int
    per_units: int = 1  # e.g. 2: "1 point per 2 workers", rounded half up
    demand: Demand | None = None  # DEMAND
    commodities: tuple[Commodity, ...] = ()  # COMMODITIES


@dataclass(frozen=True, slots=True)
class ConstructionKind:
    name: str
    bonus_action: Action  # taken once, with the first tile of this kind


@dataclass(frozen=True, slots=True)
class ConstructionTile:
    id: int
    kind: str
    vp: int


@dataclass(frozen=True, slots=True)
class Site:
    id: int  # 1..20, row by row
    row: int
    column: int
    adjacent: tuple[int, ...]  # orthogonal neighbours


@dataclass(frozen=True, slots=True)
class Province:
    id: int  # 1..10
    key: str
    name: str
    vp: int  # for a legionnaire arriving where no foreign legionnaire stands
    adjacent: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Board:
    bowls: tuple[Action, ...]  # bowl I..VI clockwise
    colours: tuple[Colour, ...]
    markers_per_colour: int
    markers_per_bowl: int  # at setup
    tokens: int  # small figures per player
    tokens_in_camp: int  # legionnaires at setup
    tokens_in_work_area: int  # workers at setup
    starting_hand: int
    start_slots: tuple[int, ...]  # Trajan slots filled at setup
    arch_start: int
    time_track: tuple[tuple[int, int], ...]  # (players, spaces per lap)
    rounds_per_quarter: int
    quarters: int
    senate_track: tuple[int, ...]  # votes and VP per space; index 0 = start
    forum_tiles_per_player: int
    forum_extra_action_tiles: int
    senate_offer: int  # bonus tiles beside the senate
    bonus_tiles_per_player: int
    sites: tuple[Site, ...]
    camp_exits: tuple[int, ...]  # provinces the leader may enter from the military camp
    plus_two_markers: int
    quarter_tiles: int

    def lap(self, players: int) -> int:
        return dict(self.time_track)[players]


@dataclass(frozen=True, slots=True)
class Demands:
    tiles: tuple[tuple[Demand, int], ...]  # kind, copies
    reveal_after_rounds: tuple[int, ...]  # rounds of a quarter after which one tile is revealed
    penalties: tuple[int, ...]  # VP lost for 1, 2, 3 unmet demands


@dataclass(frozen=True, slots=True)
class Scoring:
    per_hand_card: int
    per_work_area_worker: int
    per_camp_legionnaire: int
    per_trajan_tile: int  # still on the action circle
    construction_sets: tuple[tuple[int, int], ...]  # (same kind count, VP), highest first wins
    legionnaire_malus: int  # VP less per foreign legionnaire already in the province


@dataclass(frozen=True)
class Content:
    """Every component of the game, with id lookups built once."""

    board: Board
    trajan_tiles: tuple[TrajanTile, ...]
    forum_tiles: tuple[ForumTileSpec, ...]
    extra_action_tiles: tuple[tuple[Action, int], ...]  # action, copies
    construction_kinds: tuple[ConstructionKind, ...]
    construction_tiles: tuple[ConstructionTile, ...]
    provinces: tuple[Province, ...]
    ships: tuple[Ship, ...]
    bonus_tiles: tuple[BonusTile, ...]
    commodities: tuple[tuple[Commodity, int], ...]  # kind, copies
    demands: Demands
    scoring: Scoring
    trajan_tile: dict[int, TrajanTile] = field(init=False, repr=False, compare=False)
    forum_tile: dict[ForumTile, ForumTileSpec] = field(init=False, repr=False, compare=False)
    construction_tile: dict[int, ConstructionTile] = field(init=False, repr=False, compare=False)
    construction_kind: dict[str, ConstructionKind] = field(init=False, repr=False, compare=False)
    province: dict[int, Province] = field(init=False, repr=False, compare=False)
    ship: dict[int, Ship] = field(init=False, repr=False, compare=False)
    bonus_tile: dict[int, BonusTile] = field(init=False, repr=False, compare=False)
    site: dict[int, Site] = field(init=False, repr=False, compare=False)
    extra_tile_of: dict[Action, ForumTile] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "trajan_tile", {t.id: t for t in self.trajan_tiles})
        object.__setattr__(self, "forum_tile", {t.tile: t for t in self.forum_tiles})
        object.__setattr__(self, "construction_tile", {t.id: t for t in self.construction_tiles})
        object.__setattr__(self, "construction_kind", {k.name: k for k in self.construction_kinds})
        object.__setattr__(self, "province", {p.id: p for p in self.provinces})
        object.__setattr__(self, "ship", {s.id: s for s in self.ships})
        object.__setattr__(self, "bonus_tile", {t.id: t for t in self.bonus_tiles})
        object.__setattr__(self, "site", {s.id: s for s in self.board.sites})
        extra = {t.action: t.tile for t in self.forum_tiles if t.action is not None}
        object.__setattr__(self, "extra_tile_of", extra)

    @property
    def trajan_stacks(self) -> tuple[int, ...]:
        return tuple(sorted({t.stack for t in self.trajan_tiles}))


def content_counts(content: Content) -> dict[str, int]:
    """Component counts per family (for ``tabula content trajan --json`` and the counts test)."""
    b = content.board
    return {
        "trajan_tiles": len(content.trajan_tiles),
        "trajan_stacks": len(content.trajan_stacks),
        "forum_tiles": sum(t.count for t in content.forum_tiles),
        "extra_action_tiles": sum(n for _, n in content.extra_action_tiles),
        "plus_two_markers": b.plus_two_markers,
        "demand_tiles": sum(n for _, n in content.demands.tiles),
        "bonus_tiles": len(content.bonus_tiles),
        "ship_tiles": len(content.ships),
        "quarter_tiles": b.quarter_tiles,
        "commodity_cards": sum(n for _, n in content.commodities),
        "commodity_kinds": len(content.commodities),
        "construction_tiles": len(content.construction_tiles),
        "construction_kinds": len(content.construction_kinds),
        "construction_sites": len(b.sites),
        "provinces": len(content.provinces),
        "bowls": len(b.bowls),
        "action_markers_per_player": len(b.colours) * b.markers_per_colour,
        "tokens_per_player": b.tokens,
    }
