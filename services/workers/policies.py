"""Bots as ``shared.matches.simulate`` policies, for ``tabula simulate`` and the bot bench.

A policy gets ``(state, actor, legal, rng)``; the adapter hands the bot the full state (the
bot itself determinizes for its seat) and an RNG forked per seat. The playout driver
(``shared.matches.simulate``, ``time_moves=True``) times the moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.workers.bots import LEVELS, Budget, make_bot
from shared.core.decider import Actor
from shared.core.rng import Rng
from shared.matches.simulate import Policy


def bot_policy(rules: Any, level: str, budget: Budget | None = None) -> Policy:
    bot = make_bot(rules.game, level, budget)

    def policy(state: Any, actor: Actor, legal: Any, rng: Rng) -> Any:
        seats = rules.seat_count(state)
        return bot.choose(rules, state, actor.seat, seats, rng.fork(f"bot:{actor.seat}"))

    return policy


# ``tabula simulate`` plays many whole games: a small search budget per ``mcts`` move.
SIMULATE_BUDGET = Budget(seconds=0.1, iterations=25)


def policy_factories(budget: Budget | None = SIMULATE_BUDGET) -> dict[str, Callable[[Any], Policy]]:
    """Level -> factory(rules) -> policy, the shape ``tabula simulate`` registers."""

    def factory(level: str) -> Callable[[Any], Policy]:
        return lambda rules: bot_policy(rules, level, budget)

    return {level: factory(level) for level in LEVELS}
