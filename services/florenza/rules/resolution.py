"""Steps 5 to 7: the market, the district actions and the art works, and the Duomo's choice of dice."""

from __future__ import annotations

from services.florenza.rules.content_types import Area, Content, EffectKind, Skill
from services.florenza.rules.effects import Ctx, area_complete, can_pay, find_spot, gain, pay, spot_district
from services.florenza.rules.events import (
    ArtWorkCompleted,
    ArtWorkFailed,
    ChurchInfluenceChanged,
    DiceChoiceOffered,
    DiceRolled,
    DieChosen,
    GoodsPaid,
    MarketLeft,
    MarketTraded,
    MasterpieceCreated,
    PrestigeChanged,
    WorkshopBuildFailed,
    WorkshopBuilt,
    WorkshopWorked,
)
from services.florenza.rules.flow import begin_art_works, next_at_art_works, next_at_market
from services.florenza.rules.goods import Goods, Resource
from services.florenza.rules.model import NO_SEAT, DieUse, PendingDice, Source, State, Trade, WorkSpot
from services.florenza.rules.placement import preacher_workers
from shared.core.decider import RuleViolation
from shared.core.rng import Rng

# ---------------------------------------------------------------- step 5: market


def check_trade(c: Content, s: State, seat: int, trade: Trade, give: Resource, get: Resource) -> None:
    """Seed 5: each trade once; sell one resource, buy one, or two identical ones for another kind."""
    p = s.players[seat]
    if trade in p.trades:
        raise RuleViolation("trade_used", "{trade} only once at the market", trade=trade.name.lower())
    b = c.board
    if trade is Trade.SELL and p.goods.count(give) < 1:
        raise RuleViolation("cannot_pay", "no {resource} to sell", resource=give.name.lower())
    if trade is Trade.BUY and p.goods.money < b.market_buy:
        raise RuleViolation("cannot_pay", "not enough fiorini")
    if trade is Trade.EXCHANGE and (give == get or p.goods.count(give) < b.market_exchange_give):
        raise RuleViolation(
            "cannot_pay", "exchange {give} identical resources for another kind", give=b.market_exchange_give
        )
    if trade is not Trade.SELL and s.supply.count(get) < 1:
        raise RuleViolation("sold_out", "the bank has no {resource} left", resource=get.name.lower())


def trade(ctx: Ctx, seat: int, kind: Trade, give: Resource, get: Resource) -> None:
    c = ctx.content
    check_trade(c, ctx.state, seat, kind, give, get)
    b = c.board
    match kind:
        case Trade.SELL:
            paid, got = Goods.of(give), Goods(money=b.market_sell)
        case Trade.BUY:
            paid, got = Goods(money=b.market_buy), Goods.of(get)
        case Trade.EXCHANGE:
            paid, got = Goods.of(give, b.market_exchange_give), Goods.of(get)
    ctx.emit(MarketTraded(seat, kind, paid, got))
    if len(ctx.state.players[seat].trades) == len(Trade):
        leave_market(ctx, seat)  # nothing left to do there


def leave_market(ctx: Ctx, seat: int) -> None:
    ctx.emit(MarketLeft(seat))
    next_at_market(ctx)


# ---------------------------------------------------------------- step 6: districts


def resolve_districts(ctx: Ctx) -> None:
    """Seed 6 and its example: every family's space 1 in turn order, then every space 2, and so on."""
    s = ctx.state
    for slot in range(1, ctx.content.board.district_slots + 1):
        for owner in s.turn_order:
            x = ctx.state.players[owner].district[slot - 1]
            if x.worker == NO_SEAT:
                continue
            if x.built:
                produce(ctx, x.worker, owner, slot)
            else:
                build(ctx, owner, slot)
    begin_art_works(ctx)


