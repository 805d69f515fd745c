"""Trajan's content files, loaded into the typed records of the rules package.

The only module of the game that reads files. Each file holds records of
``services.trajan.rules.content_types``, validated on those records by
:func:`shared.core.content.load_file`; anything malformed raises one :class:`ContentError` listing
every problem with its file, entry and field. The provinces come first: the files name provinces by
key, and the records by id (the board's camp exits, the provinces' neighbours). Three files group
their records in a form of their own: the Trajan tiles, written once per kind of tile (its picture)
with each tile naming its kind; the construction tiles beside their kinds; the forum tiles beside
the extra action tiles.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from services.trajan.rules import content_types as ct
from services.trajan.rules.content_types import (
    Action,
    Board,
    BonusTile,
    Colour,
    Commodity,
    CommodityCards,
    ConstructionKind,
    ConstructionTile,
    Content,
    Demand,
    Demands,
    ExtraActionTiles,
    ForumTile,
    ForumTileSpec,
    Province,
    Scoring,
    Ship,
    ShipKind,
    TrajanEffect,
    TrajanTile,
    distinct,
)
from shared.core.content import ContentError, File, dump, load_file, public
from shared.core.form import Invalid, content_record, field

CONTENT_DIR = Path(__file__).parent
COUNTED = (TrajanEffect.DRAW_CARDS, TrajanEffect.WORKERS, TrajanEffect.LEGIONNAIRES)


@content_record
class TrajanKind:
    """A kind of Trajan tile (trajan_tiles.yaml ``kinds``): what each tile of it is worth and does."""

    kind: str = field(min_length=1)
    stack: int = field(ge=1, le=ct.BOWLS)
    vp: int = field(ge=0)
    effect: TrajanEffect
    amount: int = field(default=0, ge=0)
    demand: Demand | None = None

    def __post_init__(self) -> None:
        if (self.effect in COUNTED) != (self.amount > 0):
            raise Invalid(
                "amount", "amount goes with draw_cards, workers and legionnaires, and only with them"
            )
        if (self.effect is TrajanEffect.DEMAND) != (self.demand is not None):
            raise Invalid("demand", "demand goes with the demand effect, and only with it")


@content_record
class TrajanTileOfKind:
    """A Trajan tile as trajan_tiles.yaml writes it: its colours and the name of its kind."""

    id: int = field(ge=1)
    kind: str = field(min_length=1)
    colours: tuple[Colour, ...] = field(min_length=2, max_length=2)


@content_record
class TrajanTiles:
    """trajan_tiles.yaml: six stacks of nine tiles, every colour on 18 of their 108 halves."""

    kinds: tuple[TrajanKind, ...]
    tiles: tuple[TrajanTileOfKind, ...] = field(min_length=ct.TRAJAN_TILES, max_length=ct.TRAJAN_TILES)

    def __post_init__(self) -> None:
        stack = {k.kind: k.stack for k in self.kinds}
        for t in self.tiles:
            if t.kind not in stack:
                raise Invalid("tiles", f"tile {t.id}: unknown kind {t.kind}")
        per_stack = Counter(stack[t.kind] for t in self.tiles)
        if sorted(per_stack) != list(range(1, ct.BOWLS + 1)) or set(per_stack.values()) != {9}:
            raise Invalid("tiles", "six stacks of nine tiles")
        if set(Counter(c for t in self.tiles for c in t.colours).values()) != {18}:
            raise Invalid("tiles", "every colour appears on the tiles 18 times")

    def records(self) -> tuple[TrajanTile, ...]:
        """Each tile with its kind's numbers, by id; its colours in colour order."""
        kinds = {k.kind: k for k in self.kinds}
        out = []
        for t in sorted(self.tiles, key=lambda t: t.id):
            k = kinds[t.kind]
            out.append(
                TrajanTile(t.id, k.stack, tuple(sorted(t.colours)), k.vp, k.effect, k.amount, k.demand)
            )
        return tuple(out)


