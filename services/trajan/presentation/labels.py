"""Names of Trajan's components in words, from the validated content: what the board and the
wording of commands and events call a tile, a province, a site, a ship or a bowl.

Ids and enums come from views, commands and events; every number printed here (VP, votes, ship
values, effects) is read from the content, never written twice.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

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
PLACE = {Place.SUPPLY: "the supply", Place.WORK_AREA: "the work area", Place.CAMP: "the military camp"}
PILE = {Pile.LEFT: "the left discard pile", Pile.RIGHT: "the right discard pile", Pile.DECK: "the draw pile"}
REASON = {
    Reason.TRAJAN_TILE: "a Trajan tile",
    Reason.SHIPMENT: "a shipment",
    Reason.LEGIONNAIRE: "a legionnaire",
    Reason.SENATE: "the senate",
    Reason.CONSTRUCTION: "a construction tile",
    Reason.UNMET_DEMANDS: "unmet demands",
}
SHIP_KIND = {
    ShipKind.IDENTICAL: "identical goods",
    ShipKind.DIFFERENT: "different goods",
    ShipKind.PAIRS: "pairs",
}
PAYMENT = {
    Payment.TRAJAN_TILE: "a kept Trajan tile",
    Payment.FORUM_TILE: "a forum tile",
    Payment.WILD_DEMAND: "a wild demand tile",
    Payment.UNMET: "unmet",
}


def lower(member: enum.Enum) -> str:
    """``LIGHT_GREEN`` -> ``light green``."""
    return member.name.lower().replace("_", " ")


def counted(items: Iterable[str]) -> str:
    """``wine, wine, fish`` -> ``2 wine, fish`` (first-seen order); ``none`` when empty."""
    counts = Counter(items)
    return ", ".join(f"{n} {item}" if n > 1 else item for item, n in counts.items()) or "none"


def commodities(cards: Iterable[Commodity]) -> str:
    return counted(lower(c) for c in cards)


def colours(markers: Iterable[Colour]) -> str:
    return " + ".join(lower(c) for c in markers) or "no markers"


def phase(p: Phase) -> str:
    return lower(p)


@dataclass(frozen=True)
class Labels:
    """Every component of one content, named."""

    content: Content

    # ------------------------------------------------------------ the mat
    def bowl(self, bowl: int) -> str:
        """``bowl IV (senate)``."""
        if not 1 <= bowl <= len(self.content.board.bowls):
            return f"bowl {bowl}"
        return f"bowl {NUMERALS[bowl]} ({self.action(self.content.board.bowls[bowl - 1])})"

    def action(self, action: Action) -> str:
        return "Trajan" if action is Action.TRAJAN else lower(action)

    def slot(self, slot: int) -> str:
        return f"slot {NUMERALS[slot]}" if 1 <= slot <= 6 else "off the mat"

    # ------------------------------------------------------------ tiles
    def trajan_tile(self, tile: int) -> str:
        """``9 VP (orange + white)``, ``5 VP + 1 worker (yellow + orange)``."""
        t = self.content.trajan_tile.get(tile)
        if t is None:
            return f"Trajan tile #{tile}"
        effect = self.trajan_effect(tile)
        return f"{t.vp} VP{' + ' + effect if effect else ''} ({colours(t.colours)})"

    def trajan_effect(self, tile: int) -> str:
        """What completing the tile does besides its VP (seed (p12)); empty for a plain VP tile."""
        t = self.content.trajan_tile[tile]
        match t.effect:
            case TrajanEffect.DRAW_CARDS:
                return f"draw {t.amount} cards"
            case TrajanEffect.WORKERS:
                return f"{t.amount} worker{'s' if t.amount > 1 else ''}"
            case TrajanEffect.LEGIONNAIRES:
                return f"{t.amount} legionnaire{'s' if t.amount > 1 else ''}"
            case TrajanEffect.PLUS_TWO:
                return "a [+2] marker"
            case TrajanEffect.DEMAND:
                return f"{lower(t.demand) if t.demand else 'a'} demand, kept"
            case TrajanEffect.VICTORY_POINTS:
                return ""

    def trajan_stack(self, stack: int) -> str:
        """A stack by its picture (the effect its tiles share)."""
        kinds = {t.effect for t in self.content.trajan_tiles if t.stack == stack}
        names = {
            TrajanEffect.DRAW_CARDS: "cards",
            TrajanEffect.VICTORY_POINTS: "VP",
            TrajanEffect.WORKERS: "workers",
            TrajanEffect.LEGIONNAIRES: "legionnaires",
            TrajanEffect.PLUS_TWO: "[+2]",
            TrajanEffect.DEMAND: "demands",
        }
        picture = "/".join(sorted(names[k] for k in kinds))
        return f"stack {stack} ({picture})" if picture else f"stack {stack}"

    def forum_tile(self, tile: ForumTile) -> str:
        """``senate 3 votes``, ``bread``, ``wild commodity``, ``extra senate action``."""
        spec = self.content.forum_tile.get(tile)
        if spec is None:
            return lower(tile)
        match spec.kind:
            case ForumKind.SENATE:
                return f"senate {spec.votes} votes"
            case ForumKind.DEMAND:
                return lower(spec.demand) if spec.demand else lower(tile)
            case ForumKind.EXTRA_ACTION:
                return f"extra {self.action(spec.action)} action" if spec.action else lower(tile)
            case _:
                return lower(tile)

    def forum_tiles(self, tiles: Iterable[ForumTile]) -> str:
        return counted(self.forum_tile(t) for t in tiles)

    def demand(self, demand: Demand) -> str:
        return lower(demand)

    def construction_tile(self, tile: int) -> str:
        """``roof 4 VP``."""
        t = self.content.construction_tile.get(tile)
        return f"{t.kind} {t.vp} VP" if t is not None else f"construction tile #{tile}"

    def construction_kind(self, tile: int) -> str:
        t = self.content.construction_tile.get(tile)
        return t.kind if t is not None else "?"

    def site(self, site: int) -> str:
        """``site 7 (row 2, column 2)``."""
        s = self.content.site.get(site)
        return f"site {site} (row {s.row}, column {s.column})" if s is not None else f"site {site}"

    def province(self, province: int) -> str:
        p = self.content.province.get(province)
        return p.name if p is not None else ("the military camp" if province == 0 else f"province {province}")

    def province_vp(self, province: int) -> int:
        p = self.content.province.get(province)
        return p.vp if p is not None else 0

    def ship(self, ship: int) -> str:
        """``the identical goods ship``."""
        s = self.content.ship.get(ship)
        return f"the {SHIP_KIND[s.kind]} ship" if s is not None else f"ship {ship}"

    def ship_values(self, ship: int, yellow: bool) -> str:
        """``2/6/12/20 VP for 1-4 cards``."""
        s = self.content.ship[ship]
        values = s.yellow if yellow else s.grey
        unit = "pairs" if s.kind is ShipKind.PAIRS else "cards"
        return f"{'/'.join(str(v) for v in values)} VP for 1-{len(values)} {unit}"

    def bonus_tile(self, tile: int) -> str:
        """``legionnaires: 2 / 1 VP per legionnaire in a province`` (yellow / grey side)."""
        t = self.content.bonus_tile.get(tile)
        if t is None:
            return f"bonus tile #{tile}"
        side = f"{t.yellow}/{t.grey} VP"
        match t.kind:
            case BonusKind.DEMAND:
                return f"{lower(t.demand) if t.demand else ''} demand: {side} for a forum tile of it"
            case BonusKind.COMMODITIES:
                return f"{' & '.join(lower(c) for c in t.commodities)}: {side} per card displayed"
            case BonusKind.WORKERS:
                per = f" per {t.per_units}" if t.per_units > 1 else " each"
                return f"workers: {side}{per} on construction sites"
            case BonusKind.LEGIONNAIRES:
                return f"legionnaires: {side} each in a province"
            case BonusKind.BONUS_TILES:
                return f"bonus tiles: {side} per tile yellow side up"

    def bonus_short(self, tile: int) -> str:
        """``games demand``, ``wine & fish``, ``workers``: what the tile counts."""
        t = self.content.bonus_tile.get(tile)
        if t is None:
            return f"bonus tile #{tile}"
        match t.kind:
            case BonusKind.DEMAND:
                return f"{lower(t.demand) if t.demand else ''} demand"
            case BonusKind.COMMODITIES:
                return " & ".join(lower(c) for c in t.commodities)
            case _:
                return lower(t.kind)

    def step(self, kind: StepKind, action: Action | None) -> str:
        """An owed step of the turn in words."""
        match kind:
            case StepKind.CHOOSE_BOWL:
                return "choose a bowl"
            case StepKind.SOW:
                return "sow the markers"
            case StepKind.TRAJAN_EFFECT:
                return "use or decline the Trajan tile's effect"
            case StepKind.ACTION:
                return f"the {self.action(action)} action" if action else "the action"
            case StepKind.DISCARD:
                return "discard a card"
            case StepKind.LOAD_CARGO:
                return "load the ship or deliver"
            case StepKind.EXTRA_ACTION:
                return f"an extra {self.action(action)} action" if action else "an extra action"


AGAIN = "that action once more (twice with a [+2] marker beside it)"
# What a forum tile on the mat does (docs/rules/trajan.md: Forum, Demands, Decisions 14 and 30).
FORUM_EFFECTS = {
    ForumKind.SENATE: "its votes count in this quarter's senate scoring, then it leaves the game",
    ForumKind.DEMAND: "pays one demand of its kind at the quarter's end, then leaves the game",
    ForumKind.WILD_COMMODITY: (
        "stands for any commodity card in a shipment and leaves the game once delivered; unused at "
        "the end, it counts as one card for one commodity bonus tile"
    ),
    ForumKind.WILD_DEMAND: "pays any one demand at the quarter's end, then leaves the game",
    ForumKind.WILD_CONSTRUCTION: "fills in for one construction tile of any kind in the final sets",
    ForumKind.WILD_EXTRA_ACTION: f"spent after any action: {AGAIN}",
}


def forum_effect(labels: Labels, kind: ForumKind, action: Action | None) -> str:
    if kind is ForumKind.EXTRA_ACTION and action is not None:
        return f"spent after the {labels.action(action)} action: {AGAIN}"
    return FORUM_EFFECTS.get(kind, "")


def explain(labels: Labels, query: str) -> list[str]:
    """Components named by ``query`` (the terminal's ``? NAME``): a Trajan tile (``T19``), a province, a
    bonus tile (``bonus 5``), a forum tile or a construction kind by name, a ship by its kind."""
    c, q = labels.content, " ".join(query.lower().split())
    out: list[str] = []
    number = q.removeprefix("tile ").removeprefix("t").strip()
    if number.isdigit() and int(number) in c.trajan_tile:
        tile = int(number)
        stack = labels.trajan_stack(c.trajan_tile[tile].stack)
        out.append(f"Trajan tile {tile}: {labels.trajan_tile(tile)}, {stack}")
    bonus = q.removeprefix("bonus").strip()
    if q.startswith("bonus") and bonus.isdigit() and int(bonus) in c.bonus_tile:
        out.append(f"Bonus tile {bonus}: {labels.bonus_tile(int(bonus))} (yellow/grey side)")
    for p in c.provinces:
        if q and q in p.name.lower():
            near = ", ".join(labels.province(a) for a in p.adjacent)
            out.append(
                f"{p.name}: {p.vp} VP for a legionnaire where no other player's stands; next to {near}"
            )
    for spec in c.forum_tiles:
        if q and q in labels.forum_tile(spec.tile).lower():
            effect = forum_effect(labels, spec.kind, spec.action)
            out.append(f"Forum tile: {labels.forum_tile(spec.tile)} ({spec.count} of the 70): {effect}")
    for kind in c.construction_kinds:
        if q == kind.name:
            action = labels.action(kind.bonus_action)
            out.append(f"Construction tile {kind.name}: the first one brings the {action} action")
    for ship in c.ships:
        if q and q in labels.ship(ship.id).lower():
            grey = labels.ship_values(ship.id, False)
            out.append(f"{labels.ship(ship.id)}: {labels.ship_values(ship.id, True)} (grey side {grey})")
    return out
