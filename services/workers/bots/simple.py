"""The ``random`` and ``greedy`` levels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.workers.bots.base import Heuristic, legal_for, sample_for_seat, step
from shared.core.decider import Actor, RuleViolation
from shared.core.rng import Rng


@dataclass(frozen=True)
class RandomBot:
    """Uniform over the legal commands."""

    level: str = "random"

    def choose(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> Any:
        seen = sample_for_seat(rules, state, seat, rng)
        return rng.choice(legal_for(rules, seen, Actor.of_seat(seat)))


@dataclass(frozen=True)
class GreedyBot:
    """One ply: apply each legal command to a copy and keep the best by the game's heuristic.

    Ties go to a random one (the candidates are shuffled first and ``max`` keeps the first).
    """

    heuristic: Heuristic
    level: str = "greedy"

    def choose(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> Any:
        actor = Actor.of_seat(seat)
        seen = sample_for_seat(rules, state, seat, rng)
        legal = legal_for(rules, seen, actor)
        if len(legal) == 1:
            return legal[0]
        salt = rng.next_u64()
        candidates = rng.shuffled(legal)
        return max(candidates, key=lambda c: self.value_after(rules, seen, actor, c, Rng(salt)))

    def value_after(self, rules: Any, state: Any, actor: Actor, command: Any, rng: Rng) -> float:
        """Every candidate sees the same random draws (same ``rng`` seed) so they compare fairly."""
        try:
            after = step(rules, state, actor, command, rng)
        except RuleViolation:
            return float("-inf")
        outcome = rules.outcome(after)
        if outcome is not None:
            return float(outcome.scores[actor.seat]) + (100.0 if outcome.placings[actor.seat] == 1 else 0.0)
        return self.heuristic(rules, after, actor.seat)
