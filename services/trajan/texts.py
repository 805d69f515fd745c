"""Trajan's words in three languages (:data:`TEXTS`), and its components for front-ends, typed and with
texts in one locale: what ``GetContent`` answers.

:data:`TEXTS` declares every English text Trajan shows, once: the components' names and effects
(``presentation/labels.py``), the commands and events in words (``presentation/describe.py``), the
terminal board (``presentation/board.py``) and the steps of a choice (``presentation/steps.py``), the web
module's words (``presentation/web.py``, read by ``web/trajan.js`` through ``ctx.t``), the texts of
:func:`content_message` (:data:`WORDS`), the provinces' and construction kinds' names from the content,
and the rules' refusals (``reason.<code>: <template>``). Translations are ``locales/zh-CN.yaml`` and
``locales/pt-BR.yaml`` beside this file.

:func:`content_message` is the content's own records (``rules/content_types.py``) with their texts
filled in, worded by the terminal client's labels from the same numbers, so a text never disagrees with
the numbers next to it; a forum tile also says how many copies lie in the extra action tiles' stack, a
construction tile the action its kind brings. Views, commands and events name components by id (or by
enum: forum tiles, actions); these records say what each one is.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

from services.trajan.presentation.board import WORDS as BOARD
from services.trajan.presentation.describe import WORDS as DESCRIBE
from services.trajan.presentation.labels import NUMERALS, Labels
from services.trajan.presentation.labels import WORDS as LABELS
from services.trajan.presentation.steps import WORDS as STEPS
from services.trajan.presentation.web import WORDS as WEB
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
from shared.core.i18n import Texts
from shared.core.manifest import manifest_texts
from shared.core.reasons import rule_reason_texts
from shared.core.wire import message, pb

WORDS: dict[str, str] = {
    "content.bowl": "Bowl {numeral} ({action}): sow from it, then take the {action} action.",
    "content.trajan_tile": "Trajan tile {tile}, {stack}: {label}.",
    "content.forum_tile": "Forum tile {label} ({count} among the forum tiles).",
    "content.forum_tile.extra": (
        "Forum tile {label} ({count} among the forum tiles, {extra} in the extra action stack)."
    ),
    "content.construction_tile": "Construction tile {label}; the first {kind} brings the {action} action.",
    "content.province": "{name}: {vp} VP for a legionnaire where no other player's stands; next to {near}.",
    "content.site": "Construction {site}, next to sites {near}.",
    "content.ship": "{ship}: {yellow} (grey side {grey}).",
    "content.bonus_tile": "Bonus tile {tile}: {label} (yellow/grey side).",
}
"""The English of GetContent's texts."""


def english() -> dict[str, str]:
    """Every English text of Trajan, by key."""
    from services.trajan.content import load_content
    from services.trajan.manifest import MANIFEST

    content = load_content()
    parts = (
        manifest_texts(MANIFEST),  # its title, description and options' descriptions
        LABELS,
        DESCRIBE,
        BOARD,
        STEPS,
        WEB,
        WORDS,
        {f"province.{p.key}": p.name for p in content.provinces},
        {f"construction.{k.name}": k.name for k in content.construction_kinds},
        rule_reason_texts("services/trajan/rules"),
    )
    out: dict[str, str] = {}
    for part in parts:
        twice = out.keys() & part.keys()
        if twice:
            raise ValueError(f"Trajan's text keys declared twice: {sorted(twice)}")
        out.update(part)
    return out


TEXTS = Texts("trajan", Path(__file__).parent, english)


@message
class BowlInfo:
    """A bowl of the action circle (`ChooseBowl.bowl`, a player's `bowls[bowl - 1]`) and its action."""

    bowl: int = pb(1)
    action: Action = pb(2)
    text: str = pb(3, default="")


