"""Typed content of Trajan: tiles, cards, ships, provinces and the board, as plain frozen records.

Loaded by ``services.trajan.content`` from the YAML files; the rules read these records and never a
file. The enums name closed sets the rules branch on (colours, actions, commodities, tile kinds);
everything that is a number on a component (VP, votes, counts, adjacency) is data. The same records
are the game's components for front-ends: ``GetContent`` serves the ``@message`` ones with their
English texts filled in (the ``text`` fields, empty in the rules), and ``/content`` writes them back.
The field metadata says how the files write a field where they differ from the record (``key=``,
``shared.core.form``) and what values they may hold (``ge=`` ...); checks across fields are the
records' ``__post_init__``.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise

from shared.core import form
from shared.core.form import Invalid, content_record
from shared.core.wire import message, pb


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


# Component counts printed in the rulebook's component list (seed (p1-2) 游戏配件).
TRAJAN_TILES, FORUM_TILES, EXTRA_ACTION_TILES, CONSTRUCTION_TILES = 54, 70, 12, 20
DEMAND_TILES, BONUS_TILES, SHIP_TILES, COMMODITY_CARDS, COMMODITY_KINDS = 15, 12, 3, 60, 12
PROVINCES, BOWLS = 10, 6


@message(name="TrajanTileInfo")
class TrajanTile:
    """A Trajan tile: `TrajanStackView.top`, a player's `slots` and their kept tiles hold these ids."""

    id: int = pb(1)
    stack: int = pb(2)  # the supply stack (1 to 6) it is dealt from
    # the two markers that complete it, in colour order (maybe one colour twice)
    colours: tuple[Colour, ...] = pb(3)
    vp: int = pb(4)
    effect: TrajanEffect = pb(5)  # besides its VP
    amount: int = pb(6, default=0)  # cards, workers or legionnaires of the effect
    demand: Demand | None = pb(7, default=None)  # DEMAND: the demand it meets every quarter
    text: str = pb(8, default="", skip=True)


@message(name="ForumTileInfo")
class ForumTileSpec:
    """A kind of forum tile (or extra action tile), as the view's `forum` and players' tiles name it."""

    tile: ForumTile = pb(1)
    kind: ForumKind = pb(2)
    count: int = pb(3, ge=1)  # copies among the forum tiles
    votes: int = pb(4, default=0, ge=0)  # SENATE
    demand: Demand | None = pb(5, default=None)  # DEMAND
    action: Action | None = pb(6, default=None)  # EXTRA_ACTION
    text: str = pb(7, default="", skip=True)
    # EXTRA_ACTION: copies in the extra action tiles' own stack (`Content.extra_action_tiles`)
    extra_stack: int = pb(8, default=0, skip=True)

    def __post_init__(self) -> None:
        if (self.kind is ForumKind.SENATE) != (self.votes > 0):
            raise Invalid("votes", "votes go with senate tiles, and only with them")
        if (self.kind is ForumKind.DEMAND) != (self.demand is not None):
            raise Invalid("demand", "demand goes with demand tiles, and only with them")
        if (self.kind is ForumKind.EXTRA_ACTION) != (self.action is not None):
            raise Invalid("action", "action goes with extra action tiles, and only with them")


@content_record
class ExtraActionTiles:
    """The copies of one action's extra action tile in their own stack."""

    action: Action
    count: int = form.field(ge=1)


@message(name="ShipInfo")
class Ship:
    """A ship tile (`ships_yellow[id - 1]` says which side is up): VP by shipment size, size 1 first."""

    id: int = pb(1, ge=1)
    kind: ShipKind = pb(2)
    yellow: tuple[int, ...] = pb(3, ge=0, min_length=1)  # VP by size (cards, or pairs for PAIRS)
    grey: tuple[int, ...] = pb(4, ge=0, min_length=1)
    text: str = pb(5, default="", skip=True)

    def __post_init__(self) -> None:
        if len(self.grey) != len(self.yellow):
            raise Invalid("grey", "one grey value per yellow value")


@message(name="BonusTileInfo")
class BonusTile:
    """A bonus tile: `senate_offer` and players' bonus tiles hold these ids."""

    id: int = pb(1, ge=1)
    kind: BonusKind = pb(2)
    yellow: int = pb(3, ge=0)  # points with the yellow side up (per `per_units` units; flat for DEMAND)
    grey: int = pb(4, ge=0)
    per_units: int = pb(5, default=1, ge=1)  # e.g. 2: "1 point per 2 workers", rounded half up
    demand: Demand | None = pb(6, default=None)  # DEMAND
    commodities: tuple[Commodity, ...] = pb(7, default=())  # COMMODITIES
    text: str = pb(8, default="", skip=True)

    def __post_init__(self) -> None:
        if (self.kind is BonusKind.DEMAND) != (self.demand is not None):
            raise Invalid("demand", "demand goes with demand bonus tiles, and only with them")
        if (self.kind is BonusKind.COMMODITIES) != bool(self.commodities):
            raise Invalid("commodities", "commodities go with commodity bonus tiles, and only with them")
        if self.grey > self.yellow:
            raise Invalid("grey", "the grey side is worth at most the yellow side")


