"""State records of a Trajan match (``@message`` dataclasses with stable field numbers)."""

from __future__ import annotations

import enum

from services.trajan.rules.content_types import Action, Colour, Commodity, Demand, ForumTile
from shared.core.wire import message, pb


class Phase(enum.IntEnum):
    MARKERS = 1  # setup: every seat puts two markers in each bowl (simultaneous)
    START_CARDS = 2  # setup: three commodity cards each, in turn order
    START_TILES = 3  # setup: three Trajan tiles each, in turn order
    TURNS = 4
    ROUND_END = 5  # system step
    DEMANDS = 6  # seats with a choice pay the demands; then a system step
    CONSUL = 7  # the consul chooses a bonus tile
    QUARTER_END = 8  # system step
    GAME_END = 9  # system step
    FINISHED = 10


class StepKind(enum.IntEnum):
    """What the active player owes next in a turn."""

    CHOOSE_BOWL = 1  # pick up the markers of one bowl
    SOW = 2  # drop the next marker (choose its colour)
    TRAJAN_EFFECT = 3  # use the completed Trajan tile's effect or decline it
    ACTION = 4  # take the action (one of its options) or decline it
    DISCARD = 5  # seaport, draw two: discard one card
    LOAD_CARGO = 6  # seaport, ship: load the next card or deliver
    EXTRA_ACTION = 7  # use an extra action tile for the action just taken, or decline


class Origin(enum.IntEnum):
    """Why an action is offered."""

    BOWL = 1  # the target bowl's action
    BUILDING = 2  # the first construction tile of its kind
    EXTRA = 3  # an extra action tile (never offers another extra action)


class Pile(enum.IntEnum):
    LEFT = 1  # face-up discard pile
    RIGHT = 2  # face-up discard pile
    DECK = 3  # the face-down draw pile (setup draws)


class Place(enum.IntEnum):
    """Where a player's small figures stand (besides provinces and construction sites)."""

    SUPPLY = 1  # the player mat
    WORK_AREA = 2  # workers not yet on a construction site
    CAMP = 3  # legionnaires in the military camp


class Payment(enum.IntEnum):
    """How one demand was met at a quarter end."""

    TRAJAN_TILE = 1  # a kept Trajan tile of the demand (stays)
    FORUM_TILE = 2  # a forum tile of the demand (removed)
    WILD_DEMAND = 3  # a wild demand forum tile (removed)
    UNMET = 4


class Reason(enum.IntEnum):
    """Why victory points changed (for clients and logs; evolve never branches on it)."""

    TRAJAN_TILE = 1
    SHIPMENT = 2
    LEGIONNAIRE = 3
    SENATE = 4
    CONSTRUCTION = 5
    UNMET_DEMANDS = 6


@message
class Config:
    """Options of a match: the seat count (2 to 4)."""

    seats: int = pb(1)


@message
class Step:
    """One thing the active player owes (see ``StepKind``)."""

    kind: StepKind = pb(1)
    action: Action | None = pb(2, default=None)  # ACTION, EXTRA_ACTION: which action
    origin: Origin | None = pb(3, default=None)  # ACTION: why it is offered
    tile: int = pb(4, default=0)  # TRAJAN_EFFECT: the completed Trajan tile
    ship: int = pb(5, default=0)  # LOAD_CARGO: the ship being loaded


@message
class Bowl:
    """The markers in one bowl of the action circle (sorted)."""

    markers: tuple[Colour, ...] = pb(1, default=())


@message
class OwnedBonusTile:
    """A bonus tile in front of a player, yellow or grey side up."""

    tile: int = pb(1)
    yellow: bool = pb(2)


@message
class ProvinceState:
    """A province: its forum tile (if any) and the legionnaires there, in arrival order."""

    province: int = pb(1)
    tile: ForumTile | None = pb(2, default=None)
    legionnaires: tuple[int, ...] = pb(3, default=())  # seats


@message
class SiteState:
    """A construction site: its tile (0 once taken) and the workers there, in arrival order."""

    site: int = pb(1)
    tile: int = pb(2, default=0)
    workers: tuple[int, ...] = pb(3, default=())  # seats


@message
class TrajanStack:
    """A Trajan supply stack: the face-up top tile and the tiles beneath it (an unordered pool: the next
    top is drawn from it when the top is taken)."""

    top: int = pb(1, default=0)  # 0 = the stack is empty
    rest: tuple[int, ...] = pb(2, default=())


