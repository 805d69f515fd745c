"""The ``mcts`` level: determinized (single-observer information-set) Monte Carlo tree search.

Each iteration samples a world the seat cannot tell from the real one (the game's pure
``determinize``) and walks the tree by UCB1 over commands. A node is expanded all at once:
every legal command of the seat to move is applied and scored with the game's heuristic (a
per-seat reward vector), which seeds the children with prior visits (progressive bias). Past
the edge of the tree the iteration goes on along the scored best command of each mover
(expanding those nodes too: each seat is assumed to play its one-ply best, max^n, so any
number of players works) until the searching seat is about to move again after the other
seats replied. The heuristic values that state: every iteration ends at the same point of the
turn cycle, so root commands compare fairly (a one-ply value after the seat's own move would
always look better than one measured after the replies). Pending system steps (round ends,
reports) are applied on the way, never branched on.

The search stops at the iteration or the time budget, whichever comes first; among the root
commands searched at least once, the one with the best mean searched reward is played.

Three opt-in game hooks (``shared.core.manifest.BotHooks``): a ``horizon`` that ends a line instead of the
turn cycle (a game whose next steps roll dice its heuristic already expects ends there), and
``common_dice``: the n-th line of every root command rolls the same dice (and every command of an
expanded node is scored under the same dice, as ``greedy`` compares them), so luck cancels out
between the compared commands instead of ranking them; and ``random_ties``: root commands of the
same rank (with common dice, commands the evaluation cannot tell apart score exactly alike) are
drawn at random, as ``greedy`` draws among its ties, instead of always the first legal one (where
many choices are equal, the lowest space every time: docs/workers.md).

A node's commands come from the first world that reaches it (``legal_commands`` is the
costly part of a step); a command another sampled world refuses just drops that sample. A
game may provide a pruner: the searching seat's commands lose only exact duplicates (same
outcome for more servants); other seats' commands are cut to their distinct outcomes (which
member a rival spends hardly matters to us), which makes their nodes much cheaper.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from services.workers.bots.base import (
    DEFAULT_ROLLOUT_DEPTH,
    Budget,
    Heuristic,
    legal_for,
    relative_rewards,
    sample_for_seat,
    step,
)
from services.workers.bots.heuristics import Pruner, SeatValues, seat_values
from shared.core.decider import Actor, RuleViolation
from shared.core.manifest import Horizon
from shared.core.rng import Rng

PRIOR_VISITS = 2

Rewards = tuple[float, ...]


@dataclass(eq=False)
class Node:
    seat: int  # the seat whose command leads here; -1 at the root
    visits: int = 0
    reward: float = 0.0  # sum of ``seat``'s rewards over the visits
    children: dict[Any, Node] = field(default_factory=dict)
    prior: int = 0  # how many of the visits are the heuristic's one-ply prior ...
    prior_reward: float = 0.0  # ... and their reward

    def ucb(self, parent_visits: int, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(parent_visits) / self.visits)

    @property
    def searched(self) -> int:
        return self.visits - self.prior


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class MctsBot:
    heuristic: Heuristic
    budget: Budget = field(default_factory=Budget)
    reward_scale: float = 5.0
    all_seats: SeatValues | None = None  # the heuristic for every seat in one call
    prune: Pruner | None = None  # drops commands no better than another one
    horizon: Horizon | None = None  # where a line ends, instead of the turn cycle
    common_dice: bool = False  # the n-th line of every root command rolls the same dice
    random_ties: bool = False  # equally ranked root commands drawn at random (else the first legal one)
    level: str = "mcts"

    def choose(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> Any:
        legal = legal_for(rules, sample_for_seat(rules, state, seat, rng), Actor.of_seat(seat))
        if len(legal) == 1:
            return legal[0]
        root, _ = self.search(rules, state, seat, seats, rng)
        if self.random_ties:
            legal = rng.shuffled(legal)
        return max(legal, key=lambda c: _rank(root, c))

    def search(self, rules: Any, state: Any, seat: int, seats: int, rng: Rng) -> tuple[Node, SearchStats]:
        started = time.perf_counter()
        deadline = started + self.budget.seconds
        search = _Search(rules, seat, seats, self, rng)
        root, stats = Node(-1), SearchStats()
        if self.common_dice:
            search.dice_base = rng.next_u64()
        while stats.iterations < self.budget.iterations and (
            stats.iterations == 0 or time.perf_counter() < deadline
        ):
            search.iterate(root, sample_for_seat(rules, state, seat, rng))
            stats.iterations += 1
        stats.seconds = time.perf_counter() - started
        return root, stats


def _rank(root: Node, command: Any) -> tuple[int, float]:
    """Searched commands first, by their mean searched reward (the prior only orders the search)."""
    child = root.children.get(command)
    if child is None:
        return (-1, 0.0)
    if child.searched <= 0:
        return (0, child.reward / child.visits)
    return (1, (child.reward - child.prior_reward) / child.searched)


class _Search:
    def __init__(self, rules: Any, seat: int, seats: int, bot: MctsBot, rng: Rng) -> None:
        self.rules, self.seat, self.seats, self.bot, self.rng = rules, seat, seats, bot, rng
        self.dice_base = 0
        self.line = 0  # common dice: which line of its root command this iteration is ...
        self.rolls = 0  # ... and how many steps it has taken

    def iterate(self, root: Node, world: Any) -> None:
        """Down the tree by UCB, then along each mover's best scored command, until the searching
        seat is to move again after the others moved, or where the game's horizon says (and at
        the game's end, or ``rollout_depth``)."""
        node, path = root, [root]
        others_moved = False
        start, horizon = world, self.bot.horizon
        self.rolls = 0
        depth = self.bot.budget.rollout_depth or DEFAULT_ROLLOUT_DEPTH
        try:
            while len(path) <= depth:
                if horizon is not None and len(path) > 1 and horizon(self.rules, start, world):
                    break
                world, actor = self._advance(world)
                if actor is None or (horizon is None and actor.seat == self.seat and others_moved):
                    break
                if node.children:
                    command, node = self._select(node)
                else:
                    self._expand(node, world, actor)
                    command, node = max(node.children.items(), key=lambda item: item[1].reward)
                if len(path) == 1:
                    self.line = node.visits - node.prior
                world = step(self.rules, world, actor, command, self._dice())
                path.append(node)
                others_moved = actor.seat != self.seat
        except RuleViolation:
            return
        rewards = self._evaluate(world)
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += rewards[visited.seat]

    def _dice(self) -> Rng:
        """The dice of the line's next step: with common dice the same for the n-th line of every
        root command (a paired comparison: luck cancels out between them)."""
        if not self.bot.common_dice:
            return self.rng
        self.rolls += 1
        return Rng.derive(self.dice_base, self.line, str(self.rolls))

    def _advance(self, world: Any) -> tuple[Any, Actor | None]:
        """Apply pending system steps; return the world and the seat to move (None: game over)."""
        while True:
            actors = self.rules.to_act(world)
            if not actors:
                return world, None
            seat_actors = [a for a in actors if a.is_seat]
            if seat_actors:
                return world, seat_actors[0]
            command = legal_for(self.rules, world, actors[0])[0]
            world = step(self.rules, world, actors[0], command, self._dice())

    def _expand(self, node: Node, world: Any, actor: Actor) -> None:
        """Score every command of the mover: the children start with that one-ply prior (with common
        dice, every command under the same dice, as ``greedy`` compares them)."""
        commands = legal_for(self.rules, world, actor)
        if self.bot.prune is not None:
            commands = self.bot.prune(self.rules, world, actor.seat, commands, actor.seat != self.seat)
        salt = self.rng.next_u64() if self.bot.common_dice else 0
        for command in commands:
            try:
                dice = Rng(salt) if self.bot.common_dice else self.rng
                rewards = self._evaluate(step(self.rules, world, actor, command, dice))
            except RuleViolation:
                continue
            reward = PRIOR_VISITS * rewards[actor.seat]
            node.children[command] = Node(
                actor.seat, PRIOR_VISITS, reward, prior=PRIOR_VISITS, prior_reward=reward
            )
        if not node.children:
            raise RuleViolation("no_command", "every command was refused in this sampled world")

    def _select(self, node: Node) -> tuple[Any, Node]:
        exploration, parent = self.bot.budget.exploration, max(node.visits, 1)
        return max(node.children.items(), key=lambda item: item[1].ucb(parent + 1, exploration))

    def _evaluate(self, world: Any) -> Rewards:
        values = seat_values(self.rules, world, self.seats, self.bot.heuristic, self.bot.all_seats)
        return relative_rewards(values, self.bot.reward_scale)
