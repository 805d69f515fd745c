"""``evolve``: apply one event to the state. No rule checks and no draws: decide did those."""

from __future__ import annotations

from typing import Any, TypeVar, assert_never

from services.florenza.rules.events import (
    ArtistHired,
    ArtistWithheld,
    ArtWorkCompleted,
    ArtWorkFailed,
    CardinalCreated,
    CertificatesKeptHidden,
    CertificatesTaken,
    CharactersArrived,
    CharactersDeparted,
    ChurchInfluenceChanged,
    DiceChoiceOffered,
    DiceRolled,
    DieChosen,
    Event,
    GameScored,
    GameStarted,
    GoodsGained,
    GoodsPaid,
    IncomeDieRolled,
    LifeShifted,
    MarketLeft,
    MarketTraded,
    MarketVisited,
    MasterpieceCreated,
    OfferingMade,
    PhaseChanged,
    PlacementPassed,
    PreacherExpelled,
    PrestigeBanked,
    PrestigeBankedHidden,
    PrestigeChanged,
    PrivilegeDeclined,
    RoundCleared,
    RoundStarted,
    StartingPoolReturned,
    StartingWorkshopChosen,
    TitlesAssigned,
    TurnBegan,
    WorkerLured,
    WorkerSentToWorkshop,
    WorkersGained,
    WorkersReturned,
    WorkerWithheld,
    WorkshopBuildFailed,
    WorkshopBuilt,
    WorkshopPlanned,
    WorkshopWorked,
)
from services.florenza.rules.model import (
    NO_SEAT,
    Config,
    DistrictSlot,
    PlayerState,
    Presence,
    Pulpit,
    State,
    WorkSpot,
)
from shared.core.records import Copier, copier

_Record = TypeVar("_Record", State, PlayerState, DistrictSlot, WorkSpot)


_COPIERS: dict[type, Copier[Any]] = {cls: copier(cls) for cls in (State, PlayerState, DistrictSlot, WorkSpot)}


def _copy(record: _Record, **changes: Any) -> _Record:
    """A copy of ``record`` with ``changes`` (``shared.core.records``)."""
    new: _Record = _COPIERS[type(record)](record, changes)
    return new


def _player(s: State, seat: int, **changes: Any) -> State:
    players = list(s.players)
    players[seat] = _copy(players[seat], **changes)
    return _copy(s, players=tuple(players))


def _slot(s: State, owner: int, slot: int, **changes: Any) -> tuple[DistrictSlot, ...]:
    district = list(s.players[owner].district)
    district[slot - 1] = _copy(district[slot - 1], **changes)
    return tuple(district)


def _spot(s: State, work: int, district: int, **changes: Any) -> State:
    works = tuple(_copy(w, **changes) if w.work == work and w.district == district else w for w in s.works)
    return _copy(s, works=works)


def _worker_back(s: State, seat: int) -> State:
    return _player(s, seat, reserve=s.players[seat].reserve + 1)


