"""Events of Lorenzo il Magnifico (past tense). Everything random is recorded here; ``evolve`` never draws."""

from __future__ import annotations

from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Decision, Deck, FinalScore, Member, Phase, Privilege, Source
from shared.core.wire import message, pb


@message(tag=1)
class GameStarted:
    """The match began: seat count, whether the advanced rules apply, and the random first turn order."""

    seats: int = pb(1)
    advanced: bool = pb(2)
    turn_order: tuple[int, ...] = pb(3)


@message(tag=2)
class ExcommunicationTilesDrawn:
    """Setup: the excommunication tile of each period, drawn at random."""

    tiles: tuple[int, ...] = pb(1)  # one per period


@message(tag=3)
class DecksShuffled:
    """Server only: the order of the four development decks (period I on top)."""

    decks: tuple[Deck, ...] = pb(1)


@message(tag=4)
class ResourcesGained:
    """A seat received goods (after excommunication reductions); ``source`` says why."""

    seat: int = pb(1)
    goods: Goods = pb(2)
    source: Source = pb(3)


@message(tag=5)
class ResourcesPaid:
    """A seat paid goods; ``source`` says why (servants, tower fee, card cost, exchange ...)."""

    seat: int = pb(1)
    goods: Goods = pb(2)
    source: Source = pb(3)


@message(tag=6)
class BonusTileSelectionStarted:
    """Advanced setup: the seats pick personal bonus tiles from ``tiles``, in this order."""

    pickers: tuple[int, ...] = pb(1)
    tiles: tuple[int, ...] = pb(2)


@message(tag=7)
class BonusTileChosen:
    """A seat took a personal bonus tile (basic game: every seat gets the standard one at setup)."""

    seat: int = pb(1)
    tile: int = pb(2)


@message(tag=8)
class LeadersDealt:
    """Seat only: the four leaders that start this seat's draft."""

    seat: int = pb(1)
    leaders: tuple[int, ...] = pb(2)


@message(tag=9)
class LeaderDrafted:
    """Seat only: the seat kept this leader from the draft hand it holds."""

    seat: int = pb(1)
    leader: int = pb(2)


@message(tag=10)
class DraftHandReceived:
    """Seat only: the leaders passed to this seat."""

    seat: int = pb(1)
    leaders: tuple[int, ...] = pb(2)


@message(tag=11)
class PhaseChanged:
    """The match moved to another phase."""

    phase: Phase = pb(1)


@message(tag=12)
class RoundStarted:
    """A round began: its number and the queue of turns, each seat four times (once per member)."""

    round: int = pb(1)
    turn_queue: tuple[int, ...] = pb(2)


@message(tag=13)
class TowersFilled:
    """Round setup: the card dealt to each tower space (0 = empty); they leave the decks."""

    cards: tuple[int, ...] = pb(1)  # per tower space 1..16


@message(tag=14)
class DiceRolled:
    """Round setup: the values of the black, white and orange dice."""

    black: int = pb(1)
    white: int = pb(2)
    orange: int = pb(3)


@message(tag=15)
class FamilyMemberPlaced:
    """A seat placed a family member on an action space; ``value``: the action value, servants included."""

    seat: int = pb(1)
    member: Member = pb(2)
    space: int = pb(3)
    value: int = pb(4)


@message(tag=16)
class PlacementPassed:
    """A seat gave up this turn's placement (it could place no member)."""

    seat: int = pb(1)


@message(tag=17)
class CardTaken:
    """A seat took the development card on a tower space."""

    seat: int = pb(1)
    card: int = pb(2)
    card_type: CardType = pb(3)
    space: int = pb(4)


@message(tag=18)
class DecisionsQueued:
    """Choices the seat now owes (privileges, exchanges, extra actions), ahead of any already owed."""

    seat: int = pb(1)
    decisions: tuple[Decision, ...] = pb(2)


@message(tag=19)
class CouncilPrivilegesChosen:
    """A seat picked the council privileges it owed (all different)."""

    seat: int = pb(1)
    privileges: tuple[Privilege, ...] = pb(2)


@message(tag=20)
class ExchangeBudgetSet:
    """A production began: its exchanges are paid only from these goods, owned before the action."""

    seat: int = pb(1)
    goods: Goods = pb(2)


@message(tag=21)
class ExchangeChosen:
    """A seat chose a building's exchange alternative (``option`` 0: skipped); ``paid`` leaves the budget."""

    seat: int = pb(1)
    card: int = pb(2)
    option: int = pb(3)
    paid: Goods = pb(4)


@message(tag=22)
class BonusCardActionTaken:
    """A seat used an owed extra card action on a tower space, with this action value."""

    seat: int = pb(1)
    space: int = pb(2)
    value: int = pb(3)