def produce(ctx: Ctx, seat: int, owner: int, slot: int) -> None:
    """A worked workshop: its goods, or its formula when the worker's family can pay it."""
    kind = ctx.state.players[owner].district[slot - 1].workshop
    workshop = ctx.content.workshop[kind]
    ctx.emit(WorkshopWorked(seat, owner, slot, kind))
    if workshop.effect is EffectKind.CONVERT:
        if not can_pay(ctx.state.players[seat], workshop.pay):
            return
        pay(ctx, seat, workshop.pay, Source.PRODUCTION)
    gain(ctx, seat, workshop.gain, Source.PRODUCTION)


def build(ctx: Ctx, seat: int, slot: int) -> None:
    """Pay the cost and turn the tile (with its prestige), or lose prestige and give tile and worker back."""
    b = ctx.content.board
    kind = ctx.state.players[seat].district[slot - 1].workshop
    w = ctx.content.workshop[kind]
    if ctx.state.players[seat].goods.covers(w.cost):
        if not w.cost.is_zero:
            ctx.emit(GoodsPaid(seat, w.cost, Source.CONSTRUCTION))
        ctx.emit(WorkshopBuilt(seat, slot, kind))
        if w.build_prestige:
            ctx.emit(PrestigeChanged(seat, w.build_prestige, Source.CONSTRUCTION))
    else:
        ctx.emit(WorkshopBuildFailed(seat, slot, kind))
        ctx.emit(PrestigeChanged(seat, -b.failed_build_penalty, Source.FAILED_CONSTRUCTION))


# ---------------------------------------------------------------- step 7: art works

AREA_ORDER = {Area.PALAZZO: 0, Area.CHIESA: 0, Area.CITY: 1, Area.DUOMO: 2}


def hired_spots(s: State, seat: int) -> list[WorkSpot]:
    return [w for w in s.works if w.worker == seat]


def next_works(c: Content, s: State, seat: int) -> list[WorkSpot]:
    """Seed 7.1: the family's own works first, then the city buildings', then the Duomo's."""
    spots = hired_spots(s, seat)
    if not spots:
        return []
    first = min(AREA_ORDER[c.work[w.work].area] for w in spots)
    return [w for w in spots if AREA_ORDER[c.work[w.work].area] == first]


def check_complete(c: Content, s: State, seat: int, work: int, skill: Skill) -> WorkSpot:
    found = c.work.get(work)
    spot = find_spot(s, work, spot_district(found, seat)) if found is not None else None
    if spot is None or spot.worker != seat:
        raise RuleViolation("not_hired", "you hired no artist for art work {work}", work=work)
    if spot not in next_works(c, s, seat):
        raise RuleViolation("wrong_order", "your district's works first, then the city's, then the Duomo's")
    if skill not in c.artist[spot.artist].skills or skill not in c.work[work].skills:
        raise RuleViolation("wrong_skill", "a talent of the artist that the work asks for")
    return spot


def art_work_price(c: Content, work: int, artist: int, skill: Skill) -> Goods:
    """Seed 7.1: what completing ``work`` by ``artist`` with ``skill`` costs: the work's price and
    the artist's fee for that talent (an anonymous artist works for free)."""
    hired = c.artist[artist]
    fee = 0 if hired.anonymous else hired.row(skill).fee
    return c.work[work].cost + Goods(money=fee)


def failure_loss(c: Content, work: int, artist: int) -> int:
    """Seed 7.4 and the FAQ: the prestige an unpaid art work costs (by location, one more for a
    named artist)."""
    named = 0 if c.artist[artist].anonymous else c.board.unpaid_artist_penalty
    return c.board.failure(c.work[work].area) + named


