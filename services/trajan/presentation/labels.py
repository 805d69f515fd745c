"""Names of Trajan's components in words, from the validated content: what the board and the
wording of commands and events call a tile, a province, a site, a ship or a bowl.

Ids and enums come from views, commands and events; every number printed here (VP, votes, ship
values, effects) is read from the content, never written twice. The words come from the catalog of
one locale (``services.trajan.texts.TEXTS``): :data:`WORDS` is the English of this module's keys.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from services.trajan.rules.content_types import (
    Action,
    BonusKind,
    Colour,
    Commodity,
    Content,
    Demand,
    ForumKind,
    ForumTile,
    ShipKind,
    TrajanEffect,
)
from services.trajan.rules.model import Payment, Phase, Pile, Place, Reason, StepKind
from shared.core.i18n import Catalog

NUMERALS = ("", "I", "II", "III", "IV", "V", "VI")
COLOUR_LETTER = {
    Colour.YELLOW: "Y",
    Colour.ORANGE: "O",
    Colour.LIGHT_GREEN: "G",
    Colour.WHITE: "W",
    Colour.PINK: "P",
    Colour.BLUE: "B",
}
COLOUR_STYLE = {  # the markers' colours in a terminal
    Colour.YELLOW: "bold yellow",
    Colour.ORANGE: "bold dark_orange",
    Colour.LIGHT_GREEN: "bold green1",
    Colour.WHITE: "bold white",
    Colour.PINK: "bold hot_pink",
    Colour.BLUE: "bold dodger_blue1",
}


def lower(member: enum.Enum) -> str:
    """``LIGHT_GREEN`` -> ``light green``."""
    return member.name.lower().replace("_", " ")


def key(member: enum.Enum) -> str:
    """The key of an enum member's word: ``Colour.LIGHT_GREEN`` -> ``colour.light_green``."""
    return f"{_PREFIX[type(member)]}.{member.name.lower()}"


_PREFIX: dict[type[enum.Enum], str] = {
    Colour: "colour",
    Action: "action",
    Commodity: "commodity",
    Demand: "demand",
    ForumTile: "forum_tile",
    Phase: "phase",
    Pile: "pile",
    Place: "place",
    Reason: "scored_for",
    Payment: "payment",
    ShipKind: "ship_kind",
    BonusKind: "bonus_kind",
}
_WORD = {  # English words of enum members where the member's name is not the word (by key: IntEnums of
    # different types compare equal)
    "action.trajan": "Trajan",
    "place.supply": "the supply",
    "place.work_area": "the work area",
    "place.camp": "the military camp",
    "pile.left": "the left discard pile",
    "pile.right": "the right discard pile",
    "pile.deck": "the draw pile",
    "scored_for.trajan_tile": "a Trajan tile",
    "scored_for.shipment": "a shipment",
    "scored_for.legionnaire": "a legionnaire",
    "scored_for.senate": "the senate",
    "scored_for.construction": "a construction tile",
    "scored_for.unmet_demands": "unmet demands",
    "ship_kind.identical": "identical goods",
    "ship_kind.different": "different goods",
    "ship_kind.pairs": "pairs",
    "payment.trajan_tile": "a kept Trajan tile",
    "payment.forum_tile": "a forum tile",
    "payment.wild_demand": "a wild demand tile",
    "payment.unmet": "unmet",
}
AGAIN = "that action once more (twice with a [+2] marker beside it)"

