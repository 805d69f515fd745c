"""Round ends, quarter ends and the game end (seed (p9)-(p10)): demands, senate, removals and refills."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

from services.trajan.rules.commands import ChooseBonusTile, Command, MeetDemands
from services.trajan.rules.content_types import Content, Demand, ForumKind, ForumTile
from services.trajan.rules.ctx import Ctx
from services.trajan.rules.events import (
    BonusTileAwarded,
    DemandChoicesAsked,
    DemandRevealed,
    DemandsMet,
    FinalScored,
    ForumCleared,
    ForumFilled,
    GameEnded,
    MatTilesRemoved,
    PhaseChanged,
    PointsScored,
    ProvinceTilesPlaced,
    QuarterEnded,
    QuarterStarted,
    RoundEnded,
    RoundStarted,
    SenateOfferDrawn,
    SenateRestacked,
    SenateScored,
    ShipsReset,
)
from services.trajan.rules.model import Payment, Phase, Reason, State
from services.trajan.rules.queries import next_seat, seat_order, senate_votes
from services.trajan.rules.scoring import final_score, placings
from services.trajan.rules.setup import pick
from services.trajan.rules.turn import start_turn
from shared.core.decider import RuleViolation

Plan = tuple[Payment, ...]


def end_round(ctx: Ctx) -> None:
    """Rounds 1-3 of a quarter reveal a demand; the next player after the one who ended the round starts
    the next (seed (p9) 每轮结束 1, 2). Round 4 begins the quarter end (3: 不用翻开第四个需求板块)."""
    c, s = ctx.content, ctx.state
    ctx.emit(RoundEnded(s.round))
    in_quarter = (s.round - 1) % c.board.rounds_per_quarter + 1
    if in_quarter < c.board.rounds_per_quarter:
        if in_quarter in c.demands.reveal_after_rounds and s.demand_pool:
            ctx.emit(DemandRevealed(s.demand_pool[ctx.rng.below(len(s.demand_pool))]))
        ctx.emit(RoundStarted(s.round + 1))
        ctx.emit(PhaseChanged(Phase.TURNS))
        start_turn(ctx, next_seat(s, s.active))
        return
    choosers = tuple(x for x in seat_order(s) if len(payment_plans(c, s, x)) > 1)
    ctx.emit(DemandChoicesAsked(choosers))
    ctx.emit(PhaseChanged(Phase.DEMANDS))


# ---------------------------------------------------------------- demands


PAYMENTS = tuple(Payment)


def _demand_tile(c: Content, demand: Demand) -> ForumTile:
    return next(t.tile for t in c.forum_tiles if t.kind is ForumKind.DEMAND and t.demand is demand)


def payment_plans(c: Content, s: State, seat: int) -> list[Plan]:
    """Every way to meet the revealed demands that meets as many as can be met (seed (p9-10) 重要: a player
    who can pay must pay), each once: payments for demands of one kind are listed in a fixed order."""
    p = s.players[seat]
    trajan = _demands_met([c.trajan_tile[t].demand for t in p.demand_tiles])
    forum = _demands_met([c.forum_tile[t].demand for t in p.forum_tiles])
    return list(_plans(s.demands, trajan, forum, p.forum_tiles.count(ForumTile.WILD_DEMAND)))


def _demands_met(demands: list[Demand | None]) -> tuple[Demand, ...]:
    return tuple(sorted(d for d in demands if d is not None))


@lru_cache(maxsize=1024)
def _plans(
    demands: tuple[Demand, ...], trajan: tuple[Demand, ...], forum: tuple[Demand, ...], wilds: int
) -> tuple[Plan, ...]:
    """``payment_plans`` from what it depends on: the demands, the demands the seat's Trajan and forum
    tiles meet, its wild tiles (a pure function of these, so computed once for each: ``legal_commands``
    checks every plan it lists against all of them)."""
    have = {Payment.TRAJAN_TILE: Counter(trajan), Payment.FORUM_TILE: Counter(forum)}
    plans: list[tuple[int, Plan]] = []
    for plan in product(PAYMENTS, repeat=len(demands)):
        if not _canonical(demands, plan) or plan.count(Payment.WILD_DEMAND) > wilds:
            continue
        used = Counter((x, d) for d, x in zip(demands, plan, strict=True) if x in have)
        if all(n <= have[x][d] for (x, d), n in used.items()):
            plans.append((len(plan) - plan.count(Payment.UNMET), plan))
    best = max(n for n, _ in plans)
    return tuple(plan for n, plan in plans if n == best)


def _canonical(demands: tuple[Demand, ...], plan: Plan) -> bool:
    """Payments of equal demands in ascending order (which of two bread demands a tile meets is no choice)."""
    last: dict[Demand, Payment] = {}
    for d, x in zip(demands, plan, strict=True):
        if x < last.get(d, x):
            return False
        last[d] = x
    return True


def check_meet(c: Content, s: State, seat: int, cmd: Command) -> None:
    if not isinstance(cmd, MeetDemands):
        raise RuleViolation("wrong_phase", "meet the people's demands first")
    if cmd.payments not in payment_plans(c, s, seat):
        raise RuleViolation("bad_payment", "not a way to meet the demands (meet all you can)")


def meet(ctx: Ctx, seat: int, plan: Plan) -> None:
    """Forum and wild tiles paid leave the game; Trajan tiles stay (seed (p9-10)); unmet: -4/-9/-15."""
    c, s = ctx.content, ctx.state
    spent = [_demand_tile(c, d) for d, x in zip(s.demands, plan, strict=True) if x is Payment.FORUM_TILE]
    spent += [ForumTile.WILD_DEMAND for x in plan if x is Payment.WILD_DEMAND]
    ctx.emit(DemandsMet(seat, plan, tuple(sorted(spent))))
    unmet = sum(1 for x in plan if x is Payment.UNMET)
    if unmet:
        ctx.emit(PointsScored(seat, -c.demands.penalties[unmet - 1], Reason.UNMET_DEMANDS))


# ---------------------------------------------------------------- senate


def senate_ranking(c: Content, s: State) -> tuple[int, ...]:
    """Most votes first; ties: the higher senate space, then the disc higher in its stack (seed (p9-10))."""
    height = {seat: i for i, seat in enumerate(s.senate_order)}

    def key(seat: int) -> tuple[int, int, int]:
        p = s.players[seat]
        return (-senate_votes(c, p), -p.senate, -height[seat])

    return tuple(sorted(range(s.seats), key=key))


def score_quarter(ctx: Ctx) -> None:
    """Settle the demands of every seat that had no choice, then rank the senate."""
    c = ctx.content
    for seat in seat_order(ctx.state):
        if seat not in ctx.state.demands_paid:
            meet(ctx, seat, payment_plans(c, ctx.state, seat)[0])
    s = ctx.state
    ranking = senate_ranking(c, s)
    ctx.emit(SenateScored(ranking, tuple(senate_votes(c, p) for p in s.players)))
    if s.senate_offer:
        ctx.emit(PhaseChanged(Phase.CONSUL))
    else:
        _restack(ctx, ranking)


def check_bonus_choice(s: State, cmd: Command) -> None:
    if not isinstance(cmd, ChooseBonusTile):
        raise RuleViolation("wrong_phase", "the consul chooses a bonus tile")
    if cmd.tile not in s.senate_offer:
        raise RuleViolation("not_offered", "choose one of the bonus tiles beside the senate")


def choose_bonus_tile(ctx: Ctx, tile: int) -> None:
    """The consul's tile yellow side up, the other grey side up to the proconsul, then every disc back to
    the start, the fewest votes at the bottom and the consul on top (seed (p9-10))."""
    s = ctx.state
    ctx.emit(BonusTileAwarded(s.consul, tile, True))
    other = [x for x in s.senate_offer if x != tile]
    if other:
        ctx.emit(BonusTileAwarded(s.proconsul, other[0], False))
    _restack(ctx, senate_ranking(ctx.content, ctx.state))


def _restack(ctx: Ctx, ranking: tuple[int, ...]) -> None:
    ctx.emit(SenateRestacked(tuple(reversed(ranking))))
    ctx.emit(PhaseChanged(Phase.QUARTER_END))


# ---------------------------------------------------------------- removals, refills, next quarter


def end_quarter(ctx: Ctx) -> None:
    """Seed (p10) 移除与重设板块: senate tiles and the forum leave the game; a new senate offer, forum tiles
    on every province with no tile, leader or legionnaire, a new forum; ships yellow; next quarter."""
    c, s = ctx.content, ctx.state
    for p in s.players:
        senate = tuple(t for t in p.forum_tiles if c.forum_tile[t].kind is ForumKind.SENATE)
        if senate:
            ctx.emit(MatTilesRemoved(p.seat, senate))
    if s.forum:
        ctx.emit(ForumCleared(s.forum))
    last = s.quarter >= c.board.quarters
    if not last:  # nothing drawn after the last quarter: no action follows (docs/rules/trajan.md)
        _refill(ctx)
    ctx.emit(ShipsReset())
    ctx.emit(QuarterEnded(s.quarter))
    if last:
        ctx.emit(PhaseChanged(Phase.GAME_END))
        return
    ctx.emit(QuarterStarted(s.quarter + 1))
    ctx.emit(RoundStarted(s.round + 1))
    ctx.emit(PhaseChanged(Phase.TURNS))
    start_turn(ctx, next_seat(s, s.active))


def _refill(ctx: Ctx) -> None:
    c, rng = ctx.content, ctx.rng
    offer = pick(rng, ctx.state.bonus_bag, c.board.senate_offer)
    if offer:
        ctx.emit(SenateOfferDrawn(offer))
    s = ctx.state
    leaders = {p.leader for p in s.players}
    empty = tuple(
        x.province for x in s.provinces if x.tile is None and not x.legionnaires and x.province not in leaders
    )
    tiles = pick(rng, s.forum_stack, len(empty))  # a short stack fills the provinces first (seed order)
    if tiles:
        ctx.emit(ProvinceTilesPlaced(empty[: len(tiles)], tiles))
    s = ctx.state
    forum = pick(rng, s.forum_stack, c.board.forum_tiles_per_player * s.seats)
    extra = pick(rng, s.extra_stack, c.board.forum_extra_action_tiles)
    if forum or extra:
        ctx.emit(ForumFilled(forum, extra))


def end_game(ctx: Ctx) -> None:
    c, s = ctx.content, ctx.state
    scores = tuple(final_score(c, s, seat) for seat in range(s.seats))
    ctx.emit(FinalScored(scores))
    ctx.emit(GameEnded(placings(s, scores)))
    ctx.emit(PhaseChanged(Phase.FINISHED))