def _without_one(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    at = items.index(item)
    return items[:at] + items[at + 1 :]


def evolve(s: State, e: Event) -> State:
    match e:
        case GameStarted():
            return _started(e)
        case CharactersArrived(arrivals):
            arrived = {a.character for a in arrivals}
            bag = tuple(c for c in s.bag if c not in arrived)
            return _copy(s, present=s.present + arrivals, bag=bag)
        case StartingWorkshopChosen(seat, workshop, slot):
            s = _copy(s, starting_pool=_without_one(s.starting_pool, workshop), pickers=s.pickers[1:])
            return _player(s, seat, district=_slot(s, seat, slot, workshop=workshop, built=True))
        case StartingPoolReturned(workshops):
            return _copy(s, starting_pool=(), workshop_supply=tuple(sorted(s.workshop_supply + workshops)))
        case RoundStarted(number, order):
            return _copy(s, round=number, turn_order=order)
        case PhaseChanged(phase, active):
            return _copy(s, phase=phase, active=active)
        case TurnBegan(seat):
            return _copy(s, active=seat)
        case IncomeDieRolled() | DiceRolled() | PrivilegeDeclined() | CardinalCreated():
            return s
        case GoodsGained(seat, goods, _):
            s = _copy(s, supply=s.supply - goods.cubes())
            return _player(s, seat, goods=s.players[seat].goods + goods)
        case GoodsPaid(seat, goods, _):
            s = _copy(s, supply=s.supply + goods.cubes())
            return _player(s, seat, goods=s.players[seat].goods - goods)
        case PrestigeChanged(seat, delta, _):
            return _player(s, seat, prestige=s.players[seat].prestige + delta)
        case ChurchInfluenceChanged(seat, delta, _):
            return _player(s, seat, church=s.players[seat].church + delta)
        case WorkersGained(seat, count, _):
            p = s.players[seat]
            return _player(s, seat, workers=p.workers + count, reserve=p.reserve - count)
        case WorkerWithheld(_, seat):
            return _player(_copy(s, withheld_worker=seat), seat, workers=s.players[seat].workers - 1)
        case ArtistWithheld(_, artist):
            return _copy(s, withheld_artist=artist)
        case WorkerLured(_, seat):
            p = s.players[seat]
            return _player(s, seat, workers=p.workers - 1, reserve=p.reserve + 1)
        case PreacherExpelled(_, preacher):
            return _copy(s, expelled=preacher)
        case _:
            return _placements_and_after(s, e)


def _placements_and_after(s: State, e: Event) -> State:
    match e:
        case WorkerSentToWorkshop(seat, owner, slot):
            s = _player(s, owner, district=_slot(s, owner, slot, worker=seat))
            return _player(s, seat, workers=s.players[seat].workers - 1)
        case WorkshopPlanned(seat, workshop, slot):
            s = _copy(s, workshop_supply=_without_one(s.workshop_supply, workshop))
            district = _slot(s, seat, slot, workshop=workshop, built=False, worker=seat)
            return _player(s, seat, district=district, workers=s.players[seat].workers - 1)
        case ArtistHired(seat, work, district, artist):
            s = _spot(s, work, district, worker=seat, artist=artist)
            return _player(s, seat, workers=s.players[seat].workers - 1)
        case MarketVisited(seat):
            return _player(s, seat, market=True, workers=s.players[seat].workers - 1)
        case OfferingMade(seat, preacher, duomo):
            s = _copy(s, pulpits=(*s.pulpits, Pulpit(seat, preacher, duomo)))
            return _player(s, seat, workers=s.players[seat].workers - 1)
        case DiceChoiceOffered(pending):
            return _copy(s, pending=pending)
        case DieChosen():
            return _copy(s, pending=None)
        case PlacementPassed(seat, _):
            return _player(s, seat, passed=True)
        case MarketTraded(seat, trade, paid, got):
            p = s.players[seat]
            s = _copy(s, supply=s.supply + paid.cubes() - got.cubes())
            return _player(s, seat, goods=p.goods - paid + got, trades=(*p.trades, trade))
        case MarketLeft(seat):
            p = s.players[seat]
            return _player(s, seat, market=False, reserve=p.reserve + 1)
        case WorkshopWorked(seat, owner, slot, _):
            s = _player(s, owner, district=_slot(s, owner, slot, worker=NO_SEAT))
            return _worker_back(s, seat)
        case WorkshopBuilt(seat, slot, _):
            s = _player(s, seat, district=_slot(s, seat, slot, built=True, worker=NO_SEAT))
            return _worker_back(s, seat)
        case WorkshopBuildFailed(seat, slot, workshop):
            s = _copy(s, workshop_supply=tuple(sorted((*s.workshop_supply, workshop))))
            s = _player(s, seat, district=_slot(s, seat, slot, workshop=0, built=False, worker=NO_SEAT))
            return _worker_back(s, seat)
        case ArtWorkCompleted(seat, work, district, _, _):
            return _worker_back(_spot(s, work, district, worker=NO_SEAT, artist=0, crest=seat), seat)
        case ArtWorkFailed(seat, work, district, _):
            return _worker_back(_spot(s, work, district, worker=NO_SEAT, artist=0), seat)
        case MasterpieceCreated(_, artist):
            return _copy(s, masterpieces=(*s.masterpieces, artist))
        case _:
            return _round_end(s, e)


def _round_end(s: State, e: Event) -> State:
    match e:
        case TitlesAssigned(captain, bishop):
            return _copy(s, captain=captain, bishop=bishop)
        case PrestigeBanked(seat, amount):
            p = s.players[seat]
            return _player(s, seat, certificates=p.certificates + amount, prestige=p.prestige - amount)
        case CertificatesKeptHidden():
            seats = s.config.seats if s.config is not None else len(s.players)
            return _copy(s, config=Config(seats, hidden_certificates=True))
        case CertificatesTaken(seat, amount):
            return _player(s, seat, certificates=s.players[seat].certificates + amount)
        case PrestigeBankedHidden(seat):
            return _player(s, seat, prestige=0)
        case WorkersReturned(seat, board, elsewhere):
            p = s.players[seat]
            return _player(s, seat, workers=p.workers - board, reserve=p.reserve + board + elsewhere)
        case RoundCleared():
            players = tuple(_copy(p, passed=False, market=False, trades=()) for p in s.players)
            return _copy(
                s, players=players, pulpits=(), withheld_artist=0, withheld_worker=NO_SEAT, expelled=0
            )
        case CharactersDeparted(characters):
            gone = set(characters)
            present = tuple(p for p in s.present if p.character not in gone)
            return _copy(s, present=present, departed=s.departed + characters)
        case LifeShifted():
            return _copy(s, present=tuple(Presence(p.character, p.card - 1) for p in s.present))
        case GameScored(scores, placings):
            return _copy(s, final=scores, placings=placings)
        case (
            GameStarted() | CharactersArrived() | StartingWorkshopChosen() | StartingPoolReturned()
            | RoundStarted() | PhaseChanged() | TurnBegan() | IncomeDieRolled() | DiceRolled()
            | PrivilegeDeclined() | CardinalCreated() | GoodsGained() | GoodsPaid() | PrestigeChanged()
            | ChurchInfluenceChanged() | WorkersGained() | WorkerWithheld() | ArtistWithheld()
            | WorkerLured() | PreacherExpelled() | WorkerSentToWorkshop() | WorkshopPlanned()
            | ArtistHired() | MarketVisited() | OfferingMade() | DiceChoiceOffered() | DieChosen()
            | PlacementPassed() | MarketTraded() | MarketLeft() | WorkshopWorked() | WorkshopBuilt()
            | WorkshopBuildFailed() | ArtWorkCompleted() | ArtWorkFailed() | MasterpieceCreated()
        ):  # fmt: skip
            return evolve(s, e)
        case _:
            assert_never(e)


def _started(e: GameStarted) -> State:
    district = tuple(DistrictSlot() for _ in range(e.district_slots))
    players = tuple(
        PlayerState(seat, district=district, reserve=e.workers_per_family) for seat in range(e.seats)
    )
    return State(
        config=Config(e.seats),
        turn_order=e.turn_order,
        supply=e.supply,
        workshop_supply=e.workshop_supply,
        starting_pool=e.starting_pool,
        pickers=e.pickers,
        bag=e.bag,
        works=e.works,
        players=players,
    )
