"""A tiny test-only game for the platform's tests: a dice race with a secret per seat.

Seats take turns rolling a die and advancing; after every seat has rolled, the SYSTEM ends
the round. Each seat is dealt a secret bonus (seat-only event). First to reach the goal wins.
Registered for one process with ``TABULA_EXTRA_GAMES=tests.support.race:MANIFEST``.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, assert_never

from shared.codec import from_plain, to_plain
from shared.decider import PUBLIC, SYSTEM, Actor, Outcome, RuleViolation, Visibility
from shared.manifest import GameManifest, GameOption, OptionType
from shared.rng import Rng
from shared.wire import message, pb

GOAL = 20


class Phase(enum.IntEnum):
    SETUP = 1
    PLAYING = 2
    ROUND_END = 3
    OVER = 4


@dataclass(frozen=True, slots=True)
class RaceConfig:
    seats: int
    goal: int


@message
class RaceState:
    seats: int = pb(1)
    goal: int = pb(2)
    positions: tuple[int, ...] = pb(3)
    secrets: tuple[int, ...] = pb(4)
    turn: int = pb(5)
    rolled: int = pb(6)
    round: int = pb(7)
    phase: Phase = pb(8)


@message
class RaceView:
    positions: tuple[int, ...] = pb(1)
    my_secret: int | None = pb(2)
    turn: int = pb(3)
    round: int = pb(4)


@message(tag=1)
class Roll:
    pass


@message(tag=2)
class EndRound:
    pass


@message(tag=1)
class RaceStarted:
    seats: int = pb(1)
    goal: int = pb(2)


@message(tag=2)
class SecretDealt:
    seat: int = pb(1)
    secret: int = pb(2)


@message(tag=3)
class DieRolled:
    seat: int = pb(1)
    value: int = pb(2)


@message(tag=4)
class RoundEnded:
    round: int = pb(1)


Command = Roll | EndRound
Event = RaceStarted | SecretDealt | DieRolled | RoundEnded


class RaceRules:
    game = "race"
    min_seats, max_seats = 2, 4
    config_type, state_type, view_type = RaceConfig, RaceState, RaceView
    command_types: tuple[type, ...] = (Roll, EndRound)
    event_types: tuple[type, ...] = (RaceStarted, SecretDealt, DieRolled, RoundEnded)
    reserved_command_tags: tuple[int | str, ...] = ()
    reserved_event_tags: tuple[int | str, ...] = ()
    upcasters: Mapping[tuple[str, int], Any] = {}

    def make_config(self, seats: int, options: Mapping[str, str]) -> RaceConfig:
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_seats", f"race takes 2 to 4 seats, not {seats}")
        goal = options.get("goal", str(GOAL))
        if not goal.isdigit() or int(goal) < 1:
            raise RuleViolation("bad_option", f"goal must be a positive number, not {goal!r}")
        return RaceConfig(seats, int(goal))

    def initial_state(self) -> RaceState:
        return RaceState(0, 0, (), (), 0, 0, 0, Phase.SETUP)

    def setup(self, config: RaceConfig, rng: Rng) -> Sequence[Event]:
        secrets = [SecretDealt(seat, rng.randint(1, 3)) for seat in range(config.seats)]
        return [RaceStarted(config.seats, config.goal), *secrets]

    def decide(self, state: RaceState, actor: Actor, command: Command, rng: Rng) -> Sequence[Event]:
        if command not in self.legal_commands(state, actor):
            raise RuleViolation("not_your_turn", f"{actor} cannot {type(command).__name__} now")
        match command:
            case Roll():
                return [DieRolled(actor.seat, rng.randint(1, 6))]
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
        secret = state.secrets[viewer.seat] if viewer.is_seat else None
        return RaceView(state.positions, secret, state.turn, state.round)

    def visibility(self, event: Event) -> Visibility:
        return Visibility.to_seat(event.seat) if isinstance(event, SecretDealt) else PUBLIC

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        scores = tuple(p + s for p, s in zip(state.positions, state.secrets, strict=True))
        return Outcome(scores, tuple(1 + sum(o > s for o in scores) for s in scores))

    def determinize(self, state: RaceState, seat: int, rng: Rng) -> RaceState:
        """Other seats' secrets are dealt seat-only: resampled from the same 1..3 as the deal."""
        secrets = tuple(s if i == seat else rng.randint(1, 3) for i, s in enumerate(state.secrets))
        return replace(state, secrets=secrets)

    def seat_count(self, state: RaceState) -> int:
        return state.seats

    def invariant_violations(self, state: RaceState) -> list[str]:
        """Positions and secrets never negative; secrets dealt from 1..3."""
        out = [f"seat {s}: position {p} < 0" for s, p in enumerate(state.positions) if p < 0]
        bad = [f"seat {s}: secret {v} not in 0..3" for s, v in enumerate(state.secrets) if not 0 <= v <= 3]
        return out + bad


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


MANIFEST = GameManifest(
    name="race",
    title="Dice race",
    min_seats=2,
    max_seats=4,
    default_port=50090,
    options=(GameOption("goal", OptionType.INT, str(GOAL), "position that ends the race", minimum=1),),
    rules=RaceRules,
    source="tests/support/race.py",
)


class JsonCodec:
    """Test-only codec; real games use shared.codec.MessageCodec (protobuf payloads)."""

    def __init__(self, classes: Sequence[type]) -> None:
        self._by_name = {c.__name__: c for c in classes}

    def encode(self, obj: Any) -> tuple[str, bytes]:
        return type(obj).__name__, json.dumps(to_plain(obj)).encode()

    def decode(self, type_name: str, payload: bytes, schema_version: int | None = None) -> Any:
        return from_plain(self._by_name[type_name], json.loads(payload))
