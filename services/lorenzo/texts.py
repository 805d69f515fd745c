"""Lorenzo's components in English, one wording for every front-end: the ``text`` fields of
GetContent (:func:`content_message`: the content's own records with their texts) and the terminal
client's board, steps and ``? NAME`` look-up (``presentation/``).

Generated from the validated content (``Content``, the records the rules read), so a text cannot
drift from the rules. One function per kind of component or effect; what each effect means is the
rules' (docs/rules/lorenzo.md): an immediate effect happens once, in printed order, when the card is
taken; harvest and production effects fire in actions of at least their value; requirements are
owned, not paid; excommunication names use the printed code (``I/5`` for ``1_5``).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import assert_never

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionBonus,
    ActionKind,
    Board,
    BonusTile,
    Card,
    CardType,
    Content,
    Cost,
    ExcommunicationTile,
    Gain,
    Harvest,
    Immediate,
    ImmediateKind,
    Leader,
    LeaderRequirement,
    PenaltyKind,
    Production,
    Space,
    SpaceKind,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, ZERO, Goods
from services.lorenzo.rules.model import Privilege
from shared.core.wire import message, pb

# Singular units; coins, servants and privileges take an "s" (``3 coins``), the others do not.
UNITS = {"victory": "VP", "privileges": "privilege"}
PLURAL = ("coins", "servants", "privileges")
ROMAN = {1: "I", 2: "II", 3: "III"}

ACTIONS = {
    ActionKind.TAKE_TERRITORY: "action to take a territory card",
    ActionKind.TAKE_BUILDING: "action to take a building card",
    ActionKind.TAKE_CHARACTER: "action to take a character card",
    ActionKind.TAKE_VENTURE: "action to take a venture card",
    ActionKind.HARVEST: "harvest action",
    ActionKind.PRODUCTION: "production action",
}


def amounts_text(amounts: dict[str, int]) -> str:
    """``{"coins": 3, "wood": 1}`` -> ``"3 coins, 1 wood"``; zero amounts left out, ``nothing`` if all are."""
    parts = []
    for key, amount in amounts.items():
        if amount:
            unit = UNITS.get(key, key)
            if key in PLURAL:
                unit = unit.removesuffix("s") + ("s" if abs(amount) != 1 else "")
            parts.append(f"{amount} {unit}")
    return ", ".join(parts) or "nothing"


def lower(kind: object) -> str:
    """An enum member's name in words: ``CardType.TERRITORY`` -> ``territory``."""
    return str(getattr(kind, "name", kind)).replace("_", " ").lower()


