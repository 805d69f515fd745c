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
from services.cli.play import ADDRESS_HELP, TOKEN_HELP, _address, _console, _fail, _player_metadata

PLAYER_ID = re.compile(r"[ag]-[0-9a-f]{32}")
ACTIONS = {
    "accept": ("AcceptFriendRequest", "{} and you are friends now"),
    "decline": ("DeclineFriendRequest", "declined"),
    "cancel": ("CancelFriendRequest", "cancelled"),
    "remove": ("RemoveFriend", "removed"),
    "block": ("BlockPlayer", "blocked"),
    "unblock": ("UnblockPlayer", "unblocked"),
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
) -> None:
    """Your friends with their presence, requests and blocks; or ask, answer, remove, block a player."""
    import grpc
    from tabula.lobby.v1 import lobby_pb2 as pb
    from tabula.lobby.v1 import lobby_pb2_grpc

    console = _console()
    md = _player_metadata(console, token)
    if action != "list" and not who:
        raise typer.BadParameter(f"{action} needs a player", param_hint="WHO")
    with grpc.insecure_channel(_address("lobby", lobby)) as channel:
        stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        try:
            if action == "list":
                reply = stub.ListFriends(pb.ListFriendsRequest(), metadata=md, timeout=deadline)
                for title, items in (
                    ("Friends", reply.friends),
                    ("Asking you", reply.incoming),
                    ("Waiting for their answer", reply.outgoing),
                    ("Blocked", reply.blocked),
                ):
                    console.print(f"{title}:" if items else f"{title}: none")
                    for f in items:
                        said = f"  {f.display_name}  {f.player_id}"
                        console.print(said + (f"  {presence(f.presence)}" if f.HasField("presence") else ""))
            elif action == "add":
                target = {"player_id": who} if PLAYER_ID.fullmatch(who) else {"display_name": who}
                sent = stub.SendFriendRequest(
                    pb.SendFriendRequestRequest(**target), metadata=md, timeout=deadline
                )
                name = sent.friend.display_name
                console.print(f"{name} and you are friends now" if sent.friends else f"asked {name}")
            elif action in ACTIONS:
                rpc, said = ACTIONS[action]
                request = getattr(pb, f"{rpc}Request")(player_id=who)
                reply = getattr(stub, rpc)(request, metadata=md, timeout=deadline)
                console.print(said.format(reply.friend.display_name if action == "accept" else who))
            else:
                raise typer.BadParameter(f"unknown action {action!r}", param_hint="ACTION")
        except grpc.RpcError as err:
            raise _fail(console, err, action) from err


def presence(p: object) -> str:
    """ "online", "playing <game> (match ...)", "offline, last seen 12 min ago"."""
    import time

    online, game, match, last = (
        getattr(p, k) for k in ("online", "playing_game", "playing_match_id", "last_seen_ms")
    )
    if online:
        return (f"playing {game}" + (f" (match {match})" if match else "")) if game else "online"
    if not last:
        return "offline"
    return f"offline, last seen {max(1, round((time.time() * 1000 - last) / 60000))} min ago"
