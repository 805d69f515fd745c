"""``tabula analyze MATCH``: the search bot's rating of one seat's moves in a finished match.

Asks the lobby for the analysis (``AnalyzeMatch``; asked before, the same one) and prints a table,
one row per decision: the version, the command played, its rating against the best command found
(the seat's chance of finishing ahead after each, as the bot's evaluation judges it) and, where they
differ, the best one in words. ``--wait`` polls until every decision is rated, ``--cancel`` stops
it between two moves. The token is the guest's of that match in ``matches.json`` (its seat the
default), else of the newest match there, unless ``--token`` gives one. Its words are the terminal
client's (``--lang``, else ``LC_ALL`` / ``LANG``; services/client/texts.py), and so are the lobby's
refusals; the commands in the table are as the analysis worded them.
"""

from __future__ import annotations

import time
from typing import Any

import typer

from services.cli.main import app
from services.cli.play import (
    ADDRESS_HELP,
    LANG_HELP,
    _address,
    _console,
    _fail,
    _t,
    _use_language,
    matches_file,
)

POLL_S = 1.0


@app.command()
def analyze(
    match_id: str = typer.Argument(..., help="a finished match's id"),
    seat: int = typer.Option(-1, help="the seat to analyse (default: yours in that match, else 0)"),
    wait: bool = typer.Option(False, "--wait", help="wait until every decision is rated"),
    cancel: bool = typer.Option(False, "--cancel", help="stop the analysis between two moves"),
    token: str = typer.Option("", help="a player token (default: your `tabula play` guest's)"),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    deadline: float = typer.Option(10.0, help="deadline of each call in seconds"),
    timeout: float = typer.Option(3600.0, help="--wait: give up after this many seconds"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """Rate a seat's moves of a finished match with the search bot: played against the best found."""
    import grpc
    from tabula.lobby.v1 import analysis_pb2 as apb
    from tabula.lobby.v1 import lobby_pb2_grpc

    from services.client.saved import newest
    from services.client.texts import language

    _use_language(lang)
    console = _console()
    saved = newest(matches_file())
    mine = [s for s in saved if s.match_id == match_id]
    if not token:
        if not saved:
            console.print(_t("cli.no_player"))
            raise typer.Exit(1)
        token = (mine or saved)[0].guest_token
    if seat < 0:
        seat = mine[0].seat if mine else 0
    md = [("authorization", f"Bearer {token}"), *language()]
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        try:
            if cancel:
                done = stub.CancelAnalysis(
                    apb.CancelAnalysisRequest(match_id=match_id, seat=seat), metadata=md, timeout=deadline
                )
                console.print(_t("analyze.cancelled" if done.cancelled else "analyze.nothing_to_cancel"))
                found = done.analysis
            else:
                found = stub.AnalyzeMatch(
                    apb.AnalyzeMatchRequest(match_id=match_id, seat=seat), metadata=md, timeout=deadline
                ).analysis
                until = time.monotonic() + timeout
                while wait and _active(found) and time.monotonic() < until:
                    time.sleep(POLL_S)
                    found = stub.GetAnalysis(
                        apb.GetAnalysisRequest(match_id=match_id, seat=seat), metadata=md, timeout=deadline
                    ).analysis
        except grpc.RpcError as err:
            raise _fail(console, err, "analyze") from err
    console.print(table(found))
    console.print(summary(found))


def _active(found: Any) -> bool:
    from tabula.lobby.v1 import analysis_pb2 as apb

    return found.status in (apb.ANALYSIS_STATUS_QUEUED, apb.ANALYSIS_STATUS_RUNNING)


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def table(found: Any) -> Any:
    """One row per rated decision: version, played, rating (played vs best), best was."""
    from rich import box
    from rich.table import Table

    out = Table(box=box.SIMPLE, title=_t("analyze.title", match=found.match_id, seat=found.seat))
    for column in ("version", "played", "rating", "best"):
        out.add_column(_t(f"analyze.col.{column}"), justify="right" if column == "version" else "left")
    for move in found.moves:
        if move.forced:
            rating, best = _t("analyze.forced"), ""
        else:
            rating = _t("analyze.rating", played=percent(move.played_value), best=percent(move.best_value))
            best = _t("analyze.same") if move.same else move.best
        out.add_row(str(move.version), move.played, rating, best)
    return out


def summary(found: Any) -> str:
    from tabula.lobby.v1 import analysis_pb2 as apb

    from services.client.texts import word

    status = apb.AnalysisStatus.Name(found.status).removeprefix("ANALYSIS_STATUS_").lower()
    status = word(f"analyze.status.{status}", status)
    searched = [m for m in found.moves if not m.forced]
    best = sum(m.same for m in searched)
    rated = {"status": status, "rated": len(found.moves), "iterations": found.iterations}
    if found.decisions >= 0:
        line = _t("analyze.rated_of", total=found.decisions, **rated)
    else:
        line = _t("analyze.rated", **rated)
    if searched:
        line = _t("analyze.best_played", line=line, best=best, searched=len(searched))
    return _t("analyze.failed", line=line, error=found.error) if found.error else line