@message
class TrajanContent:
    """Every component of Trajan, as the rules read it, with texts in the requested locale."""

    trajan_tiles: tuple[TrajanTile, ...] = pb(1, default=())
    forum_tiles: tuple[ForumTileSpec, ...] = pb(2, default=())
    construction_tiles: tuple[ConstructionTile, ...] = pb(3, default=())
    provinces: tuple[Province, ...] = pb(4, default=())
    sites: tuple[Site, ...] = pb(5, default=())
    ships: tuple[Ship, ...] = pb(6, default=())
    bonus_tiles: tuple[BonusTile, ...] = pb(7, default=())
    bowls: tuple[BowlInfo, ...] = pb(8, default=())


def content_message(content: Content, locale: str = "en") -> TrajanContent:
    """The content's records with their texts filled in, in ``locale`` (what ``GetContent`` answers)."""
    lab = Labels(content, TEXTS.catalog(locale))
    return TrajanContent(
        trajan_tiles=tuple(trajan_tile(t, lab) for t in content.trajan_tiles),
        forum_tiles=tuple(forum_tile(t, lab) for t in content.forum_tiles),
        construction_tiles=tuple(construction_tile(t, lab) for t in content.construction_tiles),
        provinces=tuple(province(p, lab) for p in content.provinces),
        sites=tuple(site(s, lab) for s in content.board.sites),
        ships=tuple(ship(s, lab) for s in content.ships),
        bonus_tiles=tuple(bonus_tile(t, lab) for t in content.bonus_tiles),
        bowls=tuple(
            BowlInfo(n, action, lab.t("content.bowl", numeral=NUMERALS[n], action=lab.action(action)))
            for n, action in enumerate(content.board.bowls, start=1)
        ),
    )


def trajan_tile(t: TrajanTile, lab: Labels) -> TrajanTile:
    stack = lab.trajan_stack(t.stack)
    return replace(t, text=lab.t("content.trajan_tile", tile=t.id, stack=stack, label=lab.trajan_tile(t.id)))


def forum_tile(t: ForumTileSpec, lab: Labels) -> ForumTileSpec:
    stack = {x.action: x.count for x in lab.content.extra_action_tiles}
    extra = stack.get(t.action, 0) if t.action is not None else 0
    name = lab.forum_tile(t.tile)
    if extra:
        text = lab.t("content.forum_tile.extra", label=name, count=t.count, extra=extra)
    else:
        text = lab.t("content.forum_tile", label=name, count=t.count)
    return replace(t, text=text, extra_stack=extra)


def construction_tile(t: ConstructionTile, lab: Labels) -> ConstructionTile:
    action = lab.content.construction_kind[t.kind].bonus_action
    text = lab.t(
        "content.construction_tile",
        label=lab.construction_tile(t.id),
        kind=lab.kind(t.kind),
        action=lab.action(action),
    )
    return replace(t, bonus_action=action, text=text)


def province(p: Province, lab: Labels) -> Province:
    near = lab.listed(lab.province(a) for a in p.adjacent)
    name = lab.province(p.id)
    return replace(p, name=name, text=lab.t("content.province", name=name, vp=p.vp, near=near))


def site(s: Site, lab: Labels) -> Site:
    near = lab.listed(str(a) for a in s.adjacent)
    return replace(s, text=lab.t("content.site", site=lab.site(s.id), near=near))


def ship(s: Ship, lab: Labels) -> Ship:
    grey, yellow = lab.ship_values(s.id, False), lab.ship_values(s.id, True)
    text = lab.t("content.ship", ship=lab.ship(s.id), yellow=yellow, grey=grey)
    return replace(s, text=text[0].upper() + text[1:])


def bonus_tile(t: BonusTile, lab: Labels) -> BonusTile:
    return replace(t, text=lab.t("content.bonus_tile", tile=t.id, label=lab.bonus_tile(t.id)))


@functools.cache
def packaged_content_message(locale: str = "en") -> TrajanContent:
    """:func:`content_message` of the packaged content in ``locale``, made once per process and locale."""
    from services.trajan.content import load_content

    return content_message(load_content(), locale)
