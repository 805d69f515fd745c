"""Public component tables for front-ends, built from the validated content (never from raw YAML).

Views, commands and events name workshops, characters, art works and Life in Florenza cards by id;
front-ends (the gateway's ``GET /content/florenza``, the spectator page's module) look the ids up
here. The tables are keyed by file and list, like the YAML files; enums are lower-case names, goods
and rewards ``{key: amount}`` with zero amounts left out::

    {"workshops": {"workshops": [{"id": 3, "name": "Boscaiuolo", "copies": 3, "starting": true,
                                  "cost": {"marble": 1, "metal": 1}, "build_prestige": 0,
                                  "effect": {"kind": "gain", "gain": {"wood": 1}}}, ...]},
     "artists": {"artists": [...]}, "preachers": {"preachers": [...]},
     "artworks": {"works": [...]}, "life": {"cards": [...]}, "board": {...}}

Everything is plain JSON (dicts, lists, str, int, bool). Provenance is left out: it is the data's
audit trail (``tabula content``, docs/rules/florenza.md), not something a player sees.
"""

from __future__ import annotations

from typing import Any

from services.florenza.rules.content_types import (
    Artist,
    ArtWork,
    Board,
    Content,
    LifeCard,
    Preacher,
    Reward,
    SkillRow,
    Workshop,
)
from services.florenza.rules.goods import GOODS_FIELDS, Goods

Record = dict[str, Any]
Tables = dict[str, dict[str, Any]]


def content_tables() -> Tables:
    """The tables of the packaged content (the manifest's ``content_tables``)."""
    from services.florenza.content import load_content

    return tables(load_content())


def tables(content: Content) -> Tables:
    return {
        "board": {"board": board(content.board)},
        "workshops": {"workshops": [workshop(w) for w in content.workshops]},
        "artists": {"artists": [artist(a) for a in content.artists]},
        "preachers": {"preachers": [preacher(p) for p in content.preachers]},
        "artworks": {"works": [work(w) for w in content.works]},
        "life": {"cards": [life(c) for c in content.life]},
    }


def goods(g: Goods) -> Record:
    return {k: getattr(g, k) for k in GOODS_FIELDS if getattr(g, k)}


def reward(r: Reward) -> Record:
    extra = {"prestige": r.prestige, "church": r.church, "workers": r.workers}
    return goods(r.goods) | {k: v for k, v in extra.items() if v}


def workshop(w: Workshop) -> Record:
    effect: Record = {"kind": w.effect.kind.name.lower(), "gain": reward(w.effect.gain)}
    if not w.effect.pay.is_empty:
        effect["pay"] = reward(w.effect.pay)
    return {
        "id": w.id,
        "name": w.name,
        "copies": w.copies,
        "starting": w.starting,
        "cost": goods(w.cost),
        "build_prestige": w.build_prestige,
        "effect": effect,
    }


def _row(r: SkillRow) -> Record:
    return {
        "skill": r.skill.name.lower(),
        "fee": r.fee,
        "faces": [{"prestige": f.prestige, **({"church": f.church} if f.church else {})} for f in r.faces],
        "masterpiece_faces": list(r.masterpiece_faces),
        "masterpiece": r.masterpiece,
    }


def artist(a: Artist) -> Record:
    return {
        "id": a.id,
        "name": a.name,
        "mark": a.mark,
        "anonymous": a.anonymous,
        "skills": [_row(r) for r in a.rows],
    }


def preacher(p: Preacher) -> Record:
    return {
        "id": p.id,
        "name": p.name,
        "mark": p.mark,
        "anonymous": p.anonymous,
        "offering": p.offering,
        "faces": list(p.faces),
    }


def work(w: ArtWork) -> Record:
    out: Record = {
        "id": w.id,
        "name": w.name,
        "area": w.area.name.lower(),
        "skills": [s.name.lower() for s in w.skills],
        "cost": goods(w.cost),
        "reward": reward(w.reward),
    }
    if w.building:
        out["building"] = w.building
    if not w.income.is_empty:
        out["income"] = reward(w.income)
    return out


def life(c: LifeCard) -> Record:
    return {"number": c.number, "name": c.name, "anonymous": list(c.anonymous)}


def board(b: Board) -> Record:
    """The numbers a player reads off the boards: families, rounds, district spaces, the market's rates
    and the income die."""
    return {
        "families": list(b.families),
        "rounds": b.rounds,
        "district_slots": b.district_slots,
        "market_sell": b.market_sell,
        "market_buy": b.market_buy,
        "market_exchange_give": b.market_exchange_give,
        "income_die": [r.name.lower() for r in b.income_die],
    }
