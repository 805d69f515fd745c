"""A player's turn (seed (p5) 玩家的回合): pick up a bowl and sow, complete a Trajan tile, take the action,
extra actions. The turn is a queue of steps (``State.pending``); ``advance`` skips every step that offers
no choice and ends the turn when none is left.
"""

from __future__ import annotations

from services.trajan.rules import actions, seaport
from services.trajan.rules.cards import draw
from services.trajan.rules.commands import (
    ChooseBowl,
    Command,
    Decline,
    DiscardCommodity,
    SowMarker,
    UseExtraAction,
    UseTrajanEffect,
)
from services.trajan.rules.content_types import Action, Content, TrajanEffect
from services.trajan.rules.ctx import Ctx
from services.trajan.rules.events import (
    ArchMoved,
    BowlEmptied,
    ExtraActionTileUsed,
    MarkerSown,
    PendingSet,
    PhaseChanged,
    PlusTwoPlaced,
    PointsScored,
    TimeAdvanced,
    TokensMoved,
    TrajanTileCompleted,
    TrajanTileKept,
    TurnEnded,
    TurnStarted,
)
from services.trajan.rules.model import Origin, Phase, Place, Reason, State, Step, StepKind
from services.trajan.rules.queries import bowl_action, completes, drawable, extra_tiles_for, next_seat
from shared.core.decider import RuleViolation

ACTIONS = tuple(Action)
OPTIONAL = (StepKind.TRAJAN_EFFECT, StepKind.ACTION, StepKind.EXTRA_ACTION)
CHOSEN_EFFECTS = (
    TrajanEffect.DRAW_CARDS,
    TrajanEffect.WORKERS,
    TrajanEffect.LEGIONNAIRES,
    TrajanEffect.PLUS_TWO,
)


def check(c: Content, s: State, seat: int, cmd: Command) -> None:
    """Raise unless ``cmd`` answers the step ``seat`` owes now."""
    step = s.pending[0]
    if isinstance(cmd, Decline):
        if step.kind not in OPTIONAL:
            raise RuleViolation("not_optional", "this step cannot be declined")
        return
    match step.kind:
        case StepKind.CHOOSE_BOWL:
            _check_bowl(s, seat, cmd)
        case StepKind.SOW:
            if not isinstance(cmd, SowMarker) or cmd.colour not in s.in_hand:
                raise RuleViolation("bad_marker", "sow one of the markers you picked up")
        case StepKind.TRAJAN_EFFECT:
            _check_effect(c, s, seat, step.tile, cmd)
        case StepKind.ACTION:
            assert step.action is not None
            actions.check(c, s, seat, step.action, cmd)
        case StepKind.DISCARD:
            if not isinstance(cmd, DiscardCommodity):
                raise RuleViolation("wrong_step", "discard a card first")
            seaport.check_discard(s, seat, cmd)
        case StepKind.LOAD_CARGO:
            seaport.check_cargo(c, s, seat, step.ship, cmd)
        case StepKind.EXTRA_ACTION:
            assert step.action is not None
            _check_extra(c, s, seat, step.action, cmd)


def _check_bowl(s: State, seat: int, cmd: Command) -> None:
    if not isinstance(cmd, ChooseBowl):
        raise RuleViolation("wrong_step", "choose a bowl first")
    bowls = s.players[seat].bowls
    if not 1 <= cmd.bowl <= len(bowls) or not bowls[cmd.bowl - 1].markers:
        raise RuleViolation("empty_bowl", "choose a bowl with at least one marker")


def _check_effect(c: Content, s: State, seat: int, tile: int, cmd: Command) -> None:
    if not isinstance(cmd, UseTrajanEffect):
        raise RuleViolation("wrong_step", "use or decline the Trajan tile's effect first")
    t, p = c.trajan_tile[tile], s.players[seat]
    if (cmd.action is not None) != (t.effect is TrajanEffect.PLUS_TWO):
        raise RuleViolation("bad_effect", "name an action for a [+2] marker, and only then")
    match t.effect:
        case TrajanEffect.DRAW_CARDS:
            if drawable(s) < 1:
                raise RuleViolation("no_cards", "no card is left to draw")
        case TrajanEffect.WORKERS | TrajanEffect.LEGIONNAIRES:
            if p.supply < 1:
                raise RuleViolation("no_supply", "no figure is left in your supply")
        case TrajanEffect.PLUS_TWO:
            if cmd.action in p.plus_two:
                raise RuleViolation("plus_two_taken", "that action already has a [+2] marker")
        case _:
            raise RuleViolation("bad_effect", "this tile has no effect to use")