@content_record
class CommodityCards:
    """The commodity cards of one commodity."""

    commodity: Commodity
    count: int = form.field(ge=1)


@content_record
class ConstructionKind:
    name: str = form.field(key="kind", min_length=1)  # tiles of one kind make a set
    bonus_action: Action  # taken once, with the first tile of this kind

    def __post_init__(self) -> None:
        if self.bonus_action is Action.CONSTRUCTION:
            raise Invalid("bonus_action", "no construction tile grants a construction action")


@message(name="ConstructionTileInfo")
class ConstructionTile:
    """A construction tile: `SiteState.tile` and players' built tiles hold these ids."""

    id: int = pb(1, ge=1)
    kind: str = pb(2, min_length=1)  # tiles of one kind make a set
    vp: int = pb(3, ge=0)
    # taken once, with a player's first tile of the kind (`ConstructionKind.bonus_action`)
    bonus_action: Action = pb(4, default=Action.SEAPORT, skip=True)
    text: str = pb(5, default="", skip=True)


@message(name="SiteInfo")
class Site:
    """A construction site of the board: `SiteState.site` and `PlaceWorker` name these ids."""

    id: int = pb(1, ge=1)  # 1..20, row by row
    row: int = pb(2, ge=1)
    column: int = pb(3, ge=1)
    adjacent: tuple[int, ...] = pb(4, ge=1)  # orthogonal neighbours
    text: str = pb(5, default="", skip=True)


@message(name="ProvinceInfo")
class Province:
    """A province: `ProvinceState.province` and `MoveLeader` name these ids (0 is the military camp)."""

    id: int = pb(1, ge=1)  # 1..10
    key: str = pb(6, min_length=1)  # how the content files name it
    name: str = pb(2, min_length=1)
    vp: int = pb(3, ge=0)  # for a legionnaire arriving where no other player's stands
    adjacent: tuple[int, ...] = pb(4)  # neighbouring provinces (the content files name them by key)
    text: str = pb(5, default="", skip=True)


@content_record
class Lap:
    """One lap of the time track for a number of players."""

    players: int = form.field(ge=2, le=4)
    spaces: int = form.field(ge=1)


@content_record
class Board:
    bowls: tuple[Action, ...]  # bowl I..VI clockwise
    colours: tuple[Colour, ...]
    markers_per_colour: int = form.field(ge=1)
    markers_per_bowl: int = form.field(ge=1)  # at setup
    tokens: int = form.field(ge=1)  # small figures per player
    tokens_in_camp: int = form.field(ge=0)  # legionnaires at setup
    tokens_in_work_area: int = form.field(ge=0)  # workers at setup
    starting_hand: int = form.field(ge=0)
    start_slots: tuple[int, ...] = form.field(ge=1, le=BOWLS)  # Trajan slots filled at setup
    arch_start: int = form.field(ge=1, le=BOWLS)
    time_track: tuple[Lap, ...]
    rounds_per_quarter: int = form.field(ge=1)
    quarters: int = form.field(ge=1)
    senate_track: tuple[int, ...] = form.field(ge=0)  # votes and VP per space; index 0 = start
    forum_tiles_per_player: int = form.field(ge=0)
    forum_extra_action_tiles: int = form.field(ge=0)
    senate_offer: int = form.field(ge=0)  # bonus tiles beside the senate
    bonus_tiles_per_player: int = form.field(ge=0)
    sites: tuple[Site, ...] = form.field(key="construction_sites")
    # provinces the leader may enter from the military camp (the file names them by key)
    camp_exits: tuple[int, ...] = form.field(min_length=1)
    plus_two_markers: int = form.field(ge=0)
    quarter_tiles: int = form.field(ge=1)

    def __post_init__(self) -> None:
        if sorted(self.bowls) != sorted(Action):
            raise Invalid("bowls", "the six bowls hold the six actions, each once")
        if sorted(self.colours) != sorted(Colour):
            raise Invalid("colours", "the six marker colours, each once")
        distinct(self.start_slots, "start_slots", "slot")
        if sorted(x.players for x in self.time_track) != [2, 3, 4]:
            raise Invalid("time_track", "one lap length for each of 2, 3 and 4 players")
        track = self.senate_track
        if len(track) < 2 or track[0] != 0 or any(b <= a for a, b in pairwise(track)):
            raise Invalid("senate_track", "starts at 0 and rises space by space")
        _orthogonal_grid(self.sites)

    def lap(self, players: int) -> int:
        return next(x.spaces for x in self.time_track if x.players == players)


