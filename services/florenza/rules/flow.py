"""Who acts next: the order of the steps of a round and of the seats within a step (seed, "游戏进程")."""

from __future__ import annotations

from services.florenza.rules.effects import Ctx, next_in_order
from services.florenza.rules.events import PhaseChanged, PlacementPassed, TurnBegan
from services.florenza.rules.model import NO_SEAT, Phase, State


def after_income(ctx: Ctx) -> None:
    """Step 2 when there is a Captain of the People, else step 3."""
    captain = ctx.state.captain
    if captain != NO_SEAT:
        ctx.emit(PhaseChanged(Phase.CAPTAIN, captain))
    else:
        after_captain(ctx)


def after_captain(ctx: Ctx) -> None:
    """Step 3 when there is a Bishop, else step 4."""
    bishop = ctx.state.bishop
    if bishop != NO_SEAT:
        ctx.emit(PhaseChanged(Phase.BISHOP, bishop))
    else:
        begin_placement(ctx)


def begin_placement(ctx: Ctx) -> None:
    ctx.emit(PhaseChanged(Phase.PLACEMENT, NO_SEAT))
    next_placer(ctx, NO_SEAT)


def next_placer(ctx: Ctx, after: int) -> None:
    """The next seat in turn order that has not passed. A seat with no worker left must pass (seed 4:
    "如果你的工人都部署完毕的时候你必须叫过"), so it passes here by itself."""
    for seat in next_in_order(ctx.state.turn_order, after):
        p = ctx.state.players[seat]
        if p.passed:
            continue
        if p.workers == 0:
            ctx.emit(PlacementPassed(seat, True))
            continue
        ctx.emit(TurnBegan(seat))
        return
    _after_placement(ctx)


def _after_placement(ctx: Ctx) -> None:
    visitors = market_visitors(ctx.state)
    if visitors:
        ctx.emit(PhaseChanged(Phase.MARKET, visitors[0]))
    else:
        ctx.emit(PhaseChanged(Phase.DISTRICTS, NO_SEAT))


def market_visitors(s: State) -> list[int]:
    """Seats with a worker at the market, in turn order (seed 5: "按照顺序")."""
    return [seat for seat in s.turn_order if s.players[seat].market]


def next_at_market(ctx: Ctx) -> None:
    visitors = market_visitors(ctx.state)
    if visitors:
        ctx.emit(TurnBegan(visitors[0]))
    else:
        ctx.emit(PhaseChanged(Phase.DISTRICTS, NO_SEAT))


def has_hired(s: State, seat: int) -> bool:
    return any(w.worker == seat for w in s.works)


def begin_art_works(ctx: Ctx) -> None:
    s = ctx.state
    first = next((seat for seat in s.turn_order if has_hired(s, seat)), NO_SEAT)
    if first != NO_SEAT:
        ctx.emit(PhaseChanged(Phase.ART_WORKS, first))
    else:
        ctx.emit(PhaseChanged(Phase.ROUND_END, NO_SEAT))


def next_at_art_works(ctx: Ctx, after: int) -> None:
    """Seed 7.1: in turn order, each player tries one art work at a time, until none is left."""
    s = ctx.state
    for seat in next_in_order(s.turn_order, after):
        if has_hired(s, seat):
            ctx.emit(TurnBegan(seat))
            return
    ctx.emit(PhaseChanged(Phase.ROUND_END, NO_SEAT))
