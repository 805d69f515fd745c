"""Events of Lorenzo il Magnifico (past tense). Everything random is recorded here; ``evolve`` never draws."""

from __future__ import annotations

from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Decision, Deck, FinalScore, Member, Phase, Privilege, Source
from shared.wire import message, pb


@message(tag=1)
class GameStarted:
    seats: int = pb(1)
    advanced: bool = pb(2)
    turn_order: tuple[int, ...] = pb(3)


@message(tag=2)
class ExcommunicationTilesDrawn:
    tiles: tuple[int, ...] = pb(1)  # one per period


@message(tag=3)
class DecksShuffled:
    """Server only: the order of the four development decks (period I on top)."""

    decks: tuple[Deck, ...] = pb(1)


@message(tag=4)
class ResourcesGained:
    seat: int = pb(1)
    goods: Goods = pb(2)
    source: Source = pb(3)


@message(tag=5)
class ResourcesPaid:
    seat: int = pb(1)
    goods: Goods = pb(2)
    source: Source = pb(3)


@message(tag=6)
class BonusTileSelectionStarted:
    pickers: tuple[int, ...] = pb(1)
    tiles: tuple[int, ...] = pb(2)


@message(tag=7)
class BonusTileChosen:
    seat: int = pb(1)
    tile: int = pb(2)


@message(tag=8)
class LeadersDealt:
    """Seat only: the four leaders that start this seat's draft."""

    seat: int = pb(1)
    leaders: tuple[int, ...] = pb(2)


@message(tag=9)
class LeaderDrafted:
    """Seat only."""

    seat: int = pb(1)
    leader: int = pb(2)


@message(tag=10)
class DraftHandReceived:
    """Seat only: the leaders passed to this seat."""

    seat: int = pb(1)
    leaders: tuple[int, ...] = pb(2)


@message(tag=11)
class PhaseChanged:
    phase: Phase = pb(1)


@message(tag=12)
class RoundStarted:
    round: int = pb(1)
    turn_queue: tuple[int, ...] = pb(2)


@message(tag=13)
class TowersFilled:
    cards: tuple[int, ...] = pb(1)  # per tower space 1..16


@message(tag=14)
class DiceRolled:
    black: int = pb(1)
    white: int = pb(2)
    orange: int = pb(3)


@message(tag=15)
class FamilyMemberPlaced:
    seat: int = pb(1)
    member: Member = pb(2)
    space: int = pb(3)
    value: int = pb(4)


@message(tag=16)
class PlacementPassed:
    seat: int = pb(1)


@message(tag=17)
class CardTaken:
    seat: int = pb(1)
    card: int = pb(2)
    card_type: CardType = pb(3)
    space: int = pb(4)


@message(tag=18)
class DecisionsQueued:
    seat: int = pb(1)
    decisions: tuple[Decision, ...] = pb(2)


@message(tag=19)
class CouncilPrivilegesChosen:
    seat: int = pb(1)
    privileges: tuple[Privilege, ...] = pb(2)


@message(tag=20)
class ExchangeBudgetSet:
    seat: int = pb(1)
    goods: Goods = pb(2)


@message(tag=21)
class ExchangeChosen:
    seat: int = pb(1)
    card: int = pb(2)
    option: int = pb(3)
    paid: Goods = pb(4)


@message(tag=22)
class BonusCardActionTaken:
    seat: int = pb(1)
    space: int = pb(2)
    value: int = pb(3)


@message(tag=23)
class BonusActionPerformed:
    seat: int = pb(1)
    value: int = pb(2)


@message(tag=24)
class BonusActionSkipped:
    seat: int = pb(1)


@message(tag=25)
class LeaderPlayed:
    seat: int = pb(1)
    leader: int = pb(2)
    copy_of: int | None = pb(3)


@message(tag=26)
class LeaderDiscarded:
    seat: int = pb(1)
    leader: int = pb(2)


@message(tag=27)
class LeaderActivated:
    seat: int = pb(1)
    leader: int = pb(2)


@message(tag=28)
class FamilyMemberValueSet:
    seat: int = pb(1)
    member: Member = pb(2)
    value: int = pb(3)


@message(tag=29)
class TurnEnded:
    seat: int = pb(1)


@message(tag=30)
class VaticanAnswerGiven:
    """Seat only until the report is resolved."""

    seat: int = pb(1)
    support: bool = pb(2)


@message(tag=31)
class ChurchSupported:
    seat: int = pb(1)
    faith: int = pb(2)
    victory: int = pb(3)


@message(tag=32)
class Excommunicated:
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
    round: int = pb(1)
    turn_order: tuple[int, ...] = pb(2)


@message(tag=35)
class FinalScoreComputed:
    score: FinalScore = pb(1)


@message(tag=36)
class GameEnded:
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
