"""``tabula bench``: every benchmark in one run; writes bench/results/latest.json and a table."""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from services.cli.main import app
from services.games import load_rules
from shared.bench import Result, game_benchmarks, store_benchmarks
from shared.redis_server import private_redis


def _store() -> list[Result]:
    with private_redis() as server:
        return store_benchmarks(server.client())


def _lorenzo() -> list[Result]:
    rules = load_rules("lorenzo")
    return game_benchmarks("lorenzo", rules, rules.make_config(4, {"advanced": "true"}))


def _bots() -> list[Result]:
    from services.workers.bench import bot_benchmarks

    return bot_benchmarks()


# Each suite returns results; later issues add theirs (games per second, bots, ...).
SUITES: dict[str, Callable[[], list[Result]]] = {"store": _store, "lorenzo": _lorenzo, "bots": _bots}


@app.command()
def bench(
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
    only: str = typer.Option("", help="comma-separated suite names"),
    out: Path = typer.Option(Path("bench/results/latest.json")),
) -> None:
    """Run the benchmarks (private Redis; never the machine's 6379)."""
    chosen = [s for s in SUITES if not only or s in only.split(",")]
    results = [r for name in chosen for r in SUITES[name]()]
    report = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine()},
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
