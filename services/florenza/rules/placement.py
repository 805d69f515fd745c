"""Steps 2 to 4: the Captain of the People's and the Bishop's privileges, and worker placement.

Each ``check_*`` raises :class:`RuleViolation` or returns what the matching ``place_*`` needs, so
``legal_commands`` and ``decide`` share one set of conditions.
"""

from __future__ import annotations

from services.florenza.rules.content_types import Area, Content
from services.florenza.rules.effects import (
    Ctx,
    available_artists,
    available_preachers,
    find_spot,
    has_crest_in,
    lowest_free_slot,
    spot_district,
)
from services.florenza.rules.events import (
    ArtistHired,
    ArtistWithheld,
    DiceChoiceOffered,
    DiceRolled,
    GoodsPaid,
    MarketVisited,
    OfferingMade,
    PreacherExpelled,
    PrestigeChanged,
    PrivilegeDeclined,
    WorkerLured,
    WorkerSentToWorkshop,
    WorkersGained,
    WorkerWithheld,
    WorkshopPlanned,
)
from services.florenza.rules.flow import after_captain, begin_placement, next_placer
from services.florenza.rules.goods import Goods
from services.florenza.rules.model import DieUse, PendingDice, Source, State, Title, WorkSpot
from shared.core.decider import RuleViolation
from shared.core.rng import Rng

# ---------------------------------------------------------------- steps 2 and 3


def check_target(s: State, holder: int, seat: int) -> None:
    """Captain and Bishop act on another family's worker still on its board (seed 2 b, 3 b)."""
    if not 0 <= seat < len(s.players) or seat == holder:
        raise RuleViolation("bad_target", "choose another family")
    if s.players[seat].workers < 1:
        raise RuleViolation("no_worker", "seat {seat} has no worker on its board", seat=seat)


def named_present(c: Content, s: State, character: int, artists: bool) -> None:
    pool = c.artist if artists else c.preacher
    found = pool.get(character)
    if found is None or found.anonymous or character not in {p.character for p in s.present}:
        if artists:
            raise RuleViolation(
                "not_available", "{character} is not a named artist in Florence", character=character
            )
        raise RuleViolation(
            "not_available", "{character} is not a named preacher in Florence", character=character
        )


def withhold_worker(ctx: Ctx, captain: int, seat: int) -> None:
    check_target(ctx.state, captain, seat)
    ctx.emit(WorkerWithheld(captain, seat))
    after_captain(ctx)


def withhold_artist(ctx: Ctx, captain: int, artist: int) -> None:
    """Seed 2: only a named artist; he stays on Life in Florenza VI until step 9 (nobody hires him)."""
    named_present(ctx.content, ctx.state, artist, artists=True)
    ctx.emit(ArtistWithheld(captain, artist))
    after_captain(ctx)


def lure_worker(ctx: Ctx, bishop: int, seat: int) -> None:
    """Seed 3: the other family loses the worker even when the Bishop has none left to take."""
    check_target(ctx.state, bishop, seat)
    ctx.emit(WorkerLured(bishop, seat))
    if ctx.state.players[bishop].reserve > 0:
        ctx.emit(WorkersGained(bishop, 1, Source.BISHOP))
    begin_placement(ctx)


def expel_preacher(ctx: Ctx, bishop: int, preacher: int) -> None:
    named_present(ctx.content, ctx.state, preacher, artists=False)
    ctx.emit(PreacherExpelled(bishop, preacher))
    begin_placement(ctx)


def decline(ctx: Ctx, seat: int, title: Title) -> None:
    ctx.emit(PrivilegeDeclined(seat, title))
    if title is Title.CAPTAIN:
        after_captain(ctx)
    else:
        begin_placement(ctx)


# ---------------------------------------------------------------- step 4


def check_workshop(c: Content, s: State, seat: int, owner: int, slot: int) -> None:
    """Seed 4.1: a built, unoccupied, non-purple workshop; another family's only while the user's
    prestige is not below the floor (seed: "已经低于-3则无法执行")."""
    if not 0 <= owner < len(s.players) or not 1 <= slot <= len(s.players[owner].district):
        raise RuleViolation("no_such_workshop", "no space {slot} in district {owner}", slot=slot, owner=owner)
    x = s.players[owner].district[slot - 1]
    if not x.workshop or not x.built:
        raise RuleViolation("not_built", "only a built workshop (yellow side up) can be worked")
    if x.worker != -1:
        raise RuleViolation("occupied", "one worker per workshop and round")
    if c.workshop[x.workshop].is_purple:
        raise RuleViolation("purple", "a purple workshop pays its income in step 1 and takes no worker")
    if owner != seat and s.players[seat].prestige < c.board.prestige_floor:
        raise RuleViolation("prestige_too_low", "below the prestige floor you may not work for others")


