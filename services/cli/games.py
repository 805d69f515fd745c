"""``tabula games``: every registered game with its seat range and options, from the manifests.

Titles and options' labels and descriptions are in the language of ``--lang``, else of the environment
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``), as ``tabula play`` speaks; English where untranslated.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from services.cli.main import app

if TYPE_CHECKING:
    from shared.core.manifest import GameManifest, GameOption, ManifestWords

LANG_HELP = "the language of titles and descriptions: en, zh-CN or pt-BR (default: LC_ALL / LANG)"


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


def worded(m: GameManifest, locale: str) -> ManifestWords:
    """``m``'s title and descriptions in ``locale``."""
    from shared.serving.refusals import game_words

    return game_words(m, locale)


def as_plain(m: GameManifest, locale: str = "en") -> dict[str, Any]:
    from services.games import game_port

    words = worded(m, locale)
    return {
        "name": m.name,
        "title": words.title,
        "seats": [m.min_seats, m.max_seats],
        "port": game_port(m.name),
        "options": [
            {
                "name": o.name,
                "label": words.labels.get(o.name, o.shown),
                "type": o.type.value,
                "default": o.default,
                "description": words.options.get(o.name, o.description),
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
            }
            for o in m.match_options
        ],
    }


@app.command()
def games(
    as_json: bool = typer.Option(False, "--json"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """List the games: name, title, seats, rule service port and options (``--option name=value``, with
    the label a player reads beside it)."""
    from services.client.texts import locale_from
    from services.games import game_port, manifests

    locale = locale_from(lang)
    if as_json:
        typer.echo(json.dumps([as_plain(m, locale) for m in manifests()], indent=2, ensure_ascii=False))
        return
    for m in manifests():
        words = worded(m, locale)
        typer.echo(f"{m.name}: {words.title}, {m.min_seats}-{m.max_seats} seats, port {game_port(m.name)}")
        for o in m.match_options:
            typer.echo(f"    --option {option_text(o)}  {words.labels.get(o.name, o.shown)}")
            typer.echo(f"        {words.options.get(o.name, o.description)}")
