"""``tabula rescore``: every stored and archived match folded with today's rules; which would end
otherwise (shared/matches/rescore.py). Nothing is written to Redis or to the archive.

The store is ``--redis-url``, else ``REDIS_URL``, else the running stack's; the archive is ``--dir``,
else ``TABULA_ARCHIVE_STORAGE`` / ``TABULA_ARCHIVE_DIR``, else the running stack's (none: Redis only).
Exit 0 when no match would change and every log folded, 1 when one would change or failed to fold,
2 on bad input (an unknown game, a date that is not YYYY-MM-DD).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from services.cli.archive import DIR_HELP, archive_storage
from services.cli.main import app
from services.cli.stack import REDIS_URL_HELP, event_store

if TYPE_CHECKING:
    from shared.core.decider import Outcome
    from shared.matches.rescore import Report
    from shared.matches.runner import EventCodec


def since_ms(day: str) -> int:
    """Midnight UTC of ``day`` (YYYY-MM-DD) in ms since the epoch; BadParameter (exit 2) otherwise."""
    if not day:
        return 0
    try:
        start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError as err:
        raise typer.BadParameter(f"{day!r} is not a date YYYY-MM-DD", param_hint="--since") from err
    return int(start.timestamp() * 1000)


def selected_games(game: str) -> frozenset[str] | None:
    """``game`` (BadParameter, exit 2, when it is not registered), or None: every game (a match of one
    this release no longer registers then fails to fold, with that reason)."""
    from services.games import game_names

    known = game_names()
    if game and game not in known:
        raise typer.BadParameter(f"unknown game {game!r}; known: {', '.join(known)}", param_hint="--game")
    return frozenset([game]) if game else None


def _games(name: str) -> tuple[Any, EventCodec]:
    from services.games import load_game
    from shared.matches.rescore import FoldFailed

    try:
        loaded = load_game(name)
    except (KeyError, ImportError) as err:  # a game this release no longer registers
        raise FoldFailed(f"no rules for game {name!r}: {err}") from err
    return loaded.rules, loaded.codec


def _outcome(outcome: Outcome | None) -> dict[str, list[int]] | None:
    return None if outcome is None else {"scores": list(outcome.scores), "placings": list(outcome.placings)}


def as_plain(report: Report) -> dict[str, Any]:
    return {
        "read": report.read,
        "changed": [
            {
                "match_id": r.match_id,
                "game": r.game,
                "source": r.source,
                "head": r.head,
                "old": _outcome(r.old),
                "new": _outcome(r.new),
                "differs_at": r.differs_at,
                "differs_in": r.differs_in,
                "same_until": r.same_until,
            }
            for r in report.changed
        ],
        "failed": [{"match_id": f.match_id, "source": f.source, "reason": f.reason} for f in report.failed],
        "archive_listed": not report.unlisted_archive,
    }


def _scores(outcome: dict[str, list[int]] | None) -> str:
    if outcome is None:
        return "not ended"
    return f"{outcome['scores']} places {outcome['placings']}"


def _first_difference(row: dict[str, Any]) -> str:
    if row["differs_in"] == "snapshot":
        return f"{row['differs_at']} (snapshot)"
    after = f", snapshot {row['same_until']} same" if row["same_until"] else ""
    return f"{row['differs_at']} (end{after})"


def show(plain: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=160)
    if plain["changed"]:
        table = Table("match", "game", "from", "events", "recorded", "today's rules", "first difference")
        for row in plain["changed"]:
            table.add_row(
                row["match_id"],
                row["game"],
                row["source"],
                str(row["head"]),
                _scores(row["old"]),
                _scores(row["new"]),
                _first_difference(row),
            )
        console.print(table)
    for failure in plain["failed"]:
        console.print(
            f"failed {failure['match_id']} ({failure['source']}): {failure['reason']}", markup=False
        )
    if not plain["archive_listed"]:
        console.print("the archive cannot list its logs: only Redis was read")
    console.print(
        f"{plain['read']} matches read, {len(plain['changed'])} changed,"
        f" {len(plain['failed'])} failed to fold"
        " (the first difference: the stored snapshot's version where its state differs, else the end)"
    )


@app.command()
def rescore(
    game: str = typer.Option("", "--game", help="the game to re-score (default: every game)"),
    since: str = typer.Option(
        "", "--since", help="only matches created on or after this day, YYYY-MM-DD (UTC)"
    ),
    directory: Path = typer.Option(None, "--dir", help=DIR_HELP),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Fold every match (Redis and the archive) with today's rules; list those whose outcome would change.

    Writes nothing. Each changed match shows its recorded and new scores and placings and the first
    version known to differ: the stored snapshot's when its state differs, else the last version.
    """
    from shared.matches.rescore import Selection, listable
    from shared.matches.rescore import rescore as run
    from shared.runtime.edge import wait

    selection = Selection(selected_games(game), since_ms(since))
    storage = archive_storage(directory)
    with event_store(redis_url) as store:
        report = wait(run(store, None if storage is None else listable(storage), _games, selection))
    plain = as_plain(report)
    if as_json:
        typer.echo(json.dumps(plain, indent=2))
    else:
        show(plain)
    raise typer.Exit(1 if report.changed or report.failed else 0)