def work_workshop(ctx: Ctx, seat: int, owner: int, slot: int) -> None:
    check_workshop(ctx.content, ctx.state, seat, owner, slot)
    ctx.emit(WorkerSentToWorkshop(seat, owner, slot))
    if owner != seat:
        fee = ctx.content.board.opponent_workshop_fee
        ctx.emit(PrestigeChanged(seat, -fee, Source.WORKSHOP_FEE))
        ctx.emit(PrestigeChanged(owner, fee, Source.WORKSHOP_FEE))
    next_placer(ctx, seat)


def check_plan(s: State, seat: int, workshop: int) -> int:
    """Seed 4.2: an available tile into the lowest empty space; returns the space."""
    if workshop not in s.workshop_supply:
        raise RuleViolation("not_available", "no workshop {workshop} left in the supply", workshop=workshop)
    slot = lowest_free_slot(s.players[seat])
    if slot is None:
        raise RuleViolation("district_full", "every building space is taken")
    return slot


def plan_workshop(ctx: Ctx, seat: int, workshop: int) -> None:
    slot = check_plan(ctx.state, seat, workshop)
    ctx.emit(WorkshopPlanned(seat, workshop, slot))
    next_placer(ctx, seat)


def open_spot(c: Content, s: State, seat: int, work: int) -> WorkSpot:
    """Seed 4.3: your own district's work or a public one, with no worker and no crest on it."""
    found = c.work.get(work)
    spot = find_spot(s, work, spot_district(found, seat)) if found is not None else None
    if spot is None:
        raise RuleViolation("no_such_work", "no art work {work} you may commission", work=work)
    if spot.worker != -1 or spot.crest != -1:
        raise RuleViolation("occupied", "the work has a worker or a family crest on it")
    return spot


def check_hire(c: Content, s: State, seat: int, work: int, artist: int) -> WorkSpot:
    spot = open_spot(c, s, seat, work)
    if artist not in available_artists(c, s):
        raise RuleViolation("not_available", "artist {artist} is not on his card", artist=artist)
    if not set(c.artist[artist].skills) & set(c.work[work].skills):
        raise RuleViolation("wrong_skill", "the artist has none of the talents the work asks for")
    return spot


def hire_artist(ctx: Ctx, seat: int, work: int, artist: int) -> None:
    spot = check_hire(ctx.content, ctx.state, seat, work, artist)
    ctx.emit(ArtistHired(seat, work, spot.district, artist))
    next_placer(ctx, seat)


def visit_market(ctx: Ctx, seat: int) -> None:
    """Seed 4.4: the market takes one worker of each family."""
    if ctx.state.players[seat].market:
        raise RuleViolation("already_there", "one worker per family at the market")
    ctx.emit(MarketVisited(seat))
    next_placer(ctx, seat)


def check_offering(c: Content, s: State, seat: int, preacher: int, duomo: bool) -> None:
    """Seed 4.5: a free pulpit (the Duomo's only with a crest on a Duomo work), a preacher on his card,
    and the offering paid at once."""
    if preacher not in available_preachers(c, s):
        raise RuleViolation("not_available", "preacher {preacher} is not on his card", preacher=preacher)
    if duomo:
        if not has_crest_in(c, s, seat, Area.DUOMO):
            raise RuleViolation("no_crest", "the Duomo's pulpit needs your crest on a Duomo work")
        if sum(1 for x in s.pulpits if x.duomo) >= c.board.duomo_pulpits:
            raise RuleViolation("occupied", "the Duomo's pulpit is taken")
    elif sum(1 for x in s.pulpits if x.seat == seat and not x.duomo) >= c.board.district_pulpits:
        raise RuleViolation("occupied", "your pulpit is taken")
    if s.players[seat].goods.money < c.preacher[preacher].offering:
        raise RuleViolation("cannot_pay", "not enough fiorini for the offering")


def make_offering(ctx: Ctx, seat: int, preacher: int, duomo: bool, rng: Rng) -> None:
    c = ctx.content
    check_offering(c, ctx.state, seat, preacher, duomo)
    ctx.emit(OfferingMade(seat, preacher, duomo))
    offering = c.preacher[preacher].offering
    if offering:
        ctx.emit(GoodsPaid(seat, Goods(money=offering), Source.OFFERING))
    dice = tuple(rng.randint(1, 6) for _ in range(c.board.duomo_dice if duomo else 1))
    ctx.emit(DiceRolled(seat, DieUse.PREACHER, dice, preacher))
    if len(set(dice)) > 1:
        ctx.emit(DiceChoiceOffered(PendingDice(seat, DieUse.PREACHER, dice, preacher)))
        return
    preacher_workers(ctx, seat, preacher, dice[0])


def preacher_workers(ctx: Ctx, seat: int, preacher: int, face: int) -> None:
    """The card's workers for the kept face, from the reserve (never above the family's 8)."""
    wanted = ctx.content.preacher[preacher].faces[face - 1]
    workers = min(wanted, ctx.state.players[seat].reserve)
    if workers > 0:
        ctx.emit(WorkersGained(seat, workers, Source.OFFERING))
    next_placer(ctx, seat)
