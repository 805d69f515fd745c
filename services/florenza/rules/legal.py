"""``to_act`` and ``legal_commands``: the candidates of each step through the checks ``decide`` runs."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import ParamSpec

from services.florenza.rules.commands import (
    BuyResource,
    ChooseDie,
    ChooseStartingWorkshop,
    CollectIncome,
    Command,
    CompleteArtWork,
    DeclinePrivilege,
    EndRound,
    ExchangeResources,
    ExpelPreacher,
    HireArtist,
    LeaveMarket,
    LureWorker,
    MakeOffering,
    Pass,
    PlanWorkshop,
    ResolveDistricts,
    ScoreGame,
    SellResource,
    VisitMarket,
    WithholdArtist,
    WithholdWorker,
    WorkWorkshop,
)
from services.florenza.rules.content_types import Content
from services.florenza.rules.effects import available_artists, available_preachers, lowest_free_slot
from services.florenza.rules.goods import Resource
from services.florenza.rules.model import NO_SEAT, Phase, State, Trade
from services.florenza.rules.placement import check_offering, check_target, check_workshop
from services.florenza.rules.resolution import check_trade, next_works
from shared.core.decider import SYSTEM, Actor, RuleViolation

P = ParamSpec("P")
SEAT_PHASES = (
    Phase.CHOOSE_WORKSHOPS,
    Phase.CAPTAIN,
    Phase.BISHOP,
    Phase.PLACEMENT,
    Phase.MARKET,
    Phase.ART_WORKS,
)
SYSTEM_STEPS: dict[Phase, Command] = {
    Phase.INCOME: CollectIncome(),
    Phase.DISTRICTS: ResolveDistricts(),
    Phase.ROUND_END: EndRound(),
    Phase.GAME_END: ScoreGame(),
}


def to_act(s: State) -> tuple[Actor, ...]:
    if s.pending is not None:
        return (Actor.of_seat(s.pending.seat),)
    if s.phase in SEAT_PHASES:
        return (Actor.of_seat(s.active),)
    if s.phase in SYSTEM_STEPS:
        return (SYSTEM,)
    return ()


def legal_commands(c: Content, s: State, actor: Actor) -> list[Command]:
    if actor not in to_act(s):
        return []
    if actor.is_system:
        return [SYSTEM_STEPS[s.phase]]
    if s.pending is None and s.phase is Phase.PLACEMENT:
        return _placements(c, s, actor.seat)  # the longest list, made as a list
    return list(_seat_commands(c, s, actor.seat))


def _seat_commands(c: Content, s: State, seat: int) -> Iterator[Command]:
    if s.pending is not None:
        yield from (ChooseDie(d) for d in sorted(set(s.pending.dice)))
        return
    match s.phase:
        case Phase.CHOOSE_WORKSHOPS:
            yield from (ChooseStartingWorkshop(k) for k in sorted(set(s.starting_pool)))
        case Phase.CAPTAIN:
            yield from (WithholdWorker(t) for t in _targets(s, seat))
            yield from (WithholdArtist(a) for a in _named_present(c, s, artists=True))
            yield DeclinePrivilege()
        case Phase.BISHOP:
            yield from (LureWorker(t) for t in _targets(s, seat))
            yield from (ExpelPreacher(p) for p in _named_present(c, s, artists=False))
            yield DeclinePrivilege()
        case Phase.PLACEMENT:
            yield from _placements(c, s, seat)
        case Phase.MARKET:
            yield from _trades(c, s, seat)
        case Phase.ART_WORKS:
            for spot in next_works(c, s, seat):
                skills = c.artist[spot.artist].skills
                yield from (CompleteArtWork(spot.work, k) for k in c.work[spot.work].skills if k in skills)


def _targets(s: State, holder: int) -> Iterator[int]:
    return (seat for seat in range(len(s.players)) if _ok(check_target, s, holder, seat))


def _named_present(c: Content, s: State, artists: bool) -> list[int]:
    pool = c.artist if artists else c.preacher
    return sorted(p.character for p in s.present if p.character in pool)


def _ok(check: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
    """True when ``check`` accepts: the same guard ``decide`` runs."""
    try:
        check(*args, **kwargs)
    except RuleViolation:
        return False
    return True


def _placements(c: Content, s: State, seat: int) -> list[Command]:
    out: list[Command] = [
        _work(owner, slot)
        for owner, p in enumerate(s.players)
        for slot, x in enumerate(p.district, start=1)
        if x.built and x.worker == NO_SEAT and _ok(check_workshop, c, s, seat, owner, slot)
    ]
    if lowest_free_slot(s.players[seat]) is not None:
        out += [_plan(k) for k in sorted(set(s.workshop_supply))]
    out += _hires(c, s, seat)
    if not s.players[seat].market:
        out.append(VisitMarket())
    for preacher in available_preachers(c, s):
        for duomo in (False, True):
            if _ok(check_offering, c, s, seat, preacher, duomo):
                out.append(MakeOffering(preacher, duomo))
    out.append(Pass())
    return out


# The placements' commands, made once each: commands are immutable values, and making them (a frozen
# dataclass each) was a good part of listing a step's hundred-odd placements.
_work = functools.cache(WorkWorkshop)
_plan = functools.cache(PlanWorkshop)
_hire = functools.cache(HireArtist)


def _hires(c: Content, s: State, seat: int) -> list[Command]:
    """Every open work the seat may commission, with every free artist having one of its talents."""
    artists = available_artists(c, s)
    able = _able_artists(c)
    return [
        _hire(spot.work, a)
        for spot in s.works
        if spot.worker == NO_SEAT and spot.crest == NO_SEAT and spot.district in (NO_SEAT, seat)
        for a in artists
        if a in able[spot.work]
    ]


_ABLE: dict[int, tuple[Content, dict[int, frozenset[int]]]] = {}


def _able_artists(c: Content) -> dict[int, frozenset[int]]:
    """Work id -> the artists with one of its talents (found once per content)."""
    found = _ABLE.get(id(c))
    if found is None or found[0] is not c:
        table = {w.id: frozenset(a.id for a in c.artists if set(a.skills) & set(w.skills)) for w in c.works}
        found = _ABLE[id(c)] = (c, table)
    return found[1]


def _trades(c: Content, s: State, seat: int) -> Iterator[Command]:
    yield from (SellResource(r) for r in Resource if _ok(check_trade, c, s, seat, Trade.SELL, r, r))
    yield from (BuyResource(r) for r in Resource if _ok(check_trade, c, s, seat, Trade.BUY, r, r))
    for give in Resource:
        for get in Resource:
            if _ok(check_trade, c, s, seat, Trade.EXCHANGE, give, get):
                yield ExchangeResources(give, get)
    yield LeaveMarket()
