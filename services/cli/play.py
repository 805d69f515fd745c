"""``tabula play | watch | replay``: the terminal client (rendering and loops in services/client/).

Addresses come from the flags, else the environment (``TABULA_<SERVICE>_ADDR`` or ``_PORT``), else
the stack ``tabula run`` recorded (services/cli/stack.py). ``tabula play`` keeps what rejoining a
match needs in ``matches.json`` of the state folder (services/client/saved.py); ``--match ID``
rejoins it. Heavy modules (grpc, rich, the client) are imported inside the commands, so that
``tabula --help`` stays quick.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from services.cli.main import app
from services.cli.stack import NoStack, service_address, state_dir

if TYPE_CHECKING:
    from rich.console import Console

    from services.client.lobby import Lobby, Started
    from services.client.saved import SavedMatch

ADDRESS_HELP = "host:port (default: TABULA_{0}_ADDR / _PORT, else the stack `tabula run` recorded)"
LANG_HELP = "the language of the client and the match's texts: en, zh-CN or pt-BR (default: LC_ALL / LANG)"


def _use_language(flag: str) -> None:
    """The client's words and its calls in the language of ``--lang``, else of the environment."""
    from services.client.texts import locale_from, use

    use(locale_from(flag))


def _t(key: str, **values: Any) -> str:
    from services.client.texts import t

    return t(key, **values)


TOKEN_HELP = "a player token (default: the guest of your newest `tabula play` match)"


def _player_metadata(console: Any, token: str) -> list[tuple[str, str]]:
    """The metadata of a lobby call as ``token``'s player (default: the guest of the newest match in
    matches.json), in the client's language; exit 1 when there is none."""
    from services.client.saved import newest
    from services.client.texts import language

    if not token:
        saved = newest(matches_file())
        if not saved:
            console.print(_t("cli.no_player"))
            raise typer.Exit(1)
        token = saved[0].guest_token
    return [("authorization", f"Bearer {token}"), *language()]


def _address(service: str, flag: str) -> str:
    try:
        return service_address(service, flag)
    except NoStack as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from err


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
    from rich.console import Console

    # A pipe gets a wide, colourless console so the tables stay whole in logs and tests.
    return Console() if sys.stdout.isatty() else Console(width=160, no_color=True, highlight=False)


def _fail(console: Console, err: Any, what: str) -> typer.Exit:
    from services.client.session import refusal

    console.print(_t("cli.failed", what=what, code=err.code().name), refusal(err))
    return typer.Exit(1)


def matches_file() -> Path:
    """Where ``tabula play`` keeps the player's matches: the state folder, else ./.tabula."""
    from services.client.saved import MATCHES_FILE

    return (state_dir() or Path(".tabula")) / MATCHES_FILE


def _remember(started: Started, game: str, lobby: Lobby, name: str) -> SavedMatch:
    from services.client.saved import SavedMatch, save

    saved = SavedMatch(
        match_id=started.match_id,
        game=game,
        room_id=started.room_id,
        seat=started.seat,
        seat_token=started.seat_token,
        guest_token=lobby.token,
        player_name=name,
        names=started.names,
        started_at=time.time(),
    )
    save(matches_file(), saved)
    return saved


def page_link(gateway: str, game: str, match_id: str, seat_token: str = "") -> str:
    """The spectator page of one match. With a seat token (in the URL fragment, which the browser
    never sends to a server) the page reads the match as that seat: what a private match needs."""
    from urllib.parse import urlencode

    fragment = f"#token={seat_token}" if seat_token else ""
    return f"http://{gateway}/?{urlencode({'game': game, 'match': match_id})}{fragment}"


def _print_link(console: Console, seat: SavedMatch, public: bool) -> None:
    """The page's link for this match, when the gateway's address is known (else nothing)."""
    try:
        gateway = service_address("gateway")
    except NoStack:
        return
    if public:
        link = page_link(gateway, seat.game, seat.match_id)
        console.print(_t("cli.watch_public", link=link), soft_wrap=True)
    else:
        link = page_link(gateway, seat.game, seat.match_id, seat.seat_token)
        console.print(_t("cli.watch_private", link=link), soft_wrap=True)


