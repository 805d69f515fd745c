"""Typed content of Lorenzo il Magnifico: cards, leaders, excommunication tiles, bonus tiles, board.

Pure data built by ``services.lorenzo.content`` from YAML; the rules read these records and never a file.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from services.lorenzo.rules.goods import ZERO, Goods


class CardType(enum.IntEnum):
    TERRITORY = 1
    BUILDING = 2
    CHARACTER = 3
    VENTURE = 4


class ActionKind(enum.IntEnum):
    """What an action does; the first four equal the CardType values (take a card of that type)."""

    TAKE_TERRITORY = 1
    TAKE_BUILDING = 2
    TAKE_CHARACTER = 3
    TAKE_VENTURE = 4
    HARVEST = 5
    PRODUCTION = 6


class SpaceKind(enum.IntEnum):
    TOWER = 1
    MARKET = 2
    COUNCIL = 3
    HARVEST = 4
    PRODUCTION = 5


class ImmediateKind(enum.IntEnum):
    GAIN = 1
    GAIN_PER_CARD = 2
    GAIN_PER_MILITARY = 3
    TAKE_CARD = 4
    HARVEST = 5
    PRODUCTION = 6


class AbilityKind(enum.IntEnum):
    GAIN = 1
    HARVEST = 2
    PRODUCTION = 3
    OCCUPIED_SPACES = 4
    NO_TOWER_FEE = 5
    MEMBER_SIX = 6
    COIN_DISCOUNT = 7
    CHURCH_BONUS = 8
    COLORED_BONUS = 9
    NEUTRAL_BONUS = 10
    COPY = 11
    COLORED_VALUE = 12
    IGNORE_TERRITORY_REQUIREMENT = 13
    DOUBLE_CARD_RESOURCES = 14


class PenaltyKind(enum.IntEnum):
    GAIN_REDUCTION = 1
    ACTION_MODIFIER = 2
    COLORED_MEMBER_MODIFIER = 3
    NO_MARKET = 4
    SERVANT_RATE = 5
    SKIP_FIRST_TURN = 6
    NO_END_POINTS = 7
    LOSE_PER_VICTORY = 8
    LOSE_PER_MILITARY = 9
    LOSE_PER_BUILDING_COST = 10
    LOSE_PER_RESOURCE = 11


_TAKE_ACTION = {t: ActionKind(int(t)) for t in CardType}


def take_action(card_type: CardType) -> ActionKind:
    """The action that takes a card of ``card_type`` (a dict: the rules ask it in their inner loops)."""
    return _TAKE_ACTION[card_type]


@dataclass(frozen=True, slots=True)
class Gain:
    """Goods plus a number of council privileges (which must all differ)."""

    goods: Goods = ZERO
    privileges: int = 0


NO_GAIN = Gain()


@dataclass(frozen=True, slots=True)
class Cost:
    """One cost alternative: goods paid, and Military Points that must be owned (ventures)."""

    pay: Goods
    require_military: int = 0


@dataclass(frozen=True, slots=True)
class Immediate:
    kind: ImmediateKind
    gain: Gain = NO_GAIN
    card_type: CardType | None = None  # GAIN_PER_CARD: counted type; TAKE_CARD: wanted type (None = any)
    value: int = 0  # action value (TAKE_CARD, HARVEST, PRODUCTION) or "every N military points"
    discount: Goods = ZERO


@dataclass(frozen=True, slots=True)
class Exchange:
    pay: Goods
    gain: Gain


@dataclass(frozen=True, slots=True)
class Production:
    value: int
    gain: Gain = NO_GAIN
    per_card: CardType | None = None
    per_card_gain: Goods = ZERO
    exchanges: tuple[Exchange, ...] = ()  # alternatives, at most one per activation


@dataclass(frozen=True, slots=True)
class Harvest:
    value: int
    gain: Gain


@dataclass(frozen=True, slots=True)
class ActionBonus:
    action: ActionKind
    value: int
    discounts: tuple[Goods, ...] = ()  # alternatives (Stonemason: wood OR stone)


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    card_type: CardType
    period: int
    costs: tuple[Cost, ...] = ()
    immediate: tuple[Immediate, ...] = ()
    harvest: Harvest | None = None
    production: Production | None = None
    action_bonus: ActionBonus | None = None
    no_floor_bonus: bool = False
    end_victory: int = 0


@dataclass(frozen=True, slots=True)
class LeaderRequirement:
    cards: tuple[int, int, int, int] = (0, 0, 0, 0)  # by CardType order
    same_type: int = 0
    goods: Goods = ZERO


@dataclass(frozen=True, slots=True)
class Leader:
    id: int
    name: str
    requirement: LeaderRequirement
    once_per_round: bool
    ability: AbilityKind
    gain: Gain = NO_GAIN
    value: int = 0


@dataclass(frozen=True, slots=True)
class ExcommunicationTile:
    id: int
    code: str
    period: int
    penalty: PenaltyKind
    goods: Goods = ZERO
    action: ActionKind | None = None
    card_type: CardType | None = None
    value: int = 0


@dataclass(frozen=True, slots=True)
class BonusTile:
    id: int
    name: str
    advanced: bool
    harvest: Goods
    production: Goods


@dataclass(frozen=True, slots=True)
class Space:
    id: int
    kind: SpaceKind
    value: int
    tower: CardType | None = None
    floor: int = 0
    bonus: Gain = NO_GAIN
    capacity: int = 1  # 0 = unlimited
    min_players: int = 2
    modifier: int = 0


@dataclass(frozen=True, slots=True)
class Board:
    spaces: tuple[Space, ...]
    privileges: tuple[Goods, ...]
    occupied_tower_fee: int
    max_cards_per_type: int
    territory_slot_military: tuple[int, ...]
    setup_goods: Goods
    coins_by_turn_order: tuple[int, ...]
    periods: int
    rounds_per_period: int
    cards_per_tower_per_round: int
    vatican_faith_required: tuple[int, ...]
    faith_victory: tuple[int, ...]
    territory_victory: tuple[int, ...]
    character_victory: tuple[int, ...]
    military_victory: tuple[int, ...]
    resources_per_victory: int

    @property
    def rounds(self) -> int:
        return self.periods * self.rounds_per_period


@dataclass(frozen=True)
class Content:
    """Every component of the game, with id lookups built once."""

    cards: tuple[Card, ...]
    leaders: tuple[Leader, ...]
    excommunications: tuple[ExcommunicationTile, ...]
    bonus_tiles: tuple[BonusTile, ...]
    board: Board
    card: dict[int, Card] = field(init=False, repr=False, compare=False)
    leader: dict[int, Leader] = field(init=False, repr=False, compare=False)
    tile: dict[int, ExcommunicationTile] = field(init=False, repr=False, compare=False)
    bonus_tile: dict[int, BonusTile] = field(init=False, repr=False, compare=False)
    space: dict[int, Space] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", {c.id: c for c in self.cards})
        object.__setattr__(self, "leader", {x.id: x for x in self.leaders})
        object.__setattr__(self, "tile", {t.id: t for t in self.excommunications})
        object.__setattr__(self, "bonus_tile", {t.id: t for t in self.bonus_tiles})
        object.__setattr__(self, "space", {s.id: s for s in self.board.spaces})


def content_counts(content: Content) -> dict[str, int]:
    """Component counts per family (for ``tabula content lorenzo --json``)."""
    by_type = {t.name.lower(): sum(1 for c in content.cards if c.card_type is t) for t in CardType}
    return {
        "development_cards": len(content.cards),
        **{f"{name}_cards": n for name, n in by_type.items()},
        "leaders": len(content.leaders),
        "excommunication_tiles": len(content.excommunications),
        "personal_bonus_tiles": len(content.bonus_tiles),
        "advanced_bonus_tiles": sum(1 for t in content.bonus_tiles if t.advanced),
        "board_spaces": len(content.board.spaces),
        "council_privileges": len(content.board.privileges),
    }
