"""Trajan's components for front-ends, typed and with English texts: what ``GetContent`` answers.

:func:`content_message` is the content's own records (``rules/content_types.py``) with their texts
filled in, worded by the terminal client's labels (``presentation/labels.py``) from the same numbers,
so a text never disagrees with the numbers next to it; a forum tile also says how many copies lie in
the extra action tiles' stack, a construction tile the action its kind brings. Views, commands and
events name components by id (or by enum: forum tiles, actions); these records say what each one is.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from services.trajan.presentation.labels import Labels
from services.trajan.rules.content_types import (
    Action,
    BonusTile,
    ConstructionTile,
    Content,
    ForumTileSpec,
    Province,
    Ship,
    Site,
    TrajanTile,
)
from shared.core.wire import message, pb


@message
class BowlInfo:
    """A bowl of the action circle (`ChooseBowl.bowl`, a player's `bowls[bowl - 1]`) and its action."""

    bowl: int = pb(1)
    action: Action = pb(2)
    text: str = pb(3, default="")


@message
class TrajanContent:
    """Every component of Trajan, as the rules read it, with English texts."""

    trajan_tiles: tuple[TrajanTile, ...] = pb(1, default=())
    forum_tiles: tuple[ForumTileSpec, ...] = pb(2, default=())
    construction_tiles: tuple[ConstructionTile, ...] = pb(3, default=())
    provinces: tuple[Province, ...] = pb(4, default=())
    sites: tuple[Site, ...] = pb(5, default=())
    ships: tuple[Ship, ...] = pb(6, default=())
    bonus_tiles: tuple[BonusTile, ...] = pb(7, default=())
    bowls: tuple[BowlInfo, ...] = pb(8, default=())


def content_message(content: Content) -> TrajanContent:
    """The content's records with their texts filled in (what ``GetContent`` answers)."""
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


def trajan_tile(t: TrajanTile, labels: Labels) -> TrajanTile:
    text = f"Trajan tile {t.id}, {labels.trajan_stack(t.stack)}: {labels.trajan_tile(t.id)}."
    return replace(t, text=text)


def forum_tile(t: ForumTileSpec, labels: Labels) -> ForumTileSpec:
    stack = {x.action: x.count for x in labels.content.extra_action_tiles}
    extra = stack.get(t.action, 0) if t.action is not None else 0
    copies = f"{t.count} among the forum tiles" + (f", {extra} in the extra action stack" if extra else "")
    return replace(t, text=f"Forum tile {labels.forum_tile(t.tile)} ({copies}).", extra_stack=extra)


def construction_tile(t: ConstructionTile, labels: Labels) -> ConstructionTile:
    action = labels.content.construction_kind[t.kind].bonus_action
    first = f"the first {t.kind} brings the {labels.action(action)} action"
    text = f"Construction tile {labels.construction_tile(t.id)}; {first}."
    return replace(t, bonus_action=action, text=text)


def province(p: Province, labels: Labels) -> Province:
    near = ", ".join(labels.province(a) for a in p.adjacent)
    text = f"{p.name}: {p.vp} VP for a legionnaire where no other player's stands; next to {near}."
    return replace(p, text=text)


def site(s: Site, labels: Labels) -> Site:
    near = ", ".join(str(a) for a in s.adjacent)
    return replace(s, text=f"Construction {labels.site(s.id)}, next to sites {near}.")


def ship(s: Ship, labels: Labels) -> Ship:
    grey = labels.ship_values(s.id, False)
    text = f"{labels.ship(s.id)}: {labels.ship_values(s.id, True)} (grey side {grey})."
    return replace(s, text=text[0].upper() + text[1:])


def bonus_tile(t: BonusTile, labels: Labels) -> BonusTile:
    return replace(t, text=f"Bonus tile {t.id}: {labels.bonus_tile(t.id)} (yellow/grey side).")


@functools.cache
def packaged_content_message(locale: str = "en") -> TrajanContent:
    """:func:`content_message` of the packaged content, made once per process."""
    from services.trajan.content import load_content

    return content_message(load_content())
