"""Events of Florenza (past tense). Every die and every draw is recorded here; ``evolve`` never draws."""

from __future__ import annotations

import typing

from services.florenza.rules.content_types import Skill
from services.florenza.rules.goods import Goods, Resource
from services.florenza.rules.model import (
    DieUse,
    FinalScore,
    PendingDice,
    Phase,
    Presence,
    Source,
    Title,
    Trade,
    WorkSpot,
)
from shared.core.wire import message, pb


@message(tag=1)
class GameStarted:
    """The match began: the random first turn order and the components laid out (seed, setup)."""

    seats: int = pb(1)
    turn_order: tuple[int, ...] = pb(2)
    supply: Goods = pb(3)  # the bank's cubes, after each family's starting resources
    workshop_supply: tuple[int, ...] = pb(4)  # one kind id per tile, the starting pool set aside
    starting_pool: tuple[int, ...] = pb(5)  # the twelve starting workshops (seed 5)
    bag: tuple[int, ...] = pb(6)  # the 40 named characters in the cloth bag
    works: tuple[WorkSpot, ...] = pb(7)  # every art work space, open
    district_slots: int = pb(8)
    workers_per_family: int = pb(9)  # all in the reserve until handed out
    pickers: tuple[int, ...] = pb(10)  # setup 5: who chooses a starting workshop, in order


@message(tag=2)
class CharactersArrived:
    """Named characters drawn from the bag, each under the Life in Florenza card of its mark."""

    arrivals: tuple[Presence, ...] = pb(1)


@message(tag=3)
class StartingWorkshopChosen:
    """Setup: a seat took a starting workshop, built, into ``slot``."""

    seat: int = pb(1)
    workshop: int = pb(2)
    slot: int = pb(3)


@message(tag=4)
class StartingPoolReturned:
    """Setup: the starting workshops nobody chose went back to the supply."""

    workshops: tuple[int, ...] = pb(1)


@message(tag=5)
class RoundStarted:
    """The round marker moved; ``turn_order`` holds for the whole round."""

    round: int = pb(1)
    turn_order: tuple[int, ...] = pb(2)


@message(tag=6)
class PhaseChanged:
    """A new step of the round; ``active`` is the seat to act in it (-1 for a system step)."""

    phase: Phase = pb(1)
    active: int = pb(2)


@message(tag=7)
class TurnBegan:
    """``seat`` is to act next in the current step."""

    seat: int = pb(1)


@message(tag=8)
class IncomeDieRolled:
    """Step 1: the start player's die names the resource every family receives."""

    face: int = pb(1)
    resource: Resource = pb(2)


@message(tag=9)
class GoodsGained:
    """A seat received money and resources (the cubes leave the bank's supply)."""

    seat: int = pb(1)
    goods: Goods = pb(2)
    source: Source = pb(3)


@message(tag=10)
class GoodsPaid:
    """A seat paid money and resources (the cubes go back to the bank's supply)."""

    seat: int = pb(1)
    goods: Goods = pb(2)
    source: Source = pb(3)


@message(tag=11)
class PrestigeChanged:
    """A seat's prestige track moved by ``delta`` (it may go below zero)."""

    seat: int = pb(1)
    delta: int = pb(2)
    source: Source = pb(3)


@message(tag=12)
class ChurchInfluenceChanged:
    """A seat's church influence track moved by ``delta``."""

    seat: int = pb(1)
    delta: int = pb(2)
    source: Source = pb(3)


@message(tag=13)
class WorkersGained:
    """Workers came from the seat's reserve onto its board (never more than the reserve holds)."""

    seat: int = pb(1)
    count: int = pb(2)
    source: Source = pb(3)


@message(tag=14)
class WorkerWithheld:
    """Captain of the People: one worker of ``seat`` is on Life in Florenza VI for the round."""

    captain: int = pb(1)
    seat: int = pb(2)


@message(tag=15)
class ArtistWithheld:
    """Captain of the People: ``artist`` is on Life in Florenza VI for the round."""

    captain: int = pb(1)
    artist: int = pb(2)


