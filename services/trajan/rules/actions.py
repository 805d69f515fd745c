"""The six actions with all their options (seed (p6)-(p8)): checks, candidates and what they do.

``candidates`` lists the options worth checking (``legal`` filters them through ``check``, once), and
``perform`` returns the steps an option still owes (the seaport's discard or cargo, a construction
tile's bonus action).
"""

from __future__ import annotations

from services.trajan.rules import seaport
from services.trajan.rules.commands import (
    AdvanceInSenate,
    Command,
    DeployLegionnaire,
    MoveLeader,
    PlaceWorker,
    RecruitLegionnaire,
    RecruitWorker,
    TakeForumTile,
    TakeTrajanTile,
)
from services.trajan.rules.content_types import Action, Content
from services.trajan.rules.ctx import Ctx
from services.trajan.rules.events import (
    ArchMoved,
    ConstructionTileTaken,
    ForumTileTaken,
    LeaderMoved,
    LegionnaireDeployed,
    PointsScored,
    ProvinceTileTaken,
    SenateAdvanced,
    TokensMoved,
    TrajanStackTopRevealed,
    TrajanTileTaken,
    WorkerPlaced,
)
from services.trajan.rules.model import Origin, Place, Reason, State, Step, StepKind
from shared.core.decider import RuleViolation


def has_option(c: Content, s: State, seat: int, action: Action) -> bool:
    for cmd in candidates(c, s, seat, action):
        try:
            check(c, s, seat, action, cmd)
        except RuleViolation:
            continue
        return True
    return False


def candidates(c: Content, s: State, seat: int, action: Action) -> list[Command]:
    """Every option of ``action`` that may be open; ``check`` says which are."""
    match action:
        case Action.SEAPORT:
            return seaport.candidates(c, s, seat)
        case Action.FORUM:
            return [TakeForumTile(t) for t in sorted(set(s.forum))]
        case Action.MILITARY:
            return [RecruitLegionnaire(), *(MoveLeader(p.id) for p in c.provinces), DeployLegionnaire()]
        case Action.SENATE:
            return [AdvanceInSenate()]
        case Action.TRAJAN:
            return [TakeTrajanTile(k) for k in c.trajan_stacks]
        case Action.CONSTRUCTION:
            return [RecruitWorker(), *(PlaceWorker(x.id) for x in c.board.sites)]


def check(c: Content, s: State, seat: int, action: Action, cmd: Command) -> None:
    """Raise unless ``cmd`` is an option of ``action`` that ``seat`` may take now."""
    match action:
        case Action.SEAPORT:
            seaport.check(c, s, seat, cmd)
        case Action.FORUM:
            _check_forum(s, cmd)
        case Action.MILITARY:
            _check_military(c, s, seat, cmd)
        case Action.SENATE:
            _check_senate(c, s, seat, cmd)
        case Action.TRAJAN:
            _check_trajan(c, s, seat, cmd)
        case Action.CONSTRUCTION:
            _check_construction(c, s, seat, cmd)


def _check_forum(s: State, cmd: Command) -> None:
    if not isinstance(cmd, TakeForumTile):
        raise RuleViolation("wrong_action", "{command} is not a forum option", command=type(cmd).__name__)
    if cmd.tile not in s.forum:
        raise RuleViolation("not_in_forum", "no such tile lies in the forum")


def leader_moves(c: Content, s: State, seat: int) -> tuple[int, ...]:
    """Provinces the leader may enter: next to its province, or the camp's exits (seed (p7))."""
    at = s.players[seat].leader
    return c.board.camp_exits if at == 0 else c.province[at].adjacent


def _check_military(c: Content, s: State, seat: int, cmd: Command) -> None:
    p = s.players[seat]
    match cmd:
        case RecruitLegionnaire():
            if p.supply < 1:
                raise RuleViolation("no_supply", "no figure is left in your supply")
        case MoveLeader(province):
            if province not in leader_moves(c, s, seat):
                raise RuleViolation("not_adjacent", "the leader moves to an adjacent province only")
        case DeployLegionnaire():
            if p.camp < 1:
                raise RuleViolation("no_legionnaire", "no legionnaire waits in the military camp")
            if p.leader == 0:
                raise RuleViolation("leader_in_camp", "legionnaires go where your leader stands")
            if seat in s.provinces[p.leader - 1].legionnaires:
                # seed (p7) 重要: 每个省份上面都只能有一个自家士兵
                raise RuleViolation("already_there", "one own legionnaire per province")
        case _:
            raise RuleViolation(
                "wrong_action", "{command} is not a military option", command=type(cmd).__name__
            )


def _check_senate(c: Content, s: State, seat: int, cmd: Command) -> None:
    if not isinstance(cmd, AdvanceInSenate):
        raise RuleViolation("wrong_action", "{command} is not the senate action", command=type(cmd).__name__)
    if s.players[seat].senate >= len(c.board.senate_track) - 1:
        raise RuleViolation("senate_top", "on the 8 space: no senate action until the quarter ends")