def _check_extra(c: Content, s: State, seat: int, action: Action, cmd: Command) -> None:
    if not isinstance(cmd, UseExtraAction):
        raise RuleViolation("wrong_step", "use or decline an extra action first")
    if s.extra_used:
        raise RuleViolation("extra_used", "one extra action per turn")
    if cmd.tile not in extra_tiles_for(c, s.players[seat], action):
        raise RuleViolation("no_extra_tile", "you hold no such extra action tile for this action")


def candidates(c: Content, s: State, seat: int) -> list[Command]:
    """Commands worth checking at the current step (``legal`` filters them through ``check``)."""
    step = s.pending[0]
    decline: list[Command] = [Decline()] if step.kind in OPTIONAL else []
    match step.kind:
        case StepKind.CHOOSE_BOWL:
            return [ChooseBowl(b) for b in range(1, len(s.players[seat].bowls) + 1)]
        case StepKind.SOW:
            return [SowMarker(x) for x in sorted(set(s.in_hand))]
        case StepKind.TRAJAN_EFFECT:
            return [UseTrajanEffect(), *(UseTrajanEffect(a) for a in ACTIONS), *decline]
        case StepKind.ACTION:
            assert step.action is not None
            return [*actions.candidates(c, s, seat, step.action), *decline]
        case StepKind.DISCARD:
            return [
                DiscardCommodity(x, pile)
                for x in sorted(set(s.players[seat].hand))
                for pile in seaport.DISCARD_PILES
            ]
        case StepKind.LOAD_CARGO:
            return seaport.cargo_candidates(s, seat)
        case StepKind.EXTRA_ACTION:
            assert step.action is not None
            return [*(UseExtraAction(t) for t in extra_tiles_for(c, s.players[seat], step.action)), *decline]


def play(ctx: Ctx, seat: int, cmd: Command) -> None:
    """Carry out a checked command at the current step, then move the turn on."""
    s = ctx.state
    step, rest = s.pending[0], s.pending[1:]
    match cmd:
        case Decline():
            ctx.emit(PendingSet(seat, rest))
        case ChooseBowl(bowl):
            markers = s.players[seat].bowls[bowl - 1].markers
            ctx.emit(BowlEmptied(seat, bowl, markers))
            ctx.emit(TimeAdvanced(len(markers)))  # seed (p5) 移动格数=…行动指示物数量
            ctx.emit(PendingSet(seat, (Step(StepKind.SOW),)))
        case SowMarker(colour):
            _sow(ctx, seat, colour)
        case UseTrajanEffect(action):
            _use_effect(ctx, seat, step.tile, action)
            ctx.emit(PendingSet(seat, rest))
        case UseExtraAction(tile):
            assert step.action is not None
            ctx.emit(ExtraActionTileUsed(seat, tile))
            times = 2 if step.action in s.players[seat].plus_two else 1
            again = (Step(StepKind.ACTION, action=step.action, origin=Origin.EXTRA),) * times
            ctx.emit(PendingSet(seat, again + rest))
        case DiscardCommodity():
            seaport.discard(ctx, seat, cmd)
            ctx.emit(PendingSet(seat, rest))
        case _ if step.kind is StepKind.LOAD_CARGO:
            if seaport.load(ctx, seat, step.ship, cmd):
                ctx.emit(PendingSet(seat, rest))
        case _:
            _act(ctx, seat, step, cmd)
    advance(ctx, seat)


def _act(ctx: Ctx, seat: int, step: Step, cmd: Command) -> None:
    """An action's option; after it (and what it owes), an extra action may follow unless it was one."""
    assert step.action is not None
    owed = actions.perform(ctx, seat, step.action, cmd)
    offer = (Step(StepKind.EXTRA_ACTION, action=step.action),) if step.origin is not Origin.EXTRA else ()
    ctx.emit(PendingSet(seat, owed + offer + ctx.state.pending[1:]))


