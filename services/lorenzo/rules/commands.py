"""Commands of Lorenzo il Magnifico: small, enumerable decisions (imperative names)."""

from __future__ import annotations

from dataclasses import dataclass

from services.lorenzo.rules.model import Member, Privilege


@dataclass(frozen=True, slots=True)
class ChooseBonusTile:
    """Advanced setup: take one of the remaining personal bonus tiles (reverse turn order)."""

    tile: int


@dataclass(frozen=True, slots=True)
class DraftLeader:
    """Advanced setup: keep one leader from the hand in front of you and pass the rest."""

    leader: int


@dataclass(frozen=True, slots=True)
class PlaceFamilyMember:
    """Place a member on a space; ``servants`` raise its value (exactly what the action uses),
    ``cost_option`` picks a card's cost alternative and ``discount_option`` a character's discount."""

    member: Member
    space: int
    servants: int = 0
    cost_option: int = 0
    discount_option: int = 0


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up the turn's placement: only when no member can be placed (rulebook: lose the action)."""


@dataclass(frozen=True, slots=True)
class ChooseCouncilPrivileges:
    """Pick the owed privileges: all different, in ascending order."""

    privileges: tuple[Privilege, ...]


@dataclass(frozen=True, slots=True)
class ChooseExchange:
    """Production: pick one exchange alternative of ``card`` (1-based) or 0 to skip it."""

    card: int
    option: int


@dataclass(frozen=True, slots=True)
class TakeBonusCard:
    """A card effect's extra card action: take the card on ``space`` without a family member."""

    space: int
    servants: int = 0
    cost_option: int = 0
    discount_option: int = 0


@dataclass(frozen=True, slots=True)
class PerformBonusAction:
    """A card or leader effect's extra harvest / production action, raised by ``servants``."""

    servants: int = 0


@dataclass(frozen=True, slots=True)
class SkipBonusAction:
    """Decline an extra card / harvest / production action."""


@dataclass(frozen=True, slots=True)
class PlayLeader:
    """Play a leader whose requirements you meet; Lorenzo de' Medici names the leader it copies."""

    leader: int
    copy_of: int | None = None


@dataclass(frozen=True, slots=True)
class DiscardLeader:
    """Discard a leader from hand for one council privilege."""

    leader: int


@dataclass(frozen=True, slots=True)
class ActivateLeader:
    """Use a played once-per-round ability; Federico da Montefeltro names the coloured member."""

    leader: int
    member: Member | None = None


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Finish the turn after the placement (only needed while leader actions remain possible)."""


@dataclass(frozen=True, slots=True)
class AnswerVaticanReport:
    """Vatican Report: support the Church (spend all faith for victory points) or not."""

    support: bool


@dataclass(frozen=True, slots=True)
class StartRound:
    """System: fill the towers and roll the dice."""


@dataclass(frozen=True, slots=True)
class ResolveVaticanReport:
    """System: apply the Vatican Report answers (support or excommunication)."""


@dataclass(frozen=True, slots=True)
class EndRound:
    """System: clear the board, set the next turn order from the Council Palace."""


@dataclass(frozen=True, slots=True)
class EndGame:
    """System: final scoring."""


Command = (
    ChooseBonusTile
    | DraftLeader
    | PlaceFamilyMember
    | Pass
    | ChooseCouncilPrivileges
    | ChooseExchange
    | TakeBonusCard
    | PerformBonusAction
    | SkipBonusAction
    | PlayLeader
    | DiscardLeader
    | ActivateLeader
    | EndTurn
    | AnswerVaticanReport
    | StartRound
    | ResolveVaticanReport
    | EndRound
    | EndGame
)

COMMAND_TYPES: tuple[type, ...] = (
    ChooseBonusTile,
    DraftLeader,
    PlaceFamilyMember,
    Pass,
    ChooseCouncilPrivileges,
    ChooseExchange,
    TakeBonusCard,
    PerformBonusAction,
    SkipBonusAction,
    PlayLeader,
    DiscardLeader,
    ActivateLeader,
    EndTurn,
    AnswerVaticanReport,
    StartRound,
    ResolveVaticanReport,
    EndRound,
    EndGame,
)
