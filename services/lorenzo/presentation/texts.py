"""Lorenzo's components in sentences a player reads: what a card costs and does, what a leader needs
and gives, what an excommunication takes away, what a personal bonus tile yields.

The facts are the validated content's (``Content`` records, the same the rules read), so the text
cannot drift from the rules; the wording follows the rulebook (docs/rules/lorenzo.md names where
each penalty and ability bites). Used by the board (towers, hands, excommunications) and by the
``? NAME`` look-up of the terminal client.
"""

from __future__ import annotations

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionKind,
    BonusTile,
    Card,
    CardType,
    ExcommunicationTile,
    Gain,
    Immediate,
    ImmediateKind,
    Leader,
    PenaltyKind,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods

# Singular units; coins, servants and privileges take an "s" (``3 coins``), the others do not.
UNITS = {"victory": "VP", "privileges": "privilege"}
PLURAL = ("coins", "servants", "privileges")


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


def goods_text(goods: Goods) -> str:
    return amounts_text({name: getattr(goods, name) for name in GOODS_FIELDS})


def gain_text(gain: Gain) -> str:
    """Goods and council privileges: ``"1 coin, 1 privilege"``."""
    amounts = {name: getattr(gain.goods, name) for name in GOODS_FIELDS}
    return amounts_text({**amounts, "privileges": gain.privileges})


def lower(kind: object) -> str:
    """An enum member's name in words: ``CardType.TERRITORY`` -> ``territory``."""
    return str(getattr(kind, "name", kind)).replace("_", " ").lower()


ROMAN = {1: "I", 2: "II", 3: "III"}
GOOD_NAMES = {"military": "military points", "faith": "faith points", "victory": "victory points"}


def action_text(action: ActionKind) -> str:
    """``harvest actions``, ``production actions``, ``actions taking a territory card``."""
    if action in (ActionKind.HARVEST, ActionKind.PRODUCTION):
        return f"{lower(action)} actions"
    return f"actions taking a {lower(CardType(int(action)))} card"


def _goods_names(goods: Goods) -> list[str]:
    return [GOOD_NAMES.get(name, name) for name in GOODS_FIELDS if getattr(goods, name)]


def _immediate_text(effect: Immediate) -> str:
    match effect.kind:
        case ImmediateKind.GAIN:
            return gain_text(effect.gain)
        case ImmediateKind.GAIN_PER_CARD:
            kind = lower(effect.card_type) if effect.card_type else "development"
            return f"{gain_text(effect.gain)} per {kind} card you own"
        case ImmediateKind.GAIN_PER_MILITARY:
            return f"{gain_text(effect.gain)} for every {effect.value} military points you have"
        case ImmediateKind.TAKE_CARD:
            kind = f"a {lower(effect.card_type)}" if effect.card_type else "any"
            text = f"take {kind} card of value {effect.value} from the towers (no family member)"
            if effect.discount != Goods():
                text += f", paying {goods_text(effect.discount)} less"
            return text
        case ImmediateKind.HARVEST:
            return f"a harvest action of value {effect.value}"
        case ImmediateKind.PRODUCTION:
            return f"a production action of value {effect.value}"


def card_text(card: Card) -> str:
    """``Forest (territory, period I): when taken: 1 wood; harvest 5: 3 wood``."""
    head = f"{card.name} ({lower(card.card_type)}, period {ROMAN.get(card.period, card.period)})"
    effects = card_effects(card)
    return f"{head}: {effects}" if effects else head


def card_effects(card: Card) -> str:
    """What a card costs and does: ``cost 3 coins; when taken: 1 faith; end of game: 4 VP``."""
    parts = []
    if card.costs:
        costs = []
        for cost in card.costs:
            text = goods_text(cost.pay)
            if cost.require_military:
                text += f" (you need {cost.require_military} military points)"
            costs.append(text)
        parts.append("cost " + " or ".join(costs))
    if card.immediate:
        parts.append("when taken: " + ", then ".join(_immediate_text(e) for e in card.immediate))
    if card.harvest is not None:
        parts.append(f"harvest {card.harvest.value}: {gain_text(card.harvest.gain)}")
    if card.production is not None:
        parts.append(f"production {card.production.value}: {_production_text(card)}")
    if card.action_bonus is not None:
        bonus = card.action_bonus
        text = f"always +{bonus.value} on your {action_text(bonus.action)}"
        if bonus.discounts:
            text += ", paying " + " or ".join(goods_text(d) for d in bonus.discounts) + " less"
        parts.append(text)
    if card.no_floor_bonus:
        parts.append("you get no tower floor bonuses")
    if card.end_victory:
        parts.append(f"end of game: {card.end_victory} VP")
    return "; ".join(parts)


def _production_text(card: Card) -> str:
    production = card.production
    assert production is not None
    parts = []
    if production.gain.goods != Goods() or production.gain.privileges:
        parts.append(gain_text(production.gain))
    if production.per_card is not None:
        parts.append(f"{goods_text(production.per_card_gain)} per {lower(production.per_card)} card you own")
    if production.exchanges:
        parts.append(
            " or ".join(f"pay {goods_text(x.pay)} for {gain_text(x.gain)}" for x in production.exchanges)
        )
    return ", ".join(parts) or "nothing"


