"""Events of Lorenzo il Magnifico (past tense). Everything random is recorded here; ``evolve`` never draws."""

from __future__ import annotations

from dataclasses import dataclass

from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Decision, Deck, FinalScore, Member, Phase, Privilege, Source


@dataclass(frozen=True, slots=True)
class GameStarted:
    seats: int
    advanced: bool
    turn_order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExcommunicationTilesDrawn:
    tiles: tuple[int, ...]  # one per period


@dataclass(frozen=True, slots=True)
class DecksShuffled:
    """Server only: the order of the four development decks (period I on top)."""

    decks: tuple[Deck, ...]


@dataclass(frozen=True, slots=True)
class ResourcesGained:
    seat: int
    goods: Goods
    source: Source


@dataclass(frozen=True, slots=True)
class ResourcesPaid:
    seat: int
    goods: Goods
    source: Source


@dataclass(frozen=True, slots=True)
class BonusTileSelectionStarted:
    pickers: tuple[int, ...]
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BonusTileChosen:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class LeadersDealt:
    """Seat only: the four leaders that start this seat's draft."""

    seat: int
    leaders: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeaderDrafted:
    """Seat only."""

    seat: int
    leader: int


@dataclass(frozen=True, slots=True)
class DraftHandReceived:
    """Seat only: the leaders passed to this seat."""

    seat: int
    leaders: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    phase: Phase


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    turn_queue: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TowersFilled:
    cards: tuple[int, ...]  # per tower space 1..16


@dataclass(frozen=True, slots=True)
class DiceRolled:
    black: int
    white: int
    orange: int


@dataclass(frozen=True, slots=True)
class FamilyMemberPlaced:
    seat: int
    member: Member
    space: int
    value: int


@dataclass(frozen=True, slots=True)
class PlacementPassed:
    seat: int


@dataclass(frozen=True, slots=True)
class CardTaken:
    seat: int
    card: int
    card_type: CardType
    space: int


@dataclass(frozen=True, slots=True)
class DecisionsQueued:
    seat: int
    decisions: tuple[Decision, ...]


@dataclass(frozen=True, slots=True)
class CouncilPrivilegesChosen:
    seat: int
    privileges: tuple[Privilege, ...]


@dataclass(frozen=True, slots=True)
class ExchangeBudgetSet:
    seat: int
    goods: Goods


@dataclass(frozen=True, slots=True)
class ExchangeChosen:
    seat: int
    card: int
    option: int
    paid: Goods


@dataclass(frozen=True, slots=True)
class BonusCardActionTaken:
    seat: int
    space: int
    value: int


@dataclass(frozen=True, slots=True)
class BonusActionPerformed:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class BonusActionSkipped:
    seat: int


@dataclass(frozen=True, slots=True)
class LeaderPlayed:
    seat: int
    leader: int
    copy_of: int | None


@dataclass(frozen=True, slots=True)
class LeaderDiscarded:
    seat: int
    leader: int


@dataclass(frozen=True, slots=True)
class LeaderActivated:
    seat: int
    leader: int


@dataclass(frozen=True, slots=True)
class FamilyMemberValueSet:
    seat: int
    member: Member
    value: int


@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int


@dataclass(frozen=True, slots=True)
class VaticanAnswerGiven:
    """Seat only until the report is resolved."""

    seat: int
    support: bool


@dataclass(frozen=True, slots=True)
class ChurchSupported:
    seat: int
    faith: int
    victory: int


@dataclass(frozen=True, slots=True)
class Excommunicated:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class FaithPointsConverted:
    """End of period III: an excommunicated player still scores the faith track, then drops to 0."""

    seat: int
    faith: int
    victory: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    turn_order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FinalScoreComputed:
    score: FinalScore


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    placings: tuple[int, ...]


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
