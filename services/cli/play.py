"""``tabula play | watch | replay``: the terminal client (rendering and loops in services/client/)."""

from __future__ import annotations

import sys

import grpc
import typer
from rich.console import Console

from services.cli.main import app
from shared.config import port_for


def _default(service: str) -> str:
    return f"127.0.0.1:{port_for(service)}"


def _game_address(game: str, game_addr: str) -> str:
    from services.games import game_port

    return game_addr or f"127.0.0.1:{game_port(game)}"


def _game(game: str) -> str:
    """The named game (checked against the registry), or the first registered one."""
    from services.games import default_game, game_names

    if not game:
        return default_game()
    if game not in game_names():
        raise typer.BadParameter(
            f"unknown game {game!r}; known: {', '.join(game_names())}", param_hint="--game"
        )
    return game


def parse_options(game: str, raw: list[str]) -> dict[str, str]:
    """``["name=value", ...]`` -> the game's options, checked by its manifest (defaults filled in)."""
    from services.games import manifest

    given: dict[str, str] = {}
    for item in raw:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise typer.BadParameter(f"{item!r} is not name=value", param_hint="--option")
        given[name.strip()] = value
    try:
        return manifest(game).parse_options(given)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--option") from err


def _console() -> Console:
    # A pipe gets a wide, colourless console so the tables stay whole in logs and tests.
    return Console() if sys.stdout.isatty() else Console(width=160, no_color=True, highlight=False)


def _fail(console: Console, err: grpc.RpcError, what: str) -> typer.Exit:
    from services.client.session import refusal

    console.print(f"{what} failed ({err.code().name}):", refusal(err))
    return typer.Exit(1)


@app.command()
def play(
    game: str = typer.Option("", help="the game to play (default: the first of `tabula games`)"),
    seats: int = typer.Option(4, min=1, help="seats in the match, yours included"),
    bots: str = typer.Option("greedy", help="bot levels for the other seats: one for all, or one each"),
    name: str = typer.Option("Ada", help="your display name"),
    lobby: str = typer.Option(_default("lobby"), help="lobby address host:port"),
    game_addr: str = typer.Option("", help="rule service address (default: the game's port on 127.0.0.1)"),
    option: list[str] = typer.Option(
        [], "--option", "-o", help="a game option name=value, repeatable (`tabula games` lists them)"
    ),
    turn_seconds: int = typer.Option(0, help="turn clock in seconds (0: none)"),
    deadline: float = typer.Option(10.0, help="deadline of each call in seconds"),
) -> None:
    """Sign in as a guest, start a match against bots and play it in the terminal."""
    from services.client.lobby import Lobby, bot_levels
    from services.client.presentation import presentation_for
    from services.client.rpc import GameClient
    from services.client.session import Player

    console = _console()
    game = _game(game)
    options = parse_options(game, option)
    try:
        levels = bot_levels(bots, seats)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--bots") from err
    address = _game_address(game, game_addr)
    with grpc.insecure_channel(lobby) as lobby_channel, grpc.insecure_channel(address) as game_channel:
        client = Lobby(lobby_channel, deadline)
        try:
            client.sign_in(name)
            started = client.start_with_bots(game, seats, levels, options, turn_seconds)
        except grpc.RpcError as err:
            raise _fail(console, err, "starting the match") from err
        console.print(
            f"Match {started.match_id}: you are {name} at seat {started.seat}; "
            f"players: {', '.join(started.names)}"
        )
        match = GameClient.connect(
            game_channel, game, started.match_id, started.seat_token, deadline_s=deadline
        )
        player = Player(
            client=match,
            presentation=presentation_for(game),
            console=console,
            names=started.names,
            live=console.is_terminal,
            seat=started.seat,
        )
        try:
            outcome = player.play()
        except grpc.RpcError as err:
            raise _fail(console, err, "playing") from err
        except KeyboardInterrupt:
            console.print("\nLeft the match.")
            outcome = None
    console.print(f"replay it: tabula replay {started.match_id} --at VERSION --game {game}")
    if outcome is None:
        raise typer.Exit(2)


@app.command()
def watch(
    match_id: str = typer.Argument(..., help="the match to watch"),
    token: str = typer.Option("", help="a spectator (or seat) token; default: ask the lobby for one"),
    game: str = typer.Option(
        "", help="the match's game, with --token (default: the first of `tabula games`)"
    ),
    lobby: str = typer.Option(_default("lobby")),
    game_addr: str = typer.Option("", help="rule service address (default: the game's port on 127.0.0.1)"),
    until_version: int = typer.Option(0, help="stop once the match reaches this version (0: the end)"),
    max_seconds: float = typer.Option(0.0, help="stop after this many seconds (0: no limit)"),
    name: str = typer.Option("Spectator", help="guest name when asking the lobby for a token"),
    deadline: float = typer.Option(10.0),
) -> None:
    """Follow MATCH_ID's public view live."""
    from services.client.lobby import Lobby
    from services.client.presentation import presentation_for
    from services.client.rpc import GameClient
    from services.client.session import Spectator

    console = _console()
    if not token:
        with grpc.insecure_channel(lobby) as channel:
            client = Lobby(channel, deadline)
            try:
                client.sign_in(name)
                token, game = client.spectator_token(match_id)
            except grpc.RpcError as err:
                raise _fail(console, err, "getting a spectator token") from err
    game = _game(game)
    with grpc.insecure_channel(_game_address(game, game_addr)) as channel:
        match = GameClient.connect(channel, game, match_id, token, deadline_s=deadline)
        spectator = Spectator(
            client=match,
            presentation=presentation_for(game),
            console=console,
            live=console.is_terminal,
            until_version=until_version,
            max_seconds=max_seconds,
        )
        try:
            spectator.watch()
        except grpc.RpcError as err:
            raise _fail(console, err, "watching") from err
        except KeyboardInterrupt:
            pass
    console.print(f"stopped at version {spectator.version}")


@app.command()
def replay(
    match_id: str = typer.Argument(..., help="the match"),
    at: int = typer.Option(..., "--at", min=0, help="the version to show"),
    token: str = typer.Option("", help="a spectator or seat token; default: ask the lobby for one"),
    game: str = typer.Option(
        "", help="the match's game, with --token (default: the first of `tabula games`)"
    ),
    lobby: str = typer.Option(_default("lobby")),
    game_addr: str = typer.Option("", help="rule service address (default: the game's port on 127.0.0.1)"),
    deadline: float = typer.Option(10.0),
) -> None:
    """Print MATCH_ID's view at version --at (the Replay RPC)."""
    from services.client.lobby import Lobby
    from services.client.presentation import presentation_for
    from services.client.render import render_view
    from services.client.rpc import GameClient

    console = _console()
    try:
        if not token:
            with grpc.insecure_channel(lobby) as channel:
                client = Lobby(channel, deadline)
                client.sign_in("Replay")
                token, game = client.spectator_token(match_id)
        game = _game(game)
        with grpc.insecure_channel(_game_address(game, game_addr)) as channel:
            match = GameClient.connect(channel, game, match_id, token, deadline_s=deadline)
            reply = match.replay(at)
    except grpc.RpcError as err:
        raise _fail(console, err, "replay") from err
    console.print(render_view(reply.view, presentation_for(game), (), reply.version, match_id))
