"""``tabula simulate``: play whole matches in-process and print a summary."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import typer

from services.cli.main import app
from services.cli.play import parse_options
from shared.core.undo import game_options


def bot_levels() -> dict[str, Callable[[Any], Any]]:
    """Bot levels: name -> factory(rules) -> policy (the workers' bots and a uniform random one)."""
    from services.workers.policies import policy_factories
    from shared.matches.simulate import random_policy

    return {**policy_factories(), "random": lambda rules: random_policy}


@app.command(name="simulate")
def simulate_command(
    game: str = typer.Option("", help="a registered game (default: the first registered one)"),
    players: int = typer.Option(0, min=0, help="seats (default: the most the game allows)"),
    games: int = typer.Option(10, min=1),
    seed: int = typer.Option(1),
    bots: str = typer.Option("random", help="one level for all seats, or one per seat, comma-separated"),
    option: list[str] = typer.Option([], help="game option KEY=VALUE, repeatable"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Play GAMES full matches with bots and report finished games, events, violations and speed."""
    from services.games import default_game, game_names, load_rules
    from shared.matches.simulate import simulate

    known = bot_levels()
    game = game or default_game()
    if game not in game_names():
        raise typer.BadParameter(f"unknown game {game!r}; known: {', '.join(game_names())}")
    rules = load_rules(game)
    players = players or rules.max_seats
    levels = bots.split(",")
    if len(levels) == 1:
        levels *= players
    unknown = sorted(set(levels) - set(known))
    if len(levels) != players or unknown:
        raise typer.BadParameter(f"--bots needs 1 or {players} levels from {sorted(known)}; got {bots!r}")
    config = rules.make_config(players, game_options(parse_options(game, option)))
    policies = {seat: known[level](rules) for seat, level in enumerate(levels)}
    summary = simulate(rules, config, players, games, seed, policies)
    report = {"game": game, "players": players, "bots": levels, "seed": seed, **dataclasses.asdict(summary)}
    report["wins_per_bot"] = {
        level: sum(
            w for w, seat_level in zip(summary.wins_per_seat, levels, strict=True) if seat_level == level
        )
        for level in sorted(set(levels))
    }
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    for key, value in report.items():
        typer.echo(f"{key:>22}: {value}")
    if summary.invariant_violations:
        raise typer.Exit(1)
