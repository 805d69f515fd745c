"""``to_act`` and ``legal_commands``: candidate commands filtered through the same checks ``decide`` runs."""

from __future__ import annotations

from services.trajan.rules import quarter, setup, turn
from services.trajan.rules.commands import (
    ChooseBonusTile,
    Command,
    DrawStartCommodity,
    EndGame,
    EndQuarter,
    EndRound,
    MeetDemands,
    ScoreQuarter,
)
from services.trajan.rules.content_types import Content
from services.trajan.rules.model import Phase, Pile, State
from shared.core.decider import SYSTEM, Actor, RuleViolation

PILES = tuple(Pile)
SEATS = tuple(Actor.of_seat(seat) for seat in range(4))  # the actor of each seat (2 to 4 players), made once


def _actor(seat: int) -> Actor:
    return SEATS[seat] if 0 <= seat < len(SEATS) else Actor.of_seat(seat)


def to_act(c: Content, s: State) -> tuple[Actor, ...]:
    match s.phase:
        case Phase.MARKERS:
            return tuple(_actor(p.seat) for p in s.players if setup.next_empty_bowl(p))
        case Phase.START_CARDS:
            return (_actor(setup.card_taker(c, s)),)
        case Phase.START_TILES:
            return (_actor(setup.tile_taker(c, s)),)
        case Phase.TURNS:
            return (_actor(s.active),)
        case Phase.DEMANDS:
            return tuple(_actor(x) for x in s.demand_choosers) or (SYSTEM,)
        case Phase.CONSUL:
            return (_actor(s.consul),)
        case Phase.ROUND_END | Phase.QUARTER_END | Phase.GAME_END:
            return (SYSTEM,)
        case Phase.FINISHED:
            return ()


def system_command(s: State) -> Command | None:
    """The pending system step, if any."""
    match s.phase:
        case Phase.ROUND_END:
            return EndRound()
        case Phase.DEMANDS if not s.demand_choosers:
            return ScoreQuarter()
        case Phase.QUARTER_END:
            return EndQuarter()
        case Phase.GAME_END:
            return EndGame()
        case _:
            return None


def check(c: Content, s: State, seat: int, cmd: Command) -> None:
    """Raise unless ``seat`` may send ``cmd`` now (``seat`` is among ``to_act``)."""
    match s.phase:
        case Phase.MARKERS:
            setup.check_markers(c, s, seat, cmd)
        case Phase.START_CARDS:
            setup.check_card(s, cmd)
        case Phase.START_TILES:
            setup.check_tile(c, s, seat, cmd)
        case Phase.TURNS:
            turn.check(c, s, seat, cmd)
        case Phase.DEMANDS:
            quarter.check_meet(c, s, seat, cmd)
        case Phase.CONSUL:
            quarter.check_bonus_choice(s, cmd)
        case _:
            raise RuleViolation("wrong_phase", "nothing to do now")


def _candidates(c: Content, s: State, seat: int) -> list[Command]:
    match s.phase:
        case Phase.MARKERS:
            return setup.marker_candidates(c, s, seat)
        case Phase.START_CARDS:
            return [DrawStartCommodity(x) for x in PILES]
        case Phase.START_TILES:
            return setup.tile_candidates(c, s)
        case Phase.TURNS:
            return turn.candidates(c, s, seat)
        case Phase.DEMANDS:
            return [MeetDemands(plan) for plan in quarter.payment_plans(c, s, seat)]
        case Phase.CONSUL:
            return [ChooseBonusTile(t) for t in s.senate_offer]
        case _:
            return []


def legal_commands(c: Content, s: State, actor: Actor) -> list[Command]:
    if actor not in to_act(c, s):
        return []
    if actor.is_system:
        cmd = system_command(s)
        return [cmd] if cmd is not None else []
    out = []
    for cmd in _candidates(c, s, actor.seat):
        try:
            check(c, s, actor.seat, cmd)
        except RuleViolation:
            continue
        out.append(cmd)
    return out
