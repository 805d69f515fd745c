"""The bots bench: TABULA_BENCH_BOTS_ONLY plays only the named games' bots."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.bots import BenchConfig, bot_benchmarks


def test_the_bots_bench_plays_only_the_games_it_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_BENCH_BOTS_ONLY", "race")
    monkeypatch.setenv("TABULA_BENCH_BOT_GAMES", "2")
    monkeypatch.setenv("TABULA_BENCH_MCTS_ITERATIONS", "3")
    config = BenchConfig.from_env()
    assert (config.only, config.games, config.budget.iterations) == (("race",), 2, 3)
    results = bot_benchmarks(replace(config, processes=1))
    per_game = [r.name for r in results if r.name.count(".") == 2]
    assert per_game == [
        "bots.race.mcts_rollout_depth",
        "bots.race.mcts_win_rate_vs_3_greedy",
        "bots.race.violations_vs_greedy",
        "bots.race.mcts_win_rate_vs_3_random",
        "bots.race.violations_vs_random",
    ]
    assert results[0].value == 12  # the race sets no depth of its own: the default


def test_an_unknown_game_is_refused_before_any_game_is_played() -> None:
    with pytest.raises(ValueError, match=r"unknown game\(s\) chess; known: .*race"):
        bot_benchmarks(BenchConfig(1, BenchConfig.from_env().budget, only=("race", "chess")))
