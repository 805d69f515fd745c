"""Dice race: the pure rules (no I/O, no clock, no ``random``: dice come from the given ``Rng``).

The rulebook (the game is ours; this docstring is its rulebook):

1. **Players and setup.** 2 to 4 seats. Every seat starts on space 0 and is dealt a secret bonus
   of 1, 2 or 3 (each equally likely) that only it may see. Seat 0 rolls first.
2. **A turn.** The seat to move rolls one six-sided die and moves forward that many spaces.
   Seats roll in seat order, one roll each per round.
3. **End of a round.** Once every seat has rolled, the round ends (a system step, played by the
   scoring worker) and the next round begins, again with seat 0.
4. **End of the race.** The race ends the moment a roll takes a seat to the goal or beyond
   (option ``goal``, 1 to 100, default 20): the seats after it in that round do not roll and no
   round end follows.
5. **Scoring.** Each seat scores its space plus its secret bonus. The highest score places
   first; equal scores share the better placing (1 + the number of seats that scored more).

Interpretations, written down because the rules above leave them open:

* A roll past the goal counts in full: spaces are not capped at the goal.
* Reaching the goal first does not win by itself; the bonuses decide (the reason for secrets).
* A seat's view shows every position, the goal, the round and whose turn it is, and its own
  bonus; a spectator's shows no bonus. Bonuses are revealed only through the final scores.

Wire numbers (``pb(n)``, ``tag=N``) are fixed forever, like any game's (docs/platform.md,
"Stored events are forever"); comments on fields and classes become the .proto's comments.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import assert_never

from shared.core.decider import PUBLIC, SYSTEM, Actor, BaseRules, Outcome, RuleViolation, Visibility
from shared.core.rng import Rng
from shared.core.wire import message, pb
from tests.support.race.manifest import GOAL, MAX_GOAL

DIE = 6
BONUS = (1, 3)  # the range a secret bonus is dealt from


class Phase(enum.IntEnum):
    SETUP = 1
    PLAYING = 2
    ROUND_END = 3  # every seat has rolled: the system ends the round
    OVER = 4


@dataclass(frozen=True, slots=True)
class RaceConfig:
    seats: int
    goal: int


@message
class RaceState:
    """The whole match, secrets included (the server's and the bots' determinized copy)."""

    seats: int = pb(1)
    goal: int = pb(2)
    positions: tuple[int, ...] = pb(3)  # space of each seat
    secrets: tuple[int, ...] = pb(4)  # bonus of each seat (0 until dealt)
    turn: int = pb(5)  # the seat to roll next
    rolled: int = pb(6)  # rolls made in this round
    round: int = pb(7)
    phase: Phase = pb(8)


@message
class RaceView:
    """What one viewer sees: every position, and its own bonus when the viewer is a seat."""

    positions: tuple[int, ...] = pb(1)  # space of each seat
    my_secret: int | None = pb(2)  # the viewer's bonus; absent for a spectator
    turn: int = pb(3)  # the seat to roll next
    round: int = pb(4)
    goal: int = pb(5)  # the space that ends the race


@message(tag=1)
class Roll:
    """Roll the die and move (the seat to move)."""


@message(tag=2)
class EndRound:
    """End the round once every seat has rolled (the system)."""


@message(tag=1)
class RaceStarted:
    seats: int = pb(1)
    goal: int = pb(2)


@message(tag=2)
class SecretDealt:
    """A seat's bonus: seen by that seat only."""

    seat: int = pb(1)
    secret: int = pb(2)  # 1 to 3


@message(tag=3)
class DieRolled:
    seat: int = pb(1)
    value: int = pb(2)  # 1 to 6: the spaces moved


@message(tag=4)
class RoundEnded:
    round: int = pb(1)  # the round that ended


Command = Roll | EndRound
Event = RaceStarted | SecretDealt | DieRolled | RoundEnded


