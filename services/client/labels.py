"""Names for the ids in views, commands and events, read from a game's YAML content.

Views name cards, leaders, tiles and board spaces by id. :func:`labels_for` builds a
:class:`Labels` from the game's content package (``services/<game>/content/*.yaml``): the
component tables the gateway serves (``services.content_labels.component_tables``) plus a few
nested facts a player needs to choose (card costs, production exchanges, tile bonuses, leader
requirements, excommunication penalties). Unknown ids fall back to ``#id``; a game without
content gets empty tables, so every function here still answers.
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from services.content_labels import component_tables

GOODS_ORDER = ("coins", "wood", "stone", "servants", "military", "faith", "victory", "privileges")
GOODS_SHORT = {
    "coins": "coin",
    "wood": "wood",
    "stone": "stone",
    "servants": "servant",
    "military": "military",
    "faith": "faith",
    "victory": "VP",
    "privileges": "privilege",
}


def goods_text(goods: Mapping[str, Any]) -> str:
    """``{"coins": 3, "wood": 1}`` -> ``"3 coins, 1 wood"``; zero amounts are left out."""
    parts = []
    for key in (*GOODS_ORDER, *sorted(set(goods) - set(GOODS_ORDER))):
        amount = goods.get(key, 0)
        if isinstance(amount, int) and amount:
            unit = GOODS_SHORT.get(key, key)
            plural = "s" if abs(amount) != 1 and unit in ("coin", "servant", "privilege") else ""
            parts.append(f"{amount} {unit}{plural}")
    return ", ".join(parts) or "nothing"


def _raw_content(game: str) -> dict[str, Any]:
    try:
        folder = importlib.resources.files(f"services.{game}.content")
    except ModuleNotFoundError:
        return {}
    out: dict[str, Any] = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".yaml"):
            out[entry.name.removesuffix(".yaml")] = yaml.safe_load(entry.read_text(encoding="utf-8"))
    return out


def _by_id(records: Any) -> dict[int, dict[str, Any]]:
    if not isinstance(records, list):
        return {}
    return {int(r["id"]): r for r in records if isinstance(r, dict) and "id" in r}


@dataclass(frozen=True)
class Labels:
    """id -> record tables of one game, with helpers that never fail on an unknown id."""

    game: str
    cards: dict[int, dict[str, Any]] = field(default_factory=dict)
    leaders: dict[int, dict[str, Any]] = field(default_factory=dict)
    bonus_tiles: dict[int, dict[str, Any]] = field(default_factory=dict)
    excommunications: dict[int, dict[str, Any]] = field(default_factory=dict)
    spaces: dict[int, dict[str, Any]] = field(default_factory=dict)
    privileges: tuple[dict[str, Any], ...] = ()

    # ------------------------------------------------------------ names
    def card(self, card_id: int) -> str:
        if not card_id:
            return "-"
        record = self.cards.get(card_id)
        return str(record["name"]) if record and "name" in record else f"card #{card_id}"

    def card_type(self, card_id: int) -> str:
        return str(self.cards.get(card_id, {}).get("type", ""))

    def leader(self, leader_id: int) -> str:
        record = self.leaders.get(leader_id)
        return str(record["name"]) if record and "name" in record else f"leader #{leader_id}"

    def bonus_tile(self, tile_id: int) -> str:
        record = self.bonus_tiles.get(tile_id)
        if not record:
            return f"tile #{tile_id}"
        bonus = [
            f"{k} {goods_text(record[k])}"
            for k in ("harvest", "production")
            if isinstance(record.get(k), dict)
        ]
        return f"tile {record.get('name', tile_id)}" + (f" ({'; '.join(bonus)})" if bonus else "")

    def excommunication(self, tile_id: int) -> str:
        record = self.excommunications.get(tile_id)
        if not record:
            return f"excommunication #{tile_id}"
        penalty = record.get("penalty") or {}
        details = [
            f"{k} {goods_text(v) if isinstance(v, dict) else v}" for k, v in penalty.items() if k != "kind"
        ]
        kind = str(penalty.get("kind", "")).replace("_", " ")
        text = kind + (f" ({', '.join(details)})" if details else "")
        return f"{record.get('code', tile_id)}: {text}".rstrip(": ")

    def space(self, space_id: int) -> str:
        """``"territory tower floor 2 (3)"``, ``"market: 5 coins"``, ``"council palace"`` ..."""
        record = self.spaces.get(space_id)
        if not record:
            return f"space #{space_id}"
        kind = str(record.get("kind", "space"))
        if kind == "tower":
            floor, value = record.get("floor", "?"), record.get("value", "?")
            return f"{record.get('tower', '')} tower floor {floor} ({value})"
        name = {"council": "council palace"}.get(kind, kind)
        if record.get("modifier"):
            name = f"{name} (large, {record['modifier']:+d})"
        bonus = record.get("bonus")
        if kind == "market" and isinstance(bonus, dict):
            name = f"{name}: {goods_text(bonus)}"
        return name

    def space_kind(self, space_id: int) -> str:
        return str(self.spaces.get(space_id, {}).get("kind", ""))

    def tower_space(self, space_id: int) -> tuple[str, int] | None:
        """(tower, floor) of a tower space, else None."""
        record = self.spaces.get(space_id, {})
        if record.get("kind") != "tower":
            return None
        return str(record.get("tower", "")), int(record.get("floor", 0))

    def privilege(self, index: int) -> str:
        """Privilege number 1.. (printed order) -> its goods."""
        if 1 <= index <= len(self.privileges):
            return goods_text(self.privileges[index - 1])
        return f"privilege #{index}"

    # ------------------------------------------------------------ costs and exchanges
    def costs(self, card_id: int) -> list[str]:
        """The card's cost alternatives, readable (``[]`` for a free card)."""
        out = []
        for alt in self.cards.get(card_id, {}).get("costs") or []:
            text = goods_text(alt.get("pay") or {})
            if alt.get("require_military"):
                text += f" (needs {alt['require_military']} military)"
            out.append(text)
        return out

    def exchange(self, card_id: int, option: int) -> str:
        """Production exchange ``option`` (1-based) of a card: ``"pay 1 wood -> 3 coins"``."""
        production = self.cards.get(card_id, {}).get("production") or {}
        alts = production.get("exchange") or []
        if 1 <= option <= len(alts):
            alt = alts[option - 1]
            return f"pay {goods_text(alt.get('pay') or {})} -> {goods_text(alt.get('gain') or {})}"
        return f"option {option}"

    def requirement(self, leader_id: int) -> str:
        requires = self.leaders.get(leader_id, {}).get("requires") or {}
        parts = []
        if isinstance(requires.get("cards"), dict):
            parts.append(", ".join(f"{n} {t}" for t, n in requires["cards"].items()) + " cards")
        if requires.get("same_type"):
            parts.append(f"{requires['same_type']} cards of one type")
        if isinstance(requires.get("goods"), dict):
            parts.append(goods_text(requires["goods"]))
        return "; ".join(parts)


@functools.cache
def labels_for(game: str) -> Labels:
    """Labels of one game from its content package (empty tables if it has none)."""
    try:
        tables = component_tables(game)
    except KeyError:
        return Labels(game)
    raw = _raw_content(game)

    def merged(file: str, key: str) -> dict[int, dict[str, Any]]:
        full = _by_id((raw.get(file) or {}).get(key))
        for record in tables.get(file, {}).get(key, []):
            full.setdefault(int(record["id"]), {}).update(record)
        return full

    privileges = (raw.get("board") or {}).get("privileges") or []
    return Labels(
        game=game,
        cards=merged("cards", "cards"),
        leaders=merged("leaders", "leaders"),
        bonus_tiles=merged("bonus_tiles", "tiles"),
        excommunications=merged("excommunications", "tiles"),
        spaces=merged("board", "spaces"),
        privileges=tuple(p for p in privileges if isinstance(p, dict)),
    )
