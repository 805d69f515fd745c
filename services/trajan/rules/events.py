"""Events of Trajan (past tense). Everything random is recorded here; ``evolve`` never draws.

Draws from face-down stacks and the bag are recorded by what came out; the pools they come from are
unordered (``SuppliesPrepared``), so there is no hidden order to keep: what a seat may not see is the
commodity cards in other hands and in the draw pile (``CommoditiesDrawn`` is seen by its seat only).
"""

from __future__ import annotations

from services.trajan.rules.content_types import Action, Colour, Commodity, Demand, ForumTile
from services.trajan.rules.model import FinalScore, Payment, Phase, Pile, Place, Reason, Step, TrajanStack
from shared.core.wire import message, pb

# ---------------------------------------------------------------- setup


@message(tag=1)
class GameStarted:
    """The match began: seats, the time-track lap for that count, figures per player and the arch's slot."""

    seats: int = pb(1)
    lap: int = pb(2)
    tokens: int = pb(3)  # small figures per player, all in the supply for now
    arch: int = pb(4)
    provinces: int = pb(5)
    ships: int = pb(6)


@message(tag=2)
class SuppliesPrepared:
    """Setup: the face-down pools, every one known to all (the component list): forum tiles, extra action
    tiles, commodity cards, bonus tiles in the bag, demand tiles, and the Trajan tiles sorted into stacks."""

    forum_stack: tuple[ForumTile, ...] = pb(1)
    extra_stack: tuple[ForumTile, ...] = pb(2)
    deck: tuple[Commodity, ...] = pb(3)
    bonus_bag: tuple[int, ...] = pb(4)
    demand_pool: tuple[Demand, ...] = pb(5)
    trajan_stacks: tuple[TrajanStack, ...] = pb(6)  # no top yet: every tile in ``rest``


@message(tag=3)
class ConstructionTilesPlaced:
    """Setup: one construction tile face up on each site, drawn at random (site 1 first)."""

    tiles: tuple[int, ...] = pb(1)


@message(tag=4)
class ProvinceTilesPlaced:
    """A forum tile drawn face up onto each of these provinces (setup, quarter ends)."""

    provinces: tuple[int, ...] = pb(1)
    tiles: tuple[ForumTile, ...] = pb(2)


@message(tag=5)
class ForumFilled:
    """Forum tiles and extra action tiles drawn face up into the forum (setup, quarter ends)."""

    forum_tiles: tuple[ForumTile, ...] = pb(1)  # from the forum stack
    extra_tiles: tuple[ForumTile, ...] = pb(2)  # from the extra action stack (the yellow spaces)


@message(tag=6)
class TokensMoved:
    """Small figures moved between the supply, the work area and the military camp."""

    seat: int = pb(1)
    source: Place = pb(2)
    destination: Place = pb(3)
    count: int = pb(4)


@message(tag=7)
class PhaseChanged:
    """The match entered another phase."""

    phase: Phase = pb(1)


@message(tag=8)
class StartMarkersPlaced:
    """Setup: a seat put two markers into one bowl."""

    seat: int = pb(1)
    bowl: int = pb(2)
    markers: tuple[Colour, ...] = pb(3)


@message(tag=9)
class TrajanStackTopRevealed:
    """The next tile of a Trajan stack, drawn at random from the tiles beneath, lies on top face up."""

    stack: int = pb(1)
    tile: int = pb(2)


@message(tag=10)
class StartPlayerChosen:
    """Setup: the start player, drawn at random; turns go clockwise (seat + 1) from there."""

    seat: int = pb(1)


@message(tag=11)
class SenateRestacked:
    """Every senate disc on the start space, stacked in this order (bottom first)."""

    order: tuple[int, ...] = pb(1)


@message(tag=12)
class BonusTileDealt:
    """Setup: a seat drew a bonus tile from the bag and laid it yellow side up."""

    seat: int = pb(1)
    tile: int = pb(2)


@message(tag=13)
class SenateOfferDrawn:
    """Bonus tiles drawn from the bag, yellow side up beside the senate."""

    tiles: tuple[int, ...] = pb(1)


@message(tag=14)
class CommodityFlipped:
    """The top card of the draw pile was turned face up onto an empty discard pile."""

    pile: Pile = pb(1)
    commodity: Commodity = pb(2)


@message(tag=15)
class CommoditiesDrawn:
    """Seat only: cards drawn at random from the draw pile into the seat's hand."""

    seat: int = pb(1)
    cards: tuple[Commodity, ...] = pb(2)


@message(tag=16)
class DiscardTaken:
    """A seat took the top card of a discard pile."""

    seat: int = pb(1)
    pile: Pile = pb(2)
    commodity: Commodity = pb(3)


@message(tag=17)
class TrajanTileTaken:
    """A seat took the top tile of a Trajan stack onto a slot of its action circle."""

    seat: int = pb(1)
    stack: int = pb(2)
    slot: int = pb(3)
    tile: int = pb(4)


