"""``evolve``: apply one event to the state. No rule checks, no conditions on the game: decide did that."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
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

BOWLS = len(Action)  # six bowls, six Trajan slots

_Record = TypeVar("_Record", State, PlayerState)
_FIELDS = {cls: tuple(f.name for f in fields(cls)) for cls in (State, PlayerState)}
_VALUES = {cls: attrgetter(*names) for cls, names in _FIELDS.items()}
_SETTERS = {cls: tuple(cls.__dict__[name].__set__ for name in names) for cls, names in _FIELDS.items()}
_set_slot = object.__setattr__


def _copy(record: _Record, **changes: Any) -> _Record:
    """``dataclasses.replace`` for the two records ``evolve`` copies most, without its per-call checks:
    every slot is copied through its descriptor, then the changed ones set (an unknown name raises
    ``AttributeError``). Neither record has ``__post_init__`` or init-only fields, so the result equals
    ``replace``'s; this is the hot path of every fold."""
    cls = type(record)
    new = object.__new__(cls)
    for put, value in zip(_SETTERS[cls], _VALUES[cls](record), strict=True):
        put(new, value)
    for name, value in changes.items():
        _set_slot(new, name, value)
    return new


def _at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _player(state: State, seat: int, **changes: Any) -> State:
    p = _copy(state.players[seat], **changes)
    return _copy(state, players=_at(state.players, seat, p))


def _province(state: State, province: ProvinceState) -> State:
    return _copy(state, provinces=_at(state.provinces, province.province - 1, province))


def _site(state: State, site: SiteState) -> State:
    return _copy(state, sites=_at(state.sites, site.site - 1, site))


def _moved(p: PlayerState, place: Place, delta: int) -> PlayerState:
    match place:
        case Place.SUPPLY:
            return _copy(p, supply=p.supply + delta)
        case Place.WORK_AREA:
            return _copy(p, work_area=p.work_area + delta)
        case Place.CAMP:
            return _copy(p, camp=p.camp + delta)


def _pile(state: State, pile: Pile, cards: tuple[Any, ...]) -> State:
    return _copy(state, left_pile=cards) if pile is Pile.LEFT else _copy(state, right_pile=cards)


def _pile_cards(state: State, pile: Pile) -> tuple[Any, ...]:
    return state.left_pile if pile is Pile.LEFT else state.right_pile


def _mat(state: State, seat: int, gone: tuple[ForumTile, ...] = (), new: tuple[ForumTile, ...] = ()) -> State:
    p = state.players[seat]
    return _player(state, seat, forum_tiles=added(removed(p.forum_tiles, gone), new))