def and_join(items: list[str]) -> str:
    """``["1 coin", "2 wood", "1 stone"]`` -> ``"1 coin, 2 wood and 1 stone"``."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _amounts(g: Goods) -> list[str]:
    return [amounts_text({name: getattr(g, name)}) for name in GOODS_FIELDS if getattr(g, name)]


def goods(g: Goods) -> str:
    """``"3 coins, 1 wood and 1 VP"`` (``amounts_text``'s units), ``"nothing"`` when empty."""
    return and_join(_amounts(g)) or "nothing"


def gain(g: Gain) -> str:
    """``"1 coin and 2 privileges (different ones)"``: privileges from one gain must all differ."""
    parts = _amounts(g.goods)
    if g.privileges:
        different = " (different ones)" if g.privileges > 1 else ""
        parts.append(amounts_text({"privileges": g.privileges}) + different)
    return and_join(parts) or "nothing"


def card_type(t: CardType | None) -> str:
    return lower(t) if t is not None else "any"


def cost(c: Cost) -> str:
    text = goods(c.pay)
    if c.require_military:
        text += f" (you must own {c.require_military} military)"
    return text


def immediate(e: Immediate, card: Card) -> str:
    match e.kind:
        case ImmediateKind.GAIN:
            return f"gain {gain(e.gain)}"
        case ImmediateKind.GAIN_PER_CARD:
            counted = card_type(e.card_type)
            this = ", this one included" if e.card_type is card.card_type else ""
            return f"gain {goods(e.gain.goods)} for each {counted} card you own{this}"
        case ImmediateKind.GAIN_PER_MILITARY:
            return f"gain {goods(e.gain.goods)} for every {e.value} military you own"
        case ImmediateKind.TAKE_CARD:
            off = f", paying {goods(e.discount)} less" if not e.discount.is_zero else ""
            which = f"a {lower(e.card_type)} card" if e.card_type is not None else "a card of any type"
            return f"take {which} with a value {e.value} action, no family member needed{off}"
        case ImmediateKind.HARVEST:
            return f"perform a harvest action of value {e.value}"
        case ImmediateKind.PRODUCTION:
            return f"perform a production action of value {e.value}"
        case _:
            assert_never(e.kind)


def harvest(h: Harvest) -> str:
    return f"Harvest (value {h.value} or more): gain {gain(h.gain)}"


def production(p: Production) -> str:
    parts = []
    if p.gain.privileges or not p.gain.goods.is_zero:
        parts.append(f"gain {gain(p.gain)}")
    if p.per_card is not None:
        parts.append(f"gain {goods(p.per_card_gain)} for each {lower(p.per_card)} card you own")
    if p.exchanges:
        choices = " or ".join(exchange(x.pay, x.gain) for x in p.exchanges)
        parts.append(f"you may {choices}" if len(p.exchanges) == 1 else f"you may do one: {choices}")
    return f"Production (value {p.value} or more): " + "; ".join(parts or ["nothing"])


def exchange(pay: Goods, got: Gain) -> str:
    return f"pay {goods(pay)} for {gain(got)}"


def action_bonus(b: ActionBonus) -> str:
    text = f"+{b.value} to the value of every {ACTIONS[b.action]} you make"
    if b.discounts:
        text += ", and pay " + " or ".join(goods(d) for d in b.discounts) + " less for the card"
    return text


def card(c: Card) -> str:
    """The whole card: kind and period, then :func:`card_effects`."""
    return f"{c.name}: {lower(c.card_type)} card, period {c.period}. {card_effects(c)}".rstrip()


def card_effects(c: Card) -> str:
    """Cost, then the effects in the printed order of kinds ("" for none): a tower cell's text."""
    parts = []
    if c.costs:
        parts.append("Cost: " + "; or ".join(cost(x) for x in c.costs) + ".")
    if c.immediate:
        parts.append("When taken: " + "; then ".join(immediate(e, c) for e in c.immediate) + ".")
    if c.harvest:
        parts.append(harvest(c.harvest) + ".")
    if c.production:
        parts.append(production(c.production) + ".")
    if c.action_bonus:
        parts.append("Permanent: " + action_bonus(c.action_bonus) + ".")
    if c.no_floor_bonus:
        parts.append("Permanent: you take no bonus from tower spaces, also in card actions.")
    if c.end_victory:
        parts.append(f"End of the game: {c.end_victory} VP.")
    return " ".join(parts)


def requirement(r: LeaderRequirement) -> str:
    """``"5 venture cards"``, ``"6 cards of one type"``, ``"10 wood"``: owned, not paid."""
    cards = [f"{n} {lower(t)}" for t, n in zip(CardType, r.counts, strict=True) if n]
    parts = [and_join(cards) + (" cards" if sum(r.counts) > 1 else " card")] if cards else []
    if r.same_type:
        parts.append(f"{r.same_type} cards of one type")
    return and_join(parts + _amounts(r.goods)) or "nothing"


def ability(x: Leader) -> str:
    match x.ability:
        case AbilityKind.GAIN:
            return f"gain {gain(x.gain)}"
        case AbilityKind.HARVEST:
            return f"perform a harvest action of value {x.value} (only servants raise it)"
        case AbilityKind.PRODUCTION:
            return f"perform a production action of value {x.value} (only servants raise it)"
        case AbilityKind.OCCUPIED_SPACES:
            return (
                "you may place family members on occupied action spaces that hold one member "
                "(market, the first harvest and production spaces), not on tower spaces"
            )
        case AbilityKind.NO_TOWER_FEE:
            return "you pay no coins to place a family member in a tower that is already occupied"
        case AbilityKind.MEMBER_SIX:
            return f"one of your coloured family members not yet placed has value {x.value} this round"
        case AbilityKind.COIN_DISCOUNT:
            return f"pay {x.value} coins less for every card whose cost includes coins"
        case AbilityKind.CHURCH_BONUS:
            return f"gain {gain(x.gain)} each time you support the Church in a Vatican Report"
        case AbilityKind.COLORED_BONUS:
            return f"your coloured family members get +{x.value} value"
        case AbilityKind.NEUTRAL_BONUS:
            return f"your neutral family member gets +{x.value} value"
        case AbilityKind.COPY:
            return "copy the ability of a leader another player has played (chosen when you play this one)"
        case AbilityKind.COLORED_VALUE:
            return f"your coloured family members have value {x.value}, whatever the dice show"
        case AbilityKind.IGNORE_TERRITORY_REQUIREMENT:
            return "you need no Military Points to take territory cards"
        case AbilityKind.DOUBLE_CARD_RESOURCES:
            return "coins, wood, stone and servants gained from cards' immediate effects are doubled"
        case _:
            assert_never(x.ability)


def ability_line(x: Leader) -> str:
    when = "Once per round (activate it)" if x.once_per_round else "Permanent, once played"
    return f"{when}: {ability(x)}."


def leader(x: Leader) -> str:
    return f"{x.name}: to play it you must own {requirement(x.requirement)}. {ability_line(x)}"


def _good_names(g: Goods) -> str:
    names = [name for name in GOODS_FIELDS if getattr(g, name)]
    return " or ".join(names)


def penalty(t: ExcommunicationTile) -> str:
    match t.penalty:
        case PenaltyKind.GAIN_REDUCTION:
            return f"each time you gain {_good_names(t.goods)}, you gain {goods(t.goods)} less (per source)"
        case PenaltyKind.ACTION_MODIFIER:
            assert t.action is not None, "validated content has it"
            return f"{t.value:+d} to the value of every {ACTIONS[t.action]} you make"
        case PenaltyKind.COLORED_MEMBER_MODIFIER:
            return f"your coloured family members get {t.value:+d} value"
        case PenaltyKind.NO_MARKET:
            return "you cannot place family members in the market"
        case PenaltyKind.SERVANT_RATE:
            return f"you need {t.value} servants to raise an action value by 1"
        case PenaltyKind.SKIP_FIRST_TURN:
            return "each round you skip your first turn and place that family member after everyone else"
        case PenaltyKind.NO_END_POINTS:
            return f"at the end of the game your {card_type(t.card_type)} cards score no Victory Points"
        case PenaltyKind.LOSE_PER_VICTORY:
            before = "at the end of the game, before the final scoring"
            return f"{before}, lose 1 VP for every {t.value} VP you have"
        case PenaltyKind.LOSE_PER_MILITARY:
            every = "each military point" if t.value == 1 else f"every {t.value} military"
            return f"after the final scoring, lose 1 VP for {every} you own"
        case PenaltyKind.LOSE_PER_BUILDING_COST:
            return "after the final scoring, lose 1 VP for every wood and stone in your building cards' costs"
        case PenaltyKind.LOSE_PER_RESOURCE:
            return "after the final scoring, lose 1 VP for every coin, wood, stone and servant you own"
        case _:
            assert_never(t.penalty)


def excommunication_name(t: ExcommunicationTile) -> str:
    """``Excommunication I/5`` for the printed code ``1_5``."""
    period, _, number = t.code.partition("_")
    return f"Excommunication {ROMAN.get(int(period), period) if period.isdigit() else period}/{number}"


def excommunication(t: ExcommunicationTile) -> str:
    return f"{excommunication_name(t)}: {penalty(t)}."


def bonus_tile(t: BonusTile) -> str:
    side = " (advanced)" if t.advanced else ""
    return (
        f"Personal bonus tile {t.name}{side}: each harvest action gives you {goods(t.harvest)}; "
        f"each production action gives you {goods(t.production)}."
    )


def space(s: Space, name: str) -> str:
    """What placing a family member here does, and who may."""
    parts = [f"action value {s.value} or more"]
    match s.kind:
        case SpaceKind.TOWER:
            parts.append(f"take the {card_type(s.tower)} card on this floor")
        case SpaceKind.HARVEST | SpaceKind.PRODUCTION:
            parts.append(f"perform a {lower(s.kind)} action")
        case SpaceKind.COUNCIL:
            parts.append("players here go first next round, in the order they came")
        case SpaceKind.MARKET:
            pass
        case _:
            assert_never(s.kind)
    if s.bonus.privileges or not s.bonus.goods.is_zero:
        parts.append(f"gain {gain(s.bonus)}")
    if s.modifier:
        parts.append(f"{s.modifier:+d} to the action's value")
    parts.append("any number of family members" if s.capacity == 0 else _capacity(s.capacity))
    if s.min_players > 2:
        parts.append(f"only with {s.min_players} or more players")
    text = "; ".join(parts)
    return f"{name[:1].upper()}{name[1:]}. {text[:1].upper()}{text[1:]}."


def _capacity(n: int) -> str:
    return "one family member" if n == 1 else f"{n} family members"


def privilege(number: int, g: Goods) -> str:
    return f"Council privilege {number}: {goods(g)}."


def board(b: Board) -> str:
    """The structure and the end-game tables, as numbers a player reads."""
    territories = ", ".join(f"{n}: {vp}" for n, vp in enumerate(b.territory_victory) if vp)
    characters = ", ".join(f"{n}: {vp}" for n, vp in enumerate(b.character_victory) if vp)
    return (
        f"{b.periods} periods of {b.rounds_per_period} rounds; a Vatican Report ends each period "
        f"(faith needed: {', '.join(map(str, b.vatican_faith_required))}). "
        f"An occupied tower costs {b.occupied_tower_fee} coins; "
        f"at most {b.max_cards_per_type} cards of a type. "
        f"End of the game: territories owned {territories} VP; characters owned {characters} VP; "
        f"military track {' and '.join(map(str, b.military_victory))} VP for the first and second; "
        f"1 VP per {b.resources_per_victory} resources."
    )


# ---------------------------------------------------------------- GetContent


@message
class PrivilegeInfo:
    """A council privilege, as `ChooseCouncilPrivileges` names it."""

    privilege: Privilege = pb(1)
    goods: Goods = pb(2, default=ZERO)
    text: str = pb(3, default="")


@message
class LorenzoContent:
    """Every component of Lorenzo il Magnifico, as the rules read it, with English texts."""

    cards: tuple[Card, ...] = pb(1, default=())
    leaders: tuple[Leader, ...] = pb(2, default=())
    excommunications: tuple[ExcommunicationTile, ...] = pb(3, default=())
    bonus_tiles: tuple[BonusTile, ...] = pb(4, default=())
    spaces: tuple[Space, ...] = pb(5, default=())
    privileges: tuple[PrivilegeInfo, ...] = pb(6, default=())  # in printed order
    board: Board | None = pb(7, default=None)


def content_message(content: Content) -> LorenzoContent:
    """The content's records with their texts filled in (what ``GetContent`` answers)."""
    from services.lorenzo.presentation.labels import Labels

    labels = Labels(content)
    b = content.board
    return LorenzoContent(
        cards=tuple(_card(c) for c in content.cards),
        leaders=tuple(
            replace(
                x,
                requirement=replace(x.requirement, text=requirement(x.requirement)),
                ability_text=ability_line(x),
                text=leader(x),
            )
            for x in content.leaders
        ),
        excommunications=tuple(replace(t, text=excommunication(t)) for t in content.excommunications),
        bonus_tiles=tuple(replace(t, text=bonus_tile(t)) for t in content.bonus_tiles),
        spaces=tuple(
            replace(s, name=labels.space(s.id), text=space(s, labels.space(s.id))) for s in b.spaces
        ),
        privileges=tuple(
            PrivilegeInfo(Privilege(n), goods, privilege(n, goods))
            for n, goods in enumerate(b.privileges, start=1)
        ),
        board=replace(b, spaces=(), privileges=(), text=board(b)),  # spaces and privileges: above
    )


def _card(c: Card) -> Card:
    p, h, b = c.production, c.harvest, c.action_bonus
    return replace(
        c,
        costs=tuple(replace(x, text=cost(x)) for x in c.costs),
        immediate=tuple(replace(e, text=immediate(e, c)) for e in c.immediate),
        harvest=replace(h, text=harvest(h)) if h else None,
        production=replace(
            p,
            exchanges=tuple(replace(x, text=exchange(x.pay, x.gain)) for x in p.exchanges),
            text=production(p),
        )
        if p
        else None,
        action_bonus=replace(b, text=action_bonus(b)) if b else None,
        text=card(c),
    )


@functools.cache
def packaged_content_message(locale: str = "en") -> LorenzoContent:
    """:func:`content_message` of the packaged content, made once per process."""
    from services.lorenzo.content import load_content

    return content_message(load_content())