def _sow(ctx: Ctx, seat: int, colour: object) -> None:
    s = ctx.state
    ctx.emit(MarkerSown(seat, s.next_bowl, s.in_hand[s.in_hand.index(colour)]))
    if not ctx.state.in_hand:
        _sown(ctx, seat)


def _sown(ctx: Ctx, seat: int) -> None:
    """The last marker names the target bowl: complete its Trajan tile if the colours are there (seed (p6)
    完成图拉真板块), then offer the bowl's action."""
    c, s = ctx.content, ctx.state
    target, p = s.target, s.players[seat]
    steps: tuple[Step, ...] = ()
    if completes(c, p, target):
        tile = c.trajan_tile[p.slots[target - 1]]
        ctx.emit(TrajanTileCompleted(seat, target, tile.id))
        ctx.emit(PointsScored(seat, tile.vp, Reason.TRAJAN_TILE))
        if tile.demand is not None:
            ctx.emit(TrajanTileKept(seat, tile.id))
        if p.arch == 0:  # the arch waited off the mat for a free slot
            ctx.emit(ArchMoved(seat, target))
        if tile.effect in CHOSEN_EFFECTS:
            steps = (Step(StepKind.TRAJAN_EFFECT, tile=tile.id),)
    action = bowl_action(c, target)
    ctx.emit(PendingSet(seat, (*steps, Step(StepKind.ACTION, action=action, origin=Origin.BOWL))))


def _use_effect(ctx: Ctx, seat: int, tile: int, action: Action | None) -> None:
    t, p = ctx.content.trajan_tile[tile], ctx.state.players[seat]
    match t.effect:
        case TrajanEffect.DRAW_CARDS:
            draw(ctx, seat, t.amount)
        case TrajanEffect.WORKERS:
            ctx.emit(TokensMoved(seat, Place.SUPPLY, Place.WORK_AREA, min(t.amount, p.supply)))
        case TrajanEffect.LEGIONNAIRES:
            ctx.emit(TokensMoved(seat, Place.SUPPLY, Place.CAMP, min(t.amount, p.supply)))
        case TrajanEffect.PLUS_TWO:
            assert action is not None
            ctx.emit(PlusTwoPlaced(seat, action))


def _has_choice(c: Content, s: State, seat: int, step: Step) -> bool:
    match step.kind:
        case StepKind.SOW:
            return len(set(s.in_hand)) > 1
        case StepKind.TRAJAN_EFFECT:
            return any(_ok(c, s, seat, cmd) for cmd in candidates(c, s, seat) if not isinstance(cmd, Decline))
        case StepKind.ACTION:
            assert step.action is not None
            return actions.has_option(c, s, seat, step.action)
        case StepKind.EXTRA_ACTION:
            assert step.action is not None
            usable = not s.extra_used and extra_tiles_for(c, s.players[seat], step.action)
            return bool(usable) and actions.has_option(c, s, seat, step.action)
        case _:
            return True


def _ok(c: Content, s: State, seat: int, cmd: Command) -> bool:
    try:
        check(c, s, seat, cmd)
    except RuleViolation:
        return False
    return True


def advance(ctx: Ctx, seat: int) -> None:
    """Resolve what needs no choice: sow markers of a single colour, drop steps with nothing to choose
    (an action or effect that cannot be taken, an extra action without a tile), end the turn."""
    c = ctx.content
    while ctx.state.pending:
        s = ctx.state
        step = s.pending[0]
        if _has_choice(c, s, seat, step):
            return
        if step.kind is StepKind.SOW:
            _sow(ctx, seat, s.in_hand[0])
        else:
            ctx.emit(PendingSet(seat, s.pending[1:]))
    end_turn(ctx, seat)


def end_turn(ctx: Ctx, seat: int) -> None:
    """The round ends after the turn in which the time marker reached or passed the start (seed (p5))."""
    ctx.emit(TurnEnded(seat))
    s = ctx.state
    if s.time >= s.round * s.lap:
        ctx.emit(PhaseChanged(Phase.ROUND_END))
    else:
        ctx.emit(TurnStarted(next_seat(s, seat)))


def start_turn(ctx: Ctx, seat: int) -> None:
    ctx.emit(TurnStarted(seat))