@message(tag=18)
class ArchMoved:
    """A seat's arch now marks this slot (0: off the mat, all six slots are full)."""

    seat: int = pb(1)
    slot: int = pb(2)


# ---------------------------------------------------------------- turns


@message(tag=19)
class RoundStarted:
    """A round began (1..16)."""

    round: int = pb(1)


@message(tag=20)
class TurnStarted:
    """A seat's turn began: it owes the choice of a bowl."""

    seat: int = pb(1)


@message(tag=21)
class BowlEmptied:
    """A seat picked up every marker of a bowl."""

    seat: int = pb(1)
    bowl: int = pb(2)
    markers: tuple[Colour, ...] = pb(3)


@message(tag=22)
class TimeAdvanced:
    """The time marker moved as many spaces as markers were picked up."""

    spaces: int = pb(1)


@message(tag=23)
class MarkerSown:
    """A marker was dropped into a bowl (the last one names the target bowl)."""

    seat: int = pb(1)
    bowl: int = pb(2)
    colour: Colour = pb(3)


@message(tag=24)
class PendingSet:
    """What the active seat owes now, first first (empty: nothing, the turn is over)."""

    seat: int = pb(1)
    steps: tuple[Step, ...] = pb(2)


@message(tag=25)
class TrajanTileCompleted:
    """The target bowl held the tile's two colours: the tile leaves its slot."""

    seat: int = pb(1)
    slot: int = pb(2)
    tile: int = pb(3)


@message(tag=26)
class TrajanTileKept:
    """A completed bread, games or religion Trajan tile stays on the mat for the demands."""

    seat: int = pb(1)
    tile: int = pb(2)


@message(tag=27)
class PointsScored:
    """A seat's victory points changed (negative for unmet demands)."""

    seat: int = pb(1)
    points: int = pb(2)
    reason: Reason = pb(3)


@message(tag=28)
class PlusTwoPlaced:
    """A [+2] marker beside the mat's extra-action space of this action, for the rest of the game."""

    seat: int = pb(1)
    action: Action = pb(2)


@message(tag=29)
class ExtraActionTileUsed:
    """A seat spent an extra action tile (or a wild one) from its mat; it leaves the game."""

    seat: int = pb(1)
    tile: ForumTile = pb(2)


@message(tag=30)
class CommodityDiscarded:
    """A card from a seat's hand went face up onto a discard pile."""

    seat: int = pb(1)
    commodity: Commodity = pb(2)
    pile: Pile = pb(3)


@message(tag=31)
class CommoditiesDisplayed:
    """Cards from a seat's hand went face up into its display."""

    seat: int = pb(1)
    cards: tuple[Commodity, ...] = pb(2)


@message(tag=32)
class DiscardsReshuffled:
    """The draw pile ran out: the discard piles' cards below their top cards became the new draw pile."""

    cards: tuple[Commodity, ...] = pb(1)


@message(tag=33)
class CommodityLoaded:
    """A card from a seat's hand was loaded onto the ship."""

    seat: int = pb(1)
    commodity: Commodity = pb(2)


@message(tag=34)
class WildCommodityLoaded:
    """A wild commodity tile from a seat's mat was loaded onto the ship, standing for a card."""

    seat: int = pb(1)


@message(tag=35)
class ShipmentDelivered:
    """The loaded cards went to the seat's display, the wild tiles left the game, the ship shows grey."""

    seat: int = pb(1)
    ship: int = pb(2)


@message(tag=36)
class ForumTileTaken:
    """A seat took a tile from the forum onto its mat."""

    seat: int = pb(1)
    tile: ForumTile = pb(2)


@message(tag=37)
class LeaderMoved:
    """A seat's military leader moved into a province."""

    seat: int = pb(1)
    province: int = pb(2)


@message(tag=38)
class ProvinceTileTaken:
    """A seat's leader took the forum tile lying in its province."""

    seat: int = pb(1)
    province: int = pb(2)
    tile: ForumTile = pb(3)


@message(tag=39)
class LegionnaireDeployed:
    """A legionnaire went from the military camp into the leader's province."""

    seat: int = pb(1)
    province: int = pb(2)


@message(tag=40)
class SenateAdvanced:
    """A seat's senate disc moved onto this space, on top of any disc there."""

    seat: int = pb(1)
    space: int = pb(2)


@message(tag=41)
class WorkerPlaced:
    """A worker went from the work area onto a construction site."""

    seat: int = pb(1)
    site: int = pb(2)


@message(tag=42)
class ConstructionTileTaken:
    """A seat took the construction tile of the site its worker entered."""

    seat: int = pb(1)
    site: int = pb(2)
    tile: int = pb(3)


@message(tag=43)
class TurnEnded:
    """A seat's turn is over."""

    seat: int = pb(1)


# ---------------------------------------------------------------- rounds and quarters


@message(tag=44)
class RoundEnded:
    """The round is over (the time marker reached or passed the start during the last turn)."""

    round: int = pb(1)


@message(tag=45)
class DemandRevealed:
    """A demand tile drawn at random from the face-down ones and turned face up."""

    demand: Demand = pb(1)