WORDS: dict[str, str] = {
    **{key(m): _WORD.get(key(m), lower(m)) for kind in _PREFIX for m in kind},
    **{
        f"marker.{c.name.lower()}": f"{'an' if lower(c)[0] in 'aeiou' else 'a'} {lower(c)} marker"
        for c in Colour
    },
    "sep.list": ", ",
    "sep.colours": " + ",
    "sep.and": " & ",
    "sep.then": ", then ",
    "sep.picture": "/",
    "count.item": "{count} {item}",
    "none": "none",
    "markers.none": "no markers",
    "bowl": "bowl {numeral} ({action})",
    "bowl.plain": "bowl {bowl}",
    "slot": "slot {numeral}",
    "slot.off": "off the mat",
    "trajan_tile": "{vp} VP ({colours})",
    "trajan_tile.effect": "{vp} VP + {effect} ({colours})",
    "trajan_tile.unknown": "Trajan tile #{tile}",
    "effect.draw_cards": "draw {amount} cards",
    "effect.workers.one": "{count} worker",
    "effect.workers.other": "{count} workers",
    "effect.legionnaires.one": "{count} legionnaire",
    "effect.legionnaires.other": "{count} legionnaires",
    "effect.plus_two": "a [+2] marker",
    "effect.demand": "{demand} demand, kept",
    "effect.demand.any": "a demand, kept",
    "picture.draw_cards": "cards",
    "picture.victory_points": "VP",
    "picture.workers": "workers",
    "picture.legionnaires": "legionnaires",
    "picture.plus_two": "[+2]",
    "picture.demand": "demands",
    "stack": "stack {stack} ({picture})",
    "stack.plain": "stack {stack}",
    "forum.senate": "senate {votes} votes",
    "forum.extra": "extra {action} action",
    "construction_tile": "{kind} {vp} VP",
    "construction_tile.unknown": "construction tile #{tile}",
    "site": "site {site} (row {row}, column {column})",
    "site.plain": "site {site}",
    "province.camp": "the military camp",
    "province.unknown": "province {province}",
    "ship": "the {kind} ship",
    "ship.unknown": "ship {ship}",
    "ship.values": "{values} VP for 1-{count} cards",
    "ship.values.pairs": "{values} VP for 1-{count} pairs",
    "bonus.unknown": "bonus tile #{tile}",
    "bonus.side": "{yellow}/{grey} VP",
    "bonus.demand": "{demand} demand: {side} for a forum tile of it",
    "bonus.commodities": "{commodities}: {side} per card displayed",
    "bonus.workers": "workers: {side} each on construction sites",
    "bonus.workers.per": "workers: {side} per {per} on construction sites",
    "bonus.legionnaires": "legionnaires: {side} each in a province",
    "bonus.bonus_tiles": "bonus tiles: {side} per tile yellow side up",
    "bonus_short.demand": "{demand} demand",
    "step.choose_bowl": "choose a bowl",
    "step.sow": "sow the markers",
    "step.trajan_effect": "use or decline the Trajan tile's effect",
    "step.action": "the {action} action",
    "step.action.any": "the action",
    "step.discard": "discard a card",
    "step.load_cargo": "load the ship or deliver",
    "step.extra_action": "an extra {action} action",
    "step.extra_action.any": "an extra action",
    # What a forum tile on the mat does (docs/rules/trajan.md: Forum, Demands, Decisions 14 and 30).
    "forum_effect.senate": "its votes count in this quarter's senate scoring, then it leaves the game",
    "forum_effect.demand": "pays one demand of its kind at the quarter's end, then leaves the game",
    "forum_effect.wild_commodity": (
        "stands for any commodity card in a shipment and leaves the game once delivered; unused at "
        "the end, it counts as one card for one commodity bonus tile"
    ),
    "forum_effect.wild_demand": "pays any one demand at the quarter's end, then leaves the game",
    "forum_effect.wild_construction": "fills in for one construction tile of any kind in the final sets",
    "forum_effect.wild_extra_action": f"spent after any action: {AGAIN}",
    "forum_effect.extra_action": f"spent after the {{action}} action: {AGAIN}",
    "explain.trajan_tile": "Trajan tile {tile}: {label}, {stack}",
    "explain.bonus_tile": "Bonus tile {tile}: {label} (yellow/grey side)",
    "explain.province": "{name}: {vp} VP for a legionnaire where no other player's stands; next to {near}",
    "explain.forum_tile": "Forum tile: {label} ({count} of the 70): {effect}",
    "explain.construction": "Construction tile {kind}: the first one brings the {action} action",
    "explain.ship": "{ship}: {yellow} (grey side {grey})",
}
"""The English of the labels' keys (enum words generated from the enums' names)."""


