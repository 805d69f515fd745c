"""What every bot level shares: the interface, the budget, and the seat's-eye view of a state.

A bot is handed the full state (it runs inside the trust boundary) but may only look at it
through :func:`sample_for_seat`: the game's pure ``determinize(state, seat, rng)`` resamples
everything the seat cannot see (other hands, deck order), so a bot never plays on secrets.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shared.core.decider import Actor
from shared.core.rng import Rng

# (rules, state, seat) -> how good ``state`` looks for ``seat`` (victory-point scale).
Heuristic = Callable[[Any, Any, int], float]


DEFAULT_ROLLOUT_DEPTH = 12


@dataclass(frozen=True, slots=True)
class Budget:
    """Search limits of the ``mcts`` level; whichever runs out first stops the search."""

    seconds: float = 1.0
    iterations: int = 2000
    # plies one iteration may go (tree walk + best-command extension); None: the game's own depth
    # (its ``BotHooks.rollout_depth``), else ``DEFAULT_ROLLOUT_DEPTH``
    rollout_depth: int | None = None
    exploration: float = 0.1


class Bot(Protocol):
    @property
    def level(self) -> str: ...

    def choose(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> Any:
        """One legal command for ``seat`` of ``seats`` (``seat`` must be in ``rules.to_act(state)``)."""
        ...


class NoLegalCommand(RuntimeError):
    """The seat was asked to move but the rules list nothing for it (a rules bug)."""


def sample_for_seat(rules: Any, state: Any, seat: int, rng: Rng) -> Any:
    """The state as ``seat`` may know it, with hidden parts resampled.

    ``determinize`` is part of the rules protocol (``shared.core.decider.Rules``), required of every
    game and checked when the registry loads the rules: a game without hidden information
    returns the state unchanged.
    """
    return rules.determinize(state, seat, rng)


def step(rules: Any, state: Any, actor: Actor, command: Any, rng: Rng) -> Any:
    """decide + evolve on a copy (states are immutable); raises RuleViolation like decide."""
    for event in rules.decide(state, actor, command, rng):
        state = rules.evolve(state, event)
    return state


def legal_for(rules: Any, state: Any, actor: Actor) -> Sequence[Any]:
    legal: Sequence[Any] = rules.legal_commands(state, actor)
    if not legal:
        raise NoLegalCommand(f"{actor} is to act but has no legal command")
    return legal


def relative_rewards(values: Sequence[float], scale: float) -> tuple[float, ...]:
    """Each seat's reward in (0, 1): a logistic of its lead over the best other seat."""
    if not values:
        return ()
    first = max(range(len(values)), key=values.__getitem__)  # the best seat; every other seat's best other
    second = max((v for s, v in enumerate(values) if s != first), default=0.0)  # the best seat's best other
    out = []
    for seat, mine in enumerate(values):
        best_other = second if seat == first else values[first]
        out.append(1.0 / (1.0 + math.exp(-(mine - best_other) / scale)))
    return tuple(out)
