"""Whole matches played in-process by bots: the engine of ``tabula simulate`` and the bot bench.

A game here draws exactly the numbers a real match would: the rules decide with
``Rng.derive(seed, version)`` (as :class:`shared.runner.MatchRunner` does) and each bot with
``bot_rng(seed, version, seat)`` (as the Celery task does), so a simulated game replays the
same moves as the same match played through Redis and Celery with iteration-only budgets.
Every step checks the platform invariants; a broken one is recorded, and ends the game.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.workers.bots import Bot, bot_rng
from shared.decider import SYSTEM, Actor, RuleViolation
from shared.rng import Rng

MAX_STEPS = 20_000


@dataclass
class GameResult:
    seed: int
    levels: tuple[str, ...]
    events: int = 0
    steps: int = 0
    scores: tuple[int, ...] = ()
    placings: tuple[int, ...] = ()
    violations: list[str] = field(default_factory=list)
    move_seconds: dict[str, list[float]] = field(default_factory=dict)  # level -> one entry per choice

    @property
    def finished(self) -> bool:
        return bool(self.placings) and not self.violations


@dataclass
class _Match:
    rules: Any
    seats: int
    seed: int
    state: Any
    version: int


def play_game(
    rules: Any, seats: int, seed: int, bots: Sequence[Bot], options: Mapping[str, str] | None = None
) -> GameResult:
    """One match from setup to outcome; ``bots[seat]`` plays each seat."""
    result = GameResult(seed, tuple(b.level for b in bots))
    match = _setup(rules, seats, seed, options or {}, result)
    while result.steps < MAX_STEPS and not result.violations:
        actor = _next_actor(match, result)
        if actor is None:
            break
        _play_step(match, actor, bots, result)
    else:
        if not result.violations:
            result.violations.append(f"no outcome after {MAX_STEPS} steps")
    return result


def _setup(rules: Any, seats: int, seed: int, options: Mapping[str, str], result: GameResult) -> _Match:
    events = rules.setup(rules.make_config(seats, options), Rng.derive(seed, 0))
    state = rules.initial_state()
    for event in events:
        state = rules.evolve(state, event)
    result.events = len(events)
    return _Match(rules, seats, seed, state, len(events))


def _next_actor(match: _Match, result: GameResult) -> Actor | None:
    """Who moves next, or None at the end; checks that exactly the end has no one to act."""
    rules, state = match.rules, match.state
    actors = rules.to_act(state)
    outcome = rules.outcome(state)
    if outcome is not None:
        if actors:
            result.violations.append(f"v{match.version}: match over but {actors} still to act")
        result.scores, result.placings = tuple(outcome.scores), tuple(outcome.placings)
        return None
    if not actors:
        result.violations.append(f"v{match.version}: nobody to act and no outcome")
        return None
    return SYSTEM if SYSTEM in actors else actors[0]


def _play_step(match: _Match, actor: Actor, bots: Sequence[Bot], result: GameResult) -> None:
    rules, state = match.rules, match.state
    legal = list(rules.legal_commands(state, actor))
    if not legal:
        result.violations.append(f"v{match.version}: {actor} to act with no legal command")
        return
    if actor.is_system:
        command = legal[0]
    else:
        bot = bots[actor.seat]
        started = time.perf_counter()
        rng = bot_rng(match.seed, match.version, actor.seat)
        command = bot.choose(rules, state, actor.seat, match.seats, rng)
        result.move_seconds.setdefault(bot.level, []).append(time.perf_counter() - started)
        if command not in legal:
            result.violations.append(f"v{match.version}: {bot.level} chose {command!r}, not a legal command")
            return
    try:
        events = rules.decide(state, actor, command, Rng.derive(match.seed, match.version))
    except RuleViolation as err:
        result.violations.append(f"v{match.version}: legal command {command!r} rejected: {err}")
        return
    if not events:
        result.violations.append(f"v{match.version}: {command!r} produced no event")
        return
    for event in events:
        state = rules.evolve(state, event)
    match.state, match.version = state, match.version + len(events)
    result.events += len(events)
    result.steps += 1
