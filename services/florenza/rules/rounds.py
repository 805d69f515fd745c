"""Setup, the starting workshops, income (step 1), titles and the end of a round (steps 8 and 9),
and final scoring. Everything here is automatic but the starting choice."""

from __future__ import annotations

from services.florenza.rules.content_types import NOTHING, Area, Content, EffectKind, Reward
from services.florenza.rules.effects import Ctx, gain, lowest_free_slot
from services.florenza.rules.events import (
    CardinalCreated,
    CertificatesKeptHidden,
    CertificatesTaken,
    CharactersArrived,
    CharactersDeparted,
    ChurchInfluenceChanged,
    GameScored,
    GameStarted,
    GoodsGained,
    IncomeDieRolled,
    LifeShifted,
    PhaseChanged,
    PrestigeBanked,
    PrestigeBankedHidden,
    PrestigeChanged,
    RoundCleared,
    RoundStarted,
    StartingPoolReturned,
    StartingWorkshopChosen,
    TitlesAssigned,
    TurnBegan,
    WorkersGained,
    WorkersReturned,
)
from services.florenza.rules.flow import after_income, begin_placement
from services.florenza.rules.goods import Goods
from services.florenza.rules.model import (
    NO_SEAT,
    Config,
    FinalScore,
    Phase,
    Presence,
    Source,
    State,
    WorkSpot,
)
from shared.core.decider import RuleViolation
from shared.core.rng import Rng

# ---------------------------------------------------------------- setup


def setup(ctx: Ctx, config: Config, rng: Rng) -> None:
    """Seed, "游戏准备": random turn order (4.4), the bag and the first draw (2), resources, money and
    workers (3), the starting workshops set aside (5); the choice starts with the last player."""
    c, b = ctx.content, ctx.content.board
    order = rng.shuffled(range(config.seats))
    pool = tuple(sorted(w.id for w in c.workshops if w.starting))
    tiles = [w.id for w in c.workshops for _ in range(w.copies)]
    for kind in pool:
        tiles.remove(kind)
    works = tuple(WorkSpot(w.id, seat) for seat in range(config.seats) for w in c.district_works)
    works += tuple(WorkSpot(w.id) for w in c.public_works)
    pickers = tuple(reversed(order)) * b.starting_workshops
    ctx.emit(
        GameStarted(
            config.seats, order, b.supply, tuple(sorted(tiles)), pool, tuple(sorted(c.named_characters)),
            works, b.district_slots, b.workers_per_family, pickers,
        )
    )  # fmt: skip
    if config.hidden_certificates:
        ctx.emit(CertificatesKeptHidden())
    for seat in order:
        ctx.emit(GoodsGained(seat, b.starting_resources + Goods(money=b.starting_money), Source.SETUP))
        ctx.emit(WorkersGained(seat, b.starting_workers, Source.SETUP))
    draw(ctx, b.draws(config.seats), rng)
    ctx.emit(PhaseChanged(Phase.CHOOSE_WORKSHOPS, pickers[0]))


def draw(ctx: Ctx, count: int, rng: Rng) -> None:
    """Named characters out of the cloth bag, each under the Life in Florenza card of its mark (2.5)."""
    drawn = rng.shuffled(ctx.state.bag)[:count]
    if drawn:
        ctx.emit(CharactersArrived(tuple(Presence(x, ctx.content.mark(x)) for x in drawn)))


def choose_starting_workshop(ctx: Ctx, seat: int, workshop: int) -> None:
    """Seed 5: free and built, the first choice into space 1, the second into space 2."""
    s = ctx.state
    if workshop not in s.starting_pool:
        raise RuleViolation(
            "not_available", "workshop {workshop} is not among the starting workshops left", workshop=workshop
        )
    slot = lowest_free_slot(s.players[seat])
    assert slot is not None  # two choices into eight empty spaces
    ctx.emit(StartingWorkshopChosen(seat, workshop, slot))
    if ctx.state.pickers:
        ctx.emit(TurnBegan(ctx.state.pickers[0]))
        return
    ctx.emit(StartingPoolReturned(ctx.state.starting_pool))
    ctx.emit(RoundStarted(1, ctx.state.turn_order))
    begin_placement(ctx)  # round 1 skips steps 1 to 3


# ---------------------------------------------------------------- step 1: income


def collect_income(ctx: Ctx, rng: Rng) -> None:
    """Seed 1.1 for everyone, then 1.2 (one die for all; a family the supply cannot serve gets 100
    fiorini), then 1.3 (purple workshops and completed works with an income), each in turn order."""
    c, b = ctx.content, ctx.content.board
    order = ctx.state.turn_order
    for seat in order:
        gain(ctx, seat, Reward(b.income, workers=b.income_workers), Source.INCOME)
    face = rng.randint(1, 6)
    resource = b.income_die[face - 1]
    ctx.emit(IncomeDieRolled(face, resource))
    for seat in order:
        if ctx.state.supply.count(resource) > 0:
            ctx.emit(GoodsGained(seat, Goods.of(resource), Source.INCOME_DIE))
        else:
            ctx.emit(GoodsGained(seat, Goods(money=b.die_compensation), Source.DIE_COMPENSATION))
    for seat in order:
        for reward, source in incomes(c, ctx.state, seat):
            gain(ctx, seat, reward, source)
    after_income(ctx)