def distinct(values: tuple[object, ...], name: str, what: str) -> None:
    """The field ``name`` holds no value twice (``what``: how the problem names one)."""
    repeated = [v for v, n in Counter(values).items() if n > 1]
    if repeated:
        raise Invalid(name, f"{what} {repeated[0]} appears more than once")


def _orthogonal_grid(sites: tuple[Site, ...]) -> None:
    """Sites numbered 1..n, one per row and column, each next to its orthogonal neighbours only."""
    at = {(s.row, s.column): s.id for s in sites}
    if sorted(s.id for s in sites) != list(range(1, len(sites) + 1)) or len(at) != len(sites):
        raise Invalid("sites", "sites are numbered 1..n, one per row and column")
    for s in sites:
        around = [(s.row - 1, s.column), (s.row + 1, s.column), (s.row, s.column - 1), (s.row, s.column + 1)]
        wanted = sorted(at[x] for x in around if x in at)
        if sorted(s.adjacent) != wanted:
            raise Invalid("sites", f"site {s.id}: neighbours must be the orthogonal ones {wanted}")


@content_record
class DemandTiles:
    """The demand tiles of one demand."""

    demand: Demand
    count: int = form.field(ge=1)


@content_record
class Demands:
    tiles: tuple[DemandTiles, ...]
    # rounds of a quarter after which one tile is revealed
    reveal_after_rounds: tuple[int, ...] = form.field(ge=1)
    penalties: tuple[int, ...] = form.field(ge=1, min_length=1)  # VP lost for 1, 2, 3 unmet demands

    def __post_init__(self) -> None:
        if sorted(t.demand for t in self.tiles) != sorted(Demand):
            raise Invalid("tiles", "each demand once")
        if sum(t.count for t in self.tiles) != DEMAND_TILES:
            raise Invalid("tiles", f"the counts must add up to {DEMAND_TILES}")
        if len(self.penalties) != len(self.reveal_after_rounds):
            raise Invalid("penalties", "one penalty for each number of unmet demands")


@content_record
class SetScore:
    """Construction tiles of one kind, and the VP they score as a set."""

    tiles: int = form.field(ge=1)
    vp: int = form.field(ge=0)


@content_record
class Scoring:
    per_hand_card: int = form.field(ge=0, key="final.per_hand_card")
    per_work_area_worker: int = form.field(ge=0, key="final.per_work_area_worker")
    per_camp_legionnaire: int = form.field(ge=0, key="final.per_camp_legionnaire")
    per_trajan_tile: int = form.field(ge=0, key="final.per_trajan_tile")  # still on the action circle
    # the highest set a kind makes wins
    construction_sets: tuple[SetScore, ...] = form.field(key="final.construction_sets")
    legionnaire_malus: int = form.field(ge=0)  # VP less per foreign legionnaire already in the province

    def __post_init__(self) -> None:
        sizes = [s.tiles for s in self.construction_sets]
        if sizes != sorted(sizes, reverse=True):
            raise Invalid("construction_sets", "list the largest set first")


@dataclass(frozen=True)
class Content:
    """Every component of the game, with id lookups built once."""

    board: Board
    trajan_tiles: tuple[TrajanTile, ...]
    forum_tiles: tuple[ForumTileSpec, ...]
    extra_action_tiles: tuple[ExtraActionTiles, ...]
    construction_kinds: tuple[ConstructionKind, ...]
    construction_tiles: tuple[ConstructionTile, ...]
    provinces: tuple[Province, ...]
    ships: tuple[Ship, ...]
    bonus_tiles: tuple[BonusTile, ...]
    commodities: tuple[CommodityCards, ...]
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
        "extra_action_tiles": sum(t.count for t in content.extra_action_tiles),
        "plus_two_markers": b.plus_two_markers,
        "demand_tiles": sum(t.count for t in content.demands.tiles),
        "bonus_tiles": len(content.bonus_tiles),
        "ship_tiles": len(content.ships),
        "quarter_tiles": b.quarter_tiles,
        "commodity_cards": sum(c.count for c in content.commodities),
        "commodity_kinds": len(content.commodities),
        "construction_tiles": len(content.construction_tiles),
        "construction_kinds": len(content.construction_kinds),
        "construction_sites": len(b.sites),
        "provinces": len(content.provinces),
        "bowls": len(b.bowls),
        "action_markers_per_player": len(b.colours) * b.markers_per_colour,
        "tokens_per_player": b.tokens,
    }
