"""``tabula i18n``: how much of every package's texts each language translates, and what is wrong.

Every registered :class:`shared.core.i18n.Texts` (the platform's, the lobby's, the terminal
client's ...) and every game's ``TEXTS`` (its manifest's ``texts`` hook) is listed with each
locale's translated/total. ``--missing LOCALE`` lists the keys a locale leaves in English,
``--check`` fails (exit 1) on a translation file with a key the English does not declare or a
translation whose ``{placeholders}`` differ from its English (docs/languages.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

import typer

from services.cli.main import app

if TYPE_CHECKING:  # imported when the command runs: `tabula --help` loads no YAML library
    from shared.core.i18n import Coverage, Texts

# The modules that declare (and register) the platform's texts; a new package with texts adds its own.
TEXT_MODULES = ("shared.serving.refusals", "services.lobby.texts")


def all_texts() -> list[Texts]:
    """Every registered package's texts, then every game's (in registry order) that declares any."""
    from services.games import GAMES
    from shared.core.i18n import registered
    from shared.serving.refusals import game_texts

    for module in TEXT_MODULES:
        importlib.import_module(module)
    found = [load() for load in registered().values()]
    found += [t for t in (game_texts(game) for game in GAMES) if t is not None]
    return found


def problems(reports: Iterable[Coverage]) -> list[str]:
    """One line per unknown key and per key whose placeholders differ from the English."""
    out = []
    for c in reports:
        out += [f"{c.name} {c.locale}: unknown key {key!r}" for key in c.unknown]
        out += [f"{c.name} {c.locale}: placeholders unlike the English in {key!r}" for key in c.mismatched]
    return out


@app.command()
def i18n(
    missing: str = typer.Option("", help="list the keys this locale leaves in English (zh-CN, pt-BR)"),
    name: str = typer.Option("", help="only this package (platform, lobby, client, a game's name)"),
    check: bool = typer.Option(False, help="exit 1 on unknown keys or mismatched placeholders"),
) -> None:
    """Translation coverage of every package's texts, per locale."""
    from shared.core.i18n import DEFAULT, LOCALES, coverage

    texts = [t for t in all_texts() if not name or t.name == name]
    if name and not texts:
        typer.echo(f"no texts named {name!r}; known: {', '.join(t.name for t in all_texts())}", err=True)
        raise typer.Exit(2)
    if missing:
        if missing not in LOCALES or missing == DEFAULT:
            typer.echo(f"--missing takes one of {', '.join(LOCALES[1:])}", err=True)
            raise typer.Exit(2)
        for t in texts:
            for key in coverage(t, missing).missing:
                typer.echo(f"{t.name}\t{key}")
        return
    reports = [coverage(t, locale) for t in texts for locale in LOCALES if locale != DEFAULT]
    width = max([len(t.name) for t in texts] + [7])
    typer.echo(f"{'package':<{width}}  {'locale':<6}  {'translated':>12}  {'share':>6}")
    for c in reports:
        share = f"{c.share:.0%}"
        typer.echo(f"{c.name:<{width}}  {c.locale:<6}  {f'{c.translated}/{c.total}':>12}  {share:>6}")
    wrong = problems(reports)
    for line in wrong:
        typer.echo(line, err=True)
    if check and wrong:
        raise typer.Exit(1)
