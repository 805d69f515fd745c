"""The browser gateway over a real Lorenzo service on a private Redis: JSON in and out, WebSocket
streams, forwarded tokens, and gRPC errors as HTTP statuses with their ErrorInfo reason."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
import redis

from services.gateway.app import GatewayConfig
from shared.redis_server import free_port
from tests.integration.gateway.support import (
    GatewayThread,
    bearer,
    gateway,
    lorenzo_service,
    seat_token,
    service_token,
    spectator_token,
)

LORENZO = "tabula.lorenzo.v1.LorenzoService"


@pytest.fixture
def gw(redis_client: redis.Redis) -> Iterator[GatewayThread]:
    with lorenzo_service(redis_client) as lorenzo:
        env = {
            "TABULA_LORENZO_ADDR": f"127.0.0.1:{lorenzo.port}",
            "TABULA_LOBBY_ADDR": f"127.0.0.1:{free_port()}",  # nobody listens there
        }
        with gateway(env, GatewayConfig(deadline_s=5)) as running:
            yield running


def post(gw: GatewayThread, method: str, body: Any, token: str = "", raw: str | None = None) -> Any:
    async def go() -> tuple[int, Any]:
        async with aiohttp.ClientSession() as session:
            data = raw if raw is not None else json.dumps(body)
            headers = {"Content-Type": "application/json", **(bearer(token) if token else {})}
            async with session.post(f"{gw.url}/api/{method}", data=data, headers=headers) as reply:
                return reply.status, await reply.json()

    return asyncio.run(go())


def create(gw: GatewayThread, match_id: str = "m1", seats: int = 2) -> int:
    status, body = post(
        gw, f"{LORENZO}/CreateMatch", {"matchId": match_id, "seats": seats, "seed": "7"}, service_token()
    )
    assert status == 200, body
    return int(body["version"])


def submit_first_legal(gw: GatewayThread, match_id: str) -> dict[str, Any]:
    """Whoever is to act sends its first legal command, copied from the JSON view (a JSON round trip)."""
    _, head = post(gw, f"{LORENZO}/GetView", {"matchId": match_id}, service_token())
    token = service_token() if head["systemToAct"] else seat_token(match_id, head["seatsToAct"][0])
    _, view = post(gw, f"{LORENZO}/GetView", {"matchId": match_id}, token)
    request = {
        "matchId": match_id,
        "expectedVersion": view["version"],
        "commandId": f"c{view['version']}",
        "command": view["legalCommands"][0],
    }
    status, done = post(gw, f"{LORENZO}/SubmitCommand", request, token)
    assert status == 200, done
    return dict(done)


def test_health_is_served_and_deep_health_asks_each_backend(gw: GatewayThread) -> None:
    async def go() -> tuple[int, int, Any]:
        async with aiohttp.ClientSession() as session:
            shallow = await session.get(f"{gw.url}/healthz")
            deep = await session.get(f"{gw.url}/healthz?deep=1")
            return shallow.status, deep.status, await deep.json()

    shallow, deep, body = asyncio.run(go())
    assert shallow == 200
    assert deep == 503 and body["health"]["lorenzo"] == "SERVING"
    assert body["health"]["lobby"] == "UNAVAILABLE"


def test_routes_come_from_the_descriptors_of_every_generated_service(gw: GatewayThread) -> None:
    async def go() -> Any:
        async with aiohttp.ClientSession() as session, session.get(f"{gw.url}/api") as reply:
            return await reply.json()

    services = asyncio.run(go())["services"]
    lorenzo = {m["method"]: m for m in services[LORENZO]}
    assert set(lorenzo) == {"CreateMatch", "GetView", "SubmitCommand", "WatchMatch", "Replay", "ExportLog"}
    assert lorenzo["WatchMatch"]["kind"] == "server_stream"
    assert lorenzo["WatchMatch"]["route"] == f"/ws/{LORENZO}/WatchMatch"
    assert lorenzo["GetView"]["route"] == f"/api/{LORENZO}/GetView"
    assert "SignInGuest" in {m["method"] for m in services["tabula.lobby.v1.LobbyService"]}


def test_a_spectator_gets_the_public_view_as_json_with_every_field(gw: GatewayThread) -> None:
    version = create(gw, seats=3)
    status, body = post(gw, f"{LORENZO}/GetView", {"match_id": "m1"}, spectator_token("m1"))
    assert status == 200
    assert int(body["version"]) == version and body["legalCommands"] == []
    players = body["view"]["players"]
    assert [p["seat"] for p in players] == [0, 1, 2]
    assert all("coins" in p["goods"] for p in players)  # zeros are printed, not left out
    assert all(p["hand"] == [] for p in players)  # redacted for a spectator


def test_json_commands_round_trip_and_advance_the_match(gw: GatewayThread) -> None:
    version = create(gw)
    done = submit_first_legal(gw, "m1")
    assert int(done["firstVersion"]) == version + 1
    _, replay = post(
        gw, f"{LORENZO}/Replay", {"matchId": "m1", "version": str(version)}, spectator_token("m1")
    )
    assert int(replay["version"]) == version


def test_grpc_errors_become_http_statuses_with_the_error_info_reason(gw: GatewayThread) -> None:
    version = create(gw)
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"})
    assert status == 401 and body["error"]["status"] == "UNAUTHENTICATED"
    assert body["error"]["reason"] == "bad_token" and body["error"]["code"] == 16
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "nope"}, spectator_token(""))
    assert status == 404 and body["error"]["reason"] == "match_not_found"
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"}, spectator_token("other"))
    assert status == 403 and body["error"]["status"] == "PERMISSION_DENIED"
    _, head = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"}, service_token())
    token = seat_token("m1", head["seatsToAct"][0])
    _, view = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"}, token)
    stale = {"matchId": "m1", "expectedVersion": version + 5, "commandId": "x"}
    stale["command"] = view["legalCommands"][0]
    status, body = post(gw, f"{LORENZO}/SubmitCommand", stale, token)
    assert status == 409 and body["error"]["reason"] == "stale_version"
    assert body["error"]["metadata"]["actual_version"] == str(version)


def test_bad_requests_are_refused_before_any_backend_call(gw: GatewayThread) -> None:
    status, body = post(gw, f"{LORENZO}/GetView", None, raw="{not json")
    assert status == 400 and body["error"]["reason"] == "bad_request"
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "m1", "colour": "red"})
    assert status == 400 and "colour" in body["error"]["message"]
    status, body = post(gw, f"{LORENZO}/Shuffle", {})
    assert status == 404 and body["error"]["reason"] == "unknown_method"
    status, body = post(gw, f"{LORENZO}/WatchMatch", {"matchId": "m1"})
    assert status == 400 and body["error"]["reason"] == "use_websocket"


def test_an_unreachable_backend_is_service_unavailable(gw: GatewayThread) -> None:
    status, body = post(gw, "tabula.lobby.v1.LobbyService/SignInGuest", {"displayName": "Ann"})
    assert status == 503 and body["error"]["status"] == "UNAVAILABLE"


async def _watch(gw: GatewayThread, match_id: str, token: str, until_version: int) -> list[Any]:
    """Items of the WatchMatch WebSocket until an event at ``until_version`` arrives."""
    items: list[Any] = []
    url = f"{gw.url}/ws/{LORENZO}/WatchMatch?token={token}"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"matchId": match_id, "fromVersion": "1"}))
        async for msg in ws:
            item = json.loads(msg.data)
            items.append(item)
            if "event" in item and int(item["event"]["envelope"]["version"]) >= until_version:
                break
    return items


def test_watch_streams_events_over_a_websocket_and_live_commands_arrive(gw: GatewayThread) -> None:
    version = create(gw)

    async def go() -> list[Any]:
        watching = asyncio.ensure_future(_watch(gw, "m1", spectator_token("m1"), version + 1))
        await asyncio.sleep(1.0)
        await asyncio.to_thread(submit_first_legal, gw, "m1")
        return await asyncio.wait_for(watching, 20)

    items = asyncio.run(go())
    versions = [int(i["event"]["envelope"]["version"]) for i in items if "event" in i]
    assert versions == sorted(set(versions)) and versions[0] == 1 and versions[-1] == version + 1
    assert all(i["event"]["envelope"]["visibility"] == "public" for i in items if "event" in i)


def test_a_websocket_error_is_the_last_message_and_the_close_code(gw: GatewayThread) -> None:
    create(gw)

    async def go() -> tuple[Any, int | None]:
        url = f"{gw.url}/ws/{LORENZO}/WatchMatch?token=forged"
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            await ws.send_str(json.dumps({"matchId": "m1"}))
            msg = await ws.receive(timeout=10)
            await ws.receive(timeout=10)
            return json.loads(msg.data), ws.close_code

    body, close_code = asyncio.run(go())
    assert body["error"]["status"] == "UNAUTHENTICATED" and body["error"]["reason"] == "bad_token"
    assert close_code == 4401


def test_streams_have_a_deadline_too(redis_client: redis.Redis) -> None:
    with lorenzo_service(redis_client) as lorenzo:
        env = {"TABULA_LORENZO_ADDR": f"127.0.0.1:{lorenzo.port}"}
        with gateway(env, GatewayConfig(stream_deadline_s=1.0)) as gw:
            create(gw)

            async def go() -> tuple[list[Any], int | None]:
                url = f"{gw.url}/ws/{LORENZO}/WatchMatch?token={spectator_token('m1')}"
                async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
                    await ws.send_str(json.dumps({"matchId": "m1"}))
                    items = [json.loads(msg.data) async for msg in ws]
                    return items, ws.close_code

            items, close_code = asyncio.run(go())
    assert any("event" in item for item in items)
    assert items[-1]["error"]["status"] == "DEADLINE_EXCEEDED" and close_code == 4504
