"""``tabula export | import | verify``: match logs as JSON lines (see shared/matches/archive.py).

``export`` and ``import`` use the Redis of ``--redis-url``, else ``REDIS_URL``, else the running
stack's (``tabula run`` records it: services/cli/stack.py); with none of them they say so and stop.
A match archived out of Redis (``tabula archive``) is exported from the archive (``TABULA_ARCHIVE_DIR``);
``verify`` reads archived ``.jsonl.gz`` logs too, and ``--match`` verifies a match wherever it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.main import app
from services.cli.stack import REDIS_URL_HELP, event_store

if TYPE_CHECKING:
    from shared.matches.archive import Verification


@app.command(name="export")
def export_command(
    match_id: str,
    out: Path = typer.Option(..., "--out", help="the .jsonl file to write"),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
) -> None:
    """Write MATCH_ID's whole log to a JSON-lines file."""
    from services.cli.archive import archived_lines
    from services.games import load_game
    from shared.matches.archive import export_lines
    from shared.runtime.edge import wait
    from shared.store import MatchMeta

    with event_store(redis_url) as store:
        game = MatchMeta.of(wait(store.get_meta(match_id))).game
        archived = None if game else archived_lines(match_id)
        codec = load_game(game).codec if game else None
        lines = archived if archived is not None else wait(export_lines(store, match_id, codec))
    out.write_text("\n".join(lines) + "\n")
    typer.echo(f"exported {len(lines) - 1} events of {match_id} to {out}")


@app.command(name="import")
def import_command(
    log: Path,
    match_id: str = typer.Option("", help="store under another id"),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
) -> None:
    """Append a JSON-lines log to the store."""
    from shared.matches.archive import import_lines
    from shared.runtime.edge import wait

    with event_store(redis_url) as store:
        target = wait(import_lines(store, log.read_text().splitlines(), match_id or None))
    typer.echo(f"imported {log} as match {target}")


def _logs(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        out += sorted([*path.rglob("*.jsonl"), *path.rglob("*.jsonl.gz")]) if path.is_dir() else [path]
    return out


def _lines(path: Path) -> list[str]:
    from shared.matches.archive import unpack

    return unpack(path.read_bytes()) if path.suffix == ".gz" else path.read_text().splitlines()


def _match_lines(match_id: str, redis_url: str) -> list[str]:
    """A match's log from Redis, else from the archive; exits with one line when it is in neither."""
    from services.cli.archive import archived_lines
    from services.games import load_game
    from shared.matches.archive import export_lines
    from shared.runtime.edge import wait
    from shared.store import MatchMeta

    with event_store(redis_url) as store:
        game = MatchMeta.of(wait(store.get_meta(match_id))).game
        if game:
            return wait(export_lines(store, match_id, load_game(game).codec))
    archived = archived_lines(match_id)
    if archived is None:
        typer.echo(f"no match {match_id!r} in Redis or in the archive", err=True)
        raise typer.Exit(1)
    return archived


def verify_log(lines: list[str]) -> Verification:
    from services.games import load_game
    from shared.matches.archive import read_log, verify_lines

    header, _ = read_log(lines)
    game = load_game(header["game"])
    return verify_lines(game.rules, game.codec, lines)


@app.command()
def verify(
    logs: list[Path] = typer.Argument(None, help="log files (.jsonl, .jsonl.gz) or folders of them"),
    match: list[str] = typer.Option([], "--match", help="a match id: its log from Redis, else the archive"),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Re-fold logs with the pure rules; report each final state hash and the first inconsistency.

    A bad log shows its first problem and how many more there are (``--json`` lists them all).
    """
    from rich.console import Console
    from rich.progress import Progress

    from shared.matches.archive import LogError

    sources: list[tuple[str, Callable[[], list[str]]]] = [
        (str(path), partial(_lines, path)) for path in _logs(logs or [])
    ]
    sources += [(f"match {m}", partial(_match_lines, m, redis_url)) for m in match]
    if not sources:
        raise typer.BadParameter("name log files, folders or --match ids")
    reports: list[dict[str, object]] = []
    console = Console(stderr=True)
    with Progress(console=console, disable=len(sources) < 2) as progress:
        task = progress.add_task("verifying", total=len(sources))
        for path, read in sources:
            try:
                v = verify_log(read())
                reports.append(
                    {
                        "file": str(path),
                        "match_id": v.match_id,
                        "events": v.events,
                        "finished": v.finished,
                        "state_hash": v.state_hash,
                        "problems": v.problems,
                    }
                )
            except (LogError, KeyError, OSError) as err:
                reports.append({"file": str(path), "problems": [f"unreadable: {err}"]})
            progress.advance(task)
    bad = [r for r in reports if r["problems"]]
    if as_json:
        typer.echo(json.dumps({"logs": reports, "ok": not bad}, indent=2))
    else:
        for r in reports:
            status = "OK " if not r["problems"] else "BAD"
            typer.echo(
                f"{status} {r['file']}  events={r.get('events', '?')}  hash={r.get('state_hash', '?')}"
            )
            problems: list[str] = r["problems"]  # type: ignore[assignment]
            if problems:
                typer.echo(f"    {problems[0]}")
            if len(problems) > 1:
                typer.echo(f"    and {len(problems) - 1} more problems (--json lists them all)")
    raise typer.Exit(1 if bad else 0)