def incomes(c: Content, s: State, seat: int) -> list[tuple[Reward, Source]]:
    """Every built purple workshop of the seat's district, then every work its crest marks."""
    out = [
        (c.workshop[x.workshop].gain, Source.WORKSHOP_INCOME)
        for x in s.players[seat].district
        if x.built and c.workshop[x.workshop].effect is EffectKind.INCOME
    ]
    out += [(c.work[w.work].income, Source.WORK_INCOME) for w in s.works if w.crest == seat]
    return [(r, source) for r, source in out if r != NOTHING]


# ---------------------------------------------------------------- steps 8 and 9


def elect(values: list[int], minimum: int) -> int:
    """The seat strictly ahead of every other with at least ``minimum``; -1 on a tie for the lead."""
    best = max(values)
    if best < minimum or values.count(best) > 1:
        return NO_SEAT
    return values.index(best)


def end_round(ctx: Ctx, rng: Rng) -> None:
    titles(ctx)
    round_end(ctx, rng)


def titles(ctx: Ctx) -> None:
    """Step 8: Captain (8.1), Bishop (8.2), Cardinal (8.3), next turn order (8.4, 8.5)."""
    c, s = ctx.content, ctx.state
    b = c.board
    old_bishop = s.bishop
    captain = elect([p.prestige for p in s.players], 1)
    bishop = elect([p.church for p in s.players], b.bishop_min_church)
    if captain != NO_SEAT:
        bank(ctx, captain)
    ctx.emit(TitlesAssigned(captain, bishop))
    for seat in s.turn_order:
        p = ctx.state.players[seat]
        if (seat == bishop and seat == old_bishop) or p.church >= b.cardinal_church:
            ctx.emit(CardinalCreated(seat))
            ctx.emit(PrestigeChanged(seat, b.cardinal_prestige, Source.CARDINAL))
            if p.church:
                ctx.emit(ChurchInfluenceChanged(seat, -p.church, Source.CARDINAL))


def bank(ctx: Ctx, captain: int) -> None:
    """8.1: the Captain takes certificates worth his track, which goes back to 0; with certificates
    hidden (D24) the amount is told to his seat alone."""
    s = ctx.state
    amount = s.players[captain].prestige
    if s.config is not None and s.config.hidden_certificates:
        ctx.emit(CertificatesTaken(captain, amount))
        ctx.emit(PrestigeBankedHidden(captain))
    else:
        ctx.emit(PrestigeBanked(captain, amount))


def next_turn_order(s: State) -> tuple[int, ...]:
    """The Captain first, the Bishop second, everyone else as in the round just played (8.4, 8.5)."""
    titled = [seat for seat in (s.captain, s.bishop) if seat != NO_SEAT]
    first = tuple(dict.fromkeys(titled))
    return first + tuple(seat for seat in s.turn_order if seat not in first)


def round_end(ctx: Ctx, rng: Rng) -> None:
    """Step 9 in the seed's order; after round 8 the game ends (9.7)."""
    s = ctx.state
    for p in s.players:
        elsewhere = sum(1 for x in s.pulpits if x.seat == p.seat) + (1 if s.withheld_worker == p.seat else 0)
        if p.workers or elsewhere:
            ctx.emit(WorkersReturned(p.seat, p.workers, elsewhere))
    ctx.emit(RoundCleared())
    leaving = tuple(x.character for x in ctx.state.present if x.card == 1)
    if leaving:
        ctx.emit(CharactersDeparted(leaving))
    ctx.emit(LifeShifted())
    draw(ctx, len(leaving), rng)
    if s.round >= ctx.content.board.rounds:
        ctx.emit(PhaseChanged(Phase.GAME_END, NO_SEAT))
        return
    ctx.emit(RoundStarted(s.round + 1, next_turn_order(ctx.state)))
    ctx.emit(PhaseChanged(Phase.INCOME, NO_SEAT))


# ---------------------------------------------------------------- final scoring


def final_score(c: Content, s: State, seat: int) -> FinalScore:
    """Seed, "游戏结束": points and penalties of one family."""
    b, p = c.board, s.players[seat]
    own = [w for w in s.works if w.district == seat]
    empty = [area for area in (Area.PALAZZO, Area.CHIESA) if not _has_completed(c, own, area)]
    lines = (
        p.certificates,
        p.prestige,
        b.title_final_points * ((seat == s.captain) + (seat == s.bishop)),
        p.goods.resource_count // b.resources_per_point,
        p.goods.money // b.money_per_point,
        -b.unfinished_workshop_penalty * sum(1 for x in p.district if x.workshop and not x.built),
        -b.incomplete_work_penalty * sum(1 for w in own if w.crest == NO_SEAT),
        -b.empty_area_penalty * len(empty),
    )
    return FinalScore(seat, *lines, sum(lines), p.goods.resource_count, p.goods.money)


def _has_completed(c: Content, own: list[WorkSpot], area: Area) -> bool:
    return any(w.crest != NO_SEAT for w in own if c.work[w.work].area is area)


def placings(scores: tuple[FinalScore, ...]) -> tuple[int, ...]:
    """Highest total wins; ties go to more resources, then more money; still tied, the places are shared."""
    keys = [(f.total, f.resource_count, f.money_left) for f in scores]
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def score_game(ctx: Ctx) -> None:
    scores = tuple(final_score(ctx.content, ctx.state, seat) for seat in range(len(ctx.state.players)))
    ctx.emit(GameScored(scores, placings(scores)))
    ctx.emit(PhaseChanged(Phase.FINISHED, NO_SEAT))
