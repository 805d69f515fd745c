"""State records of a Lorenzo il Magnifico match (codec-friendly frozen dataclasses)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.goods import ZERO, Goods


class Member(enum.IntEnum):
    NEUTRAL = 1
    BLACK = 2
    WHITE = 3
    ORANGE = 4


COLORED = (Member.BLACK, Member.WHITE, Member.ORANGE)
ALL_MEMBERS = (Member.NEUTRAL, *COLORED)


class Privilege(enum.IntEnum):
    """Council privileges in printed order (board.yaml ``privileges``)."""

    WOOD_AND_STONE = 1
    SERVANTS = 2
    COINS = 3
    MILITARY = 4
    FAITH = 5


class Phase(enum.IntEnum):
    CHOOSE_BONUS_TILES = 1
    DRAFT_LEADERS = 2
    ROUND_START = 3
    ACTIONS = 4
    VATICAN = 5
    ROUND_END = 6
    GAME_END = 7
    FINISHED = 8


class DecisionKind(enum.IntEnum):
    PRIVILEGES = 1
    EXCHANGE = 2
    TAKE_CARD = 3
    HARVEST = 4
    PRODUCTION = 5


class Source(enum.IntEnum):
    """Why goods moved (for clients and logs; the rules never branch on it in evolve)."""

    SETUP = 1
    SERVANTS = 2
    TOWER_FEE = 3
    FLOOR_BONUS = 4
    CARD_COST = 5
    CARD_EFFECT = 6
    MARKET = 7
    COUNCIL = 8
    HARVEST = 9
    PRODUCTION = 10
    EXCHANGE = 11
    PRIVILEGE = 12
    LEADER = 13
    VATICAN = 14
    FINAL_SCORING = 15


@dataclass(frozen=True, slots=True)
class Config:
    seats: int
    advanced: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice the active player owes before the turn goes on."""

    kind: DecisionKind
    count: int = 0  # PRIVILEGES: how many different ones
    card: int = 0  # EXCHANGE: the building whose exchange is chosen
    card_type: CardType | None = None  # TAKE_CARD: wanted type, None = any
    value: int = 0  # TAKE_CARD / HARVEST / PRODUCTION: action value
    discount: Goods = ZERO  # TAKE_CARD: cost discount
    servants_only: bool = False  # leader harvest/production: character bonuses do not apply


@dataclass(frozen=True, slots=True)
class Occupant:
    space: int
    seat: int
    member: Member


@dataclass(frozen=True, slots=True)
class Deck:
    card_type: CardType
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayedLeader:
    leader: int
    copied: int | None = None  # Lorenzo de' Medici: the leader whose ability it copies
    used: bool = False  # once-per-round ability used this round


@dataclass(frozen=True, slots=True)
class PlayerState:
    seat: int
    goods: Goods = ZERO
    territories: tuple[int, ...] = ()
    buildings: tuple[int, ...] = ()
    characters: tuple[int, ...] = ()
    ventures: tuple[int, ...] = ()
    placed: tuple[Member, ...] = ()
    bonus_tile: int = 0
    hand: tuple[int, ...] = ()
    draft_hand: tuple[int, ...] = ()
    played: tuple[PlayedLeader, ...] = ()
    discarded: tuple[int, ...] = ()
    excommunications: tuple[int, ...] = ()
    vatican_answer: bool | None = None
    six_member: Member | None = None  # Federico da Montefeltro this round

    def cards_of(self, card_type: CardType) -> tuple[int, ...]:
        match card_type:
            case CardType.TERRITORY:
                return self.territories
            case CardType.BUILDING:
                return self.buildings
            case CardType.CHARACTER:
                return self.characters
            case CardType.VENTURE:
                return self.ventures


@dataclass(frozen=True, slots=True)
class FinalScore:
    seat: int
    before: int
    territories: int
    characters: int
    ventures: int
    military: int
    resources: int
    penalty: int
    total: int


@dataclass(frozen=True, slots=True)
class State:
    config: Config | None = None
    phase: Phase = Phase.ROUND_START
    round: int = 0
    turn_order: tuple[int, ...] = ()
    turn_queue: tuple[int, ...] = ()
    turn_index: int = 0
    acted: bool = False
    pending: tuple[Decision, ...] = ()
    budget: Goods = ZERO  # production exchanges are paid from what was owned before the action
    dice: tuple[int, ...] = ()  # black, white, orange
    towers: tuple[int, ...] = ()  # card id per tower space 1..16 (index space-1), 0 = empty
    occupants: tuple[Occupant, ...] = ()
    decks: tuple[Deck, ...] = ()
    excommunication_tiles: tuple[int, ...] = ()  # one per period
    bonus_tiles_left: tuple[int, ...] = ()
    tile_pickers: tuple[int, ...] = ()  # seats still to choose a bonus tile, in order
    players: tuple[PlayerState, ...] = ()
    final: tuple[FinalScore, ...] = ()
    placings: tuple[int, ...] = ()

    @property
    def period(self) -> int:
        return (self.round + 1) // 2

    @property
    def active_seat(self) -> int:
        return self.turn_queue[self.turn_index] if self.turn_index < len(self.turn_queue) else -1