def _check_trajan(c: Content, s: State, seat: int, cmd: Command) -> None:
    if not isinstance(cmd, TakeTrajanTile):
        raise RuleViolation("wrong_action", "{command} is not the Trajan action", command=type(cmd).__name__)
    if s.players[seat].arch == 0:
        raise RuleViolation("slots_full", "all six Trajan slots are full")
    if not 1 <= cmd.stack <= len(s.trajan_stacks) or not s.trajan_stacks[cmd.stack - 1].top:
        raise RuleViolation("empty_stack", "take the top tile of a stack that has one")


def workable_sites(c: Content, s: State, seat: int) -> tuple[int, ...]:
    """Any site for a first worker; then the sites beside an own worker without one (seed (p8))."""
    own = {x.site for x in s.sites if seat in x.workers}
    if not own:
        return tuple(x.site for x in s.sites)
    near = {n for site in own for n in c.site[site].adjacent}
    return tuple(sorted(near - own))


def _check_construction(c: Content, s: State, seat: int, cmd: Command) -> None:
    p = s.players[seat]
    match cmd:
        case RecruitWorker():
            if p.supply < 1:
                raise RuleViolation("no_supply", "no figure is left in your supply")
        case PlaceWorker(site):
            if p.work_area < 1:
                raise RuleViolation("no_worker", "no worker waits in the work area")
            if site not in workable_sites(c, s, seat):
                raise RuleViolation("not_adjacent", "a later worker goes beside an own worker")
        case _:
            raise RuleViolation(
                "wrong_action", "{command} is not a construction option", command=type(cmd).__name__
            )


# ---------------------------------------------------------------- doing it


def perform(ctx: Ctx, seat: int, action: Action, cmd: Command) -> tuple[Step, ...]:
    """Carry out a checked option; returns the steps it still owes."""
    if action is Action.SEAPORT:
        return seaport.perform(ctx, seat, cmd)
    c = ctx.content
    match cmd:
        case TakeForumTile(tile):
            ctx.emit(ForumTileTaken(seat, tile))
        case RecruitLegionnaire():
            ctx.emit(TokensMoved(seat, Place.SUPPLY, Place.CAMP, 1))
        case MoveLeader(province):
            ctx.emit(LeaderMoved(seat, province))
            found = ctx.state.provinces[province - 1].tile
            if found is not None:
                ctx.emit(ProvinceTileTaken(seat, province, found))
        case DeployLegionnaire():
            _deploy(ctx, seat)
        case TakeTrajanTile(stack):
            take_trajan_tile(ctx, seat, stack, ctx.state.players[seat].arch)
            move_arch(ctx, seat)
        case AdvanceInSenate():
            space = ctx.state.players[seat].senate + 1
            ctx.emit(SenateAdvanced(seat, space))
            ctx.emit(PointsScored(seat, c.board.senate_track[space], Reason.SENATE))
        case RecruitWorker():
            ctx.emit(TokensMoved(seat, Place.SUPPLY, Place.WORK_AREA, 1))
        case PlaceWorker(site):
            return _build(ctx, seat, site)
    return ()


def _deploy(ctx: Ctx, seat: int) -> None:
    """VP of the province less 3 per foreign legionnaire already there, never below 0 (seed (p7))."""
    c, s = ctx.content, ctx.state
    province = s.players[seat].leader
    foreign = len(s.provinces[province - 1].legionnaires)  # no own one can be there
    vp = max(0, c.province[province].vp - c.scoring.legionnaire_malus * foreign)
    ctx.emit(LegionnaireDeployed(seat, province))
    if vp:
        ctx.emit(PointsScored(seat, vp, Reason.LEGIONNAIRE))


def take_trajan_tile(ctx: Ctx, seat: int, stack: int, slot: int) -> None:
    """The stack's top onto ``slot``; the next top is drawn from beneath. During the game the arch then
    moves clockwise to the next empty slot, or off the mat when all six are full (seed (p7))."""
    s = ctx.state
    ctx.emit(TrajanTileTaken(seat, stack, slot, s.trajan_stacks[stack - 1].top))
    rest = ctx.state.trajan_stacks[stack - 1].rest
    if rest:
        ctx.emit(TrajanStackTopRevealed(stack, rest[ctx.rng.below(len(rest))]))


def move_arch(ctx: Ctx, seat: int) -> None:
    p = ctx.state.players[seat]
    n = len(p.slots)
    following = [(p.arch + i - 1) % n + 1 for i in range(1, n + 1)]
    empty = [slot for slot in following if not p.slots[slot - 1]]
    ctx.emit(ArchMoved(seat, empty[0] if empty else 0))


def _build(ctx: Ctx, seat: int, site: int) -> tuple[Step, ...]:
    """Place the worker; take the site's tile, if any, and its VP; the first tile of a kind brings the
    action the mat shows for it (seed (p8) 建筑行动)."""
    c = ctx.content
    ctx.emit(WorkerPlaced(seat, site))
    tile = ctx.state.sites[site - 1].tile
    if not tile:
        return ()
    kind = c.construction_tile[tile].kind
    first = all(c.construction_tile[t].kind != kind for t in ctx.state.players[seat].construction)
    ctx.emit(ConstructionTileTaken(seat, site, tile))
    ctx.emit(PointsScored(seat, c.construction_tile[tile].vp, Reason.CONSTRUCTION))
    if not first:
        return ()
    return (Step(StepKind.ACTION, action=c.construction_kind[kind].bonus_action, origin=Origin.BUILDING),)
