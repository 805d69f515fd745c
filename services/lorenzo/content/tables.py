"""Public component tables for front-ends, built from the validated content (never from raw YAML).

Views, commands and events name cards, leaders, tiles and board spaces by id; front-ends (the
gateway's ``/content`` route, the terminal client's labels) look the ids up here. The tables are
keyed by file and list, like the YAML files, and each record is written back in the files' own
schema: the same keys, enum names in lower case, goods as ``{good: amount}`` with zero amounts
and default values left out, just as the files leave them out::

    {"cards": {"cards": [{"id": 1, "name": "Commercial Hub", "type": "territory", "period": 1,
                          "harvest": {"value": 1, "gain": {"coins": 1}}}, ...]},
     "leaders": {"leaders": [...]}, "excommunications": {"tiles": [...]},
     "bonus_tiles": {"tiles": [...]}, "board": {"spaces": [...], "privileges": [{...}, ...]}}

Everything is plain JSON (dicts, lists, str, int, bool). The one thing the content cannot give
back is the order of a leader's ``requires.cards`` keys: they come in card-type order.
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar, assert_never

from services.lorenzo.content.schema import ABILITY_FIELDS, PENALTY_FIELDS
from services.lorenzo.rules.content_types import (
    BonusTile,
    Card,
    CardType,
    Content,
    Cost,
    ExcommunicationTile,
    Gain,
    Immediate,
    ImmediateKind,
    Leader,
    Production,
    Space,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods

E = TypeVar("E", bound=enum.Enum)
Record = dict[str, Any]
Tables = dict[str, dict[str, list[Any]]]


def content_tables() -> Tables:
    """The tables of the packaged content (for the game manifest's ``content_tables``); a fresh
    copy each call, built from the content loaded once per process."""
    from services.lorenzo.content import load_content

    return tables(load_content())


def tables(content: Content) -> Tables:
    """Every component of ``content`` as a JSON-ready record, keyed by file and list."""
    return {
        "board": {
            "spaces": [space(s) for s in content.board.spaces],
            "privileges": [goods(p) for p in content.board.privileges],  # in printed order
        },
        "bonus_tiles": {"tiles": [bonus_tile(t) for t in content.bonus_tiles]},
        "cards": {"cards": [card(c) for c in content.cards]},
        "excommunications": {"tiles": [excommunication(t) for t in content.excommunications]},
        "leaders": {"leaders": [leader(x) for x in content.leaders]},
    }


def name(member: enum.Enum) -> str:
    return member.name.lower()


def goods(g: Goods) -> Record:
    """``{"coins": 2, "wood": 1}``: only the goods there are."""
    return {k: getattr(g, k) for k in GOODS_FIELDS if getattr(g, k)}


def gain(g: Gain) -> Record:
    """Goods plus ``privileges: N`` when there are council privileges to take."""
    return goods(g.goods) | ({"privileges": g.privileges} if g.privileges else {})


def card(c: Card) -> Record:
    out: Record = {"id": c.id, "name": c.name, "type": name(c.card_type), "period": c.period}
    if c.costs:
        out["costs"] = [cost(x) for x in c.costs]
    if c.immediate:
        out["immediate"] = [immediate(e) for e in c.immediate]
    if c.harvest:
        out["harvest"] = {"value": c.harvest.value, "gain": gain(c.harvest.gain)}
    if c.production:
        out["production"] = production(c.production)
    if c.action_bonus:
        b = c.action_bonus
        out["action_bonus"] = {"action": name(b.action), "value": b.value}
        if b.discounts:
            out["action_bonus"]["discount"] = [goods(d) for d in b.discounts]
    if c.no_floor_bonus:
        out["no_floor_bonus"] = True
    if c.end_victory:
        out["end_victory"] = c.end_victory
    return out


def cost(c: Cost) -> Record:
    out: Record = {"pay": goods(c.pay)}
    if c.require_military:
        out["require_military"] = c.require_military
    return out


def immediate(e: Immediate) -> Record:
    match e.kind:
        case ImmediateKind.GAIN:
            return {"gain": gain(e.gain)}
        case ImmediateKind.GAIN_PER_CARD:
            return {"gain_per_card": goods(e.gain.goods), "per": name(_given(e.card_type))}
        case ImmediateKind.GAIN_PER_MILITARY:
            return {"gain_per": goods(e.gain.goods), "every_military": e.value}
        case ImmediateKind.TAKE_CARD:
            take: Record = {"type": name(e.card_type) if e.card_type else "any", "value": e.value}
            if not e.discount.is_zero:
                take["discount"] = goods(e.discount)
            return {"take_card": take}
        case ImmediateKind.HARVEST:
            return {"harvest": e.value}
        case ImmediateKind.PRODUCTION:
            return {"production": e.value}
        case _:
            assert_never(e.kind)


def production(p: Production) -> Record:
    out: Record = {"value": p.value}
    if p.gain.privileges or not p.gain.goods.is_zero:
        out["gain"] = gain(p.gain)
    if p.per_card is not None:
        out["gain_per_card"] = goods(p.per_card_gain)
        out["per"] = name(p.per_card)
    if p.exchanges:
        out["exchange"] = [{"pay": goods(x.pay), "gain": gain(x.gain)} for x in p.exchanges]
    return out


def leader(x: Leader) -> Record:
    r = x.requirement
    requires: Record = {}
    cards = {name(t): n for t, n in zip(CardType, r.cards, strict=True) if n}
    if cards:
        requires["cards"] = cards
    if r.same_type:
        requires["same_type"] = r.same_type
    if not r.goods.is_zero:
        requires["goods"] = goods(r.goods)
    ability: Record = {"kind": name(x.ability)}
    for key in ABILITY_FIELDS[x.ability]:
        ability[key] = gain(x.gain) if key == "gain" else x.value
    return {
        "id": x.id,
        "name": x.name,
        "requires": requires,
        "once_per_round": x.once_per_round,
        "ability": ability,
    }


def excommunication(t: ExcommunicationTile) -> Record:
    penalty: Record = {"kind": name(t.penalty)}
    for key in PENALTY_FIELDS[t.penalty]:
        if key == "goods":
            penalty[key] = goods(t.goods)
        elif key == "action":
            penalty[key] = name(_given(t.action))
        elif key == "type":
            penalty[key] = name(_given(t.card_type))
        else:  # "value" or "every"
            penalty[key] = t.value
    return {"id": t.id, "code": t.code, "period": t.period, "penalty": penalty}


def bonus_tile(t: BonusTile) -> Record:
    return {
        "id": t.id,
        "name": t.name,
        "advanced": t.advanced,
        "harvest": goods(t.harvest),
        "production": goods(t.production),
    }


def space(s: Space) -> Record:
    out: Record = {"id": s.id, "kind": name(s.kind)}
    if s.tower is not None:
        out["tower"] = name(s.tower)
    if s.floor:
        out["floor"] = s.floor
    out["value"] = s.value
    if s.bonus.privileges or not s.bonus.goods.is_zero:
        out["bonus"] = gain(s.bonus)
    if s.capacity != 1:
        out["capacity"] = s.capacity  # 0 = unlimited
    if s.min_players != 2:
        out["min_players"] = s.min_players
    if s.modifier:
        out["modifier"] = s.modifier
    return out


def _given(value: E | None) -> E:
    """A value the schema requires for this kind of record (``schema.py``)."""
    assert value is not None, "validated content has it"
    return value
