"""``tabula reasons``: write docs/reason-codes.md, every reason code clients may meet (``--check``)."""

from __future__ import annotations

from pathlib import Path

import typer

from services.cli.main import app

DOC = Path("docs/reason-codes.md")


def reasons_doc() -> str:
    """The page as the code says it now: the platform's and the lobby's declared codes, and the rule
    codes of every game registered in ``services/games.py`` (each from its manifest's ``source``)."""
    from services.games import GAMES
    from services.lobby.reasons import LOBBY
    from shared.core.reasons import PLATFORM, render, rule_reasons

    return render(PLATFORM, LOBBY, {g.name: (g.title, rule_reasons(g.source)) for g in GAMES})


@app.command()
def reasons(
    check: bool = typer.Option(False, help="only check that the committed page is up to date"),
    out: Path = typer.Option(DOC, help="where the page goes"),
) -> None:
    """Write the reason-code table for clients (docs/reason-codes.md) from the code."""
    text = reasons_doc()
    if check:
        if not out.exists() or out.read_text() != text:
            typer.echo(f"stale: {out} differs from the code (run tabula reasons, commit)", err=True)
            raise typer.Exit(1)
        return
    out.write_text(text)
    typer.echo(f"wrote {out}")