def english_catalog() -> Catalog:
    from services.trajan.texts import TEXTS

    return TEXTS.catalog("en")


@dataclass(frozen=True)
class Labels:
    """Every component of one content, named in the catalog's locale."""

    content: Content
    catalog: Catalog = field(default_factory=english_catalog)

    def t(self, key: str, **values: Any) -> str:
        """The text of ``key`` in this locale."""
        return self.catalog.text(key, **values)

    def word(self, member: enum.Enum) -> str:
        """An enum member's word: a colour, commodity, demand, action, phase, pile, place ..."""
        return self.t(key(member))

    def counted(self, items: Iterable[str]) -> str:
        """``wine, wine, fish`` -> ``2 wine, fish`` (first-seen order); ``none`` when empty."""
        counts = Counter(items)
        parts = [self.t("count.item", count=n, item=item) if n > 1 else item for item, n in counts.items()]
        return self.t("sep.list").join(parts) or self.t("none")

    def commodities(self, cards: Iterable[Commodity]) -> str:
        return self.counted(self.word(c) for c in cards)

    def colours(self, markers: Iterable[Colour]) -> str:
        return self.t("sep.colours").join(self.word(c) for c in markers) or self.t("markers.none")

    def marker(self, colour: Colour) -> str:
        """``a yellow marker``."""
        return self.t(f"marker.{colour.name.lower()}")

    def listed(self, items: Iterable[str]) -> str:
        return self.t("sep.list").join(items)

    # ------------------------------------------------------------ the mat
    def bowl(self, bowl: int) -> str:
        """``bowl IV (senate)``."""
        if not 1 <= bowl <= len(self.content.board.bowls):
            return self.t("bowl.plain", bowl=bowl)
        return self.t("bowl", numeral=NUMERALS[bowl], action=self.action(self.content.board.bowls[bowl - 1]))

    def action(self, action: Action) -> str:
        return self.word(action)

    def slot(self, slot: int) -> str:
        return self.t("slot", numeral=NUMERALS[slot]) if 1 <= slot <= 6 else self.t("slot.off")

    # ------------------------------------------------------------ tiles
    def trajan_tile(self, tile: int) -> str:
        """``9 VP (orange + white)``, ``5 VP + 1 worker (yellow + orange)``."""
        t = self.content.trajan_tile.get(tile)
        if t is None:
            return self.t("trajan_tile.unknown", tile=tile)
        effect = self.trajan_effect(tile)
        colours = self.colours(t.colours)
        if effect:
            return self.t("trajan_tile.effect", vp=t.vp, effect=effect, colours=colours)
        return self.t("trajan_tile", vp=t.vp, colours=colours)

    def trajan_effect(self, tile: int) -> str:
        """What completing the tile does besides its VP (seed (p12)); empty for a plain VP tile."""
        t = self.content.trajan_tile[tile]
        match t.effect:
            case TrajanEffect.DRAW_CARDS:
                return self.t("effect.draw_cards", amount=t.amount)
            case TrajanEffect.WORKERS:
                return self.catalog.plural("effect.workers", t.amount)
            case TrajanEffect.LEGIONNAIRES:
                return self.catalog.plural("effect.legionnaires", t.amount)
            case TrajanEffect.PLUS_TWO:
                return self.t("effect.plus_two")
            case TrajanEffect.DEMAND:
                if t.demand is None:
                    return self.t("effect.demand.any")
                return self.t("effect.demand", demand=self.word(t.demand))
            case TrajanEffect.VICTORY_POINTS:
                return ""

    def trajan_stack(self, stack: int) -> str:
        """A stack by its picture (the effect its tiles share)."""
        kinds = {t.effect for t in self.content.trajan_tiles if t.stack == stack}
        picture = self.t("sep.picture").join(sorted(self.t(f"picture.{k.name.lower()}") for k in kinds))
        return (
            self.t("stack", stack=stack, picture=picture) if picture else self.t("stack.plain", stack=stack)
        )

    def forum_tile(self, tile: ForumTile) -> str:
        """``senate 3 votes``, ``bread``, ``wild commodity``, ``extra senate action``."""
        spec = self.content.forum_tile.get(tile)
        if spec is None:
            return self.word(tile)
        match spec.kind:
            case ForumKind.SENATE:
                return self.t("forum.senate", votes=spec.votes)
            case ForumKind.DEMAND:
                return self.word(spec.demand) if spec.demand else self.word(tile)
            case ForumKind.EXTRA_ACTION:
                return (
                    self.t("forum.extra", action=self.action(spec.action)) if spec.action else self.word(tile)
                )
            case _:
                return self.word(tile)

    def forum_tiles(self, tiles: Iterable[ForumTile]) -> str:
        return self.counted(self.forum_tile(t) for t in tiles)

    def demand(self, demand: Demand) -> str:
        return self.word(demand)

    def kind(self, kind: str) -> str:
        """A construction kind's word (``roof``)."""
        return self.catalog.get(f"construction.{kind}", kind)

    def construction_tile(self, tile: int) -> str:
        """``roof 4 VP``."""
        t = self.content.construction_tile.get(tile)
        if t is None:
            return self.t("construction_tile.unknown", tile=tile)
        return self.t("construction_tile", kind=self.kind(t.kind), vp=t.vp)

    def construction_kind(self, tile: int) -> str:
        t = self.content.construction_tile.get(tile)
        return self.kind(t.kind) if t is not None else "?"

    def site(self, site: int) -> str:
        """``site 7 (row 2, column 2)``."""
        s = self.content.site.get(site)
        if s is None:
            return self.t("site.plain", site=site)
        return self.t("site", site=site, row=s.row, column=s.column)

    def province(self, province: int) -> str:
        p = self.content.province.get(province)
        if p is not None:
            return self.catalog.get(f"province.{p.key}", p.name)
        return self.t("province.camp") if province == 0 else self.t("province.unknown", province=province)

    def province_vp(self, province: int) -> int:
        p = self.content.province.get(province)
        return p.vp if p is not None else 0

    def ship(self, ship: int) -> str:
        """``the identical goods ship``."""
        s = self.content.ship.get(ship)
        return self.t("ship", kind=self.word(s.kind)) if s is not None else self.t("ship.unknown", ship=ship)

    def ship_values(self, ship: int, yellow: bool) -> str:
        """``2/6/12/20 VP for 1-4 cards``."""
        s = self.content.ship[ship]
        values = s.yellow if yellow else s.grey
        which = "ship.values.pairs" if s.kind is ShipKind.PAIRS else "ship.values"
        return self.t(which, values="/".join(str(v) for v in values), count=len(values))

    def bonus_tile(self, tile: int) -> str:
        """``legionnaires: 2 / 1 VP per legionnaire in a province`` (yellow / grey side)."""
        t = self.content.bonus_tile.get(tile)
        if t is None:
            return self.t("bonus.unknown", tile=tile)
        side = self.t("bonus.side", yellow=t.yellow, grey=t.grey)
        match t.kind:
            case BonusKind.DEMAND:
                demand = self.word(t.demand) if t.demand else ""
                return self.t("bonus.demand", demand=demand, side=side)
            case BonusKind.COMMODITIES:
                both = self.t("sep.and").join(self.word(c) for c in t.commodities)
                return self.t("bonus.commodities", commodities=both, side=side)
            case BonusKind.WORKERS:
                if t.per_units > 1:
                    return self.t("bonus.workers.per", side=side, per=t.per_units)
                return self.t("bonus.workers", side=side)
            case BonusKind.LEGIONNAIRES:
                return self.t("bonus.legionnaires", side=side)
            case BonusKind.BONUS_TILES:
                return self.t("bonus.bonus_tiles", side=side)

    def bonus_short(self, tile: int) -> str:
        """``games demand``, ``wine & fish``, ``workers``: what the tile counts."""
        t = self.content.bonus_tile.get(tile)
        if t is None:
            return self.t("bonus.unknown", tile=tile)
        match t.kind:
            case BonusKind.DEMAND:
                return self.t("bonus_short.demand", demand=self.word(t.demand) if t.demand else "")
            case BonusKind.COMMODITIES:
                return self.t("sep.and").join(self.word(c) for c in t.commodities)
            case _:
                return self.word(t.kind)

    def step(self, kind: StepKind, action: Action | None) -> str:
        """An owed step of the turn in words."""
        name = kind.name.lower()
        if kind in (StepKind.ACTION, StepKind.EXTRA_ACTION):
            return (
                self.t(f"step.{name}", action=self.action(action)) if action else self.t(f"step.{name}.any")
            )
        return self.t(f"step.{name}")

    def forum_effect(self, kind: ForumKind, action: Action | None) -> str:
        """What a forum tile on the mat does."""
        if kind is ForumKind.EXTRA_ACTION:
            return self.t("forum_effect.extra_action", action=self.action(action)) if action else ""
        return self.t(f"forum_effect.{kind.name.lower()}")


