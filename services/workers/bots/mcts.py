"""The ``mcts`` level: determinized (single-observer information-set) Monte Carlo tree search.

Each iteration samples a world the seat cannot tell from the real one (the game's pure
``determinize``), walks the tree by the commands legal in that world (UCB1 over availability
counts, as in SO-ISMCTS), expands one command, plays a few random plies, and scores the leaf
with the game's heuristic turned into per-seat rewards. Each node keeps the reward of the seat
that chose its command (max^n, so it works for any number of players). Pending system steps
(round ends, reports) are applied on the way, never branched on. The search stops at the
iteration budget or the time budget, whichever comes first; the most visited command wins.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from services.workers.bots.base import Budget, Heuristic, legal_for, relative_rewards, sample_for_seat, step
from services.workers.bots.heuristics import seat_values
from shared.decider import Actor, RuleViolation
from shared.rng import Rng


@dataclass(eq=False)
class Node:
    seat: int  # the seat whose command leads here; -1 at the root
    visits: int = 0
    available: int = 1
    reward: float = 0.0
    children: dict[Any, Node] = field(default_factory=dict)
    legal: tuple[Any, ...] | None = None  # computed in the first world that reaches the node

    def ucb(self, exploration: float) -> float:
        mean = self.reward / self.visits
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class MctsBot:
    heuristic: Heuristic
    budget: Budget = field(default_factory=Budget)
    reward_scale: float = 5.0
    level: str = "mcts"

    def choose(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> Any:
        legal = legal_for(rules, sample_for_seat(rules, state, seat, rng), Actor.of_seat(seat))
        if len(legal) == 1:
            return legal[0]
        root, _ = self.search(rules, state, seat, seats, rng)
        return max(legal, key=lambda c: _visits(root, c))

    def search(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> tuple[Node, SearchStats]:
        search = _Search(rules, seats, self, rng)
        started = time.perf_counter()
        root, stats = search.seeded_root(sample_for_seat(rules, state, seat, rng), seat), SearchStats()
        deadline = started + self.budget.seconds
        while stats.iterations < self.budget.iterations and time.perf_counter() < deadline:
            search.iterate(root, sample_for_seat(rules, state, seat, rng))
            stats.iterations += 1
        stats.seconds = time.perf_counter() - started
        return root, stats


def _visits(root: Node, command: Any) -> tuple[int, float]:
    child = root.children.get(command)
    return (0, 0.0) if child is None else (child.visits, child.reward)


class _Search:
    def __init__(self, rules: Any, seats: int, bot: MctsBot, rng: Rng) -> None:
        self.rules, self.seats, self.bot, self.rng = rules, seats, bot, rng

    def iterate(self, root: Node, world: Any) -> None:
        node, path = root, []
        try:
            while True:
                world, actor = self._advance(world)
                if actor is None:
                    break
                if node.legal is None:
                    node.legal = tuple(self.rules.legal_commands(world, actor))
                child, command, expanded = self._select(node, node.legal, actor.seat)
                world = step(self.rules, world, actor, command, self.rng)
                path.append(child)
                node = child
                if expanded:
                    break
            rewards = self._evaluate(self._rollout(world))
        except RuleViolation:
            # a node's commands come from the first world that reached it (legal_commands is the
            # costly part of a step); one that another sampled world refuses just drops that sample
            return
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.seat]

    def seeded_root(self, world: Any, seat: int) -> Node:
        """Every root command starts with one visit worth its one-ply heuristic value (greedy's view),
        so even a tiny budget plays no worse than ``greedy`` and the search refines from there."""
        root = Node(-1)
        actor = Actor.of_seat(seat)
        root.legal = tuple(legal_for(self.rules, world, actor))
        for command in root.legal:
            try:
                after = step(self.rules, world, actor, command, self.rng)
            except RuleViolation:
                continue
            reward = self._evaluate(after)[seat]
            root.children[command] = Node(seat, visits=1, reward=reward)
        return root

    def _advance(self, world: Any) -> tuple[Any, Actor | None]:
        """Apply pending system steps; return the world and the seat to move (None: game over)."""
        while True:
            actors = self.rules.to_act(world)
            if not actors:
                return world, None
            seat_actors = [a for a in actors if a.is_seat]
            if seat_actors:
                return world, seat_actors[0]
            world = step(self.rules, world, actors[0], legal_for(self.rules, world, actors[0])[0], self.rng)

    def _select(self, node: Node, legal: Any, seat: int) -> tuple[Node, Any, bool]:
        untried = []
        for command in legal:
            child = node.children.get(command)
            if child is None or child.visits == 0:  # 0: its last sample was dropped
                untried.append(command)
            else:
                child.available += 1
        if untried:
            command = untried[self.rng.below(len(untried))]
            child = node.children.setdefault(command, Node(seat))
            return child, command, True
        exploration = self.bot.budget.exploration
        command = max(legal, key=lambda c: node.children[c].ucb(exploration))
        return node.children[command], command, False

    def _rollout(self, world: Any) -> Any:
        for _ in range(self.bot.budget.rollout_depth):
            world, actor = self._advance(world)
            if actor is None:
                break
            command = self.rng.choice(legal_for(self.rules, world, actor))
            world = step(self.rules, world, actor, command, self.rng)
        return world

    def _evaluate(self, world: Any) -> tuple[float, ...]:
        values = seat_values(self.rules, world, self.seats, self.bot.heuristic)
        return relative_rewards(values, self.bot.reward_scale)
