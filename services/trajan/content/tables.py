"""Public component tables for front-ends, built from the validated content (never from raw YAML).

Views, commands and events name Trajan tiles, construction tiles, provinces, sites, ships and bonus
tiles by id and forum tiles by enum; front-ends (the gateway's ``GET /content/trajan``, the spectator
page's module) look them up here. The tables are keyed by file and list, like the YAML files; enum
values are written by their lower-case names, as the files write them::

    {"trajan_tiles": {"tiles": [{"id": 1, "stack": 1, "colours": ["orange", "orange"], "vp": 3,
                                 "effect": "draw_cards", "amount": 2}, ...]},
     "provinces": {"provinces": [{"id": 1, "name": "Alpes", "vp": 3, "adjacent": [2, 4, 5, 6]}, ...]},
     "construction": {"tiles": [...], "kinds": [...]}, "ships": {"ships": [...]},
     "bonus_tiles": {"tiles": [...]}, "forum_tiles": {"forum_tiles": [...]},
     "board": {"bowls": [...], "senate_track": [...], "sites": [...], ...}}

Everything is plain JSON (dicts, lists, str, int, bool).
"""

from __future__ import annotations

import enum
from typing import Any

from services.trajan.rules.content_types import (
    BonusTile,
    Content,
    ForumTileSpec,
    Province,
    Ship,
    TrajanTile,
)

Record = dict[str, Any]
Tables = dict[str, dict[str, list[Any]]]


def content_tables() -> Tables:
    """The tables of the packaged content (for the game manifest's ``content_tables``)."""
    from services.trajan.content import load_content

    return tables(load_content())


def tables(content: Content) -> Tables:
    """Every component of ``content`` as a JSON-ready record, keyed by file and list."""
    b = content.board
    return {
        "board": {
            "bowls": [name(a) for a in b.bowls],  # bowl I..VI
            "colours": [name(c) for c in b.colours],
            "senate_track": list(b.senate_track),  # votes and VP per space, 0 = start
            "time_track": [{"players": n, "spaces": spaces} for n, spaces in b.time_track],
            "sites": [{"id": s.id, "row": s.row, "column": s.column} for s in b.sites],
            "camp_exits": list(b.camp_exits),
        },
        "trajan_tiles": {"tiles": [trajan_tile(t) for t in content.trajan_tiles]},
        "forum_tiles": {"forum_tiles": [forum_tile(t) for t in content.forum_tiles]},
        "construction": {
            "kinds": [
                {"kind": k.name, "bonus_action": name(k.bonus_action)} for k in content.construction_kinds
            ],
            "tiles": [{"id": t.id, "kind": t.kind, "vp": t.vp} for t in content.construction_tiles],
        },
        "provinces": {"provinces": [province(p) for p in content.provinces]},
        "ships": {"ships": [ship(s) for s in content.ships]},
        "bonus_tiles": {"tiles": [bonus_tile(t) for t in content.bonus_tiles]},
    }


def name(member: enum.Enum) -> str:
    return member.name.lower()


def trajan_tile(t: TrajanTile) -> Record:
    out: Record = {
        "id": t.id,
        "stack": t.stack,
        "colours": [name(c) for c in t.colours],
        "vp": t.vp,
        "effect": name(t.effect),
    }
    if t.amount:
        out["amount"] = t.amount
    if t.demand is not None:
        out["demand"] = name(t.demand)
    return out


def forum_tile(t: ForumTileSpec) -> Record:
    out: Record = {"tile": name(t.tile), "kind": name(t.kind), "count": t.count}
    if t.votes:
        out["votes"] = t.votes
    if t.demand is not None:
        out["demand"] = name(t.demand)
    if t.action is not None:
        out["action"] = name(t.action)
    return out


def province(p: Province) -> Record:
    return {"id": p.id, "key": p.key, "name": p.name, "vp": p.vp, "adjacent": list(p.adjacent)}


def ship(s: Ship) -> Record:
    return {"id": s.id, "kind": name(s.kind), "yellow": list(s.yellow), "grey": list(s.grey)}


def bonus_tile(t: BonusTile) -> Record:
    out: Record = {"id": t.id, "kind": name(t.kind), "yellow": t.yellow, "grey": t.grey}
    if t.per_units != 1:
        out["per_units"] = t.per_units
    if t.demand is not None:
        out["demand"] = name(t.demand)
    if t.commodities:
        out["commodities"] = [name(c) for c in t.commodities]
    return out
