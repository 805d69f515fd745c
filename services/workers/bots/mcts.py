"""The ``mcts`` level: determinized (single-observer information-set) Monte Carlo tree search.

Each iteration samples a world the seat cannot tell from the real one (the game's pure
``determinize``) and walks the tree by UCB1 over commands. A node is expanded all at once:
every legal command of the seat to move is applied and scored with the game's heuristic (a
per-seat reward vector), which both seeds the children with prior visits (progressive bias)
and gives the iteration its value, the vector of the mover's best child (each seat is
assumed to play its one-ply best: max^n, so any number of players works). Deeper iterations
then refine the values with the opponents' replies and the seat's own follow-up choices.
Pending system steps (round ends, reports) are applied on the way, never branched on.
The search stops at the iteration or the time budget, whichever comes first; the root
command with the best mean reward wins.

A node's commands come from the first world that reaches it (``legal_commands`` is the
costly part of a step); a command another sampled world refuses just drops that sample.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.workers.bots.base import Budget, Heuristic, legal_for, relative_rewards, sample_for_seat, step
from services.workers.bots.heuristics import seat_values
from shared.decider import Actor, RuleViolation
from shared.rng import Rng

PRIOR_VISITS = 2

Rewards = tuple[float, ...]


@dataclass(eq=False)
class Node:
    seat: int  # the seat whose command leads here; -1 at the root
    visits: int = 0
    reward: float = 0.0  # sum of ``seat``'s rewards over the visits
    children: dict[Any, Node] = field(default_factory=dict)

    def ucb(self, parent_visits: int, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(parent_visits) / self.visits)


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
        return max(legal, key=lambda c: _rank(root, c))

    def search(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> tuple[Node, SearchStats]:
        started = time.perf_counter()
        deadline = started + self.budget.seconds
        search = _Search(rules, seats, self, rng)
        root, stats = Node(-1), SearchStats()
        while stats.iterations < self.budget.iterations and (
            stats.iterations == 0 or time.perf_counter() < deadline
        ):
            search.iterate(root, sample_for_seat(rules, state, seat, rng))
            stats.iterations += 1
        stats.seconds = time.perf_counter() - started
        return root, stats


def _rank(root: Node, command: Any) -> float:
    """The mean reward: with budgets this small, visit counts mostly echo the exploration."""
    child = root.children.get(command)
    return float("-inf") if child is None else child.reward / child.visits


class _Search:
    def __init__(self, rules: Any, seats: int, bot: MctsBot, rng: Rng) -> None:
        self.rules, self.seats, self.bot, self.rng = rules, seats, bot, rng

    def iterate(self, root: Node, world: Any) -> None:
        node, path = root, [root]
        try:
            while True:
                world, actor = self._advance(world)
                if actor is None:
                    rewards = self._evaluate(world)
                    break
                if not node.children:
                    rewards = self._expand(node, world, actor)
                    break
                command, node = self._select(node)
                world = step(self.rules, world, actor, command, self.rng)
                path.append(node)
        except RuleViolation:
            return
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += rewards[visited.seat]

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

    def _expand(self, node: Node, world: Any, actor: Actor) -> Rewards:
        """Score every command of the mover; return the rewards after the mover's best one."""
        best: Rewards | None = None
        for command in legal_for(self.rules, world, actor):
            try:
                rewards = self._evaluate(step(self.rules, world, actor, command, self.rng))
            except RuleViolation:
                continue
            node.children[command] = Node(actor.seat, PRIOR_VISITS, PRIOR_VISITS * rewards[actor.seat])
            if best is None or rewards[actor.seat] > best[actor.seat]:
                best = rewards
        if best is None:
            raise RuleViolation("no_command", "every command was refused in this sampled world")
        return best

    def _select(self, node: Node) -> tuple[Any, Node]:
        exploration, parent = self.bot.budget.exploration, max(node.visits, 1)
        return max(node.children.items(), key=lambda item: item[1].ucb(parent + 1, exploration))

    def _evaluate(self, world: Any) -> Rewards:
        values: Sequence[float] = seat_values(self.rules, world, self.seats, self.bot.heuristic)
        return relative_rewards(values, self.bot.reward_scale)
