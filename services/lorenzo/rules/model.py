"""State records of a Lorenzo il Magnifico match (codec-friendly frozen dataclasses)."""

from __future__ import annotations

import enum

from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.goods import ZERO, Goods
from shared.core.wire import message, pb


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


@message
class Config:
    """The options a match was created with."""

    seats: int = pb(1)
    advanced: bool = pb(2)


@message
class Decision:
    """A choice the active player owes before the turn goes on."""

    kind: DecisionKind = pb(1)
    count: int = pb(2, default=0)  # PRIVILEGES: how many different ones
    card: int = pb(3, default=0)  # EXCHANGE: the building whose exchange is chosen
    card_type: CardType | None = pb(4, default=None)  # TAKE_CARD: wanted type, None = any
    value: int = pb(5, default=0)  # TAKE_CARD / HARVEST / PRODUCTION: action value
    discount: Goods = pb(6, default=ZERO)  # TAKE_CARD: cost discount
    servants_only: bool = pb(7, default=False)  # leader harvest/production: character bonuses do not apply


@message
class Occupant:
    """A family member on an action space."""

    space: int = pb(1)
    seat: int = pb(2)
    member: Member = pb(3)


@message
class Deck:
    """One development deck, top card first."""

    card_type: CardType = pb(1)
    cards: tuple[int, ...] = pb(2)


@message
class PlayedLeader:
    """A leader in play in front of a seat."""

    leader: int = pb(1)
    copied: int | None = pb(2, default=None)  # Lorenzo de' Medici: the leader whose ability it copies
    used: bool = pb(3, default=False)  # once-per-round ability used this round


@message
class PlayerState:
    """One seat's goods, cards, leaders, family members placed and Vatican answer."""

    seat: int = pb(1)
    goods: Goods = pb(2, default=ZERO)
    territories: tuple[int, ...] = pb(3, default=())
    buildings: tuple[int, ...] = pb(4, default=())
    characters: tuple[int, ...] = pb(5, default=())
    ventures: tuple[int, ...] = pb(6, default=())
    placed: tuple[Member, ...] = pb(7, default=())
    bonus_tile: int = pb(8, default=0)
    hand: tuple[int, ...] = pb(9, default=())
    draft_hand: tuple[int, ...] = pb(10, default=())
    played: tuple[PlayedLeader, ...] = pb(11, default=())
    discarded: tuple[int, ...] = pb(12, default=())
    excommunications: tuple[int, ...] = pb(13, default=())
    vatican_answer: bool | None = pb(14, default=None)
    six_member: Member | None = pb(15, default=None)  # Federico da Montefeltro this round

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


@message
class FinalScore:
    """One seat's final score: victory points before, each part added, the penalty, the total."""

    seat: int = pb(1)
    before: int = pb(2)
    territories: int = pb(3)
    characters: int = pb(4)
    ventures: int = pb(5)
    military: int = pb(6)
    resources: int = pb(7)
    penalty: int = pb(8)
    total: int = pb(9)


@message
class State:
    """The whole match, server side (nothing redacted)."""

    config: Config | None = pb(1, default=None)
    phase: Phase = pb(2, default=Phase.ROUND_START)
    round: int = pb(3, default=0)
    turn_order: tuple[int, ...] = pb(4, default=())
    turn_queue: tuple[int, ...] = pb(5, default=())
    turn_index: int = pb(6, default=0)
    acted: bool = pb(7, default=False)
    pending: tuple[Decision, ...] = pb(8, default=())
    budget: Goods = pb(9, default=ZERO)  # production exchanges are paid from what was owned before the action
    dice: tuple[int, ...] = pb(10, default=())  # black, white, orange
    towers: tuple[int, ...] = pb(11, default=())  # card id per tower space 1..16 (index space-1), 0 = empty
    occupants: tuple[Occupant, ...] = pb(12, default=())
    decks: tuple[Deck, ...] = pb(13, default=())
    excommunication_tiles: tuple[int, ...] = pb(14, default=())  # one per period
    bonus_tiles_left: tuple[int, ...] = pb(15, default=())
    tile_pickers: tuple[int, ...] = pb(16, default=())  # seats still to choose a bonus tile, in order
    players: tuple[PlayerState, ...] = pb(17, default=())
    final: tuple[FinalScore, ...] = pb(18, default=())
    placings: tuple[int, ...] = pb(19, default=())

    @property
    def period(self) -> int:
        return (self.round + 1) // 2

    @property
    def active_seat(self) -> int:
        return self.turn_queue[self.turn_index] if self.turn_index < len(self.turn_queue) else -1
