"""``tabula``: serve, run, proto, bench and the game tools."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(help="Tabula: event-sourced backend for Euro board games.", no_args_is_help=True)

# Non-game processes: name -> "module:function" (games are served by services.game_server).
ENTRY_POINTS: dict[str, str] = {}


@app.command()
def serve(name: str = typer.Argument(..., help="a game (lorenzo, ...) or a process (lobby, worker, ...)")) -> None:
    """Run one service in the foreground until SIGTERM / Ctrl-C."""
    from services.games import game_names  # noqa: PLC0415

    if name in ENTRY_POINTS:
        module, _, attr = ENTRY_POINTS[name].partition(":")
        getattr(importlib.import_module(module), attr)()
    elif name in game_names():
        from services.game_server import main  # noqa: PLC0415

        main(name)
    else:
        raise typer.BadParameter(f"unknown service {name!r}")


for _module in ("proto", "run", "bench"):
    importlib.import_module(f"services.cli.{_module}")
