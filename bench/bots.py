"""The bot bench: in every registered game, ``mcts`` against all-``greedy`` and all-``random`` tables.

Each game is played as :func:`bench_game` sets it up: the seats its manifest names in
``bench_seats``, else the most its rules allow, and the default options of its manifest
(the same setup the bench always used, so the numbers stay comparable). The ``mcts`` seat
rotates over the seats (seat bias cancels out); games run in parallel processes (the rules are
pure, so a fork is safe) through the one playout driver, ``shared.matches.simulate.play_game``, which
also times the moves. The per-move budget is small so the bench stays short (30 iterations; the
time cap, 2 s, is the move-time goal and only a safety net); it is recorded with the results.
Override with TABULA_BENCH_BOT_GAMES, TABULA_BENCH_MCTS_SECONDS and TABULA_BENCH_MCTS_ITERATIONS;
TABULA_BENCH_BOTS_ONLY (comma-separated game names) plays only those games' bots.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.report import Result
from services.games import game_names, load_rules, manifest
from services.workers.bots import Budget, rollout_depth
from services.workers.policies import bot_policy
from shared.matches.simulate import play_game
from shared.runtime.config import available_cpus

GOALS = {"greedy": 0.40, "random": 0.80}
MAX_MOVE_SECONDS = 2.0


def bench_seats(game: str) -> int:
    """The seats every bench plays: the manifest's ``bench_seats``, else the most allowed."""
    found = manifest(game)
    return found.bench_seats or found.max_seats


def bench_game(game: str) -> tuple[Any, Any]:
    """The rules and the config every bench plays: :func:`bench_seats` and the manifest's defaults."""
    rules = load_rules(game)
    return rules, rules.make_config(bench_seats(game), manifest(game).parse_options({}))


@dataclass(frozen=True)
class BenchConfig:
    games: int  # per game and opponent level
    budget: Budget
    processes: int = field(default_factory=available_cpus)
    only: tuple[str, ...] = ()  # the games whose bots are benched; empty: every registered game

    @staticmethod
    def from_env() -> BenchConfig:
        e = os.environ
        budget = Budget(
            seconds=float(e.get("TABULA_BENCH_MCTS_SECONDS", "2.0")),
            iterations=int(e.get("TABULA_BENCH_MCTS_ITERATIONS", "30")),
        )
        only = tuple(name for name in e.get("TABULA_BENCH_BOTS_ONLY", "").split(",") if name)
        return BenchConfig(int(e.get("TABULA_BENCH_BOT_GAMES", "100")), budget, only=only)


@dataclass(frozen=True)
class Game:
    won: bool
    move_seconds: tuple[float, ...]
    violations: int


def play_one(game: str, index: int, opponent: str, budget: Budget) -> Game:
    """Game ``index``: mcts in seat ``index % seats``, ``opponent`` in the others."""
    rules, config = bench_game(game)
    seats = bench_seats(game)
    mcts_seat = index % seats
    policies = {
        seat: bot_policy(rules, "mcts" if seat == mcts_seat else opponent, budget) for seat in range(seats)
    }
    result = play_game(rules, config, 10_000 + index, policies, check=False, time_moves=True)
    won = result.outcome is not None and result.outcome.placings[mcts_seat] == 1
    return Game(won, tuple(result.move_seconds.get(mcts_seat, ())), len(result.violations))


def _series(game: str, opponent: str, config: BenchConfig) -> list[Game]:
    with ProcessPoolExecutor(config.processes) as pool:
        jobs = [pool.submit(play_one, game, i, opponent, config.budget) for i in range(config.games)]
        return [job.result() for job in jobs]


def game_bot_benchmarks(game: str, config: BenchConfig) -> tuple[list[Result], list[float]]:
    """One game's win rates and violations, and the mcts move times."""
    others = bench_seats(game) - 1
    depth = rollout_depth(game, config.budget)
    results = [
        Result(f"bots.{game}.mcts_rollout_depth", depth, "plies/line (the game's unless the budget's)")
    ]
    moves: list[float] = []
    for opponent, goal in GOALS.items():
        games = _series(game, opponent, config)
        rate = sum(g.won for g in games) / len(games)
        name = f"bots.{game}.mcts_win_rate_vs_{others}_{opponent}"
        results.append(Result(name, rate, f"of {len(games)} games", f">= {goal:.2f}", rate >= goal))
        violations = sum(g.violations for g in games)
        results.append(Result(f"bots.{game}.violations_vs_{opponent}", violations, "violations"))
        moves += [s for g in games for s in g.move_seconds]
    return results, moves


def bot_benchmarks(config: BenchConfig | None = None) -> list[Result]:
    config = config or BenchConfig.from_env()
    results: list[Result] = []
    moves: list[float] = []
    unknown = sorted(set(config.only) - set(game_names()))
    if unknown:
        raise ValueError(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(game_names())}")
    for game in config.only or game_names():
        found, seconds = game_bot_benchmarks(game, config)
        results += found
        moves += seconds
    mean = sum(moves) / len(moves) if moves else 0.0
    results += [
        Result("bots.mcts_mean_move_seconds", mean, "s", f"<= {MAX_MOVE_SECONDS}", mean <= MAX_MOVE_SECONDS),
        Result("bots.mcts_max_move_seconds", max(moves, default=0.0), "s"),
        Result("bots.mcts_budget_seconds", config.budget.seconds, "s/move (time budget)"),
        Result("bots.mcts_budget_iterations", config.budget.iterations, "iterations/move (budget)"),
    ]
    return results
