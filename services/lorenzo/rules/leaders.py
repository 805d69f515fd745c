"""Leader actions (advanced rules): play, discard for a privilege, activate a once-per-round ability."""

from __future__ import annotations

from services.lorenzo.rules.content_types import AbilityKind, Content
from services.lorenzo.rules.effects import Ctx, gain
from services.lorenzo.rules.events import FamilyMemberValueSet, LeaderActivated, LeaderDiscarded, LeaderPlayed
from services.lorenzo.rules.model import COLORED, Decision, DecisionKind, Member, PlayedLeader, Source, State
from services.lorenzo.rules.queries import effective_leader, meets_requirement
from shared.core.decider import RuleViolation


def copy_targets(c: Content, s: State, seat: int) -> list[int]:
    """Leaders played by other players that Lorenzo de' Medici may copy (not another Lorenzo)."""
    out = []
    for p in s.players:
        if p.seat == seat:
            continue
        for pl in p.played:
            if c.leader[pl.leader].ability is not AbilityKind.COPY and pl.leader not in out:
                out.append(pl.leader)
    return sorted(out)


def check_play(c: Content, s: State, seat: int, leader: int, copy_of: int | None) -> None:
    p = s.players[seat]
    if leader not in p.hand:
        raise RuleViolation("leader_not_in_hand", "that leader is not in your hand")
    card = c.leader[leader]
    if not meets_requirement(c, p, card):
        raise RuleViolation("leader_requirement", "you do not meet {leader}'s requirement", leader=card.name)
    if card.ability is AbilityKind.COPY:
        if copy_of is None or copy_of not in copy_targets(c, s, seat):
            raise RuleViolation("bad_copy", "name a leader another player has played")
    elif copy_of is not None:
        raise RuleViolation("bad_copy", "only Lorenzo de' Medici copies a leader")


def play_leader(ctx: Ctx, seat: int, leader: int, copy_of: int | None) -> None:
    check_play(ctx.content, ctx.state, seat, leader, copy_of)
    ctx.emit(LeaderPlayed(seat, leader, copy_of))


def discard_leader(ctx: Ctx, seat: int, leader: int) -> None:
    if leader not in ctx.state.players[seat].hand:
        raise RuleViolation("leader_not_in_hand", "that leader is not in your hand")
    ctx.emit(LeaderDiscarded(seat, leader))
    ctx.owe(Decision(DecisionKind.PRIVILEGES, count=1))


def _played(s: State, seat: int, leader: int) -> PlayedLeader:
    for pl in s.players[seat].played:
        if pl.leader == leader:
            return pl
    raise RuleViolation("leader_not_played", "that leader is not in play")


def activation_members(c: Content, s: State, seat: int, pl: PlayedLeader) -> list[Member | None]:
    """The legal ``member`` arguments for activating ``pl`` now (empty: cannot be activated)."""
    card = effective_leader(c, pl.leader, pl.copied)
    if not card.once_per_round or pl.used:
        return []
    if card.ability is AbilityKind.MEMBER_SIX:
        p = s.players[seat]
        return [m for m in COLORED if m not in p.placed]
    return [None]


def activate_leader(ctx: Ctx, seat: int, leader: int, member: Member | None) -> None:
    c = ctx.content
    pl = _played(ctx.state, seat, leader)
    if member not in activation_members(c, ctx.state, seat, pl):
        raise RuleViolation("cannot_activate", "that ability cannot be activated now (or with that member)")
    card = effective_leader(c, pl.leader, pl.copied)
    ctx.emit(LeaderActivated(seat, leader))
    match card.ability:
        case AbilityKind.GAIN:
            gain(ctx, seat, card.gain, Source.LEADER)
        case AbilityKind.HARVEST:
            ctx.owe(Decision(DecisionKind.HARVEST, value=card.value, servants_only=True))
        case AbilityKind.PRODUCTION:
            ctx.owe(Decision(DecisionKind.PRODUCTION, value=card.value, servants_only=True))
        case AbilityKind.MEMBER_SIX:
            assert member is not None
            ctx.emit(FamilyMemberValueSet(seat, member, card.value))
        case _:
            raise AssertionError(f"{card.name} has no once-per-round ability")


def can_act_with_leaders(c: Content, s: State, seat: int) -> bool:
    p = s.players[seat]
    if p.hand:
        return True
    return any(activation_members(c, s, seat, pl) for pl in p.played)
