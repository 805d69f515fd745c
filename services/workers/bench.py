"""The bot bench: ``mcts`` against three ``greedy`` and against three ``random`` in Lorenzo games.

The ``mcts`` seat rotates over the four seats (seat bias cancels out); games run in parallel
processes (the rules are pure, so a fork is safe). The per-move budget is small so the
bench stays short; it is recorded with the results. Override with TABULA_BENCH_BOT_GAMES,
TABULA_BENCH_MCTS_SECONDS and TABULA_BENCH_MCTS_ITERATIONS.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from services.games import load_rules
from services.workers.bots import Budget
from services.workers.policies import MoveClock, bot_policy
from shared.bench import Result
from shared.simulate import play_game

SEATS = 4
GOALS = {"greedy": 0.40, "random": 0.80}
MAX_MOVE_SECONDS = 2.0


@dataclass(frozen=True)
class BenchConfig:
    games: int  # per opponent level
    budget: Budget
    processes: int = max(os.cpu_count() or 1, 1)

    @staticmethod
    def from_env() -> BenchConfig:
        e = os.environ
        budget = Budget(
            seconds=float(e.get("TABULA_BENCH_MCTS_SECONDS", "0.5")),
            iterations=int(e.get("TABULA_BENCH_MCTS_ITERATIONS", "30")),
        )
        return BenchConfig(int(e.get("TABULA_BENCH_BOT_GAMES", "100")), budget)


@dataclass(frozen=True)
class Game:
    won: bool
    move_seconds: tuple[float, ...]
    violations: int


def play_one(index: int, opponent: str, budget: Budget) -> Game:
    """Game ``index``: mcts in seat ``index % 4``, ``opponent`` in the others."""
    rules = load_rules("lorenzo")
    clock = MoveClock()
    mcts_seat = index % SEATS
    policies = {
        seat: bot_policy(rules, "mcts" if seat == mcts_seat else opponent, budget, clock)
        for seat in range(SEATS)
    }
    result = play_game(rules, rules.make_config(SEATS, {}), 10_000 + index, policies, check=False)
    won = result.outcome is not None and result.outcome.placings[mcts_seat] == 1
    return Game(won, tuple(clock.seconds["mcts"]), len(result.violations))


def _series(opponent: str, config: BenchConfig) -> list[Game]:
    with ProcessPoolExecutor(config.processes) as pool:
        jobs = [pool.submit(play_one, i, opponent, config.budget) for i in range(config.games)]
        return [job.result() for job in jobs]


def bot_benchmarks(config: BenchConfig | None = None) -> list[Result]:
    config = config or BenchConfig.from_env()
    results: list[Result] = []
    moves: list[float] = []
    for opponent, goal in GOALS.items():
        games = _series(opponent, config)
        rate = sum(g.won for g in games) / len(games)
        results.append(
            Result(
                f"bots.mcts_win_rate_vs_3_{opponent}",
                rate,
                f"of {len(games)} games",
                f">= {goal:.2f}",
                rate >= goal,
            )
        )
        moves += [s for g in games for s in g.move_seconds]
        results.append(
            Result(f"bots.violations_vs_{opponent}", sum(g.violations for g in games), "violations")
        )
    mean = sum(moves) / len(moves) if moves else 0.0
    results += [
        Result("bots.mcts_mean_move_seconds", mean, "s", f"<= {MAX_MOVE_SECONDS}", mean <= MAX_MOVE_SECONDS),
        Result("bots.mcts_max_move_seconds", max(moves, default=0.0), "s"),
        Result("bots.mcts_budget_seconds", config.budget.seconds, "s/move (time budget)"),
        Result("bots.mcts_budget_iterations", config.budget.iterations, "iterations/move (budget)"),
        Result("bots.mcts_budget_rollout_depth", config.budget.rollout_depth, "plies/iteration (budget)"),
    ]
    return results