def ability_text(leader: Leader) -> str:
    """What the leader does once played (rulebook wording, docs/rules/lorenzo.md "Leaders")."""
    value = leader.value
    match leader.ability:
        case AbilityKind.GAIN:
            return f"gain {gain_text(leader.gain)}"
        case AbilityKind.HARVEST:
            return f"a harvest action of value {value} (only servants raise it)"
        case AbilityKind.PRODUCTION:
            return f"a production action of value {value} (only servants raise it)"
        case AbilityKind.OCCUPIED_SPACES:
            return "you may place on occupied one-member action spaces (not tower floors)"
        case AbilityKind.NO_TOWER_FEE:
            return "you never pay the 3 coins of an occupied tower"
        case AbilityKind.MEMBER_SIX:
            return f"one coloured family member of your choice is worth {value} this round"
        case AbilityKind.COIN_DISCOUNT:
            return f"cards whose cost has coins cost you {value} coins less"
        case AbilityKind.CHURCH_BONUS:
            return f"{gain_text(leader.gain)} each time you support the Church"
        case AbilityKind.COLORED_BONUS:
            return f"your coloured family members are worth {value} more"
        case AbilityKind.NEUTRAL_BONUS:
            return f"your neutral family member is worth {value} more"
        case AbilityKind.COPY:
            return "copies the ability of a leader another player has played (for good)"
        case AbilityKind.COLORED_VALUE:
            return f"your coloured family members are worth {value}, whatever the dice"
        case AbilityKind.IGNORE_TERRITORY_REQUIREMENT:
            return "you need no military points to take territory cards"
        case AbilityKind.DOUBLE_CARD_RESOURCES:
            return "coins, wood, stone and servants from cards' immediate effects are doubled"


def leader_text(leader: Leader, requirement: str) -> str:
    """``Sandro Botticelli: needs 10 wood; once per round: gain 2 military, 1 VP``."""
    when = "once per round" if leader.once_per_round else "always"
    need = f"needs {requirement}; " if requirement else ""
    return f"{leader.name}: {need}{when}: {ability_text(leader)}"


def excommunication_name(tile: ExcommunicationTile) -> str:
    """``Excommunication I/5`` for the printed code ``1_5``."""
    period, _, number = tile.code.partition("_")
    return f"Excommunication {ROMAN.get(int(period), period) if period.isdigit() else period}/{number}"


def penalty_text(tile: ExcommunicationTile) -> str:
    """The penalty in a sentence (docs/rules/lorenzo.md "Excommunication penalties")."""
    match tile.penalty:
        case PenaltyKind.GAIN_REDUCTION:
            return f"each time you gain {' or '.join(_goods_names(tile.goods))}, you get 1 less"
        case PenaltyKind.ACTION_MODIFIER if tile.action in (ActionKind.HARVEST, ActionKind.PRODUCTION):
            return f"each {lower(tile.action)} action you take is worth {-tile.value} less"
        case PenaltyKind.ACTION_MODIFIER if tile.action is not None:
            return f"your {action_text(tile.action)} are worth {-tile.value} less"
        case PenaltyKind.COLORED_MEMBER_MODIFIER:
            return f"your coloured family members are worth {abs(tile.value)} less"
        case PenaltyKind.NO_MARKET:
            return "you cannot place family members in the market"
        case PenaltyKind.SERVANT_RATE:
            return f"you need {tile.value} servants to raise an action value by 1"
        case PenaltyKind.SKIP_FIRST_TURN:
            return "each round you skip your first turn and place that member last"
        case PenaltyKind.NO_END_POINTS if tile.card_type is not None:
            return f"at the end of the game your {lower(tile.card_type)} cards score nothing"
        case PenaltyKind.LOSE_PER_VICTORY:
            return f"at the end of the game you lose 1 VP for every {tile.value} VP you have"
        case PenaltyKind.LOSE_PER_MILITARY:
            every = "military point" if tile.value == 1 else f"{tile.value} military points"
            return f"at the end of the game you lose 1 VP for every {every} you have"
        case PenaltyKind.LOSE_PER_BUILDING_COST:
            return "at the end of the game you lose 1 VP for every wood and stone in your buildings' costs"
        case PenaltyKind.LOSE_PER_RESOURCE:
            return "at the end of the game you lose 1 VP for every coin, wood, stone and servant you have"
    return lower(tile.penalty)


def excommunication_text(tile: ExcommunicationTile) -> str:
    """``Excommunication I/5: each harvest action you take is worth 3 less``."""
    return f"{excommunication_name(tile)}: {penalty_text(tile)}"


def bonus_tile_text(tile: BonusTile) -> str:
    """``Personal bonus tile A: harvest gives 1 wood, ...; production gives ...``."""
    return (
        f"Personal bonus tile {tile.name}{' (advanced)' if tile.advanced else ''}: "
        f"harvest gives {goods_text(tile.harvest)}; production gives {goods_text(tile.production)}"
    )


def privilege_text(number: int, goods: Goods) -> str:
    return f"Council privilege {number}: {amounts_text({n: getattr(goods, n) for n in GOODS_FIELDS})}"
