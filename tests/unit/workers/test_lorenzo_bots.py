"""The bots on Lorenzo il Magnifico: legal whole games, and a heuristic that counts what matters."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from services.workers.bots import Budget
from services.workers.bots.lorenzo import evaluate
from services.workers.policies import bot_policy
from shared.simulate import play_game

lorenzo_content = pytest.importorskip("services.lorenzo.content")


@pytest.fixture(scope="module")
def rules() -> Any:
    return lorenzo_content.load_rules()


def _started(rules: Any) -> Any:
    from shared.rng import Rng

    state = rules.initial_state()
    for event in rules.setup(rules.make_config(4, {}), Rng(3)):
        state = rules.evolve(state, event)
    return state


def test_a_lorenzo_game_of_random_greedy_and_mcts_bots_ends_without_violations(rules: Any) -> None:
    budget = Budget(seconds=0.05, iterations=4)
    levels = ["mcts", "greedy", "random", "greedy"]
    policies = {seat: bot_policy(rules, level, budget) for seat, level in enumerate(levels)}
    result = play_game(rules, rules.make_config(4, {}), 5, policies)
    assert result.violations == [] and result.outcome is not None


def test_the_heuristic_prefers_more_victory_points_and_fewer_excommunications(rules: Any) -> None:
    state = _started(rules)
    player = state.players[0]
    richer = replace(player, goods=replace(player.goods, victory=player.goods.victory + 5))
    punished = replace(player, excommunications=(*player.excommunications, 1))
    base = evaluate(rules, state, 0)
    assert evaluate(rules, replace(state, players=(richer, *state.players[1:])), 0) == pytest.approx(base + 5)
    assert evaluate(rules, replace(state, players=(punished, *state.players[1:])), 0) < base
