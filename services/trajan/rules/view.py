"""Per-viewer views, event visibility and determinization (resampling what a seat cannot see).

Hidden from a seat: the other seats' hands and the draw pile. The other face-down pools (forum and extra
action tiles, the bag, demand tiles, the Trajan tiles beneath each top) hold no order: every draw from
them is made when it happens, and what they hold follows from the component list and the public events,
so a view shows their sizes only and ``determinize`` has nothing to resample there.
"""

from __future__ import annotations

from dataclasses import replace

from services.trajan.rules.content_types import Action, Colour, Commodity, Demand, ForumTile
from services.trajan.rules.events import CommoditiesDrawn, Event
from services.trajan.rules.model import (
    Bowl,
    FinalScore,
    OwnedBonusTile,
    Phase,
    PlayerState,
    ProvinceState,
    SiteState,
    State,
    Step,
)
from shared.core.decider import PUBLIC, Actor, Visibility
from shared.core.rng import Rng
from shared.core.wire import message, pb


@message
class PlayerView:
    """One player as the viewer sees them."""

    seat: int = pb(1)
    vp: int = pb(2)
    bowls: tuple[Bowl, ...] = pb(3)
    slots: tuple[int, ...] = pb(4)  # Trajan tile per slot I..VI, 0 = empty
    arch: int = pb(5)  # 0 = off the mat
    supply: int = pb(6)
    work_area: int = pb(7)
    camp: int = pb(8)
    leader: int = pb(9)  # province, 0 = the military camp
    hand: tuple[Commodity, ...] = pb(10)  # empty unless it is the viewer's own (or the viewer is the system)
    hand_size: int = pb(11)
    display: tuple[Commodity, ...] = pb(12)
    forum_tiles: tuple[ForumTile, ...] = pb(13)
    demand_tiles: tuple[int, ...] = pb(14)
    construction: tuple[int, ...] = pb(15)
    plus_two: tuple[Action, ...] = pb(16)
    bonus_tiles: tuple[OwnedBonusTile, ...] = pb(17)
    senate: int = pb(18)


@message
class TrajanStackView:
    """A Trajan supply stack: its face-up top and how many tiles lie beneath."""

    top: int = pb(1)
    beneath: int = pb(2)


@message
class TrajanView:
    """What a viewer may see of a match."""

    viewer_seat: int = pb(1)  # -1 for spectators and the system
    phase: Phase = pb(2)
    lap: int = pb(3)
    start_seat: int = pb(4)
    active_seat: int = pb(5)  # -1 outside the turns
    round: int = pb(6)
    quarter: int = pb(7)
    time: int = pb(8)  # spaces moved since the start
    time_space: int = pb(9)  # the time marker's space on the track (0 = start)
    pending: tuple[Step, ...] = pb(10)
    in_hand: tuple[Colour, ...] = pb(11)
    next_bowl: int = pb(12)
    target: int = pb(13)
    extra_used: bool = pb(14)
    cargo: tuple[Commodity, ...] = pb(15)
    cargo_wilds: int = pb(16)
    demands: tuple[Demand, ...] = pb(17)
    demand_pool_size: int = pb(18)
    deck_size: int = pb(19)
    left_pile: tuple[Commodity, ...] = pb(20)
    right_pile: tuple[Commodity, ...] = pb(21)
    forum: tuple[ForumTile, ...] = pb(22)
    forum_stack_size: int = pb(23)
    extra_stack_size: int = pb(24)
    bonus_bag_size: int = pb(25)
    senate_offer: tuple[int, ...] = pb(26)
    trajan_stacks: tuple[TrajanStackView, ...] = pb(27)
    provinces: tuple[ProvinceState, ...] = pb(28)
    sites: tuple[SiteState, ...] = pb(29)
    ships_yellow: tuple[bool, ...] = pb(30)
    senate_order: tuple[int, ...] = pb(31)
    demand_choosers: tuple[int, ...] = pb(32)
    demands_paid: tuple[int, ...] = pb(33)
    consul: int = pb(34)
    proconsul: int = pb(35)
    players: tuple[PlayerView, ...] = pb(36)
    final: tuple[FinalScore, ...] = pb(37)
    placings: tuple[int, ...] = pb(38)
    deck: tuple[Commodity, ...] = pb(39)  # the system only


def _player_view(p: PlayerState, secret: bool) -> PlayerView:
    return PlayerView(
        seat=p.seat,
        vp=p.vp,
        bowls=p.bowls,
        slots=p.slots,
        arch=p.arch,
        supply=p.supply,
        work_area=p.work_area,
        camp=p.camp,
        leader=p.leader,
        hand=p.hand if secret else (),
        hand_size=len(p.hand),
        display=p.display,
        forum_tiles=p.forum_tiles,
        demand_tiles=p.demand_tiles,
        construction=p.construction,
        plus_two=p.plus_two,
        bonus_tiles=p.bonus_tiles,
        senate=p.senate,
    )


def view(s: State, viewer: Actor) -> TrajanView:
    sees_all = viewer.is_system
    seat = viewer.seat if viewer.is_seat else -1
    return TrajanView(
        viewer_seat=seat,
        phase=s.phase,
        lap=s.lap,
        start_seat=s.start_seat,
        active_seat=s.active if s.phase is Phase.TURNS else -1,
        round=s.round,
        quarter=s.quarter,
        time=s.time,
        time_space=s.time % s.lap if s.lap else 0,
        pending=s.pending,
        in_hand=s.in_hand,
        next_bowl=s.next_bowl,
        target=s.target,
        extra_used=s.extra_used,
        cargo=s.cargo,
        cargo_wilds=s.cargo_wilds,
        demands=s.demands,
        demand_pool_size=len(s.demand_pool),
        deck_size=len(s.deck),
        left_pile=s.left_pile,
        right_pile=s.right_pile,
        forum=s.forum,
        forum_stack_size=len(s.forum_stack),
        extra_stack_size=len(s.extra_stack),
        bonus_bag_size=len(s.bonus_bag),
        senate_offer=s.senate_offer,
        trajan_stacks=tuple(TrajanStackView(x.top, len(x.rest)) for x in s.trajan_stacks),
        provinces=s.provinces,
        sites=s.sites,
        ships_yellow=s.ships_yellow,
        senate_order=s.senate_order,
        demand_choosers=s.demand_choosers,
        demands_paid=s.demands_paid,
        consul=s.consul,
        proconsul=s.proconsul,
        players=tuple(_player_view(p, sees_all or p.seat == seat) for p in s.players),
        final=s.final,
        placings=s.placings,
        deck=s.deck if sees_all else (),
    )


def visibility(event: Event) -> Visibility:
    match event:
        case CommoditiesDrawn(seat, _):
            return Visibility.to_seat(seat)
        case _:
            return PUBLIC


def determinize(s: State, seat: int, rng: Rng) -> State:
    """A state consistent with what ``seat`` sees: the cards of the other hands and the draw pile are dealt
    again at random from all the cards ``seat`` cannot see, every hand keeping its size. The unseen cards
    are sorted before the deal, so the result depends on what the seat may know (which cards it has not
    seen, how many each hand holds) and the ``rng``, never on where those cards really are."""
    others = [p for p in s.players if p.seat != seat]
    pool = list(rng.shuffled(sorted([*s.deck, *(c for p in others for c in p.hand)])))
    players = list(s.players)
    for p in others:
        n = len(p.hand)
        players[p.seat] = replace(p, hand=tuple(sorted(pool[:n])))
        pool = pool[n:]
    return replace(s, players=tuple(players), deck=tuple(sorted(pool)))
