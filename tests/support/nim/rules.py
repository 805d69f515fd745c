"""Nim, the pure rules. The rulebook: two players share one heap of stones (option ``stones``, 1 to
100, default 15). In turn, seat 0 first, a player takes 1, 2 or 3 stones (never more than are
left). Whoever takes the last stone wins: score 1 and first place, the other 0 and second.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shared.core.decider import Actor, BaseRules, Outcome, RuleViolation
from shared.core.rng import Rng
from shared.core.wire import message, pb
from tests.support.nim.manifest import MAX_STONES, STONES

MOST = 3  # stones one turn may take


@dataclass(frozen=True, slots=True)
class NimConfig:
    seats: int
    stones: int


@message
class NimState:
    stones: int = pb(1, default=0)  # left on the heap
    turn: int = pb(2, default=0)  # the seat to take next
    last: int = pb(3, default=-1)  # the seat that took last (-1: nobody yet)
    seats: int = pb(4, default=0)  # 0 before the setup


@message
class NimView:
    stones: int = pb(1)
    turn: int = pb(2)


@message(tag=1)
class Take:
    """Take 1 to 3 stones (the seat to move)."""

    count: int = pb(1)


@message(tag=1)
class HeapLaid:
    seats: int = pb(1)
    stones: int = pb(2)


@message(tag=2)
class Taken:
    seat: int = pb(1)
    count: int = pb(2)


Command = Take
Event = HeapLaid | Taken


class NimRules(BaseRules[NimConfig, NimState, Command, Event, NimView]):
    def make_config(self, seats: int, options: Mapping[str, str]) -> NimConfig:
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation(
                "bad_seats",
                "{game} takes {max_seats} seats, not {seats}",
                game=self.game,
                max_seats=self.max_seats,
                seats=seats,
            )
        stones = options.get("stones", str(STONES)).strip()
        if not stones.isdigit() or not 1 <= int(stones) <= MAX_STONES:
            raise RuleViolation(
                "bad_option",
                "stones is a number from 1 to {most}, not {stones!r}",
                most=MAX_STONES,
                stones=stones,
            )
        return NimConfig(seats, int(stones))

    def setup(self, config: NimConfig, rng: Rng) -> Sequence[Event]:
        return [HeapLaid(config.seats, config.stones)]

    def decide(self, state: NimState, actor: Actor, command: Command, rng: Rng) -> Sequence[Event]:
        if not actor.is_seat or actor.seat != state.turn or state.stones == 0:
            raise RuleViolation("not_your_turn", "{actor} may not take now", actor=actor)
        if not 1 <= command.count <= min(MOST, state.stones):
            raise RuleViolation(
                "bad_count",
                "take 1 to {most} stones",
                most=min(MOST, state.stones),
            )
        return [Taken(actor.seat, command.count)]

    def evolve(self, state: NimState, event: Event) -> NimState:
        if isinstance(event, HeapLaid):
            return NimState(stones=event.stones, turn=0, last=-1, seats=event.seats)
        return NimState(state.stones - event.count, 1 - event.seat, event.seat, state.seats)

    def legal_commands(self, state: NimState, actor: Actor) -> Sequence[Command]:
        if actor.is_seat and actor.seat == state.turn and state.stones > 0:
            return [Take(n) for n in range(1, min(MOST, state.stones) + 1)]
        return []

    def to_act(self, state: NimState) -> tuple[Actor, ...]:
        return (Actor.of_seat(state.turn),) if state.stones > 0 else ()

    def view(self, state: NimState, viewer: Actor) -> NimView:
        return NimView(state.stones, state.turn)

    def outcome(self, state: NimState) -> Outcome | None:
        if state.seats == 0 or state.stones > 0:
            return None
        seats = range(state.seats)
        return Outcome(
            tuple(int(s == state.last) for s in seats), tuple(1 if s == state.last else 2 for s in seats)
        )

    def seat_count(self, state: NimState) -> int:
        return state.seats
