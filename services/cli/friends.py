"""``tabula friends``: the friends of the player `tabula play` last played as (or of ``--token``'s).

``tabula friends`` lists friends with their presence, requests and blocked players; ``tabula friends
add NAME_OR_ID`` (an account's exact name, or a player id), ``accept``, ``decline``, ``cancel``,
``remove``, ``block``, ``unblock`` take a player id (the list shows them). The token is the guest's of
the newest match in ``matches.json`` unless ``--token`` gives one (an account's access token).
"""

from __future__ import annotations

import re

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

PLAYER_ID = re.compile(r"[ag]-[0-9a-f]{32}")
ACTIONS = {  # the action: its RPC and what is said once it is done (a key of the client's texts)
    "accept": ("AcceptFriendRequest", "friends.now"),
    "decline": ("DeclineFriendRequest", "friends.declined"),
    "cancel": ("CancelFriendRequest", "friends.cancelled"),
    "remove": ("RemoveFriend", "friends.removed"),
    "block": ("BlockPlayer", "friends.blocked"),
    "unblock": ("UnblockPlayer", "friends.unblocked"),
}


@app.command()
def friends(
    action: str = typer.Argument("list", help="list, add, accept, decline, cancel, remove, block or unblock"),
    who: str = typer.Argument(
        "", help="add: an account's exact name or a player id; the others: a player id"
    ),
    token: str = typer.Option("", help=TOKEN_HELP),
    lobby: str = typer.Option("", help=ADDRESS_HELP.format("LOBBY")),
    deadline: float = typer.Option(10.0, help="deadline of each call in seconds"),
    lang: str = typer.Option("", "--lang", help=LANG_HELP),
) -> None:
    """Your friends with their presence, requests and blocks; or ask, answer, remove, block a player."""
    import grpc
    from tabula.lobby.v1 import lobby_pb2 as pb
    from tabula.lobby.v1 import lobby_pb2_grpc

    _use_language(lang)
    console = _console()
    md = _player_metadata(console, token)
    if action != "list" and not who:
        raise typer.BadParameter(_t("friends.needs_player", action=action), param_hint="WHO")
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        try:
            if action == "list":
                reply = stub.ListFriends(pb.ListFriendsRequest(), metadata=md, timeout=deadline)
                for kind in ("friends", "incoming", "outgoing", "blocked"):
                    items, title = getattr(reply, kind), _t(f"friends.title.{kind}")
                    console.print(_t("friends.heading" if items else "friends.heading_none", title=title))
                    for f in items:
                        said = f"  {f.display_name}  {f.player_id}"
                        console.print(said + (f"  {presence(f.presence)}" if f.HasField("presence") else ""))
            elif action == "add":
                target = {"player_id": who} if PLAYER_ID.fullmatch(who) else {"display_name": who}
                sent = stub.SendFriendRequest(
                    pb.SendFriendRequestRequest(**target), metadata=md, timeout=deadline
                )
                name = sent.friend.display_name
                console.print(_t("friends.now" if sent.friends else "friends.asked", name=name))
            elif action in ACTIONS:
                rpc, said = ACTIONS[action]
                request = getattr(pb, f"{rpc}Request")(player_id=who)
                reply = getattr(stub, rpc)(request, metadata=md, timeout=deadline)
                console.print(_t(said, name=reply.friend.display_name if action == "accept" else who))
            else:
                raise typer.BadParameter(_t("friends.unknown_action", action=action), param_hint="ACTION")
        except grpc.RpcError as err:
            raise _fail(console, err, action) from err


def presence(p: object) -> str:
    """ "online", "playing <game> (match ...)", "offline, last seen 12 min ago"."""
    import time

    online, game, match, last = (
        getattr(p, k) for k in ("online", "playing_game", "playing_match_id", "last_seen_ms")
    )
    if online:
        if not game:
            return _t("friends.online")
        return _t("friends.playing_match" if match else "friends.playing", game=game, match=match)
    if not last:
        return _t("friends.offline")
    return _t("friends.last_seen", minutes=max(1, round((time.time() * 1000 - last) / 60000)))