def evolve(state: State, event: Event) -> State:
    s = state
    match event:
        case GameStarted(seats, lap, tokens, arch, provinces, ships):
            players = tuple(
                PlayerState(seat, bowls=(Bowl(),) * BOWLS, slots=(0,) * BOWLS, arch=arch, supply=tokens)
                for seat in range(seats)
            )
            return State(
                config=Config(seats),
                phase=Phase.MARKERS,
                lap=lap,
                players=players,
                provinces=tuple(ProvinceState(p) for p in range(1, provinces + 1)),
                ships_yellow=(True,) * ships,
            )
        case SuppliesPrepared(forum, extra, deck, bag, demands, stacks):
            return _copy(
                s,
                forum_stack=forum,
                extra_stack=extra,
                deck=deck,
                bonus_bag=bag,
                demand_pool=demands,
                trajan_stacks=stacks,
            )
        case ConstructionTilesPlaced(tiles):
            return _copy(s, sites=tuple(SiteState(i + 1, t) for i, t in enumerate(tiles)))
        case ProvinceTilesPlaced(provinces, tiles):
            out = list(s.provinces)
            for province, tile in zip(provinces, tiles, strict=True):
                out[province - 1] = ProvinceState(province, tile, out[province - 1].legionnaires)
            return _copy(s, provinces=tuple(out), forum_stack=removed(s.forum_stack, tiles))
        case ForumFilled(forum_tiles, extra_tiles):
            return _copy(
                s,
                forum=added(s.forum, (*forum_tiles, *extra_tiles)),
                forum_stack=removed(s.forum_stack, forum_tiles),
                extra_stack=removed(s.extra_stack, extra_tiles),
            )
        case TokensMoved(seat, source, destination, count):
            moved = _moved(_moved(s.players[seat], source, -count), destination, count)
            return _copy(s, players=_at(s.players, seat, moved))
        case PhaseChanged(phase):
            return _copy(s, phase=phase)
        case StartMarkersPlaced(seat, bowl, markers):
            bowls = _at(s.players[seat].bowls, bowl - 1, Bowl(tuple(sorted(markers))))
            return _player(s, seat, bowls=bowls)
        case TrajanStackTopRevealed(stack, tile):
            revealed = TrajanStack(tile, removed(s.trajan_stacks[stack - 1].rest, (tile,)))
            return _copy(s, trajan_stacks=_at(s.trajan_stacks, stack - 1, revealed))
        case StartPlayerChosen(seat):
            return _copy(s, start_seat=seat, active=seat)
        case SenateRestacked(order):
            return _copy(s, senate_order=order, players=tuple(_copy(x, senate=0) for x in s.players))
        case BonusTileDealt(seat, tile):
            dealt = (*s.players[seat].bonus_tiles, OwnedBonusTile(tile, True))
            return _player(_copy(s, bonus_bag=removed(s.bonus_bag, (tile,))), seat, bonus_tiles=dealt)
        case SenateOfferDrawn(tiles):
            return _copy(s, bonus_bag=removed(s.bonus_bag, tiles), senate_offer=(*s.senate_offer, *tiles))
        case CommodityFlipped(pile, commodity):
            s = _copy(s, deck=removed(s.deck, (commodity,)))
            return _pile(s, pile, (*_pile_cards(s, pile), commodity))
        case CommoditiesDrawn(seat, cards):
            s = _copy(s, deck=removed(s.deck, cards))
            return _player(s, seat, hand=added(s.players[seat].hand, cards))
        case DiscardTaken(seat, pile, commodity):
            s = _pile(s, pile, _pile_cards(s, pile)[:-1])
            return _player(s, seat, hand=added(s.players[seat].hand, (commodity,)))
        case TrajanTileTaken(seat, stack, slot, tile):
            taken = TrajanStack(0, s.trajan_stacks[stack - 1].rest)
            s = _copy(s, trajan_stacks=_at(s.trajan_stacks, stack - 1, taken))
            return _player(s, seat, slots=_at(s.players[seat].slots, slot - 1, tile))
        case ArchMoved(seat, slot):
            return _player(s, seat, arch=slot)
        case RoundStarted(round_):
            return _copy(s, round=round_)
        case TurnStarted(seat):
            return _copy(s, active=seat, pending=(Step(StepKind.CHOOSE_BOWL),), extra_used=False, target=0)
        case BowlEmptied(seat, bowl, markers):
            bowls = _at(s.players[seat].bowls, bowl - 1, Bowl())
            s = _copy(s, in_hand=tuple(sorted(markers)), next_bowl=bowl % BOWLS + 1)
            return _player(s, seat, bowls=bowls)
        case TimeAdvanced(spaces):
            return _copy(s, time=s.time + spaces)
        case MarkerSown(seat, bowl, colour):
            sown = Bowl(added(s.players[seat].bowls[bowl - 1].markers, (colour,)))
            bowls = _at(s.players[seat].bowls, bowl - 1, sown)
            s = _copy(s, in_hand=removed(s.in_hand, (colour,)), next_bowl=bowl % BOWLS + 1, target=bowl)
            return _player(s, seat, bowls=bowls)
        case PendingSet(_, steps):
            return _copy(s, pending=steps)
        case TrajanTileCompleted(seat, slot, _):
            return _player(s, seat, slots=_at(s.players[seat].slots, slot - 1, 0))
        case TrajanTileKept(seat, tile):
            return _player(s, seat, demand_tiles=(*s.players[seat].demand_tiles, tile))
        case PointsScored(seat, points, _):
            return _player(s, seat, vp=s.players[seat].vp + points)
        case PlusTwoPlaced(seat, action):
            return _player(s, seat, plus_two=added(s.players[seat].plus_two, (action,)))
        case ExtraActionTileUsed(seat, tile):
            return _mat(_copy(s, extra_used=True), seat, gone=(tile,))
        case CommodityDiscarded(seat, commodity, pile):
            s = _pile(s, pile, (*_pile_cards(s, pile), commodity))
            return _player(s, seat, hand=removed(s.players[seat].hand, (commodity,)))
        case CommoditiesDisplayed(seat, cards):
            shown = s.players[seat]
            return _player(s, seat, hand=removed(shown.hand, cards), display=added(shown.display, cards))
        case DiscardsReshuffled(cards):
            return _copy(
                s, left_pile=s.left_pile[-1:], right_pile=s.right_pile[-1:], deck=added(s.deck, cards)
            )
        case CommodityLoaded(seat, commodity):
            s = _copy(s, cargo=added(s.cargo, (commodity,)))
            return _player(s, seat, hand=removed(s.players[seat].hand, (commodity,)))
        case WildCommodityLoaded(seat):
            return _mat(_copy(s, cargo_wilds=s.cargo_wilds + 1), seat, gone=(ForumTile.WILD_COMMODITY,))
        case ShipmentDelivered(seat, ship):
            display = added(s.players[seat].display, s.cargo)
            s = _copy(s, cargo=(), cargo_wilds=0, ships_yellow=_at(s.ships_yellow, ship - 1, False))
            return _player(s, seat, display=display)
        case ForumTileTaken(seat, tile):
            return _mat(_copy(s, forum=removed(s.forum, (tile,))), seat, new=(tile,))
        case LeaderMoved(seat, province):
            return _player(s, seat, leader=province)
        case ProvinceTileTaken(seat, province, tile):
            there = s.provinces[province - 1].legionnaires
            return _mat(_province(s, ProvinceState(province, None, there)), seat, new=(tile,))
        case LegionnaireDeployed(seat, province):
            was = s.provinces[province - 1]
            s = _province(s, ProvinceState(province, was.tile, (*was.legionnaires, seat)))
            return _player(s, seat, camp=s.players[seat].camp - 1)
        case SenateAdvanced(seat, space):
            order = (*(x for x in s.senate_order if x != seat), seat)
            return _player(_copy(s, senate_order=order), seat, senate=space)
        case WorkerPlaced(seat, site):
            at = s.sites[site - 1]
            s = _site(s, SiteState(site, at.tile, (*at.workers, seat)))
            return _player(s, seat, work_area=s.players[seat].work_area - 1)
        case ConstructionTileTaken(seat, site, tile):
            s = _site(s, SiteState(site, 0, s.sites[site - 1].workers))
            return _player(s, seat, construction=(*s.players[seat].construction, tile))
        case TurnEnded(_):
            return _copy(s, pending=(), target=0)
        case RoundEnded(_):
            return s
        case DemandRevealed(demand):
            return _copy(s, demand_pool=removed(s.demand_pool, (demand,)), demands=(*s.demands, demand))
        case DemandChoicesAsked(seats):
            return _copy(s, demand_choosers=seats)
        case DemandsMet(seat, _, spent):
            s = _copy(
                s,
                demand_choosers=tuple(x for x in s.demand_choosers if x != seat),
                demands_paid=(*s.demands_paid, seat),
            )
            return _mat(s, seat, gone=spent)
        case SenateScored(ranking, _):
            return _copy(s, consul=ranking[0], proconsul=ranking[1])
        case BonusTileAwarded(seat, tile, yellow):
            awarded = (*s.players[seat].bonus_tiles, OwnedBonusTile(tile, yellow))
            return _player(_copy(s, senate_offer=removed(s.senate_offer, (tile,))), seat, bonus_tiles=awarded)
        case MatTilesRemoved(seat, tiles):
            return _mat(s, seat, gone=tiles)
        case ForumCleared(tiles):
            return _copy(s, forum=removed(s.forum, tiles))
        case ShipsReset():
            return _copy(s, ships_yellow=(True,) * len(s.ships_yellow))
        case QuarterEnded(_):
            return _copy(s, demands=(), demands_paid=(), demand_choosers=(), consul=-1, proconsul=-1)
        case QuarterStarted(quarter):
            return _copy(s, quarter=quarter)
        case FinalScored(scores):
            return _copy(s, final=scores)
        case GameEnded(placings):
            return _copy(s, placings=placings)