@message(tag=16)
class WorkerLured:
    """Bishop: one worker of ``seat`` went from its board back to its reserve."""

    bishop: int = pb(1)
    seat: int = pb(2)


@message(tag=17)
class PreacherExpelled:
    """Bishop: ``preacher`` takes no offering this round."""

    bishop: int = pb(1)
    preacher: int = pb(2)


@message(tag=18)
class PrivilegeDeclined:
    """The Captain or the Bishop used no privilege."""

    seat: int = pb(1)
    title: Title = pb(2)


@message(tag=19)
class WorkerSentToWorkshop:
    """Step 4: a worker stands on a built workshop (``slot`` of ``owner``'s district)."""

    seat: int = pb(1)
    owner: int = pb(2)
    slot: int = pb(3)


@message(tag=20)
class WorkshopPlanned:
    """Step 4: an unbuilt workshop tile and a worker went into the seat's lowest empty space."""

    seat: int = pb(1)
    workshop: int = pb(2)
    slot: int = pb(3)


@message(tag=21)
class ArtistHired:
    """Step 4: a worker stands on an art work with the hired artist's tile."""

    seat: int = pb(1)
    work: int = pb(2)
    district: int = pb(3)  # the district of a Palazzo or Chiesa work, -1 for a public one
    artist: int = pb(4)


@message(tag=22)
class MarketVisited:
    """Step 4: a worker went to the market."""

    seat: int = pb(1)


@message(tag=23)
class OfferingMade:
    """Step 4: a worker and a preacher stand on a pulpit (the offering is a ``GoodsPaid``)."""

    seat: int = pb(1)
    preacher: int = pb(2)
    duomo: bool = pb(3)


@message(tag=24)
class DiceRolled:
    """One die (two in the Duomo) rolled for a preacher's workers or an artist's bonus."""

    seat: int = pb(1)
    use: DieUse = pb(2)
    dice: tuple[int, ...] = pb(3)
    character: int = pb(4)


@message(tag=25)
class DiceChoiceOffered:
    """Two different faces in the Duomo: the seat keeps one of them (``ChooseDie``)."""

    pending: PendingDice = pb(1)


@message(tag=26)
class DieChosen:
    """The seat kept this face of the two."""

    seat: int = pb(1)
    die: int = pb(2)


@message(tag=27)
class PlacementPassed:
    """Step 4: the seat places no more workers this round (``forced``: it had none left)."""

    seat: int = pb(1)
    forced: bool = pb(2)


@message(tag=28)
class MarketTraded:
    """Step 5: one trade with the bank."""

    seat: int = pb(1)
    trade: Trade = pb(2)
    paid: Goods = pb(3)
    got: Goods = pb(4)


@message(tag=29)
class MarketLeft:
    """Step 5: the seat is done at the market; its worker is back in the reserve."""

    seat: int = pb(1)


@message(tag=30)
class WorkshopWorked:
    """Step 6: the worker on ``owner``'s ``slot`` produced for ``seat`` and went back to the reserve."""

    seat: int = pb(1)
    owner: int = pb(2)
    slot: int = pb(3)
    workshop: int = pb(4)


@message(tag=31)
class WorkshopBuilt:
    """Step 6: the seat paid the workshop's cost; the tile is turned yellow side up."""

    seat: int = pb(1)
    slot: int = pb(2)
    workshop: int = pb(3)


@message(tag=32)
class WorkshopBuildFailed:
    """Step 6: the seat could not pay; tile and worker went back (the prestige loss is separate)."""

    seat: int = pb(1)
    slot: int = pb(2)
    workshop: int = pb(3)


@message(tag=33)
class ArtWorkCompleted:
    """Step 7: paid and completed; the family crest marks it, artist and worker went back."""

    seat: int = pb(1)
    work: int = pb(2)
    district: int = pb(3)
    artist: int = pb(4)
    skill: Skill = pb(5)