@content_record
class Construction:
    """construction.yaml: the kinds, and the tiles that name them."""

    kinds: tuple[ConstructionKind, ...]
    tiles: tuple[ConstructionTile, ...] = field(
        min_length=ct.CONSTRUCTION_TILES, max_length=ct.CONSTRUCTION_TILES
    )

    def __post_init__(self) -> None:
        kinds = {k.name for k in self.kinds}
        for t in self.tiles:
            if t.kind not in kinds:
                raise Invalid("tiles", f"tile {t.id}: unknown kind {t.kind}")


@content_record
class ForumTiles:
    """forum_tiles.yaml: the forum tiles by kind, and the extra action tiles' own stack."""

    forum_tiles: tuple[ForumTileSpec, ...]
    extra_action_tiles: tuple[ExtraActionTiles, ...]

    def __post_init__(self) -> None:
        tiles = self.forum_tiles
        if sorted(t.tile for t in tiles) != sorted(ForumTile):
            raise Invalid("forum_tiles", "every forum tile kind exactly once")
        if sum(t.count for t in tiles) != ct.FORUM_TILES:
            raise Invalid("forum_tiles", f"the counts must add up to {ct.FORUM_TILES}")
        extra = tuple(t.action for t in tiles if t.action is not None)
        distinct(extra, "forum_tiles", "extra action")
        stack = self.extra_action_tiles
        if sorted(t.action for t in stack) != sorted(Action):
            raise Invalid("extra_action_tiles", "every action exactly once")
        if sum(t.count for t in stack) != ct.EXTRA_ACTION_TILES:
            raise Invalid("extra_action_tiles", f"the counts must add up to {ct.EXTRA_ACTION_TILES}")
        if sorted(extra) != sorted(Action):
            raise Invalid("forum_tiles", "an extra action forum tile kind for every action")


Problems = Iterator[tuple[int | None, str, str]]


def _province_ids(provinces: Any, context: Mapping[str, Any]) -> Any:
    """provinces.yaml names the neighbours by key (each province's own, distinct): their ids."""
    if not isinstance(provinces, list):
        return provinces
    named = [p for p in provinces if isinstance(p, dict) and isinstance(p.get("key"), str)]
    distinct(tuple(p["key"] for p in named), "", "province key")
    ids = {p["key"]: p.get("id") for p in named}
    out = []
    for p in provinces:
        if isinstance(p, dict) and isinstance(p.get("adjacent"), list):
            p = {**p, "adjacent": _ids(p["adjacent"], ids, "", f"{p.get('key')}: unknown neighbour")}
        out.append(p)
    return out


def _camp_exit_ids(board: Any, context: Mapping[str, Any]) -> Any:
    """board.yaml names the camp's exits by province key: their ids."""
    if not isinstance(board, dict) or not isinstance(board.get("camp_exits"), list):
        return board
    ids = {p.key: p.id for p in context["provinces"]}
    return {**board, "camp_exits": _ids(board["camp_exits"], ids, "camp_exits", "unknown province")}


def _ids(keys: list[Any], ids: Mapping[Any, Any], field: str, unknown: str) -> list[Any]:
    """The ids of the records named ``keys``; an unknown one is an :class:`Invalid` ``field``."""
    for k in keys:
        if not isinstance(k, str) or k not in ids:
            raise Invalid(field, f"{unknown} {k}")
    return [ids[k] for k in keys]


def _provinces(provinces: tuple[Province, ...], context: Mapping[str, Any]) -> Problems:
    """Ids 1..10, every neighbour's neighbour (keys are distinct: :func:`_province_ids`)."""
    if sorted(p.id for p in provinces) != list(range(1, ct.PROVINCES + 1)):
        yield None, "", f"province ids must be 1..{ct.PROVINCES}"
        return
    by_id = {p.id: p for p in provinces}
    for i, p in enumerate(provinces):
        for other in p.adjacent:
            if other not in by_id or p.id not in by_id[other].adjacent:
                name = by_id[other].key if other in by_id else other
                yield i, "adjacent", f"{p.key} - {name}: adjacency must go both ways"
                return


