"""``tabula export | import | verify``: match logs as JSON lines (see shared/archive.py).

``export`` and ``import`` use the Redis of ``--redis-url``, else ``REDIS_URL``, else the running
stack's (``tabula run`` records it: services/cli/stack.py); with none of them they say so and stop.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.main import app
from services.cli.stack import NoStack, redis_target

if TYPE_CHECKING:
    from shared.archive import Verification
    from shared.store.redis_store import RedisEventStore

REDIS_URL_HELP = "the Redis to use (default: REDIS_URL, else the stack `tabula run` recorded)"


@contextmanager
def _store(redis_url: str) -> Iterator[RedisEventStore]:
    """The event store of the running stack; a missing stack or an unreachable Redis is one clear line."""
    import redis

    from shared.config import Settings, redis_client
    from shared.runner import MatchNotFound
    from shared.store.redis_store import RedisEventStore

    try:
        target = redis_target(redis_url)
    except NoStack as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from err
    settings = Settings.from_env({"REDIS_URL": target.url, "TABULA_REDIS_CLUSTER": str(int(target.cluster))})
    try:
        yield RedisEventStore(redis_client(settings), shards=target.shards)
    except redis.ConnectionError as err:
        typer.echo(f"cannot reach Redis at {target.url}: {err}", err=True)
        raise typer.Exit(1) from err
    except MatchNotFound as err:
        typer.echo(f"{err} in the store at {target.url}", err=True)
        raise typer.Exit(1) from err


@app.command(name="export")
def export_command(
    match_id: str,
    out: Path = typer.Option(..., "--out", help="the .jsonl file to write"),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
) -> None:
    """Write MATCH_ID's whole log to a JSON-lines file."""
    from services.games import load_game
    from shared.archive import export_lines

    with _store(redis_url) as store:
        game = store.get_meta(match_id).get("game", "")
        codec = load_game(game).codec if game else None
        lines = list(export_lines(store, match_id, codec))
    out.write_text("\n".join(lines) + "\n")
    typer.echo(f"exported {len(lines) - 1} events of {match_id} to {out}")


@app.command(name="import")
def import_command(
    log: Path,
    match_id: str = typer.Option("", help="store under another id"),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
) -> None:
    """Append a JSON-lines log to the store."""
    from shared.archive import import_lines

    with _store(redis_url) as store:
        target = import_lines(store, log.read_text().splitlines(), match_id or None)
    typer.echo(f"imported {log} as match {target}")


def _logs(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        out += sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
    return out


def verify_file(path: Path) -> Verification:
    from services.games import load_game
    from shared.archive import read_log, verify_lines

    lines = path.read_text().splitlines()
    header, _ = read_log(lines)
    game = load_game(header["game"])
    return verify_lines(game.rules, game.codec, lines)


@app.command()
def verify(
    logs: list[Path] = typer.Argument(..., help="log files or folders of .jsonl logs"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Re-fold logs with the pure rules; report each final state hash and any inconsistency."""
    from rich.console import Console
    from rich.progress import Progress

    from shared.archive import LogError

    files = _logs(logs)
    reports: list[dict[str, object]] = []
    console = Console(stderr=True)
    with Progress(console=console, disable=len(files) < 2) as progress:
        task = progress.add_task("verifying", total=len(files))
        for path in files:
            try:
                v = verify_file(path)
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
            for problem in r["problems"]:  # type: ignore[attr-defined]
                typer.echo(f"    {problem}")
    raise typer.Exit(1 if bad else 0)