@message(tag=23)
class BonusActionPerformed:
    """A seat performed an owed extra harvest or production action with this value."""

    seat: int = pb(1)
    value: int = pb(2)


@message(tag=24)
class BonusActionSkipped:
    """A seat declined an owed extra card, harvest or production action."""

    seat: int = pb(1)


@message(tag=25)
class LeaderPlayed:
    """A seat played a leader from its hand; ``copy_of``: the leader Lorenzo de' Medici copies."""

    seat: int = pb(1)
    leader: int = pb(2)
    copy_of: int | None = pb(3)


@message(tag=26)
class LeaderDiscarded:
    """A seat discarded a leader from its hand (and owes one council privilege)."""

    seat: int = pb(1)
    leader: int = pb(2)


@message(tag=27)
class LeaderActivated:
    """A seat used a played leader's once-per-round ability."""

    seat: int = pb(1)
    leader: int = pb(2)


@message(tag=28)
class FamilyMemberValueSet:
    """Federico da Montefeltro: one of the seat's coloured members has this value this round."""

    seat: int = pb(1)
    member: Member = pb(2)
    value: int = pb(3)


@message(tag=29)
class TurnEnded:
    """A seat finished its turn; the next turn in the round's queue begins."""

    seat: int = pb(1)


@message(tag=30)
class VaticanAnswerGiven:
    """A seat's answer to the Vatican Report (support the Church or not); seat only."""

    seat: int = pb(1)
    support: bool = pb(2)


@message(tag=31)
class ChurchSupported:
    """Vatican Report: the seat supported the Church, spending all its faith for these victory points."""

    seat: int = pb(1)
    faith: int = pb(2)
    victory: int = pb(3)


@message(tag=32)
class Excommunicated:
    """Vatican Report: the seat took the period's excommunication tile."""

    seat: int = pb(1)
    tile: int = pb(2)


@message(tag=33)
class FaithPointsConverted:
    """End of period III: an excommunicated player still scores the faith track, then drops to 0."""

    seat: int = pb(1)
    faith: int = pb(2)
    victory: int = pb(3)


@message(tag=34)
class RoundEnded:
    """A round ended: the board is cleared and ``turn_order`` is the next one (Council Palace first)."""

    round: int = pb(1)
    turn_order: tuple[int, ...] = pb(2)


@message(tag=35)
class FinalScoreComputed:
    """Final scoring of one seat, part by part."""

    score: FinalScore = pb(1)


@message(tag=36)
class GameEnded:
    """The match is over: final scores and placings per seat (ties go to the seat ahead in turn order)."""

    scores: tuple[int, ...] = pb(1)
    placings: tuple[int, ...] = pb(2)


Event = (
    GameStarted
    | ExcommunicationTilesDrawn
    | DecksShuffled
    | ResourcesGained
    | ResourcesPaid
    | BonusTileSelectionStarted
    | BonusTileChosen
    | LeadersDealt
    | LeaderDrafted
    | DraftHandReceived
    | PhaseChanged
    | RoundStarted
    | TowersFilled
    | DiceRolled
    | FamilyMemberPlaced
    | PlacementPassed
    | CardTaken
    | DecisionsQueued
    | CouncilPrivilegesChosen
    | ExchangeBudgetSet
    | ExchangeChosen
    | BonusCardActionTaken
    | BonusActionPerformed
    | BonusActionSkipped
    | LeaderPlayed
    | LeaderDiscarded
    | LeaderActivated
    | FamilyMemberValueSet
    | TurnEnded
    | VaticanAnswerGiven
    | ChurchSupported
    | Excommunicated
    | FaithPointsConverted
    | RoundEnded
    | FinalScoreComputed
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    ExcommunicationTilesDrawn,
    DecksShuffled,
    ResourcesGained,
    ResourcesPaid,
    BonusTileSelectionStarted,
    BonusTileChosen,
    LeadersDealt,
    LeaderDrafted,
    DraftHandReceived,
    PhaseChanged,
    RoundStarted,
    TowersFilled,
    DiceRolled,
    FamilyMemberPlaced,
    PlacementPassed,
    CardTaken,
    DecisionsQueued,
    CouncilPrivilegesChosen,
    ExchangeBudgetSet,
    ExchangeChosen,
    BonusCardActionTaken,
    BonusActionPerformed,
    BonusActionSkipped,
    LeaderPlayed,
    LeaderDiscarded,
    LeaderActivated,
    FamilyMemberValueSet,
    TurnEnded,
    VaticanAnswerGiven,
    ChurchSupported,
    Excommunicated,
    FaithPointsConverted,
    RoundEnded,
    FinalScoreComputed,
    GameEnded,
)
