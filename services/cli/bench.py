"""``tabula bench``: every benchmark in one run; writes bench/results/latest.json and a table."""

from __future__ import annotations

import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.main import app

if TYPE_CHECKING:
    from bench.report import Result


def _store() -> list[Result]:
    from bench.report import store_benchmarks
    from shared.runtime.redis_server import private_redis

    with private_redis() as server:
        return store_benchmarks(server.client())


def _game(name: str) -> Callable[[], list[Result]]:
    """Random full games and folds per second, set up as every bench plays the game."""

    def run() -> list[Result]:
        from bench.bots import bench_game
        from bench.report import game_benchmarks

        rules, config = bench_game(name)
        return game_benchmarks(name, rules, config)

    return run


def _memory() -> list[Result]:
    """Redis memory per finished match of the default game (most seats): kept, trimmed, archived.

    TABULA_BENCH_MEMORY_MATCHES matches (default 1000, about 10 minutes on 2 cores; 100 is quick)."""
    import os

    return memory_results(int(os.environ.get("TABULA_BENCH_MEMORY_MATCHES", "1000")))


def memory_results(matches: int) -> list[Result]:
    """``matches`` random matches of the default game on a private Redis (``bench.memory``)."""
    from bench.bots import bench_seats
    from bench.memory import measure
    from bench.report import Result
    from services.games import default_game, load_game
    from shared.matches.runner import MatchRunner
    from shared.runtime.redis_server import private_redis
    from shared.store.redis_store import RedisEventStore

    name = default_game()
    game = load_game(name)
    with private_redis() as server:
        store = RedisEventStore(server.client())
        runner = MatchRunner(game.rules, game.codec, store)
        report = measure(store, runner, bench_seats(name), {}, matches)
    per, kb, left = f"memory.{name}_{bench_seats(name)}p", report.archived / 1024, report.outbox_entries
    return [
        Result(f"{per}.matches", report.matches, "matches"),
        Result(f"{per}.events_per_match", report.events / report.matches, "events"),
        Result(f"{per}.runner_commands_per_s", report.commands / report.play_seconds, "commands/s"),
        Result(f"{per}.kept_kb_per_match", report.kept / 1024, "KB"),
        Result(f"{per}.trimmed_kb_per_match", report.trimmed / 1024, "KB"),
        Result(f"{per}.archived_kb_per_match", kb, "KB", "<= 100", kb <= 100),
        Result(f"{per}.archive_file_kb_per_match", report.archive_bytes / 1024, "KB"),
        Result(f"{per}.outbox_entries_left", left, "entries", "0", left == 0),
    ]


def _load() -> list[Result]:
    """The stack as ``tabula run`` starts it, under load (bench/load.py), and Redis memory
    per finished match from the memory suite's measure. TABULA_BENCH_LOAD=full for issue 14's counts
    (quick by default)."""
    import tempfile

    from bench.load import load_benchmarks, profile_from_env

    profile = profile_from_env()
    with tempfile.TemporaryDirectory(prefix="tabula-load-") as folder:
        results = load_benchmarks(profile, Path(folder))
    return results + memory_results(profile.memory_matches)


def _peer() -> list[Result]:
    """The dice race under the same load on Tabula's stack and on boardgame.io (bench/peer.py);
    skipped, with the reason, where node or npm is missing or ``npm ci`` fails.
    TABULA_BENCH_PEER_SECONDS (a phase, default 8), TABULA_BENCH_PEER_ALTERNATIONS (default 3)."""
    import tempfile

    from bench.peer import peer_benchmarks, profile_from_env

    profile = profile_from_env()
    with tempfile.TemporaryDirectory(prefix="tabula-peer-") as folder:
        return peer_benchmarks(profile, Path(folder))


def _bots() -> list[Result]:
    from bench.bots import bot_benchmarks

    return bot_benchmarks()


def _cli(runs: int = 10) -> list[Result]:
    """``tabula --help`` as a user waits for it: a fresh interpreter each run, wall time."""
    from bench.report import Result

    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "services.cli", "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    mean = statistics.mean(times)
    return [
        Result(f"tabula --help, mean of {runs}", mean, "s", "< 1 s", mean < 1.0),
        Result(f"tabula --help, best of {runs}", min(times), "s"),
    ]


def _watch() -> list[Result]:
    from bench.watch import watch_benchmarks

    return watch_benchmarks()


def _analysis() -> list[Result]:
    from bench.analysis import analysis_benchmarks

    return analysis_benchmarks()


def suites() -> dict[str, Callable[[], list[Result]]]:
    """The store, one suite per registered game (named after it), the bots, the CLI, Redis memory,
    the full stack under load, the same load on a peer (boardgame.io), the watch streams of one
    rule-service instance, and the analysis of a finished match."""
    from services.games import game_names

    games = {name: _game(name) for name in game_names()}
    fixed = {"bots": _bots, "cli": _cli, "memory": _memory, "load": _load, "peer": _peer, "watch": _watch}
    fixed["analysis"] = _analysis
    return {"store": _store, **games, **fixed}


def _speed(when: str) -> Result:
    """The machine's speed at the ``start`` or ``end`` of a run (``bench.report.reference_speed``)."""
    from bench.report import Result, reference_speed

    return Result(f"machine.reference_mops_per_s.{when}", reference_speed(), "Msteps/s")


@app.command()
def bench(
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
    only: str = typer.Option("", help="comma-separated suite names"),
    out: Path = typer.Option(Path("bench/results/latest.json")),
) -> None:
    """Run the benchmarks (private Redis; never the machine's 6379)."""
    from rich.console import Console
    from rich.table import Table

    available = suites()
    wanted = [name for name in only.split(",") if name]
    unknown = sorted(set(wanted) - set(available))
    if unknown:
        raise typer.BadParameter(f"unknown suite(s) {', '.join(unknown)}; known: {', '.join(available)}")
    chosen = [name for name in available if not wanted or name in wanted]
    start = _speed("start")
    results = [start, *(r for name in chosen for r in available[name]()), _speed("end")]
    report = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {
            "python": platform.python_version(),
            "cpu": platform.processor() or platform.machine(),
            "reference_mops_per_s": {"start": start.value, "end": results[-1].value},
        },
        "results": [asdict(r) for r in results],
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    table = Table(title=f"tabula bench ({out})")
    for column in ("benchmark", "value", "unit", "goal", "met"):
        table.add_column(column)
    for r in results:
        met = "" if r.meets_goal is None else ("yes" if r.meets_goal else "NO")
        table.add_row(r.name, f"{r.value:,.2f}", r.unit, r.goal, met)
    Console().print(table)