def complete_art_work(ctx: Ctx, seat: int, work: int, skill: Skill, rng: Rng) -> None:
    """Seed 7.1-7.5: pay the work and the artist's fee for the talent, or fail with the penalties."""
    c = ctx.content
    spot = check_complete(c, ctx.state, seat, work, skill)
    artist, w = c.artist[spot.artist], c.work[work]
    price = art_work_price(c, work, artist.id, skill)
    if not ctx.state.players[seat].goods.covers(price):
        fail_art_work(ctx, seat, spot)
        next_at_art_works(ctx, seat)
        return
    if not price.is_zero:
        ctx.emit(GoodsPaid(seat, price, Source.ART_WORK))
    ctx.emit(ArtWorkCompleted(seat, work, spot.district, artist.id, skill))
    gain(ctx, seat, w.reward, Source.ART_WORK)
    area_bonus(ctx, seat, w.area)
    if artist.anonymous:  # no card, so no bonus die (seed 7.2)
        next_at_art_works(ctx, seat)
        return
    dice = tuple(rng.randint(1, 6) for _ in range(c.board.duomo_dice if w.area is Area.DUOMO else 1))
    ctx.emit(DiceRolled(seat, DieUse.ARTIST, dice, artist.id))
    if len(set(dice)) > 1:
        ctx.emit(DiceChoiceOffered(PendingDice(seat, DieUse.ARTIST, dice, artist.id, skill, work)))
        return
    artist_bonus(ctx, seat, artist.id, skill, dice[0])
    next_at_art_works(ctx, seat)


def fail_art_work(ctx: Ctx, seat: int, spot: WorkSpot) -> None:
    """Seed 7.4 and the FAQ: nothing is paid; prestige lost by location, one more for a named artist."""
    c = ctx.content
    ctx.emit(ArtWorkFailed(seat, spot.work, spot.district, spot.artist))
    ctx.emit(PrestigeChanged(seat, -c.board.failure(c.work[spot.work].area), Source.ART_WORK_FAILURE))
    if not c.artist[spot.artist].anonymous:
        ctx.emit(PrestigeChanged(seat, -c.board.unpaid_artist_penalty, Source.UNPAID_ARTIST))


def area_bonus(ctx: Ctx, seat: int, area: Area) -> None:
    """Seed 7.5: the last work of the Palazzo gives 4 prestige, of the Chiesa 4 church influence."""
    b = ctx.content.board
    if area is Area.PALAZZO and area_complete(ctx.content, ctx.state, seat, area):
        ctx.emit(PrestigeChanged(seat, b.palazzo_bonus, Source.PALAZZO_BONUS))
    if area is Area.CHIESA and area_complete(ctx.content, ctx.state, seat, area):
        ctx.emit(ChurchInfluenceChanged(seat, b.chiesa_bonus, Source.CHIESA_BONUS))


def artist_bonus(ctx: Ctx, seat: int, artist: int, skill: Skill, face: int) -> None:
    """Seed 7.2, 7.3: the face's reward, or the masterpiece while the card is still unflipped."""
    row = ctx.content.artist[artist].row(skill)
    if face in row.masterpiece_faces and artist not in ctx.state.masterpieces:
        ctx.emit(MasterpieceCreated(seat, artist))
        ctx.emit(PrestigeChanged(seat, row.masterpiece, Source.MASTERPIECE))
        return
    f = row.faces[face - 1]
    if f.prestige:
        ctx.emit(PrestigeChanged(seat, f.prestige, Source.ARTIST_DIE))
    if f.church:
        ctx.emit(ChurchInfluenceChanged(seat, f.church, Source.ARTIST_DIE))


def choose_die(ctx: Ctx, seat: int, die: int) -> None:
    pending = ctx.state.pending
    assert pending is not None  # decide routes here only with dice pending
    if die not in pending.dice:
        raise RuleViolation("not_rolled", "keep one of the faces rolled: {dice}", dice=pending.dice)
    ctx.emit(DieChosen(seat, die))
    if pending.use is DieUse.PREACHER:
        preacher_workers(ctx, seat, pending.character, die)
        return
    assert pending.skill is not None
    artist_bonus(ctx, seat, pending.character, pending.skill, die)
    next_at_art_works(ctx, seat)
