"""The bots on Lorenzo il Magnifico: legal whole games, and hooks (``MANIFEST.bots()``) that count
what matters."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from services.lorenzo.manifest import MANIFEST
from services.lorenzo.rules.commands import PlaceFamilyMember
from services.workers.bots import Budget
from services.workers.bots.base import step
from services.workers.bots.heuristics import bot_hooks
from services.workers.policies import bot_policy
from shared.matches.simulate import play_game

HOOKS = MANIFEST.bots()
assert HOOKS.evaluate is not None and HOOKS.evaluate_all is not None and HOOKS.prune is not None
evaluate, evaluate_all, prune = HOOKS.evaluate, HOOKS.evaluate_all, HOOKS.prune


@pytest.fixture(scope="module")
def rules() -> Any:
    return MANIFEST.load_rules()


def test_the_bots_take_every_hook_from_the_manifest() -> None:
    assert bot_hooks("lorenzo") == HOOKS


def test_the_bot_hooks_never_import_random() -> None:
    tree = ast.parse((Path(__file__).resolve().parents[3] / "services" / "lorenzo" / "bots.py").read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert names and "random" not in names


def _started(rules: Any) -> Any:
    from shared.core.rng import Rng

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


def _states_of_a_greedy_game(rules: Any, seed: int = 0) -> list[tuple[Any, Any, Any]]:
    """(state, actor, legal commands) at every seat decision of a four-greedy game."""
    seen: list[tuple[Any, Any, Any]] = []
    greedy = bot_policy(rules, "greedy")

    def policy(state: Any, actor: Any, legal: Any, rng: Any) -> Any:
        seen.append((state, actor, legal))
        return greedy(state, actor, legal, rng)

    play_game(rules, rules.make_config(4, {}), seed, dict.fromkeys(range(4), policy), check=False)
    return seen


def test_evaluating_every_seat_at_once_equals_one_seat_at_a_time(rules: Any) -> None:
    for state, _, _ in _states_of_a_greedy_game(rules)[::10]:
        assert evaluate_all(rules, state, 4) == pytest.approx([evaluate(rules, state, s) for s in range(4)])


def _without_servants(state: Any, seat: int) -> Any:
    players = tuple(
        replace(p, goods=replace(p.goods, servants=0)) if p.seat == seat else p for p in state.players
    )
    return replace(state, players=players, budget=replace(state.budget, servants=0))


def test_pruning_only_drops_placements_that_waste_servants(rules: Any) -> None:
    from shared.core.rng import Rng

    dropped_any = False
    for state, actor, legal in _states_of_a_greedy_game(rules)[:400]:
        kept = prune(rules, state, actor.seat, legal, False)
        coarse = prune(rules, state, actor.seat, legal, True)
        assert kept and set(coarse) <= set(kept) <= set(legal)
        for command in set(legal) - set(kept):
            dropped_any = True
            after = step(rules, state, actor, command, Rng(1))
            twins = [
                k
                for k in kept
                if isinstance(k, PlaceFamilyMember)
                and (k.member, k.space) == (command.member, command.space)
                and k.servants < command.servants
            ]
            # The same outcome with fewer servants (or the same plus an exchange it may decline).
            assert any(
                _without_servants(step(rules, state, actor, k, Rng(1)), actor.seat)
                == _without_servants(after, actor.seat)
                or step(rules, state, actor, k, Rng(1)).pending
                for k in twins
            ), command
    assert dropped_any