def _rejoin(console: Console, lobby: Lobby, match_id: str) -> SavedMatch:
    """The saved seat of ``match_id``, with a fresh seat token and names from the lobby's GetRoom."""
    import dataclasses

    import grpc

    from services.client.lobby import seat_names
    from services.client.saved import find

    path = matches_file()
    saved = find(path, match_id)
    if saved is None:
        raise typer.BadParameter(
            f"no seat of yours in match {match_id} is recorded in {path} (tabula play keeps one there "
            "for each match it starts)",
            param_hint="--match",
        )
    lobby.token = saved.guest_token
    try:
        room, seat_token = lobby.room(saved.room_id)
    except grpc.RpcError as err:
        console.print(_t("cli.no_room", code=err.code().name))
        return saved
    return dataclasses.replace(saved, seat_token=seat_token or saved.seat_token, names=seat_names(room))


@app.command()
def play(
    game: str = typer.Option("", help="the game to play (default: the first of `tabula games`)"),
    seats: int = typer.Option(4, min=1, help="seats in the match, yours included"),
    bots: str = typer.Option("greedy", help="bot levels for the other seats: one for all, or one each"),
    name: str = typer.Option("Ada", help="your display name"),
    match: str = typer.Option("", "--match", help="rejoin this match of yours (see .tabula/matches.json)"),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    game_addr: str = typer.Option("", help=ADDRESS_HELP.format("<GAME>")),
    option: list[str] = typer.Option(
        [], "--option", "-o", help="a game option name=value, repeatable (`tabula games` lists them)"
    ),
    turn_seconds: int = typer.Option(0, help="turn clock in seconds (0: none)"),
    public: bool = typer.Option(
        False, "--public", help="a public room: the spectator page lists the match, anyone may watch it"
    ),
    deadline: float = typer.Option(10.0, help="deadline of each call in seconds"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """Start a match against bots (signed in as a guest) and play it in the terminal; or rejoin one."""
    import grpc

    from services.client.lobby import Lobby, bot_levels

    _use_language(lang)
    console = _console()
    lobby_address = _address("lobby", lobby)
    with grpc.insecure_channel(lobby_address) as lobby_channel:
        client = Lobby(lobby_channel, deadline)
        try:
            if match:
                seat = _rejoin(console, client, match)
                console.print(_t("cli.rejoining", match=match, name=seat.player_name, seat=seat.seat))
            else:
                game = _game(game)
                options = parse_options(game, option)
                try:
                    levels = bot_levels(bots, seats)
                except ValueError as err:
                    raise typer.BadParameter(str(err), param_hint="--bots") from err
                client.sign_in(name)
                started = client.start_with_bots(game, seats, levels, options, turn_seconds, public)
                seat = _remember(started, game, client, name)
                players = ", ".join(started.names)
                console.print(
                    _t("cli.started", match=started.match_id, name=name, seat=started.seat, players=players)
                )
        except grpc.RpcError as err:
            what = _t("cli.what.rejoining" if match else "cli.what.starting")
            raise _fail(console, err, what) from err
    _print_link(console, seat, public and not match)
    outcome = _play_seat(console, seat, _address(seat.game, game_addr), deadline, lobby_address)
    console.print(_t("cli.replay_hint", match=seat.match_id))
    if outcome is None:
        raise typer.Exit(2)


def _play_seat(console: Console, seat: SavedMatch, address: str, deadline: float, lobby_address: str) -> Any:
    """Play ``seat`` on the game's service at ``address``; the match's players' chat goes through the
    lobby at ``lobby_address`` with the saved guest token."""
    import grpc

    from services.client.chat import MatchChat
    from services.client.keyboard import terminal_keys
    from services.client.presentation import presentation_for
    from services.client.rpc import GameClient
    from services.client.session import Player
    from services.client.texts import locale

    with (
        grpc.insecure_channel(address) as channel,
        grpc.insecure_channel(lobby_address) as lobby_channel,
        terminal_keys() as keys,
    ):
        match = GameClient.connect(channel, seat.game, seat.match_id, seat.seat_token, deadline_s=deadline)
        chat = (
            MatchChat(lobby_channel, seat.guest_token, seat.match_id, deadline) if seat.guest_token else None
        )
        player = Player(
            client=match,
            presentation=presentation_for(seat.game, locale()),
            console=console,
            names=seat.names,
            live=console.is_terminal,
            seat=seat.seat,
            read_keys=keys,  # on a terminal: each line belongs to the question its first key was typed for
            chat=chat,
        )
        try:
            return player.play()
        except grpc.RpcError as err:
            raise _fail(console, err, _t("cli.what.playing")) from err
        except KeyboardInterrupt:
            console.print("\n" + _t("cli.left", match=seat.match_id))
            return None


def _spectate(lobby: str, match_id: str, token: str, game: str, name: str, deadline: float) -> Any:
    """(token, game) to watch ``match_id``: the given token, else a spectator token from the lobby,
    asked as the saved player of that match (``tabula play`` made it) or as a new guest.
    (The players' names come with every view: ``GetViewResponse.seats``.)"""
    import grpc

    from services.client.lobby import Lobby
    from services.client.saved import find

    saved = find(matches_file(), match_id)
    if token:
        return token, _game(game or (saved.game if saved else ""))
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        client = Lobby(channel, deadline)
        if saved is not None:  # our own match: a private room's match is watched by its players only
            client.token = saved.guest_token
        else:
            client.sign_in(name)
        token, game = client.spectator_token(match_id)
    return token, _game(game)


@app.command()
def watch(
    match_id: str = typer.Argument(..., help="the match to watch"),
    token: str = typer.Option("", help="a spectator (or seat) token; default: ask the lobby for one"),
    game: str = typer.Option(
        "", help="the match's game, with --token (default: the first of `tabula games`)"
    ),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    game_addr: str = typer.Option("", help=ADDRESS_HELP.format("<GAME>")),
    until_version: int = typer.Option(0, help="stop once the match reaches this version (0: the end)"),
    max_seconds: float = typer.Option(0.0, help="stop after this many seconds (0: no limit)"),
    name: str = typer.Option("Spectator", help="guest name when asking the lobby for a token"),
    deadline: float = typer.Option(10.0),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """Follow MATCH_ID's public view live."""
    import grpc

    from services.client.presentation import presentation_for
    from services.client.rpc import GameClient
    from services.client.session import Spectator
    from services.client.texts import locale

    _use_language(lang)
    console = _console()
    try:
        token, game = _spectate(lobby, match_id, token, game, name, deadline)
    except grpc.RpcError as err:
        raise _fail(console, err, _t("cli.what.spectator_token")) from err
    with grpc.insecure_channel(_address(game, game_addr)) as channel:
        match = GameClient.connect(channel, game, match_id, token, deadline_s=deadline)
        spectator = Spectator(
            client=match,
            presentation=presentation_for(game, locale()),
            console=console,
            live=console.is_terminal,
            until_version=until_version,
            max_seconds=max_seconds,
        )
        try:
            spectator.watch()
        except grpc.RpcError as err:
            raise _fail(console, err, _t("cli.what.watching")) from err
        except KeyboardInterrupt:
            pass
    console.print(_t("cli.stopped", version=spectator.version))


@app.command()
def replay(
    match_id: str = typer.Argument(..., help="the match"),
    at: int = typer.Option(..., "--at", min=0, help="the version to show"),
    token: str = typer.Option("", help="a spectator or seat token; default: ask the lobby for one"),
    game: str = typer.Option(
        "", help="the match's game, with --token (default: the first of `tabula games`)"
    ),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    game_addr: str = typer.Option("", help=ADDRESS_HELP.format("<GAME>")),
    deadline: float = typer.Option(10.0),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """Print MATCH_ID's view at version --at (the Replay RPC; an archived match from the archive)."""
    import grpc

    from services.client.presentation import presentation_for
    from services.client.render import render_view, seat_labels
    from services.client.rpc import GameClient
    from services.client.texts import locale

    _use_language(lang)
    console = _console()
    try:
        token, game = _spectate(lobby, match_id, token, game, "Replay", deadline)
        with grpc.insecure_channel(_address(game, game_addr)) as channel:
            match = GameClient.connect(channel, game, match_id, token, deadline_s=deadline)
            reply = match.replay(at)
    except grpc.RpcError as err:
        from services.cli.archive import archived_replay

        archived = archived_replay(match_id, at) if err.code() == grpc.StatusCode.NOT_FOUND else None
        if archived is None:
            raise _fail(console, err, _t("cli.what.replay")) from err
        game, reply = archived  # no longer in Redis: folded here from the archive (TABULA_ARCHIVE_DIR)
    names = seat_labels(reply)
    console.print(render_view(reply.view, presentation_for(game, locale()), names, reply.version, match_id))
