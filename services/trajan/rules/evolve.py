"""``evolve``: apply one event to the state. No rule checks, no conditions on the game: decide did that.

One small function per event type, found by the event's type. A new state shares every part the event
leaves alone with the old one (the records are frozen): only the changed branch is copied, and the state
itself once per event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from services.trajan.rules.bag import added, removed
from services.trajan.rules.content_types import Action, ForumTile
from services.trajan.rules.events import (
    ArchMoved,
    BonusTileAwarded,
    BonusTileDealt,
    BowlEmptied,
    CommoditiesDisplayed,
    CommoditiesDrawn,
    CommodityDiscarded,
    CommodityFlipped,
    CommodityLoaded,
    ConstructionTilesPlaced,
    ConstructionTileTaken,
    DemandChoicesAsked,
    DemandRevealed,
    DemandsMet,
    DiscardsReshuffled,
    DiscardTaken,
    Event,
    ExtraActionTileUsed,
    FinalScored,
    ForumCleared,
    ForumFilled,
    ForumTileTaken,
    GameEnded,
    GameStarted,
    LeaderMoved,
    LegionnaireDeployed,
    MarkerSown,
    MatTilesRemoved,
    PendingSet,
    PhaseChanged,
    PlusTwoPlaced,
    PointsScored,
    ProvinceTilesPlaced,
    ProvinceTileTaken,
    QuarterEnded,
    QuarterStarted,
    RoundEnded,
    RoundStarted,
    SenateAdvanced,
    SenateOfferDrawn,
    SenateRestacked,
    SenateScored,
    ShipmentDelivered,
    ShipsReset,
    StartMarkersPlaced,
    StartPlayerChosen,
    SuppliesPrepared,
    TimeAdvanced,
    TokensMoved,
    TrajanStackTopRevealed,
    TrajanTileCompleted,
    TrajanTileKept,
    TrajanTileTaken,
    TurnEnded,
    TurnStarted,
    WildCommodityLoaded,
    WorkerPlaced,
)
from services.trajan.rules.model import (
    Bowl,
    Config,
    OwnedBonusTile,
    Phase,
    Pile,
    Place,
    PlayerState,
    ProvinceState,
    SiteState,
    State,
    Step,
    StepKind,
    TrajanStack,
)
from shared.core.records import Copier, copier

BOWLS = len(Action)  # six bowls, six Trajan slots
PLACES = {Place.SUPPLY: "supply", Place.WORK_AREA: "work_area", Place.CAMP: "camp"}  # PlayerState fields

_Record = TypeVar("_Record", State, PlayerState)
_COPIERS: dict[type, Copier[Any]] = {cls: copier(cls) for cls in (State, PlayerState)}


def _copy(record: _Record, **changes: Any) -> _Record:
    """``dataclasses.replace`` for the two records ``evolve`` copies most (``shared.core.records``)."""
    new: _Record = _COPIERS[type(record)](record, changes)
    return new


def _at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _seat(state: State, p: PlayerState, **changes: Any) -> State:
    """``state`` with ``p`` in its seat, and ``changes``."""
    return _copy(state, players=_at(state.players, p.seat, p), **changes)


def _player(state: State, seat: int, **changes: Any) -> State:
    return _seat(state, _copy(state.players[seat], **changes))


def _pile(pile: Pile, cards: tuple[Any, ...]) -> dict[str, tuple[Any, ...]]:
    """The change of a state that puts ``cards`` in ``pile``."""
    return {"left_pile": cards} if pile is Pile.LEFT else {"right_pile": cards}


def _pile_cards(state: State, pile: Pile) -> tuple[Any, ...]:
    return state.left_pile if pile is Pile.LEFT else state.right_pile


def _mat(p: PlayerState, gone: tuple[ForumTile, ...] = (), new: tuple[ForumTile, ...] = ()) -> PlayerState:
    return _copy(p, forum_tiles=added(removed(p.forum_tiles, gone), new))


# ---------------------------------------------------------------- setup


def _game_started(s: State, e: GameStarted) -> State:
    players = tuple(
        PlayerState(seat, bowls=(Bowl(),) * BOWLS, slots=(0,) * BOWLS, arch=e.arch, supply=e.tokens)
        for seat in range(e.seats)
    )
    return State(
        config=Config(e.seats),
        phase=Phase.MARKERS,
        lap=e.lap,
        players=players,
        provinces=tuple(ProvinceState(p) for p in range(1, e.provinces + 1)),
        ships_yellow=(True,) * e.ships,
    )


def _supplies_prepared(s: State, e: SuppliesPrepared) -> State:
    return _copy(
        s,
        forum_stack=e.forum_stack,
        extra_stack=e.extra_stack,
        deck=e.deck,
        bonus_bag=e.bonus_bag,
        demand_pool=e.demand_pool,
        trajan_stacks=e.trajan_stacks,
    )


def _construction_tiles_placed(s: State, e: ConstructionTilesPlaced) -> State:
    return _copy(s, sites=tuple(SiteState(i + 1, t) for i, t in enumerate(e.tiles)))


def _province_tiles_placed(s: State, e: ProvinceTilesPlaced) -> State:
    out = list(s.provinces)
    for province, tile in zip(e.provinces, e.tiles, strict=True):
        out[province - 1] = ProvinceState(province, tile, out[province - 1].legionnaires)
    return _copy(s, provinces=tuple(out), forum_stack=removed(s.forum_stack, e.tiles))


def _forum_filled(s: State, e: ForumFilled) -> State:
    return _copy(
        s,
        forum=added(s.forum, (*e.forum_tiles, *e.extra_tiles)),
        forum_stack=removed(s.forum_stack, e.forum_tiles),
        extra_stack=removed(s.extra_stack, e.extra_tiles),
    )


def _tokens_moved(s: State, e: TokensMoved) -> State:
    p = s.players[e.seat]
    source, destination = PLACES[e.source], PLACES[e.destination]
    counts = {source: getattr(p, source) - e.count}
    counts[destination] = counts.get(destination, getattr(p, destination)) + e.count
    return _seat(s, _copy(p, **counts))


def _phase_changed(s: State, e: PhaseChanged) -> State:
    return _copy(s, phase=e.phase)


def _start_markers_placed(s: State, e: StartMarkersPlaced) -> State:
    bowls = _at(s.players[e.seat].bowls, e.bowl - 1, Bowl(tuple(sorted(e.markers))))
    return _player(s, e.seat, bowls=bowls)


def _trajan_stack_top_revealed(s: State, e: TrajanStackTopRevealed) -> State:
    revealed = TrajanStack(e.tile, removed(s.trajan_stacks[e.stack - 1].rest, (e.tile,)))
    return _copy(s, trajan_stacks=_at(s.trajan_stacks, e.stack - 1, revealed))


def _start_player_chosen(s: State, e: StartPlayerChosen) -> State:
    return _copy(s, start_seat=e.seat, active=e.seat)


def _senate_restacked(s: State, e: SenateRestacked) -> State:
    return _copy(s, senate_order=e.order, players=tuple(_copy(x, senate=0) for x in s.players))


def _bonus_tile_dealt(s: State, e: BonusTileDealt) -> State:
    p = s.players[e.seat]
    dealt = _copy(p, bonus_tiles=(*p.bonus_tiles, OwnedBonusTile(e.tile, True)))
    return _seat(s, dealt, bonus_bag=removed(s.bonus_bag, (e.tile,)))


def _senate_offer_drawn(s: State, e: SenateOfferDrawn) -> State:
    return _copy(s, bonus_bag=removed(s.bonus_bag, e.tiles), senate_offer=(*s.senate_offer, *e.tiles))


# ---------------------------------------------------------------- cards


def _commodity_flipped(s: State, e: CommodityFlipped) -> State:
    pile = _pile(e.pile, (*_pile_cards(s, e.pile), e.commodity))
    return _copy(s, deck=removed(s.deck, (e.commodity,)), **pile)


def _commodities_drawn(s: State, e: CommoditiesDrawn) -> State:
    p = s.players[e.seat]
    return _seat(s, _copy(p, hand=added(p.hand, e.cards)), deck=removed(s.deck, e.cards))


def _discard_taken(s: State, e: DiscardTaken) -> State:
    p = s.players[e.seat]
    return _seat(
        s, _copy(p, hand=added(p.hand, (e.commodity,))), **_pile(e.pile, _pile_cards(s, e.pile)[:-1])
    )


def _commodity_discarded(s: State, e: CommodityDiscarded) -> State:
    p = s.players[e.seat]
    pile = _pile(e.pile, (*_pile_cards(s, e.pile), e.commodity))
    return _seat(s, _copy(p, hand=removed(p.hand, (e.commodity,))), **pile)


def _commodities_displayed(s: State, e: CommoditiesDisplayed) -> State:
    p = s.players[e.seat]
    return _player(s, e.seat, hand=removed(p.hand, e.cards), display=added(p.display, e.cards))


def _discards_reshuffled(s: State, e: DiscardsReshuffled) -> State:
    return _copy(s, left_pile=s.left_pile[-1:], right_pile=s.right_pile[-1:], deck=added(s.deck, e.cards))


def _commodity_loaded(s: State, e: CommodityLoaded) -> State:
    p = s.players[e.seat]
    loaded = _copy(p, hand=removed(p.hand, (e.commodity,)))
    return _seat(s, loaded, cargo=added(s.cargo, (e.commodity,)))


def _wild_commodity_loaded(s: State, e: WildCommodityLoaded) -> State:
    mat = _mat(s.players[e.seat], gone=(ForumTile.WILD_COMMODITY,))
    return _seat(s, mat, cargo_wilds=s.cargo_wilds + 1)


def _shipment_delivered(s: State, e: ShipmentDelivered) -> State:
    p = s.players[e.seat]
    shipped = _copy(p, display=added(p.display, s.cargo))
    return _seat(s, shipped, cargo=(), cargo_wilds=0, ships_yellow=_at(s.ships_yellow, e.ship - 1, False))


# ---------------------------------------------------------------- turns


def _trajan_tile_taken(s: State, e: TrajanTileTaken) -> State:
    taken = TrajanStack(0, s.trajan_stacks[e.stack - 1].rest)
    p = s.players[e.seat]
    placed = _copy(p, slots=_at(p.slots, e.slot - 1, e.tile))
    return _seat(s, placed, trajan_stacks=_at(s.trajan_stacks, e.stack - 1, taken))


def _arch_moved(s: State, e: ArchMoved) -> State:
    return _player(s, e.seat, arch=e.slot)


def _round_started(s: State, e: RoundStarted) -> State:
    return _copy(s, round=e.round)


def _turn_started(s: State, e: TurnStarted) -> State:
    return _copy(s, active=e.seat, pending=(Step(StepKind.CHOOSE_BOWL),), extra_used=False, target=0)


def _bowl_emptied(s: State, e: BowlEmptied) -> State:
    p = s.players[e.seat]
    emptied = _copy(p, bowls=_at(p.bowls, e.bowl - 1, Bowl()))
    return _seat(s, emptied, in_hand=tuple(sorted(e.markers)), next_bowl=e.bowl % BOWLS + 1)


def _time_advanced(s: State, e: TimeAdvanced) -> State:
    return _copy(s, time=s.time + e.spaces)


def _marker_sown(s: State, e: MarkerSown) -> State:
    p = s.players[e.seat]
    sown = Bowl(added(p.bowls[e.bowl - 1].markers, (e.colour,)))
    in_hand = removed(s.in_hand, (e.colour,))
    return _seat(
        s,
        _copy(p, bowls=_at(p.bowls, e.bowl - 1, sown)),
        in_hand=in_hand,
        next_bowl=e.bowl % BOWLS + 1,
        target=e.bowl,
    )


def _pending_set(s: State, e: PendingSet) -> State:
    return _copy(s, pending=e.steps)


def _trajan_tile_completed(s: State, e: TrajanTileCompleted) -> State:
    return _player(s, e.seat, slots=_at(s.players[e.seat].slots, e.slot - 1, 0))


def _trajan_tile_kept(s: State, e: TrajanTileKept) -> State:
    return _player(s, e.seat, demand_tiles=(*s.players[e.seat].demand_tiles, e.tile))


def _points_scored(s: State, e: PointsScored) -> State:
    return _player(s, e.seat, vp=s.players[e.seat].vp + e.points)


def _plus_two_placed(s: State, e: PlusTwoPlaced) -> State:
    return _player(s, e.seat, plus_two=added(s.players[e.seat].plus_two, (e.action,)))


def _extra_action_tile_used(s: State, e: ExtraActionTileUsed) -> State:
    return _seat(s, _mat(s.players[e.seat], gone=(e.tile,)), extra_used=True)


def _forum_tile_taken(s: State, e: ForumTileTaken) -> State:
    return _seat(s, _mat(s.players[e.seat], new=(e.tile,)), forum=removed(s.forum, (e.tile,)))


def _leader_moved(s: State, e: LeaderMoved) -> State:
    return _player(s, e.seat, leader=e.province)


def _province_tile_taken(s: State, e: ProvinceTileTaken) -> State:
    there = s.provinces[e.province - 1].legionnaires
    provinces = _at(s.provinces, e.province - 1, ProvinceState(e.province, None, there))
    return _seat(s, _mat(s.players[e.seat], new=(e.tile,)), provinces=provinces)


def _legionnaire_deployed(s: State, e: LegionnaireDeployed) -> State:
    was = s.provinces[e.province - 1]
    deployed = ProvinceState(e.province, was.tile, (*was.legionnaires, e.seat))
    p = s.players[e.seat]
    return _seat(s, _copy(p, camp=p.camp - 1), provinces=_at(s.provinces, e.province - 1, deployed))


def _senate_advanced(s: State, e: SenateAdvanced) -> State:
    order = (*(x for x in s.senate_order if x != e.seat), e.seat)
    return _seat(s, _copy(s.players[e.seat], senate=e.space), senate_order=order)


def _worker_placed(s: State, e: WorkerPlaced) -> State:
    at = s.sites[e.site - 1]
    sites = _at(s.sites, e.site - 1, SiteState(e.site, at.tile, (*at.workers, e.seat)))
    p = s.players[e.seat]
    return _seat(s, _copy(p, work_area=p.work_area - 1), sites=sites)


def _construction_tile_taken(s: State, e: ConstructionTileTaken) -> State:
    sites = _at(s.sites, e.site - 1, SiteState(e.site, 0, s.sites[e.site - 1].workers))
    p = s.players[e.seat]
    return _seat(s, _copy(p, construction=(*p.construction, e.tile)), sites=sites)


def _turn_ended(s: State, e: TurnEnded) -> State:
    return _copy(s, pending=(), target=0)


def _round_ended(s: State, e: RoundEnded) -> State:
    return s


# ---------------------------------------------------------------- quarter and game ends


def _demand_revealed(s: State, e: DemandRevealed) -> State:
    return _copy(s, demand_pool=removed(s.demand_pool, (e.demand,)), demands=(*s.demands, e.demand))


def _demand_choices_asked(s: State, e: DemandChoicesAsked) -> State:
    return _copy(s, demand_choosers=e.seats)


def _demands_met(s: State, e: DemandsMet) -> State:
    return _seat(
        s,
        _mat(s.players[e.seat], gone=e.spent),
        demand_choosers=tuple(x for x in s.demand_choosers if x != e.seat),
        demands_paid=(*s.demands_paid, e.seat),
    )


def _senate_scored(s: State, e: SenateScored) -> State:
    return _copy(s, consul=e.ranking[0], proconsul=e.ranking[1])


def _bonus_tile_awarded(s: State, e: BonusTileAwarded) -> State:
    p = s.players[e.seat]
    awarded = _copy(p, bonus_tiles=(*p.bonus_tiles, OwnedBonusTile(e.tile, e.yellow)))
    return _seat(s, awarded, senate_offer=removed(s.senate_offer, (e.tile,)))


def _mat_tiles_removed(s: State, e: MatTilesRemoved) -> State:
    return _seat(s, _mat(s.players[e.seat], gone=e.tiles))


def _forum_cleared(s: State, e: ForumCleared) -> State:
    return _copy(s, forum=removed(s.forum, e.tiles))


def _ships_reset(s: State, e: ShipsReset) -> State:
    return _copy(s, ships_yellow=(True,) * len(s.ships_yellow))


def _quarter_ended(s: State, e: QuarterEnded) -> State:
    return _copy(s, demands=(), demands_paid=(), demand_choosers=(), consul=-1, proconsul=-1)


def _quarter_started(s: State, e: QuarterStarted) -> State:
    return _copy(s, quarter=e.quarter)


def _final_scored(s: State, e: FinalScored) -> State:
    return _copy(s, final=e.scores)


def _game_ended(s: State, e: GameEnded) -> State:
    return _copy(s, placings=e.placings)


APPLY: dict[type, Callable[[State, Any], State]] = {
    GameStarted: _game_started,
    SuppliesPrepared: _supplies_prepared,
    ConstructionTilesPlaced: _construction_tiles_placed,
    ProvinceTilesPlaced: _province_tiles_placed,
    ForumFilled: _forum_filled,
    TokensMoved: _tokens_moved,
    PhaseChanged: _phase_changed,
    StartMarkersPlaced: _start_markers_placed,
    TrajanStackTopRevealed: _trajan_stack_top_revealed,
    StartPlayerChosen: _start_player_chosen,
    SenateRestacked: _senate_restacked,
    BonusTileDealt: _bonus_tile_dealt,
    SenateOfferDrawn: _senate_offer_drawn,
    CommodityFlipped: _commodity_flipped,
    CommoditiesDrawn: _commodities_drawn,
    DiscardTaken: _discard_taken,
    TrajanTileTaken: _trajan_tile_taken,
    ArchMoved: _arch_moved,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    BowlEmptied: _bowl_emptied,
    TimeAdvanced: _time_advanced,
    MarkerSown: _marker_sown,
    PendingSet: _pending_set,
    TrajanTileCompleted: _trajan_tile_completed,
    TrajanTileKept: _trajan_tile_kept,
    PointsScored: _points_scored,
    PlusTwoPlaced: _plus_two_placed,
    ExtraActionTileUsed: _extra_action_tile_used,
    CommodityDiscarded: _commodity_discarded,
    CommoditiesDisplayed: _commodities_displayed,
    DiscardsReshuffled: _discards_reshuffled,
    CommodityLoaded: _commodity_loaded,
    WildCommodityLoaded: _wild_commodity_loaded,
    ShipmentDelivered: _shipment_delivered,
    ForumTileTaken: _forum_tile_taken,
    LeaderMoved: _leader_moved,
    ProvinceTileTaken: _province_tile_taken,
    LegionnaireDeployed: _legionnaire_deployed,
    SenateAdvanced: _senate_advanced,
    WorkerPlaced: _worker_placed,
    ConstructionTileTaken: _construction_tile_taken,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
    DemandRevealed: _demand_revealed,
    DemandChoicesAsked: _demand_choices_asked,
    DemandsMet: _demands_met,
    SenateScored: _senate_scored,
    BonusTileAwarded: _bonus_tile_awarded,
    MatTilesRemoved: _mat_tiles_removed,
    ForumCleared: _forum_cleared,
    ShipsReset: _ships_reset,
    QuarterEnded: _quarter_ended,
    QuarterStarted: _quarter_started,
    FinalScored: _final_scored,
    GameEnded: _game_ended,
}


def evolve(state: State, event: Event) -> State:
    return APPLY[type(event)](state, event)
