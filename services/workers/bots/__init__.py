"""Bots for every game behind one interface, chosen by level: ``random``, ``greedy``, ``mcts``.

``make_bot(game, level)`` returns an object with ``choose(rules, state, seat, seats, rng)``.
The rules and the hooks (heuristic, pruner: the game manifest's ``bots()``) are per game; the
levels are generic. Bots never import ``random``: their RNG is a :class:`shared.core.rng.Rng`
seeded from the match seed and version.
"""

from __future__ import annotations

from dataclasses import replace

from services.workers.bots.base import DEFAULT_ROLLOUT_DEPTH, Bot, Budget, NoLegalCommand, sample_for_seat
from services.workers.bots.heuristics import bot_hooks, heuristic_for
from services.workers.bots.mcts import MctsBot
from services.workers.bots.simple import GreedyBot, RandomBot
from shared.core.rng import Rng

LEVELS = ("random", "greedy", "mcts")


class UnknownLevel(ValueError):
    pass


def make_bot(game: str, level: str, budget: Budget | None = None) -> Bot:
    match level:
        case "random":
            return RandomBot()
        case "greedy":
            return GreedyBot(heuristic_for(game))
        case "mcts":
            hooks = bot_hooks(game)
            return MctsBot(
                heuristic_for(game),
                replace(budget or Budget(), rollout_depth=rollout_depth(game, budget)),
                all_seats=hooks.evaluate_all,
                prune=hooks.prune,
                horizon=hooks.horizon,
                common_dice=hooks.common_dice,
                random_ties=hooks.random_ties,
            )
        case _:
            raise UnknownLevel(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")


def rollout_depth(game: str, budget: Budget | None = None) -> int:
    """How many plies an ``mcts`` line of ``game`` may go: the budget's depth if it sets one, else
    the game's own (its manifest's bot hooks), else ``DEFAULT_ROLLOUT_DEPTH``."""
    if budget is not None and budget.rollout_depth is not None:
        return budget.rollout_depth
    return bot_hooks(game).rollout_depth or DEFAULT_ROLLOUT_DEPTH


def bot_rng(match_seed: int, version: int, seat: int) -> Rng:
    """The bot's own stream: independent of the rules' stream for the same version."""
    return Rng.derive(match_seed, version, f"bot:{seat}")


__all__ = [
    "LEVELS",
    "Bot",
    "Budget",
    "GreedyBot",
    "MctsBot",
    "NoLegalCommand",
    "RandomBot",
    "UnknownLevel",
    "bot_rng",
    "make_bot",
    "rollout_depth",
    "sample_for_seat",
]
