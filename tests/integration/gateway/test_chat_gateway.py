"""Chat through the real gateway as a browser calls it: SendChatMessage in Connect JSON, WatchChat as a
Connect server stream (JSON envelopes) that delivers a message sent while it is open, resumes after a
message id and sends keepalives, and a refusal as a Connect error with its reason."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from services.gateway.server import config_from_env
from services.lobby.server import Lobby, build
from shared.runtime.config import Settings
from shared.serving.tokens import TokenSigner
from tests.integration.gateway.support import GatewayThread, gateway
from tests.integration.gateway.test_accounts_gateway import call, reason
from tests.integration.gateway.test_gateway import envelope, split_frames
from tests.support.timing import scaled

SECRET = "chat-gateway-secret-0123456789abcdef"
LOBBY = "tabula.lobby.v1.LobbyService"


@pytest.fixture
def lobby(redis_url: str, redis_client: Any) -> Iterator[Lobby]:
    settings = Settings.from_env({"REDIS_URL": redis_url})
    running = build(
        settings, 0, TokenSigner(SECRET.encode()), env={"TABULA_SECRET": SECRET}, keepalive_ms=300
    )
    yield running
    running.stop(0)


@pytest.fixture
def gw(lobby: Lobby) -> Iterator[GatewayThread]:
    env = {"TABULA_LOBBY_ADDR": f"127.0.0.1:{lobby.server.port}", "TABULA_SECRET": SECRET}
    with gateway(env, config_from_env(env)) as running:
        yield running


def ok(gw: GatewayThread, method: str, body: Any, token: str = "") -> Any:
    status, reply = call(gw, method, body, token)
    assert status == 200, reply
    return reply


def watch(gw: GatewayThread, token: str, body: dict[str, str], messages: int, then: Any = None) -> list[Any]:
    """A Connect streaming JSON WatchChat: its items until ``messages`` messages and a keepalive came
    (``then()`` runs once the first item, a keepalive or a message, has arrived)."""

    async def go() -> list[Any]:
        items: list[Any] = []
        headers = {
            "Content-Type": "application/connect+json",
            "Connect-Protocol-Version": "1",
            "Authorization": f"Bearer {token}",
        }
        url = f"{gw.url}/{LOBBY}/WatchChat"
        timeout = aiohttp.ClientTimeout(total=scaled(20))
        data = envelope(json.dumps(body).encode())
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(url, data=data, headers=headers) as reply,
        ):
            assert reply.status == 200 and reply.content_type == "application/connect+json"
            buffer, fired = b"", False
            async for chunk in reply.content.iter_any():
                complete, buffer = split_frames(buffer + chunk)
                items += [json.loads(payload) for _, payload in complete]
                if items and not fired and then is not None:
                    fired = True
                    await asyncio.to_thread(then)
                if len([i for i in items if "message" in i]) >= messages and any(
                    "keepalive" in i for i in items
                ):
                    return items
        return items

    return asyncio.run(go())


def test_chat_over_connect_json_and_a_connect_stream(gw: GatewayThread) -> None:
    ada = ok(gw, "SignInGuest", {"displayName": "Ada"})
    bob = ok(gw, "SignInGuest", {"displayName": "Bob"})
    room = ok(
        gw,
        "CreateRoom",
        {"game": "lorenzo", "seats": 2, "visibility": "ROOM_VISIBILITY_PUBLIC"},
        ada["token"],
    )
    room_id = room["room"]["roomId"]
    ok(gw, "JoinRoom", {"roomId": room_id}, bob["token"])
    channel = f"room:{room_id}"
    first = ok(
        gw, "SendChatMessage", {"channel": channel, "text": "hello", "clientMessageId": "a1"}, ada["token"]
    )
    message = first["message"]
    assert (message["text"], message["displayName"], message["clientMessageId"]) == ("hello", "Ada", "a1")

    def send_live() -> None:
        ok(gw, "SendChatMessage", {"channel": channel, "text": "live", "clientMessageId": "a2"}, ada["token"])

    items = watch(gw, bob["token"], {"channel": channel, "after": ""}, 1, send_live)
    assert [i["message"]["text"] for i in items if "message" in i] == ["live"]
    assert any("keepalive" in i for i in items)
    resumed = watch(gw, bob["token"], {"channel": channel, "after": "0-0"}, 2)
    texts = [i["message"]["text"] for i in resumed if "message" in i]
    assert texts == ["hello", "live"] and all(
        i["message"]["clientMessageId"] == "" for i in resumed if "message" in i
    )
    page = ok(gw, "ListChatMessages", {"channel": channel, "after": message["messageId"]}, bob["token"])
    assert [m["text"] for m in page["messages"]] == ["live"]
    status, body = call(
        gw, "SendChatMessage", {"channel": channel, "text": "  ", "clientMessageId": "b1"}, bob["token"]
    )
    assert (status, body["code"], reason(body)) == (400, "failed_precondition", "chat_empty")
