"""``tabula tournaments``: list, show, watch, create, register for, withdraw from and cancel
tournaments (docs/tournaments.md), as the player `tabula play` last played as (or ``--token``'s).

``tabula tournaments`` lists the tournaments registering or running (``--all``: ended ones too);
``show ID`` prints one with its standings, its current round and your table (with the match to open
with ``tabula play``); ``watch ID`` prints it again after every change until it ends;
``create --game race --format swiss --rounds 3 --start-in 300`` creates one; ``register ID``,
``withdraw ID`` and ``cancel ID`` change one.
"""

from __future__ import annotations

import time
from typing import Any

import typer

from services.cli.main import app
from services.cli.play import ADDRESS_HELP, _address, _console, _fail, matches_file

FORMATS = ("swiss", "round_robin", "single_elimination")
CHANGES = {
    "register": ("RegisterForTournament", "registered for {}"),
    "withdraw": ("WithdrawFromTournament", "withdrew from {}"),
    "cancel": ("CancelTournament", "cancelled {}"),
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
    token: str = typer.Option(
        "", help="a player token (default: the guest of your newest `tabula play` match)"
    ),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    deadline: float = typer.Option(10.0, help="deadline of each call in seconds"),
) -> None:
    """Tournaments: list them, show or watch the standings, create one, register, withdraw or cancel."""
    import grpc
    from tabula.lobby.v1 import lobby_pb2_grpc
    from tabula.lobby.v1 import tournaments_pb2 as tpb

    from services.client.saved import newest

    console = _console()
    if not token:
        saved = newest(matches_file())
        if not saved:
            console.print("No player to act as: play a match first (tabula play), or give --token")
            raise typer.Exit(1)
        token = saved[0].guest_token
    if action in ("show", "watch", *CHANGES) and not tournament_id:
        raise typer.BadParameter(f"{action} needs a tournament id", param_hint="TOURNAMENT_ID")
    md = [("authorization", f"Bearer {token}")]
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        try:
            if action == "list":
                request = tpb.ListTournamentsRequest(game=game, include_ended=all)
                found = stub.ListTournaments(request, metadata=md, timeout=deadline).tournaments
                if not found:
                    console.print("No tournaments")
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
                    raise typer.BadParameter(f"format is one of {', '.join(FORMATS)}", param_hint="--format")
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
                console.print(f"created {made.tournament_id}")
                console.print(line(made))
            elif action in CHANGES:
                rpc, said = CHANGES[action]
                request = getattr(tpb, f"{rpc}Request")(tournament_id=tournament_id)
                changed = getattr(stub, rpc)(request, metadata=md, timeout=deadline).tournament
                console.print(said.format(changed.name))
            else:
                raise typer.BadParameter(f"unknown action {action!r}", param_hint="ACTION")
        except grpc.RpcError as err:
            raise _fail(console, err, action) from err


def _enum(value: Any, enum: str) -> str:
    from tabula.lobby.v1 import tournaments_pb2 as tpb

    full: str = getattr(tpb, enum).Name(value)
    return full.split("_", 2)[2].lower()


def line(t: Any) -> str:
    """One tournament on one line: id, name, game, format, status, players, round, start."""
    start = time.strftime("%Y-%m-%d %H:%M", time.localtime(t.start_at_ms / 1000))
    rounds = f"round {t.current_round}/{t.round_count or '?'}"
    return (
        f"{t.tournament_id}  {t.name}  {t.game}  {_enum(t.format, 'TournamentFormat')}  "
        f"{_enum(t.status, 'TournamentStatus')}  {t.registered}/{t.max_players} players  {rounds}  "
        f"starts {start}"
    )


def show(seen: Any) -> list[str]:
    """The tournament, its standings, its current round and the caller's table."""
    t = seen.tournament
    out = [line(t)]
    if t.ended_reason:
        out.append(f"ended: {t.ended_reason}")
    out.append("Standings:" if seen.standings else "Standings: nobody registered")
    for s in seen.standings:
        marks = [m for m, on in (("withdrawn", s.withdrawn), ("out", s.eliminated)) if on]
        out.append(
            f"  {s.rank:>3}. {s.display_name:<20} {s.points:g} pts  Buchholz {s.buchholz:g}  "
            f"score {s.game_score}  wins {s.wins}  played {s.played}  byes {s.byes}  "
            f"forfeits {s.forfeits}" + (f"  ({', '.join(marks)})" if marks else "")
        )
    if seen.rounds:
        now = seen.rounds[-1]
        out.append(f"Round {now.number}:")
        for table in now.tables:
            seats = ", ".join(_seat(s) for s in table.seats)
            what = table.match_id or "bye"
            out.append(f"  table {table.number}: {seats}  ({_enum(table.status, 'TableStatus')}) {what}")
    if seen.my_match_id:
        out.append(f"Your match: {seen.my_match_id} (seat {seen.my_seat})")
    elif seen.registered:
        out.append("You are registered")
    return out


def _seat(s: Any) -> str:
    who = s.display_name or ("bot" if not s.player_id else s.player_id)
    if s.placing:
        who += f" #{s.placing}" + (" forfeit" if s.forfeited else "")
    return who
