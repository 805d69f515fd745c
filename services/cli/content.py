"""``tabula content GAME``: load and validate a game's content files, print counts per component family."""

from __future__ import annotations

import json

import typer

from services.cli.main import app


@app.command()
def content(game: str = typer.Argument(...), as_json: bool = typer.Option(False, "--json")) -> None:
    """Validate GAME's content (cards, tiles, board) and print the counts per component family."""
    from services.games import content_counts, game_names

    if game not in game_names():
        raise typer.BadParameter(f"unknown game {game!r}; known: {', '.join(game_names())}")
    counts = content_counts(game)
    if as_json:
        typer.echo(json.dumps({"game": game, "counts": counts}, indent=2))
        return
    for family, n in counts.items():
        typer.echo(f"{family:>24}: {n}")