def _ships(ships: tuple[Ship, ...], context: Mapping[str, Any]) -> Problems:
    if sorted(s.kind for s in ships) != sorted(ShipKind):
        yield None, "", f"{ct.SHIP_TILES} ships, one of each kind"


def _commodities(cards: tuple[CommodityCards, ...], context: Mapping[str, Any]) -> Problems:
    if sorted(c.commodity for c in cards) != sorted(Commodity):
        yield None, "", f"the {ct.COMMODITY_KINDS} commodities, each once"
    elif sum(c.count for c in cards) != ct.COMMODITY_CARDS:
        yield None, "", f"the counts must add up to {ct.COMMODITY_CARDS}"


PROVINCES = File("provinces.yaml", Province, "provinces", ct.PROVINCES, _provinces, before=_province_ids)
BOARD = File("board.yaml", Board, before=_camp_exit_ids)
TRAJAN_TILES = File("trajan_tiles.yaml", TrajanTiles)
FORUM_TILES = File("forum_tiles.yaml", ForumTiles)
CONSTRUCTION = File("construction.yaml", Construction)
SHIPS = File("ships.yaml", Ship, "ships", check=_ships)
BONUS_TILES = File("bonus_tiles.yaml", BonusTile, "tiles", ct.BONUS_TILES)
COMMODITIES = File("commodities.yaml", CommodityCards, "commodities", check=_commodities)
DEMANDS = File("demands.yaml", Demands)
SCORING = File("scoring.yaml", Scoring)


def load_from(directory: Path) -> Content:
    """Load content from a directory of the same YAML files (tests use this for malformed files)."""
    provinces: tuple[Province, ...] = load_file(directory, PROVINCES)
    board = load_file(directory, BOARD, {"provinces": provinces})
    forum: ForumTiles = load_file(directory, FORUM_TILES)
    construction: Construction = load_file(directory, CONSTRUCTION)
    return Content(
        board=board,
        trajan_tiles=load_file(directory, TRAJAN_TILES).records(),
        forum_tiles=forum.forum_tiles,
        extra_action_tiles=forum.extra_action_tiles,
        construction_kinds=construction.kinds,
        construction_tiles=_by_id(construction.tiles),
        provinces=_by_id(provinces),
        ships=load_file(directory, SHIPS),
        bonus_tiles=_by_id(load_file(directory, BONUS_TILES)),
        commodities=load_file(directory, COMMODITIES),
        demands=load_file(directory, DEMANDS),
        scoring=load_file(directory, SCORING),
    )


def _by_id(records: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(sorted(records, key=lambda r: r.id))


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def tables(content: Content) -> dict[str, dict[str, list[Any]]]:
    """The components of ``content`` for front-ends (``/content``: names for the ids of views), keyed
    by file and list: the records as the files write them (enums by lower-case name, default values
    left out), the Trajan tiles each with its kind's numbers, the board's parts that views name."""
    b = content.board
    return {
        "board": {
            "bowls": dump(b.bowls),  # bowl I..VI
            "colours": dump(b.colours),
            "senate_track": dump(b.senate_track),  # votes and VP per space, 0 = start
            "time_track": dump(b.time_track),
            "sites": [{"id": s.id, "row": s.row, "column": s.column} for s in b.sites],
            "camp_exits": list(b.camp_exits),  # province ids
        },
        "trajan_tiles": {"tiles": dump(content.trajan_tiles)},
        "forum_tiles": {"forum_tiles": dump(content.forum_tiles)},
        "construction": {
            "kinds": dump(content.construction_kinds),
            "tiles": dump(content.construction_tiles),
        },
        "provinces": public(PROVINCES, content.provinces),
        "ships": public(SHIPS, content.ships),
        "bonus_tiles": public(BONUS_TILES, content.bonus_tiles),
    }


__all__ = [
    "CONTENT_DIR",
    "ContentError",
    "load_content",
    "load_from",
    "tables",
]