@message
class PlayerState:
    """One player's mat, figures, cards and tiles."""

    seat: int = pb(1)
    vp: int = pb(2, default=0)  # may go below 0 (seed (p9-10): every space below the start costs 1)
    bowls: tuple[Bowl, ...] = pb(3, default=())  # bowl I..VI
    slots: tuple[int, ...] = pb(4, default=())  # Trajan tile per slot I..VI, 0 = empty
    arch: int = pb(5, default=0)  # slot marked by the arch, 0 = off the mat (all six slots full)
    supply: int = pb(6, default=0)  # small figures on the mat
    work_area: int = pb(7, default=0)  # workers not yet on a construction site
    camp: int = pb(8, default=0)  # legionnaires in the military camp
    leader: int = pb(9, default=0)  # province of the military leader, 0 = the military camp
    hand: tuple[Commodity, ...] = pb(10, default=())  # sorted; secret
    display: tuple[Commodity, ...] = pb(11, default=())  # cards played face up (sorted)
    forum_tiles: tuple[ForumTile, ...] = pb(12, default=())  # on the mat (sorted)
    demand_tiles: tuple[int, ...] = pb(13, default=())  # completed Trajan demand tiles kept on the mat
    construction: tuple[int, ...] = pb(14, default=())  # construction tiles taken
    plus_two: tuple[Action, ...] = pb(15, default=())  # actions with a [+2] marker
    bonus_tiles: tuple[OwnedBonusTile, ...] = pb(16, default=())
    senate: int = pb(17, default=0)  # senate space, 0 = start


@message
class FinalScore:
    """Final scoring of one seat (seed (p11), (p13))."""

    seat: int = pb(1)
    before: int = pb(2)  # VP on the track before final scoring
    hand: int = pb(3)
    work_area: int = pb(4)
    camp: int = pb(5)
    trajan_tiles: int = pb(6)  # unfinished tiles on the action circle
    construction_sets: int = pb(7)
    bonus_tiles: int = pb(8)
    total: int = pb(9)


@message
class State:
    """The whole match, server side (nothing redacted)."""

    config: Config | None = pb(1, default=None)
    phase: Phase = pb(2, default=Phase.MARKERS)
    lap: int = pb(3, default=0)  # time-track spaces per round for this seat count
    start_seat: int = pb(4, default=-1)
    active: int = pb(5, default=-1)  # the seat whose turn it is (or was last)
    round: int = pb(6, default=0)  # 1..16
    time: int = pb(7, default=0)  # spaces the time marker has moved since the start
    pending: tuple[Step, ...] = pb(8, default=())  # what the active player owes, first first
    in_hand: tuple[Colour, ...] = pb(9, default=())  # markers being sown (sorted)
    next_bowl: int = pb(10, default=0)  # the bowl the next sown marker goes to
    target: int = pb(11, default=0)  # the bowl the last marker went to
    extra_used: bool = pb(12, default=False)  # an extra action tile was used this turn
    cargo: tuple[Commodity, ...] = pb(13, default=())  # the shipment being loaded (sorted)
    cargo_wilds: int = pb(14, default=0)  # wild commodity tiles in it
    demands: tuple[Demand, ...] = pb(15, default=())  # revealed this quarter, in order
    demand_pool: tuple[Demand, ...] = pb(16, default=())  # face down (sorted)
    deck: tuple[Commodity, ...] = pb(17, default=())  # face-down draw pile (sorted: drawn at random)
    left_pile: tuple[Commodity, ...] = pb(18, default=())  # face-up discard piles, bottom first
    right_pile: tuple[Commodity, ...] = pb(19, default=())
    forum: tuple[ForumTile, ...] = pb(20, default=())  # forum area incl. the yellow spaces (sorted)
    forum_stack: tuple[ForumTile, ...] = pb(21, default=())  # face down (sorted)
    extra_stack: tuple[ForumTile, ...] = pb(22, default=())  # extra action tiles, face down (sorted)
    bonus_bag: tuple[int, ...] = pb(23, default=())
    senate_offer: tuple[int, ...] = pb(24, default=())  # bonus tiles beside the senate
    trajan_stacks: tuple[TrajanStack, ...] = pb(25, default=())
    provinces: tuple[ProvinceState, ...] = pb(26, default=())
    sites: tuple[SiteState, ...] = pb(27, default=())
    ships_yellow: tuple[bool, ...] = pb(28, default=())  # per ship id 1..3: yellow side up
    senate_order: tuple[int, ...] = pb(29, default=())  # seats, bottom of any stack first
    demand_choosers: tuple[int, ...] = pb(30, default=())  # seats still to choose how to pay
    demands_paid: tuple[int, ...] = pb(31, default=())  # seats that have paid this quarter
    consul: int = pb(32, default=-1)
    proconsul: int = pb(33, default=-1)
    players: tuple[PlayerState, ...] = pb(34, default=())
    final: tuple[FinalScore, ...] = pb(35, default=())
    placings: tuple[int, ...] = pb(36, default=())
    quarter: int = pb(37, default=0)  # 1..4

    @property
    def seats(self) -> int:
        return len(self.players)
