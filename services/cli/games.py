"""``tabula games``: every registered game with its seat range and options, from the manifests."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from services.cli.main import app

if TYPE_CHECKING:
    from shared.core.manifest import GameManifest, GameOption


def option_text(o: GameOption) -> str:
    """``advanced=true|false (default true)``, ``goal=1.. (default 20)``, ``size=s|m|l (default m)``."""
    from shared.core.manifest import OptionType

    match o.type:
        case OptionType.BOOL:
            values = "true|false"
        case OptionType.CHOICE:
            values = "|".join(o.choices)
        case OptionType.INT if o.minimum is None and o.maximum is None:
            values = "N"
        case OptionType.INT:
            values = f"{'' if o.minimum is None else o.minimum}..{'' if o.maximum is None else o.maximum}"
    return f"{o.name}={values} (default {o.default})"


def as_plain(m: GameManifest) -> dict[str, Any]:
    from services.games import game_port

    return {
        "name": m.name,
        "title": m.title,
        "seats": [m.min_seats, m.max_seats],
        "port": game_port(m.name),
        "options": [
            {
                "name": o.name,
                "type": o.type.value,
                "default": o.default,
                "description": o.description,
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
            }
            for o in m.match_options
        ],
    }


@app.command()
def games(as_json: bool = typer.Option(False, "--json")) -> None:
    """List the games: name, title, seats, rule service port and options (``--option name=value``)."""
    from services.games import game_port, manifests

    if as_json:
        typer.echo(json.dumps([as_plain(m) for m in manifests()], indent=2))
        return
    for m in manifests():
        typer.echo(f"{m.name}: {m.title}, {m.min_seats}-{m.max_seats} seats, port {game_port(m.name)}")
        for o in m.match_options:
            typer.echo(f"    --option {option_text(o)}")
            typer.echo(f"        {o.description}")