@message(tag=46)
class DemandChoicesAsked:
    """Quarter end: these seats can meet the demands in more than one way and choose how."""

    seats: tuple[int, ...] = pb(1)


@message(tag=47)
class DemandsMet:
    """Quarter end: how a seat met each demand; ``spent`` forum tiles leave the game."""

    seat: int = pb(1)
    payments: tuple[Payment, ...] = pb(2)
    spent: tuple[ForumTile, ...] = pb(3)


@message(tag=48)
class SenateScored:
    """Quarter end: the senate ranking (most votes first) and every seat's votes (by seat)."""

    ranking: tuple[int, ...] = pb(1)
    votes: tuple[int, ...] = pb(2)


@message(tag=49)
class BonusTileAwarded:
    """A bonus tile from beside the senate, yellow side up to the consul, grey side up to the proconsul."""

    seat: int = pb(1)
    tile: int = pb(2)
    yellow: bool = pb(3)


@message(tag=50)
class MatTilesRemoved:
    """Forum tiles left a seat's mat and the game (the senate tiles at a quarter end)."""

    seat: int = pb(1)
    tiles: tuple[ForumTile, ...] = pb(2)


@message(tag=51)
class ForumCleared:
    """Every tile left in the forum left the game."""

    tiles: tuple[ForumTile, ...] = pb(1)


@message(tag=52)
class ShipsReset:
    """Every ship shows its yellow side again."""


@message(tag=53)
class QuarterEnded:
    """A quarter is over: its demands are cleared."""

    quarter: int = pb(1)


@message(tag=54)
class QuarterStarted:
    """A quarter began (1..4)."""

    quarter: int = pb(1)


@message(tag=55)
class FinalScored:
    """Final scoring of every seat."""

    scores: tuple[FinalScore, ...] = pb(1)


@message(tag=56)
class GameEnded:
    """The match is over: placing per seat (1 = winner; VP, then the senate stack, decide)."""

    placings: tuple[int, ...] = pb(1)


Event = (
    GameStarted
    | SuppliesPrepared
    | ConstructionTilesPlaced
    | ProvinceTilesPlaced
    | ForumFilled
    | TokensMoved
    | PhaseChanged
    | StartMarkersPlaced
    | TrajanStackTopRevealed
    | StartPlayerChosen
    | SenateRestacked
    | BonusTileDealt
    | SenateOfferDrawn
    | CommodityFlipped
    | CommoditiesDrawn
    | DiscardTaken
    | TrajanTileTaken
    | ArchMoved
    | RoundStarted
    | TurnStarted
    | BowlEmptied
    | TimeAdvanced
    | MarkerSown
    | PendingSet
    | TrajanTileCompleted
    | TrajanTileKept
    | PointsScored
    | PlusTwoPlaced
    | ExtraActionTileUsed
    | CommodityDiscarded
    | CommoditiesDisplayed
    | DiscardsReshuffled
    | CommodityLoaded
    | WildCommodityLoaded
    | ShipmentDelivered
    | ForumTileTaken
    | LeaderMoved
    | ProvinceTileTaken
    | LegionnaireDeployed
    | SenateAdvanced
    | WorkerPlaced
    | ConstructionTileTaken
    | TurnEnded
    | RoundEnded
    | DemandRevealed
    | DemandChoicesAsked
    | DemandsMet
    | SenateScored
    | BonusTileAwarded
    | MatTilesRemoved
    | ForumCleared
    | ShipsReset
    | QuarterEnded
    | QuarterStarted
    | FinalScored
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    SuppliesPrepared,
    ConstructionTilesPlaced,
    ProvinceTilesPlaced,
    ForumFilled,
    TokensMoved,
    PhaseChanged,
    StartMarkersPlaced,
    TrajanStackTopRevealed,
    StartPlayerChosen,
    SenateRestacked,
    BonusTileDealt,
    SenateOfferDrawn,
    CommodityFlipped,
    CommoditiesDrawn,
    DiscardTaken,
    TrajanTileTaken,
    ArchMoved,
    RoundStarted,
    TurnStarted,
    BowlEmptied,
    TimeAdvanced,
    MarkerSown,
    PendingSet,
    TrajanTileCompleted,
    TrajanTileKept,
    PointsScored,
    PlusTwoPlaced,
    ExtraActionTileUsed,
    CommodityDiscarded,
    CommoditiesDisplayed,
    DiscardsReshuffled,
    CommodityLoaded,
    WildCommodityLoaded,
    ShipmentDelivered,
    ForumTileTaken,
    LeaderMoved,
    ProvinceTileTaken,
    LegionnaireDeployed,
    SenateAdvanced,
    WorkerPlaced,
    ConstructionTileTaken,
    TurnEnded,
    RoundEnded,
    DemandRevealed,
    DemandChoicesAsked,
    DemandsMet,
    SenateScored,
    BonusTileAwarded,
    MatTilesRemoved,
    ForumCleared,
    ShipsReset,
    QuarterEnded,
    QuarterStarted,
    FinalScored,
    GameEnded,
)
