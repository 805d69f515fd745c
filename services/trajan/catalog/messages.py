"""The typed content clients read through ``GetContent``: every tile, ship, province, construction
site and bowl of Trajan with its numbers and an English text.

These ``@message`` types are rendered into ``trajan.proto`` (the manifest's ``content`` hook) and
filled by ``records.py`` from the validated content. Views, commands and events name components by
id (or by enum: forum tiles, actions); these records say what each one is. Every ``text`` is
generated from the same data as the terminal client's wording (``presentation/labels.py``), so it
never disagrees with the numbers next to it. Enums are the content's own.
"""

from __future__ import annotations

from services.trajan.rules.content_types import (
    Action,
    BonusKind,
    Colour,
    Commodity,
    Demand,
    ForumKind,
    ForumTile,
    ShipKind,
    TrajanEffect,
)
from shared.core.wire import message, pb


@message
class TrajanTileInfo:
    """A Trajan tile: `TrajanStackView.top`, a player's `slots` and their kept tiles hold these ids."""

    id: int = pb(1)
    stack: int = pb(2)  # the supply stack (1 to 6) it is dealt from
    colours: tuple[Colour, ...] = pb(
        3, default=()
    )  # the two markers that complete it (maybe one colour twice)
    vp: int = pb(4, default=0)
    effect: TrajanEffect = pb(5, default=TrajanEffect.VICTORY_POINTS)  # besides its VP
    amount: int = pb(6, default=0)  # cards, workers or legionnaires of the effect
    demand: Demand | None = pb(7, default=None)  # DEMAND: the demand it meets every quarter
    text: str = pb(8, default="")


@message
class ForumTileInfo:
    """A kind of forum tile (or extra action tile), as the view's `forum` and players' tiles name it."""

    tile: ForumTile = pb(1)
    kind: ForumKind = pb(2)
    count: int = pb(3, default=0)  # copies among the forum tiles
    votes: int = pb(4, default=0)  # SENATE
    demand: Demand | None = pb(5, default=None)  # DEMAND
    action: Action | None = pb(6, default=None)  # EXTRA_ACTION
    text: str = pb(7, default="")
    extra_stack: int = pb(8, default=0)  # EXTRA_ACTION: copies in the extra action tiles' own stack


@message
class ConstructionTileInfo:
    """A construction tile: `SiteState.tile` and players' built tiles hold these ids."""

    id: int = pb(1)
    kind: str = pb(2)  # tiles of one kind make a set
    vp: int = pb(3, default=0)
    bonus_action: Action = pb(4, default=Action.SEAPORT)  # taken once, with a player's first tile of the kind
    text: str = pb(5, default="")


@message
class ProvinceInfo:
    """A province: `ProvinceState.province` and `MoveLeader` name these ids (0 is the military camp)."""

    id: int = pb(1)
    name: str = pb(2)
    vp: int = pb(3, default=0)  # for a legionnaire arriving where no other player's stands
    adjacent: tuple[int, ...] = pb(4, default=())
    text: str = pb(5, default="")


@message
class SiteInfo:
    """A construction site of the board: `SiteState.site` and `PlaceWorker` name these ids."""

    id: int = pb(1)
    row: int = pb(2)
    column: int = pb(3)
    adjacent: tuple[int, ...] = pb(4, default=())
    text: str = pb(5, default="")


@message
class ShipInfo:
    """A ship tile (`ships_yellow[id - 1]` says which side is up): VP by shipment size, size 1 first."""

    id: int = pb(1)
    kind: ShipKind = pb(2)
    yellow: tuple[int, ...] = pb(3, default=())
    grey: tuple[int, ...] = pb(4, default=())
    text: str = pb(5, default="")


@message
class BonusTileInfo:
    """A bonus tile: `senate_offer` and players' bonus tiles hold these ids."""

    id: int = pb(1)
    kind: BonusKind = pb(2)
    yellow: int = pb(3, default=0)  # points with the yellow side up (per `per_units` units)
    grey: int = pb(4, default=0)
    per_units: int = pb(5, default=1)
    demand: Demand | None = pb(6, default=None)  # DEMAND
    commodities: tuple[Commodity, ...] = pb(7, default=())  # COMMODITIES
    text: str = pb(8, default="")


@message
class BowlInfo:
    """A bowl of the action circle (`ChooseBowl.bowl`, a player's `bowls[bowl - 1]`) and its action."""

    bowl: int = pb(1)
    action: Action = pb(2)
    text: str = pb(3, default="")


@message
class TrajanContent:
    """Every component of Trajan, as the rules read it, with English texts."""

    trajan_tiles: tuple[TrajanTileInfo, ...] = pb(1, default=())
    forum_tiles: tuple[ForumTileInfo, ...] = pb(2, default=())
    construction_tiles: tuple[ConstructionTileInfo, ...] = pb(3, default=())
    provinces: tuple[ProvinceInfo, ...] = pb(4, default=())
    sites: tuple[SiteInfo, ...] = pb(5, default=())
    ships: tuple[ShipInfo, ...] = pb(6, default=())
    bonus_tiles: tuple[BonusTileInfo, ...] = pb(7, default=())
    bowls: tuple[BowlInfo, ...] = pb(8, default=())
