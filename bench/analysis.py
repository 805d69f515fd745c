"""The ``analysis`` suite: what rating a finished match's moves costs, and how stable the ratings are.

A random match of each chosen game (``TABULA_BENCH_ANALYSIS_GAMES``, default the default game) is
played through the runner in memory (2 seats); seat 0's decisions are rated twice with the search
at the analysis budget (``TABULA_BENCH_ANALYSIS_ITERATIONS``, default the workers' own, 400), with
two different seeds (``services.workers.analysis.rate_all``, the worker's code). Figures per game:

- ``analysis.<game>.seconds_per_move``: wall seconds per searched decision (forced ones excluded),
  over both runs;
- ``analysis.<game>.same_best_share``: the share of searched decisions where both runs found the
  same best command (goal: most of them, over one half);
- ``analysis.<game>.mean_value_gap``: the mean difference between the two runs' ratings of the
  command played (0 to 1 scale);
- ``analysis.<game>.decisions`` / ``.searched``: the seat's decisions, and those with a choice.
"""

from __future__ import annotations

import os
import time
from typing import Any

from bench.report import Result
from services.games import default_game, load_game
from services.workers.analysis import AnalysisSettings, analysis_bot, rate_all
from shared.matches.analysis import Rating
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MemoryEventStore

SEED = 11


def _finished(game: str) -> MatchRunner[Any]:
    loaded = load_game(game)
    runner = MatchRunner(loaded.rules, loaded.codec, MemoryEventStore())
    wait(runner.create("bench", 2, {}, SEED))
    wait(play_match(runner, "bench", SEED))
    return runner


def _run(runner: MatchRunner[Any], game: str, iterations: int, seed: int) -> tuple[list[Rating], float]:
    bot = analysis_bot(game, iterations, 3600.0)
    out: list[Rating] = []

    def keep(rating: Rating) -> bool:
        out.append(rating)
        return True

    started = time.perf_counter()
    rate_all(runner, "bench", 0, bot, seed, set(), keep)
    return out, time.perf_counter() - started


def game_analysis(game: str, iterations: int) -> list[Result]:
    runner = _finished(game)
    first, first_s = _run(runner, game, iterations, 1)
    second, second_s = _run(runner, game, iterations, 2)
    pairs = [(a, b) for a, b in zip(first, second, strict=True) if not a.forced]
    searched = max(len(pairs), 1)
    same = sum(a.best == b.best for a, b in pairs) / searched
    gap = sum(abs(a.played_value - b.played_value) for a, b in pairs) / searched
    name = f"analysis.{game}"
    return [
        Result(f"{name}.iterations", iterations, "iterations"),
        Result(f"{name}.decisions", len(first), "decisions"),
        Result(f"{name}.searched", len(pairs), "decisions"),
        Result(f"{name}.seconds_per_move", (first_s + second_s) / (2 * searched), "s"),
        Result(f"{name}.same_best_share", same, "share", "> 0.5", same > 0.5),
        Result(f"{name}.mean_value_gap", gap, "share"),
    ]


def analysis_benchmarks() -> list[Result]:
    games = [g for g in os.environ.get("TABULA_BENCH_ANALYSIS_GAMES", default_game()).split(",") if g]
    default = AnalysisSettings.from_env({}).iterations
    iterations = int(os.environ.get("TABULA_BENCH_ANALYSIS_ITERATIONS", str(default)))
    return [r for game in games for r in game_analysis(game, iterations)]
