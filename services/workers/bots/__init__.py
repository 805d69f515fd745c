"""Bots for every game behind one interface, chosen by level: ``random``, ``greedy``, ``mcts``.

``make_bot(game, level)`` returns an object with ``choose(rules, state, seat, seats, rng)``.
The rules and the hooks (heuristic, pruner: the game manifest's ``bots()``) are per game; the
levels are generic. Bots never import ``random``: their RNG is a :class:`shared.rng.Rng`
seeded from the match seed and version.
"""

from __future__ import annotations

from services.workers.bots.base import Bot, Budget, NoLegalCommand, sample_for_seat
from services.workers.bots.heuristics import bot_hooks, heuristic_for
from services.workers.bots.mcts import MctsBot
from services.workers.bots.simple import GreedyBot, RandomBot
from shared.rng import Rng

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
                budget or Budget(),
                all_seats=hooks.evaluate_all,
                prune=hooks.prune,
                horizon=hooks.horizon,
                common_dice=hooks.common_dice,
                random_ties=hooks.random_ties,
            )
        case _:
            raise UnknownLevel(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")


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
    "sample_for_seat",
]