class RaceRules(BaseRules[RaceConfig, RaceState, Command, Event, RaceView]):
    """Name and seats are the manifest's; no event removed yet and every event at schema 1: nothing
    reserved, no upcasters (``BaseRules``' defaults). A roll reveals a die: it cannot be undone."""

    revealing = frozenset({DieRolled})

    def make_config(self, seats: int, options: Mapping[str, str]) -> RaceConfig:
        if not self.min_seats <= seats <= self.max_seats:
            seat_range = f"{self.min_seats} to {self.max_seats}"
            raise RuleViolation(
                "bad_seats",
                "{game} takes {seat_range} seats, not {seats}",
                game=self.game,
                seat_range=seat_range,
                seats=seats,
            )
        goal = options.get("goal", str(GOAL)).strip()
        if not goal.isdigit() or not 1 <= int(goal) <= MAX_GOAL:
            raise RuleViolation(
                "bad_option", "goal must be a number from 1 to {most}, not {goal!r}", most=MAX_GOAL, goal=goal
            )
        return RaceConfig(seats, int(goal))

    def initial_state(self) -> RaceState:
        return RaceState(0, 0, (), (), 0, 0, 0, Phase.SETUP)

    def setup(self, config: RaceConfig, rng: Rng) -> Sequence[Event]:
        secrets = [SecretDealt(seat, rng.randint(*BONUS)) for seat in range(config.seats)]
        return [RaceStarted(config.seats, config.goal), *secrets]

    def decide(self, state: RaceState, actor: Actor, command: Command, rng: Rng) -> Sequence[Event]:
        if command not in self.legal_commands(state, actor):
            raise RuleViolation(
                "not_your_turn", "{actor} cannot {command} now", actor=actor, command=type(command).__name__
            )
        match command:
            case Roll():
                return [DieRolled(actor.seat, rng.randint(1, DIE))]
            case EndRound():
                return [RoundEnded(state.round)]
            case _:
                assert_never(command)

    def evolve(self, state: RaceState, event: Event) -> RaceState:
        match event:
            case RaceStarted(seats, goal):
                return RaceState(seats, goal, (0,) * seats, (0,) * seats, 0, 0, 1, Phase.PLAYING)
            case SecretDealt(seat, secret):
                return replace(state, secrets=_put(state.secrets, seat, secret))
            case DieRolled(seat, value):
                positions = _put(state.positions, seat, state.positions[seat] + value)
                over = positions[seat] >= state.goal
                rolled = state.rolled + 1
                phase = Phase.OVER if over else Phase.ROUND_END if rolled == state.seats else Phase.PLAYING
                return replace(
                    state, positions=positions, rolled=rolled, turn=(seat + 1) % state.seats, phase=phase
                )
            case RoundEnded():
                return replace(state, rolled=0, round=state.round + 1, phase=Phase.PLAYING)
            case _:
                assert_never(event)

    def legal_commands(self, state: RaceState, actor: Actor) -> Sequence[Command]:
        if state.phase is Phase.ROUND_END and actor.is_system:
            return [EndRound()]
        if state.phase is Phase.PLAYING and actor.is_seat and actor.seat == state.turn:
            return [Roll()]
        return []

    def to_act(self, state: RaceState) -> tuple[Actor, ...]:
        if state.phase is Phase.ROUND_END:
            return (SYSTEM,)
        return (Actor.of_seat(state.turn),) if state.phase is Phase.PLAYING else ()

    def view(self, state: RaceState, viewer: Actor) -> RaceView:
        dealt = viewer.is_seat and viewer.seat < len(state.secrets)  # none before the setup (a replay at 0)
        secret = state.secrets[viewer.seat] if dealt else None
        return RaceView(
            positions=state.positions, my_secret=secret, turn=state.turn, round=state.round, goal=state.goal
        )

    def visibility(self, event: Event) -> Visibility:
        return Visibility.to_seat(event.seat) if isinstance(event, SecretDealt) else PUBLIC

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        scores = tuple(p + s for p, s in zip(state.positions, state.secrets, strict=True))
        return Outcome(scores, tuple(1 + sum(o > s for o in scores) for s in scores))

    def determinize(self, state: RaceState, seat: int, rng: Rng) -> RaceState:
        """Other seats' bonuses are dealt seat-only: resampled from the same 1..3 as the deal."""
        secrets = tuple(s if i == seat else rng.randint(*BONUS) for i, s in enumerate(state.secrets))
        return replace(state, secrets=secrets)

    def seat_count(self, state: RaceState) -> int:
        return state.seats

    def invariant_violations(self, state: RaceState) -> list[str]:
        """Spaces never negative; bonuses 0 (not yet dealt) or 1..3; at most one roll per seat and
        round; the race is over exactly when a seat stands on the goal or beyond."""
        out = [f"seat {s}: position {p} < 0" for s, p in enumerate(state.positions) if p < 0]
        out += [f"seat {s}: secret {v} not in 0..3" for s, v in enumerate(state.secrets) if not 0 <= v <= 3]
        if not 0 <= state.rolled <= state.seats:
            out.append(f"{state.rolled} rolls in a round of {state.seats} seats")
        reached = any(p >= state.goal for p in state.positions)
        if reached != (state.phase is Phase.OVER):
            out.append(f"phase {state.phase.name} with positions {state.positions} and goal {state.goal}")
        return out


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])
