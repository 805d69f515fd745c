"""State records of a Florenza match (``@message`` dataclasses with stable field numbers)."""

from __future__ import annotations

import enum

from services.florenza.rules.content_types import Skill
from services.florenza.rules.goods import ZERO, Goods
from shared.core.wire import message, pb

NO_SEAT = -1


class Phase(enum.IntEnum):
    """Where the match is: the setup choice, then the steps of a round (seed, "游戏进程")."""

    CHOOSE_WORKSHOPS = 1  # setup 5: starting workshops, last player first
    INCOME = 2  # step 1 (system)
    CAPTAIN = 3  # step 2: the Captain of the People's privilege
    BISHOP = 4  # step 3: the Bishop's privilege
    PLACEMENT = 5  # step 4
    MARKET = 6  # step 5
    DISTRICTS = 7  # step 6 (system)
    ART_WORKS = 8  # step 7
    ROUND_END = 9  # steps 8 and 9 (system)
    GAME_END = 10  # final scoring (system)
    FINISHED = 11


class Source(enum.IntEnum):
    """Why goods, prestige, church influence or workers moved (for clients and logs)."""

    SETUP = 1
    INCOME = 2
    INCOME_DIE = 3
    DIE_COMPENSATION = 4
    WORKSHOP_INCOME = 5
    WORK_INCOME = 6
    MARKET = 7
    OFFERING = 8
    PRODUCTION = 9
    CONSTRUCTION = 10
    FAILED_CONSTRUCTION = 11
    WORKSHOP_FEE = 12
    ART_WORK = 13
    ARTIST_DIE = 14
    MASTERPIECE = 15
    ART_WORK_FAILURE = 16
    UNPAID_ARTIST = 17
    PALAZZO_BONUS = 18
    CHIESA_BONUS = 19
    CARDINAL = 20
    BISHOP = 21  # the Bishop's lured worker


class Title(enum.IntEnum):
    CAPTAIN = 1  # Captain of the People (Capitano del Popolo)
    BISHOP = 2


class Trade(enum.IntEnum):
    """The three market trades, each at most once per visit (seed 5)."""

    SELL = 1  # one resource for money
    BUY = 2  # money for one resource
    EXCHANGE = 3  # two identical resources for one of another kind


class DieUse(enum.IntEnum):
    PREACHER = 1  # workers from an offering in the Duomo
    ARTIST = 2  # the bonus of an art work completed in the Duomo


@message
class Config:
    seats: int = pb(1)
    # Option ``hidden_certificates``: other seats' certificates hidden until the end (D24). False in a
    # match stored before the option existed: it was played with open certificates.
    hidden_certificates: bool = pb(2, default=False)


@message
class DistrictSlot:
    """One building space of a district: a workshop tile (0 = empty), its side, a worker on it."""

    workshop: int = pb(1, default=0)  # workshop kind id
    built: bool = pb(2, default=False)  # yellow side up
    worker: int = pb(3, default=NO_SEAT)  # seat whose worker stands on it this round


@message
class WorkSpot:
    """An art work space: a district's own (``district`` = its seat) or a public one (-1)."""

    work: int = pb(1)
    district: int = pb(2, default=NO_SEAT)
    worker: int = pb(3, default=NO_SEAT)  # seat that hired an artist for it this round
    artist: int = pb(4, default=0)  # the hired artist's tile
    crest: int = pb(5, default=NO_SEAT)  # seat whose family crest marks it completed


@message
class Pulpit:
    """A worker and a preacher on a pulpit until the end of the round (seed 4.5)."""

    seat: int = pb(1)
    preacher: int = pb(2)
    duomo: bool = pb(3)


@message
class Presence:
    """A named character in Florence, under a Life in Florenza card (1..7)."""

    character: int = pb(1)
    card: int = pb(2)


@message
class PendingDice:
    """Two dice rolled in the Duomo: ``seat`` keeps one of them (seed 4.5, 7.2)."""

    seat: int = pb(1)
    use: DieUse = pb(2)
    dice: tuple[int, ...] = pb(3)
    character: int = pb(4)  # the preacher or the artist
    skill: Skill | None = pb(5, default=None)  # ARTIST: the talent used
    duomo_work: int = pb(6, default=0)  # ARTIST: the work completed


@message
class PlayerState:
    seat: int = pb(1)
    goods: Goods = pb(2, default=ZERO)
    workers: int = pb(3, default=0)  # on the family board, free to place
    reserve: int = pb(4, default=0)  # the family's workers off the board (8 in all with the placed ones)
    prestige: int = pb(5, default=0)  # prestige track (may be negative)
    certificates: int = pb(6, default=0)  # prestige banked as Captain of the People
    church: int = pb(7, default=0)  # church influence track
    district: tuple[DistrictSlot, ...] = pb(8, default=())
    passed: bool = pb(9, default=False)  # step 4: passed for the rest of the round
    market: bool = pb(10, default=False)  # a worker is at the market this round
    trades: tuple[Trade, ...] = pb(11, default=())  # market trades done this round


@message
class FinalScore:
    """The final scoring lines of one seat (seed, "游戏结束")."""

    seat: int = pb(1)
    certificates: int = pb(2)
    prestige: int = pb(3)
    titles: int = pb(4)
    resources: int = pb(5)
    money: int = pb(6)
    unfinished_workshops: int = pb(7)  # negative
    incomplete_works: int = pb(8)  # negative
    empty_areas: int = pb(9)  # negative: Palazzo / Chiesa without a completed work
    total: int = pb(10)
    resource_count: int = pb(11)  # first tie-break
    money_left: int = pb(12)  # second tie-break


@message
class State:
    config: Config | None = pb(1, default=None)
    phase: Phase = pb(2, default=Phase.CHOOSE_WORKSHOPS)
    round: int = pb(3, default=0)
    turn_order: tuple[int, ...] = pb(4, default=())
    active: int = pb(5, default=NO_SEAT)  # the seat to act in a seat phase
    pickers: tuple[int, ...] = pb(6, default=())  # setup: seats still to choose a starting workshop
    captain: int = pb(7, default=NO_SEAT)
    bishop: int = pb(8, default=NO_SEAT)
    supply: Goods = pb(9, default=ZERO)  # the bank's resource cubes (money is not limited)
    workshop_supply: tuple[int, ...] = pb(10, default=())  # one kind id per tile, sorted
    starting_pool: tuple[int, ...] = pb(11, default=())  # setup tiles not chosen yet
    present: tuple[Presence, ...] = pb(12, default=())  # named characters in Florence
    bag: tuple[int, ...] = pb(13, default=())  # named characters still in the cloth bag, sorted
    departed: tuple[int, ...] = pb(14, default=())  # named characters out of the game
    masterpieces: tuple[int, ...] = pb(15, default=())  # artists whose card is flipped
    works: tuple[WorkSpot, ...] = pb(16, default=())
    pulpits: tuple[Pulpit, ...] = pb(17, default=())
    withheld_artist: int = pb(18, default=0)  # on Life in Florenza VI this round (Captain)
    withheld_worker: int = pb(19, default=NO_SEAT)  # seat whose worker is on card VI this round
    expelled: int = pb(20, default=0)  # preacher expelled by the Bishop this round
    pending: PendingDice | None = pb(21, default=None)
    players: tuple[PlayerState, ...] = pb(22, default=())
    final: tuple[FinalScore, ...] = pb(23, default=())
    placings: tuple[int, ...] = pb(24, default=())
