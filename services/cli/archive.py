"""``tabula archive``: finished matches out of Redis into the archive (shared/matches/archiver.py).

The archive is ``--dir``, else ``TABULA_ARCHIVE_STORAGE`` / ``TABULA_ARCHIVE_DIR``, else the running
stack's (``.tabula/archive/`` under ``make run``). Without match ids it does what the reactor does
between reads, over every shard, until nothing is due: matches finished ``--after`` seconds ago
whose end every outbox group acknowledged. With match ids it archives those (finished) matches now:
the operator's call, no wait for the groups.

Also the archive's readers for the other commands: :func:`archive_storage` and
:func:`archived_replay` (``tabula replay`` of a match no longer in Redis).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from services.cli.main import app
from services.cli.stack import REDIS_URL_HELP, event_store

if TYPE_CHECKING:
    from shared.matches.archive import ArchiveStorage
    from shared.matches.runner import EventCodec

DIR_HELP = (
    "the archive folder (default: TABULA_ARCHIVE_STORAGE, else TABULA_ARCHIVE_DIR, else the running stack's)"
)


def archive_storage(directory: Path | None = None) -> ArchiveStorage | None:
    """``--dir``, else the environment's archive, else the one the running stack records (``make run``
    archives into ``.tabula/archive/``), else None."""
    from services.cli.stack import find_stack
    from shared.matches.archive import LocalArchive, storage_from_env

    if directory is not None:
        return LocalArchive(directory)
    configured = storage_from_env()
    if configured is not None:
        return configured
    stack = find_stack()
    return LocalArchive(Path(stack.archive_dir)) if stack is not None and stack.archive_dir else None


def _games(name: str) -> tuple[Any, EventCodec]:
    from services.games import load_game

    game = load_game(name)
    return game.rules, game.codec


@app.command()
def archive(
    match_ids: list[str] = typer.Argument(None, help="finished matches to archive now (default: all due)"),
    after: float = typer.Option(86400.0, help="seconds since a match ended (without MATCH_IDS)"),
    directory: Path = typer.Option(None, "--dir", help=DIR_HELP),
    redis_url: str = typer.Option("", help=REDIS_URL_HELP),
    index: bool = typer.Option(
        False, "--index", help="first index matches that finished before the finished index existed (SCAN)"
    ),
) -> None:
    """Move finished matches to the archive: export, verify, store, read back, delete from Redis."""
    from services.workers.settings import WorkerSettings
    from shared.matches.archiver import ArchiveFailed, Archiver, archive_match
    from shared.matches.runner import MatchNotFound
    from shared.runtime.edge import wait

    storage = archive_storage(directory)
    if storage is None:
        typer.echo("no archive: pass --dir or set TABULA_ARCHIVE_DIR", err=True)
        raise typer.Exit(1)
    failed = 0
    with event_store(redis_url) as store:
        if match_ids:
            for match_id in match_ids:
                try:
                    done = wait(archive_match(store, storage, match_id, _games))
                except (ArchiveFailed, MatchNotFound) as err:
                    typer.echo(f"kept {match_id}: {err}", err=True)
                    failed += 1
                    continue
                typer.echo(f"archived {match_id}: {done.events} events, {done.size} bytes")
        else:
            if index:
                added = sum(store.index_finished(m) for m in _match_ids(store))
                typer.echo(f"indexed {added} finished matches")
            groups = WorkerSettings.from_env().outbox_groups
            archiver = Archiver(store, storage, _games, after, groups)
            total = 0
            while batch := archiver.run(range(store.shards)):
                total += len(batch)
            typer.echo(f"archived {total} matches")
    raise typer.Exit(1 if failed else 0)


def _match_ids(store: Any) -> Iterator[str]:
    """Every match id in Redis, from its meta key (a SCAN: every node of a cluster)."""
    for key in store.client.scan_iter(match="{s*}:match:*:meta", count=1000):
        yield key.decode().split(":match:", 1)[1].rsplit(":", 1)[0]


def archived_lines(match_id: str, directory: Path | None = None) -> list[str] | None:
    """The archived log of ``match_id``, if an archive is configured and holds it."""
    from shared.matches.archive import archived_lines as read

    storage = archive_storage(directory)
    return None if storage is None else read(storage, match_id)


def archived_replay(match_id: str, version: int, directory: Path | None = None) -> tuple[str, Any] | None:
    """(game, ReplayResponse) of an archived match at ``version``, folded here with the game's rules:
    what the rule service's Replay answers for it, the whole state revealed (the match is over)."""
    from services.games import load_game
    from shared.core.decider import SYSTEM
    from shared.matches.archive import archived_runner, read_log
    from shared.runtime.edge import wait
    from shared.serving.game_service import seat_messages

    lines = archived_lines(match_id, directory)
    if lines is None:
        return None
    header, _ = read_log(lines)
    game = load_game(header["game"])
    loaded = wait(archived_runner(game.rules, game.codec, lines).load(match_id, at_version=version))
    view = game.codec.to_message(game.rules.view(loaded.state, SYSTEM))
    reply = game.modules.pb2.ReplayResponse(
        version=loaded.version, view=view, seats=seat_messages(loaded.meta)
    )
    return header["game"], reply
