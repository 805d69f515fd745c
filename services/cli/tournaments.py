"""``tabula tournaments``: list, show, watch, create, register for, withdraw from and cancel
tournaments (docs/tournaments.md), as the player `tabula play` last played as (or ``--token``'s).

``tabula tournaments`` lists the tournaments registering or running (``--all``: ended ones too);
``show ID`` prints one with its standings, its current round and your table (with the match to open
with ``tabula play``); ``watch ID`` prints it again after every change until it ends;
``create --game race --format swiss --rounds 3 --start-in 300`` creates one; ``register ID``,
``withdraw ID`` and ``cancel ID`` change one. Its words are the terminal client's (``--lang``, else
``LC_ALL`` / ``LANG``; services/client/texts.py), and so are the lobby's refusals.
"""

from __future__ import annotations

import time
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

FORMATS = ("swiss", "round_robin", "single_elimination")
CHANGES = {  # the action: its RPC and what is said once it is done (a key of the client's texts)
    "register": ("RegisterForTournament", "tournaments.registered_for"),
    "withdraw": ("WithdrawFromTournament", "tournaments.withdrew_from"),
    "cancel": ("CancelTournament", "tournaments.cancelled"),
}


@app.command()
def tournaments(
    action: str = typer.Argument("list", help="list, show, watch, create, register, withdraw or cancel"),
    tournament_id: str = typer.Argument("", help="show, watch, register, withdraw, cancel: the tournament"),
    game: str = typer.Option("", help="list: only this game; create: its game"),
    name: str = typer.Option("Tournament", help="create: its name"),
    format: str = typer.Option("swiss", help="create: swiss, round_robin or single_elimination"),
    seats: int = typer.Option(2, help="create: seats per table"),
    rounds: int = typer.Option(3, help="create: Swiss rounds (the other formats: 0, their own)"),
    turn_seconds: int = typer.Option(120, help="create: every match's turn clock"),
    start_in: int = typer.Option(300, help="create: seconds from now until round 1"),
    bots: bool = typer.Option(False, help="create: bots fill tables short of players"),
    max_players: int = typer.Option(0, help="create: at most this many players (0: 64)"),
    option: list[str] = typer.Option([], help="create: a game option NAME=VALUE (repeatable)"),
    all: bool = typer.Option(False, "--all", help="list: ended tournaments too"),
    token: str = typer.Option("", help=TOKEN_HELP),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    deadline: float = typer.Option(10.0, help="deadline of each call in seconds"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """Tournaments: list them, show or watch the standings, create one, register, withdraw or cancel."""
    import grpc
    from tabula.lobby.v1 import lobby_pb2_grpc
    from tabula.lobby.v1 import tournaments_pb2 as tpb

    _use_language(lang)
    console = _console()
    md = _player_metadata(console, token)
    if action in ("show", "watch", *CHANGES) and not tournament_id:
        raise typer.BadParameter(_t("tournaments.needs_id", action=action), param_hint="TOURNAMENT_ID")
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        try:
            if action == "list":
                request = tpb.ListTournamentsRequest(game=game, include_ended=all)
                found = stub.ListTournaments(request, metadata=md, timeout=deadline).tournaments
                if not found:
                    console.print(_t("tournaments.none"))
                for t in found:
                    console.print(line(t))
            elif action == "show":
                seen = stub.GetTournament(
                    tpb.GetTournamentRequest(tournament_id=tournament_id), metadata=md, timeout=deadline
                )
                for text in show(seen):
                    console.print(text)
            elif action == "watch":
                request = tpb.WatchTournamentRequest(tournament_id=tournament_id)
                for item in stub.WatchTournament(request, metadata=md):
                    if item.HasField("tournament"):
                        for text in show(item.tournament):
                            console.print(text)
                        console.print("")
            elif action == "create":
                if format not in FORMATS:
                    raise typer.BadParameter(
                        _t("tournaments.bad_format", formats=", ".join(FORMATS)), param_hint="--format"
                    )
                options = dict(o.partition("=")[::2] for o in option)
                request = tpb.CreateTournamentRequest(
                    name=name,
                    game=game,
                    format=tpb.TournamentFormat.Value(f"TOURNAMENT_FORMAT_{format.upper()}"),
                    options=options,
                    seats_per_table=seats,
                    round_count=rounds if format == "swiss" else 0,
                    turn_seconds=turn_seconds,
                    allow_bots=bots,
                    start_at_ms=int((time.time() + start_in) * 1000),
                    max_players=max_players,
                )
                made = stub.CreateTournament(request, metadata=md, timeout=deadline).tournament
                console.print(_t("tournaments.created", id=made.tournament_id))
                console.print(line(made))
            elif action in CHANGES:
                rpc, said = CHANGES[action]
                request = getattr(tpb, f"{rpc}Request")(tournament_id=tournament_id)
                changed = getattr(stub, rpc)(request, metadata=md, timeout=deadline).tournament
                console.print(_t(said, name=changed.name))
            else:
                raise typer.BadParameter(_t("tournaments.unknown_action", action=action), param_hint="ACTION")
        except grpc.RpcError as err:
            raise _fail(console, err, action) from err


def _named(kind: str, value: str) -> str:
    """An enum value in the client's words (``tournaments.status.running``), else as it is."""
    from services.client.texts import word

    return word(f"tournaments.{kind}.{value}", value)


def _enum(value: Any, enum: str, kind: str) -> str:
    from tabula.lobby.v1 import tournaments_pb2 as tpb

    full: str = getattr(tpb, enum).Name(value)
    return _named(kind, full.split("_", 2)[2].lower())


def line(t: Any) -> str:
    """One tournament on one line: id, name, game, format, status, players, round, start."""
    return _t(
        "tournaments.line",
        id=t.tournament_id,
        name=t.name,
        game=t.game,
        format=_enum(t.format, "TournamentFormat", "format"),
        status=_enum(t.status, "TournamentStatus", "status"),
        registered=t.registered,
        most=t.max_players,
        round=t.current_round,
        rounds=t.round_count or "?",
        start=time.strftime("%Y-%m-%d %H:%M", time.localtime(t.start_at_ms / 1000)),
    )


def show(seen: Any) -> list[str]:
    """The tournament, its standings, its current round and the caller's table."""
    t = seen.tournament
    out = [line(t)]
    if t.ended_reason:
        out.append(_t("tournaments.ended", reason=_named("ended", t.ended_reason)))
    out.append(_t("tournaments.standings" if seen.standings else "tournaments.standings_none"))
    for s in seen.standings:
        marks = [
            _t(m)
            for m, on in (("tournaments.withdrawn", s.withdrawn), ("tournaments.out", s.eliminated))
            if on
        ]
        row = _t(
            "tournaments.standing",
            rank=f"{s.rank:>3}",
            name=f"{s.display_name:<20}",
            points=f"{s.points:g}",
            buchholz=f"{s.buchholz:g}",
            score=s.game_score,
            wins=s.wins,
            played=s.played,
            byes=s.byes,
            forfeits=s.forfeits,
        )
        out.append(_t("tournaments.marked", row=row, marks=", ".join(marks)) if marks else row)
    if seen.rounds:
        now = seen.rounds[-1]
        out.append(_t("tournaments.round", n=now.number))
        for table in now.tables:
            out.append(
                _t(
                    "tournaments.table",
                    n=table.number,
                    seats=", ".join(_seat(s) for s in table.seats),
                    status=_enum(table.status, "TableStatus", "table"),
                    match=table.match_id or _t("tournaments.bye"),
                )
            )
    if seen.my_match_id:
        out.append(_t("tournaments.your_match", match=seen.my_match_id, seat=seen.my_seat))
    elif seen.registered:
        out.append(_t("tournaments.you_registered"))
    return out


def _seat(s: Any) -> str:
    who = s.display_name or (_t("tournaments.bot") if not s.player_id else s.player_id)
    if s.placing:
        key = "tournaments.placed_forfeit" if s.forfeited else "tournaments.placed"
        who = _t(key, who=who, placing=s.placing)
    return who
