"""Commands of Trajan: small, enumerable decisions (imperative names).

A turn is a chain of small choices (``StepKind``): pick up a bowl, drop the markers one colour at a time,
then the Trajan tile's effect, the action and its options, and extra actions. Each command answers the
step the active player owes now; the quarter end asks for demand payments and the consul's bonus tile.
"""

from __future__ import annotations

from services.trajan.rules.content_types import Action, Colour, Commodity, ForumTile
from services.trajan.rules.model import Payment, Pile
from shared.core.wire import message, pb

# ---------------------------------------------------------------- setup


@message(tag=1)
class PlaceStartMarkers:
    """Setup: put two markers (any two of the twelve, ``first`` <= ``second``) into the next empty bowl."""

    bowl: int = pb(1)  # must be the seat's first empty bowl, I..VI in order
    first: Colour = pb(2)
    second: Colour = pb(3)


@message(tag=2)
class DrawStartCommodity:
    """Setup: take one of the three starting cards from the draw pile or the top of a discard pile."""

    pile: Pile = pb(1)


@message(tag=3)
class TakeStartTrajanTile:
    """Setup: take the top tile of a stack not yet taken from and lay it on slot II, IV or VI."""

    stack: int = pb(1)
    slot: int = pb(2)


# ---------------------------------------------------------------- the turn


@message(tag=4)
class ChooseBowl:
    """Pick up every marker of a non-empty bowl; the time marker moves as many spaces."""

    bowl: int = pb(1)


@message(tag=5)
class SowMarker:
    """Drop one of the picked-up markers, of this colour, into the next bowl clockwise."""

    colour: Colour = pb(1)


@message(tag=6)
class UseTrajanEffect:
    """Use the completed Trajan tile's effect (``action``: where a [+2] marker goes, else unset)."""

    action: Action | None = pb(1, default=None)


@message(tag=7)
class Decline:
    """Decline what is offered now: the action, a bonus action, an extra action or a Trajan tile's effect."""


@message(tag=8)
class UseExtraAction:
    """Spend an extra action tile (or a wild one): the action just taken once more (twice with [+2])."""

    tile: ForumTile = pb(1)


# ---------------------------------------------------------------- seaport


@message(tag=9)
class DrawCommodities:
    """Seaport: draw two cards from the draw pile, then discard one (``DiscardCommodity``)."""


@message(tag=10)
class DiscardCommodity:
    """Seaport, after drawing two: put one card from the hand face up on a discard pile."""

    commodity: Commodity = pb(1)
    pile: Pile = pb(2)


@message(tag=11)
class TakeDiscard:
    """Seaport: take the top card of a discard pile."""

    pile: Pile = pb(1)


@message(tag=12)
class DisplayCommodities:
    """Seaport: play one or two cards face up in front of you, then draw as many (``cards`` sorted)."""

    cards: tuple[Commodity, ...] = pb(1)


@message(tag=13)
class StartShipment:
    """Seaport: start loading a ship (then ``LoadCommodity``, ``LoadWildCommodity``, ``DeliverShipment``)."""

    ship: int = pb(1)


@message(tag=14)
class LoadCommodity:
    """Load one card of this commodity from the hand onto the ship."""

    commodity: Commodity = pb(1)


@message(tag=15)
class LoadWildCommodity:
    """Load a wild commodity forum tile: it stands for any card and leaves the game once delivered."""


@message(tag=16)
class DeliverShipment:
    """Deliver the loaded shipment: score the ship's value, the cards go to the display."""


# ---------------------------------------------------------------- the other actions


@message(tag=17)
class TakeForumTile:
    """Forum: take one tile from the forum (an extra action tile included) onto the mat."""

    tile: ForumTile = pb(1)


@message(tag=18)
class RecruitLegionnaire:
    """Military: one figure from the supply into the military camp."""


@message(tag=19)
class MoveLeader:
    """Military: move the leader to an adjacent province, taking its forum tile if one lies there."""

    province: int = pb(1)


@message(tag=20)
class DeployLegionnaire:
    """Military: a legionnaire from the camp into the leader's province (one own legionnaire per province)."""


@message(tag=21)
class TakeTrajanTile:
    """Trajan: the top tile of a stack onto the slot marked by the arch."""

    stack: int = pb(1)


@message(tag=22)
class AdvanceInSenate:
    """Senate: the senate disc one space forward, scoring that space's VP."""


@message(tag=23)
class RecruitWorker:
    """Construction: one figure from the supply into the work area."""


@message(tag=24)
class PlaceWorker:
    """Construction: a worker from the work area onto a site (any site first, then beside an own worker)."""

    site: int = pb(1)


# ---------------------------------------------------------------- quarter end


@message(tag=25)
class MeetDemands:
    """Quarter end: how each revealed demand is met, in reveal order (a choice only when there is one)."""

    payments: tuple[Payment, ...] = pb(1)


@message(tag=26)
class ChooseBonusTile:
    """Quarter end, the consul: take one bonus tile beside the senate yellow side up (the other goes grey
    side up to the proconsul)."""

    tile: int = pb(1)


# ---------------------------------------------------------------- system steps


@message(tag=27)
class EndRound:
    """System: the round is over (reveal a demand and start the next, or begin the quarter end)."""


@message(tag=28)
class ScoreQuarter:
    """System: settle the demands nobody had to choose for, then rank the senate."""


@message(tag=29)
class EndQuarter:
    """System: remove and refill tiles, reset the ships, and start the next quarter (or end the game)."""


@message(tag=30)
class EndGame:
    """System: final scoring."""


Command = (
    PlaceStartMarkers
    | DrawStartCommodity
    | TakeStartTrajanTile
    | ChooseBowl
    | SowMarker
    | UseTrajanEffect
    | Decline
    | UseExtraAction
    | DrawCommodities
    | DiscardCommodity
    | TakeDiscard
    | DisplayCommodities
    | StartShipment
    | LoadCommodity
    | LoadWildCommodity
    | DeliverShipment
    | TakeForumTile
    | RecruitLegionnaire
    | MoveLeader
    | DeployLegionnaire
    | TakeTrajanTile
    | AdvanceInSenate
    | RecruitWorker
    | PlaceWorker
    | MeetDemands
    | ChooseBonusTile
    | EndRound
    | ScoreQuarter
    | EndQuarter
    | EndGame
)

COMMAND_TYPES: tuple[type, ...] = (
    PlaceStartMarkers,
    DrawStartCommodity,
    TakeStartTrajanTile,
    ChooseBowl,
    SowMarker,
    UseTrajanEffect,
    Decline,
    UseExtraAction,
    DrawCommodities,
    DiscardCommodity,
    TakeDiscard,
    DisplayCommodities,
    StartShipment,
    LoadCommodity,
    LoadWildCommodity,
    DeliverShipment,
    TakeForumTile,
    RecruitLegionnaire,
    MoveLeader,
    DeployLegionnaire,
    TakeTrajanTile,
    AdvanceInSenate,
    RecruitWorker,
    PlaceWorker,
    MeetDemands,
    ChooseBonusTile,
    EndRound,
    ScoreQuarter,
    EndQuarter,
    EndGame,
)
