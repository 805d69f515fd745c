"""Bots: legal, reproducible, blind to other seats' secrets, and free of ``random``."""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from services.workers.bots import LEVELS, Budget, UnknownLevel, bot_rng, make_bot
from services.workers.bots.base import relative_rewards
from services.workers.policies import bot_policy
from shared.core.decider import Actor
from shared.core.rng import Rng
from shared.matches.simulate import play_game
from tests.integration.workers.race_game import RaceWithSecrets
from tests.support.race.manifest import race_rules
from tests.support.race.rules import RaceState

BUDGET = Budget(seconds=5.0, iterations=30)
BOTS_DIR = Path(__file__).resolve().parents[3] / "services" / "workers" / "bots"


def _started(rules: RaceWithSecrets, seats: int = 3) -> RaceState:
    state = rules.initial_state()
    for event in rules.setup(rules.make_config(seats, {}), Rng(1)):
        state = rules.evolve(state, event)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_command(level: str) -> None:
    rules = race_rules(RaceWithSecrets)
    state = _started(rules)
    command = make_bot("race", level, BUDGET).choose(rules, state, 0, 3, Rng(3))
    assert command in rules.legal_commands(state, Actor.of_seat(0))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_whole_games_without_breaking_an_invariant(level: str) -> None:
    rules = race_rules(RaceWithSecrets)
    policies = {seat: bot_policy(rules, level, BUDGET) for seat in range(3)}
    result = play_game(rules, rules.make_config(3, {}), 11, policies)
    assert result.violations == [] and result.outcome is not None and 1 in result.outcome.placings


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_rng_makes_the_same_choice(level: str) -> None:
    rules = race_rules(RaceWithSecrets)
    state = _started(rules)
    bot = make_bot("race", level, Budget(seconds=60, iterations=25))
    assert bot.choose(rules, state, 0, 3, bot_rng(5, 3, 0)) == bot.choose(
        rules, state, 0, 3, bot_rng(5, 3, 0)
    )


@dataclass
class SpyRules(RaceWithSecrets):
    """Records every state the bot steps or asks about: none may hold the other seats' real secrets."""

    seen: list[RaceState]

    def legal_commands(self, state: RaceState, actor: Actor) -> Any:
        self.seen.append(state)
        return super().legal_commands(state, actor)

    def determinize(self, state: RaceState, seat: int, rng: Rng) -> RaceState:
        return replace(state, secrets=tuple(s if i == seat else 99 for i, s in enumerate(state.secrets)))


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_only_looks_at_the_state_determinized_for_its_seat(level: str) -> None:
    rules = race_rules(lambda: SpyRules([]))
    state = _started(rules)
    make_bot("race", level, BUDGET).choose(rules, state, 0, 3, Rng(2))
    assert rules.seen and all(s.secrets[1:] == (99, 99) for s in rules.seen)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(UnknownLevel):
        make_bot("race", "perfect")


def test_rewards_favour_the_leader() -> None:
    low, high = relative_rewards([10.0, 20.0], 5.0)
    assert high > 0.5 > low and abs(high + low - 1.0) < 1e-9


def test_rewards_compare_each_seat_with_the_best_of_the_others() -> None:
    def one_by_one(values: list[float], scale: float) -> tuple[float, ...]:
        others = [
            max((v for s, v in enumerate(values) if s != seat), default=0.0) for seat in range(len(values))
        ]
        return tuple(
            1.0 / (1.0 + math.exp(-(mine - other) / scale))
            for mine, other in zip(values, others, strict=True)
        )

    rng = Rng(7)
    cases = [[], [3.0], [1.0, 1.0], [0.0, -0.0, 0.0], [2.0, 9.0, 9.0, -1.0]]
    cases += [[rng.below(7) / 2 - 1.0 for _ in range(1 + rng.below(5))] for _ in range(200)]
    for values in cases:
        assert relative_rewards(values, 5.0) == one_by_one(values, 5.0), values


def test_bots_never_import_random() -> None:
    for path in BOTS_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text())
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "random" not in names, path


def test_mcts_plays_a_searched_command_over_a_higher_one_ply_prior() -> None:
    from services.workers.bots.mcts import Node, _rank

    root = Node(-1)
    root.children["guess"] = Node(0, 2, 1.8, prior=2, prior_reward=1.8)  # one-ply 0.9, never searched
    root.children["searched"] = Node(0, 4, 2.2, prior=2, prior_reward=1.2)  # prior 0.6, searched 0.5
    assert max(root.children, key=lambda c: _rank(root, c)) == "searched"
    assert _rank(root, "searched") == (1, pytest.approx(0.5))
