"""Commands of Lorenzo il Magnifico: small, enumerable decisions (imperative names)."""

from __future__ import annotations

from services.lorenzo.rules.model import Member, Privilege
from shared.core.wire import message, pb


@message(tag=1)
class ChooseBonusTile:
    """Advanced setup: take one of the remaining personal bonus tiles (reverse turn order)."""

    tile: int = pb(1)


@message(tag=2)
class DraftLeader:
    """Advanced setup: keep one leader from the hand in front of you and pass the rest."""

    leader: int = pb(1)


@message(tag=3)
class PlaceFamilyMember:
    """Place a member on a space; ``servants`` raise its value (exactly what the action uses),
    ``cost_option`` picks a card's cost alternative and ``discount_option`` a character's discount."""

    member: Member = pb(1)
    space: int = pb(2)
    servants: int = pb(3, default=0)
    cost_option: int = pb(4, default=0)
    discount_option: int = pb(5, default=0)


@message(tag=4)
class Pass:
    """Give up the turn's placement: only when no member can be placed (rulebook: lose the action)."""


@message(tag=5)
class ChooseCouncilPrivileges:
    """Pick the owed privileges: all different, in ascending order."""

    privileges: tuple[Privilege, ...] = pb(1)


@message(tag=6)
class ChooseExchange:
    """Production: pick one exchange alternative of ``card`` (1-based) or 0 to skip it."""

    card: int = pb(1)
    option: int = pb(2)


@message(tag=7)
class TakeBonusCard:
    """A card effect's extra card action: take the card on ``space`` without a family member."""

    space: int = pb(1)
    servants: int = pb(2, default=0)
    cost_option: int = pb(3, default=0)
    discount_option: int = pb(4, default=0)


@message(tag=8)
class PerformBonusAction:
    """A card or leader effect's extra harvest / production action, raised by ``servants``."""

    servants: int = pb(1, default=0)


@message(tag=9)
class SkipBonusAction:
    """Decline an extra card / harvest / production action."""


@message(tag=10)
class PlayLeader:
    """Play a leader whose requirements you meet; Lorenzo de' Medici names the leader it copies."""

    leader: int = pb(1)
    copy_of: int | None = pb(2, default=None)


@message(tag=11)
class DiscardLeader:
    """Discard a leader from hand for one council privilege."""

    leader: int = pb(1)


@message(tag=12)
class ActivateLeader:
    """Use a played once-per-round ability; Federico da Montefeltro names the coloured member."""

    leader: int = pb(1)
    member: Member | None = pb(2, default=None)


@message(tag=13)
class EndTurn:
    """Finish the turn after the placement (only needed while leader actions remain possible)."""


@message(tag=14)
class AnswerVaticanReport:
    """Vatican Report: support the Church (spend all faith for victory points) or not."""

    support: bool = pb(1)


@message(tag=15)
class StartRound:
    """System: fill the towers and roll the dice."""


@message(tag=16)
class ResolveVaticanReport:
    """System: apply the Vatican Report answers (support or excommunication)."""


@message(tag=17)
class EndRound:
    """System: clear the board, set the next turn order from the Council Palace."""


@message(tag=18)
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