@message(tag=34)
class ArtWorkFailed:
    """Step 7: the seat could not pay; nothing was paid, artist and worker went back."""

    seat: int = pb(1)
    work: int = pb(2)
    district: int = pb(3)
    artist: int = pb(4)


@message(tag=35)
class MasterpieceCreated:
    """A named artist's masterpiece: the card is flipped and gives no other masterpiece (seed 7.3)."""

    seat: int = pb(1)
    artist: int = pb(2)


@message(tag=36)
class TitlesAssigned:
    """Step 8: the Captain of the People and the Bishop of the next round (-1: nobody)."""

    captain: int = pb(1)
    bishop: int = pb(2)


@message(tag=37)
class PrestigeBanked:
    """Step 8: the new Captain took certificates worth his prestige track, which went back to 0."""

    seat: int = pb(1)
    amount: int = pb(2)


@message(tag=38)
class CardinalCreated:
    """Step 8: promoted Cardinal (the prestige and the church reset follow as their own events)."""

    seat: int = pb(1)


@message(tag=39)
class WorkersReturned:
    """Step 9: every worker of the seat is back in its reserve (``board`` of them from its board)."""

    seat: int = pb(1)
    board: int = pb(2)
    elsewhere: int = pb(3)  # on a pulpit or on Life in Florenza VI


@message(tag=40)
class RoundCleared:
    """Step 9: withheld and expelled characters and the preachers on pulpits are back on their cards."""


@message(tag=41)
class CharactersDeparted:
    """Step 9: the characters under Life in Florenza I left the game."""

    characters: tuple[int, ...] = pb(1)


@message(tag=42)
class LifeShifted:
    """Step 9: every character moved one Life in Florenza card to the left."""


@message(tag=43)
class GameScored:
    """Final scoring; ``placings[seat]`` is 1 for the winner (ties share)."""

    scores: tuple[FinalScore, ...] = pb(1)
    placings: tuple[int, ...] = pb(2)


@message(tag=44)
class CertificatesKeptHidden:
    """Setup: this match keeps each family's certificates hidden from the others until the end (option
    ``hidden_certificates``); then step 8 banks with ``CertificatesTaken`` and ``PrestigeBankedHidden``."""


@message(tag=45)
class CertificatesTaken:
    """Step 8, certificates hidden: the new Captain took certificates worth his prestige track. Seen by
    his seat alone (and the server); the public ``PrestigeBankedHidden`` follows."""

    seat: int = pb(1)
    amount: int = pb(2)


@message(tag=46)
class PrestigeBankedHidden:
    """Step 8, certificates hidden: the new Captain banked his prestige track as certificates (how many
    is his alone, ``CertificatesTaken``); the track went back to 0."""

    seat: int = pb(1)


Event = (
    GameStarted
    | CharactersArrived
    | StartingWorkshopChosen
    | StartingPoolReturned
    | RoundStarted
    | PhaseChanged
    | TurnBegan
    | IncomeDieRolled
    | GoodsGained
    | GoodsPaid
    | PrestigeChanged
    | ChurchInfluenceChanged
    | WorkersGained
    | WorkerWithheld
    | ArtistWithheld
    | WorkerLured
    | PreacherExpelled
    | PrivilegeDeclined
    | WorkerSentToWorkshop
    | WorkshopPlanned
    | ArtistHired
    | MarketVisited
    | OfferingMade
    | DiceRolled
    | DiceChoiceOffered
    | DieChosen
    | PlacementPassed
    | MarketTraded
    | MarketLeft
    | WorkshopWorked
    | WorkshopBuilt
    | WorkshopBuildFailed
    | ArtWorkCompleted
    | ArtWorkFailed
    | MasterpieceCreated
    | TitlesAssigned
    | PrestigeBanked
    | CardinalCreated
    | WorkersReturned
    | RoundCleared
    | CharactersDeparted
    | LifeShifted
    | GameScored
    | CertificatesKeptHidden
    | CertificatesTaken
    | PrestigeBankedHidden
)

EVENT_TYPES: tuple[type, ...] = typing.get_args(Event)  # in tag order
