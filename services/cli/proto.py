"""``tabula proto``: write each game's .proto from its rules, then generate Python code."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.main import app

if TYPE_CHECKING:
    from shared.core.manifest import GameManifest


def game_proto(game: GameManifest) -> str:
    """The game's .proto as its rules (and its content hook, if any) generate it."""
    from services.games import load_rules
    from shared.serving.protogen import render_game_proto

    content = game.content.message() if game.content is not None else None
    return render_game_proto(load_rules(game.name), game.source, content)


def stale_protos() -> list[Path]:
    """Game .proto files that differ from what their rules generate."""
    from services.games import manifests
    from shared.serving.protogen import proto_path

    stale = []
    for game in manifests():
        path = proto_path(game.name)
        if not path.exists() or path.read_text() != game_proto(game):
            stale.append(path)
    return stale


@app.command()
def proto(
    check: bool = typer.Option(False, help="only check that the committed game protos match the rules"),
    update: bool = typer.Option(False, help="first rewrite each game's .proto from its rules"),
    out: Path = typer.Option(Path("gen"), help="where generated Python code goes"),
) -> None:
    """Generate Python code from proto/ into gen/ (``--update``: rewrite game protos from the rules first)."""
    from services.games import manifests
    from shared.serving.protogen import compile_protos, proto_path

    if check:
        stale = stale_protos()
        for path in stale:
            typer.echo(f"stale: {path} differs from its rules (run make proto-update, commit)", err=True)
        raise typer.Exit(1 if stale else 0)
    if update:
        for game in manifests():
            path = proto_path(game.name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(game_proto(game))
            typer.echo(f"wrote {path}")
    compile_protos(Path("proto"), out)
    typer.echo(f"generated {out}/ from proto/")
