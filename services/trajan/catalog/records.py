"""``TrajanContent`` from the validated ``Content``: the typed records plus their texts, worded by
the terminal client's labels (``presentation/labels.py``) from the same numbers."""

from __future__ import annotations

from services.trajan.catalog.messages import (
    BonusTileInfo,
    BowlInfo,
    ConstructionTileInfo,
    ForumTileInfo,
    ProvinceInfo,
    ShipInfo,
    SiteInfo,
    TrajanContent,
    TrajanTileInfo,
)
from services.trajan.presentation.labels import Labels
from services.trajan.rules.content_types import (
    BonusTile,
    ConstructionTile,
    Content,
    ForumTileSpec,
    Province,
    Ship,
    Site,
    TrajanTile,
)


def content_message(content: Content) -> TrajanContent:
    labels = Labels(content)
    return TrajanContent(
        trajan_tiles=tuple(trajan_tile(t, labels) for t in content.trajan_tiles),
        forum_tiles=tuple(forum_tile(t, labels) for t in content.forum_tiles),
        construction_tiles=tuple(construction_tile(t, labels) for t in content.construction_tiles),
        provinces=tuple(province(p, labels) for p in content.provinces),
        sites=tuple(site(s, labels) for s in content.board.sites),
        ships=tuple(ship(s, labels) for s in content.ships),
        bonus_tiles=tuple(bonus_tile(t, labels) for t in content.bonus_tiles),
        bowls=tuple(
            BowlInfo(
                n,
                action,
                f"B{labels.bowl(n)[1:]}: sow from it, then take the {labels.action(action)} action.",
            )
            for n, action in enumerate(content.board.bowls, start=1)
        ),
    )


def trajan_tile(t: TrajanTile, labels: Labels) -> TrajanTileInfo:
    text = f"Trajan tile {t.id}, {labels.trajan_stack(t.stack)}: {labels.trajan_tile(t.id)}."
    return TrajanTileInfo(t.id, t.stack, t.colours, t.vp, t.effect, t.amount, t.demand, text)


def forum_tile(t: ForumTileSpec, labels: Labels) -> ForumTileInfo:
    extra = dict(labels.content.extra_action_tiles).get(t.action, 0) if t.action is not None else 0
    copies = f"{t.count} among the forum tiles" + (f", {extra} in the extra action stack" if extra else "")
    text = f"Forum tile {labels.forum_tile(t.tile)} ({copies})."
    return ForumTileInfo(t.tile, t.kind, t.count, t.votes, t.demand, t.action, text, extra)


def construction_tile(t: ConstructionTile, labels: Labels) -> ConstructionTileInfo:
    action = labels.content.construction_kind[t.kind].bonus_action
    first = f"the first {t.kind} brings the {labels.action(action)} action"
    text = f"Construction tile {labels.construction_tile(t.id)}; {first}."
    return ConstructionTileInfo(t.id, t.kind, t.vp, action, text)


def province(p: Province, labels: Labels) -> ProvinceInfo:
    near = ", ".join(labels.province(a) for a in p.adjacent)
    text = f"{p.name}: {p.vp} VP for a legionnaire where no other player's stands; next to {near}."
    return ProvinceInfo(p.id, p.name, p.vp, p.adjacent, text)


def site(s: Site, labels: Labels) -> SiteInfo:
    near = ", ".join(str(a) for a in s.adjacent)
    return SiteInfo(
        s.id, s.row, s.column, s.adjacent, f"Construction {labels.site(s.id)}, next to sites {near}."
    )


def ship(s: Ship, labels: Labels) -> ShipInfo:
    grey = labels.ship_values(s.id, False)
    text = f"{labels.ship(s.id)}: {labels.ship_values(s.id, True)} (grey side {grey})."
    return ShipInfo(s.id, s.kind, s.yellow, s.grey, text[0].upper() + text[1:])


def bonus_tile(t: BonusTile, labels: Labels) -> BonusTileInfo:
    text = f"Bonus tile {t.id}: {labels.bonus_tile(t.id)} (yellow/grey side)."
    return BonusTileInfo(t.id, t.kind, t.yellow, t.grey, t.per_units, t.demand, t.commodities, text)