def explain(labels: Labels, query: str) -> list[str]:
    """Components named by ``query`` (the terminal's ``? NAME``): a Trajan tile (``T19``), a province, a
    bonus tile (``bonus 5``), a forum tile or a construction kind by name, a ship by its kind (in the
    labels' locale, or in English)."""
    c, q = labels.content, " ".join(query.lower().split())
    english = labels if labels.catalog.locale == "en" else Labels(c)
    names = (labels, english) if english is not labels else (labels,)
    t = labels.t

    def named(words: Any) -> bool:
        return bool(q) and any(q in words(x).lower() for x in names)

    out: list[str] = []
    number = q.removeprefix("tile ").removeprefix("t").strip()
    if number.isdigit() and int(number) in c.trajan_tile:
        tile = int(number)
        stack = labels.trajan_stack(c.trajan_tile[tile].stack)
        out.append(t("explain.trajan_tile", tile=tile, label=labels.trajan_tile(tile), stack=stack))
    bonus = q.removeprefix("bonus").strip()
    if q.startswith("bonus") and bonus.isdigit() and int(bonus) in c.bonus_tile:
        out.append(t("explain.bonus_tile", tile=bonus, label=labels.bonus_tile(int(bonus))))
    for p in c.provinces:
        if named(lambda x, p=p: x.province(p.id)):
            near = labels.listed(labels.province(a) for a in p.adjacent)
            out.append(t("explain.province", name=labels.province(p.id), vp=p.vp, near=near))
    for spec in c.forum_tiles:
        if named(lambda x, spec=spec: x.forum_tile(spec.tile)):
            effect = labels.forum_effect(spec.kind, spec.action)
            out.append(
                t("explain.forum_tile", label=labels.forum_tile(spec.tile), count=spec.count, effect=effect)
            )
    for kind in c.construction_kinds:
        if q and any(q == x.kind(kind.name).lower() for x in names):
            action = labels.action(kind.bonus_action)
            out.append(t("explain.construction", kind=labels.kind(kind.name), action=action))
    for ship in c.ships:
        if named(lambda x, ship=ship: x.ship(ship.id)):
            yellow, grey = labels.ship_values(ship.id, True), labels.ship_values(ship.id, False)
            out.append(t("explain.ship", ship=labels.ship(ship.id), yellow=yellow, grey=grey))
    return out
