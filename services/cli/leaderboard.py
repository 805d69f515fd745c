"""``tabula leaderboard GAME``: a game's best players in a season (``--season``, default the current
one; ``all``: all-time); ``tabula seasons``: the seasons there are, newest first.

As the player `tabula play` last played as, unless ``--token`` gives a player token; in the terminal
client's words (``--lang``, else ``LC_ALL`` / ``LANG``; services/client/texts.py), and so are the
lobby's refusals.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import typer

from services.cli.main import app
from services.cli.play import (
    ADDRESS_HELP,
    LANG_HELP,
    TOKEN_HELP,
    _address,
    _console,
    _fail,
    _player_metadata,
    _t,
    _use_language,
)


def season_line(season: Any) -> str:
    """A season's id, its start and end (UTC dates) and whether it is current; "all  all-time"."""
    if season.id == "all":
        return _t("seasons.all_time", id=season.id)

    def day(ms: int) -> str:
        return (
            datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M") if ms else _t("seasons.no_end")
        )

    said = _t("seasons.span", id=season.id, start=day(season.starts_at_ms), end=day(season.ends_at_ms))
    return _t("seasons.current", season=said) if season.current else said


@app.command()
def leaderboard(
    game: str = typer.Argument(..., help="the game (see `tabula games`)"),
    season: str = typer.Option("", help="a season id (see `tabula seasons`), or all; default: the current"),
    limit: int = typer.Option(20, help="players to show (at most 100)"),
    token: str = typer.Option("", help=TOKEN_HELP),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    deadline: float = typer.Option(10.0, help="deadline of the call in seconds"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """A game's leaderboard in a season: rank, rating (mu - 3 sigma), matches, name."""
    import grpc
    from tabula.lobby.v1 import lobby_pb2 as pb
    from tabula.lobby.v1 import lobby_pb2_grpc

    _use_language(lang)
    console = _console()
    md = _player_metadata(console, token)
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        request = pb.GetLeaderboardRequest(game=game, season=season, limit=limit)
        try:
            reply = lobby_pb2_grpc.LobbyServiceStub(channel).GetLeaderboard(
                request, metadata=md, timeout=deadline
            )
        except grpc.RpcError as err:
            raise _fail(console, err, "leaderboard") from err
    console.print(_t("leaderboard.title", game=game, season=season_line(reply.season)))
    if not reply.entries:
        console.print(_t("leaderboard.none"))
    for e in reply.entries:
        console.print(f"{e.rank:>4}  {e.rating:7.2f}  {e.matches:>4}  {e.display_name}")


@app.command()
def seasons(
    token: str = typer.Option("", help=TOKEN_HELP),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    deadline: float = typer.Option(10.0, help="deadline of the call in seconds"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """The seasons: the current one and every earlier one a match was rated in, newest first."""
    import grpc
    from tabula.lobby.v1 import lobby_pb2_grpc, seasons_pb2

    _use_language(lang)
    console = _console()
    md = _player_metadata(console, token)
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        try:
            reply = lobby_pb2_grpc.LobbyServiceStub(channel).ListSeasons(
                seasons_pb2.ListSeasonsRequest(), metadata=md, timeout=deadline
            )
        except grpc.RpcError as err:
            raise _fail(console, err, "seasons") from err
    if not reply.seasons:
        console.print(_t("seasons.none"))
    for s in reply.seasons:
        console.print(season_line(s))
