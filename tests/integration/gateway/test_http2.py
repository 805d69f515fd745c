"""The gateway over cleartext HTTP/2 on its one port, next to HTTP/1.1: Connect unary (JSON and binary),
Connect server streaming (a watch, JSON and binary, a live command arriving), gRPC-Web, and the same
errors, limits, token handling, security and CORS headers as over HTTP/1.1. The client is httpx with
HTTP/2 only (prior knowledge: the connection opens with the HTTP/2 preface, as connect-node's
``httpVersion: "2"`` and ``curl --http2-prior-knowledge`` do); the ``Upgrade: h2c`` path is spoken
with the h2 library."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import h2.config
import h2.connection
import h2.events
import httpx
import pytest
import redis

from services.games import load_game
from services.gateway.app import GatewayConfig
from services.gateway.rpc import RpcLimits
from tests.integration.gateway.support import (
    GatewayThread,
    bearer,
    lorenzo_gateway,
    seat_token,
    service_token,
    spectator_token,
)
from tests.integration.gateway.test_gateway import envelope, error_info, frames, split_frames
from tests.support.timing import scaled

LORENZO = "tabula.lorenzo.v1.LorenzoService"
PB2 = load_game("lorenzo").modules.pb2
ALLOWED = "https://play.example.com"


@pytest.fixture
def gw(redis_client: redis.Redis) -> Iterator[GatewayThread]:
    config = GatewayConfig(limits=RpcLimits(deadline_s=5, max_body=4096), cors_origins=frozenset({ALLOWED}))
    with lorenzo_gateway(redis_client, config) as running:
        yield running


def h2_client() -> httpx.AsyncClient:
    """HTTP/2 only: on an http:// URL httpx then opens with the preface (prior knowledge)."""
    return httpx.AsyncClient(http1=False, http2=True, timeout=20)


def send(
    gw: GatewayThread, path: str, body: bytes, content_type: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    async def go() -> httpx.Response:
        async with h2_client() as client:
            sent = {"Content-Type": content_type, **(headers or {})}
            reply = await client.post(f"{gw.url}/{path}", content=body, headers=sent)
            assert reply.http_version == "HTTP/2"
            return reply

    return asyncio.run(go())


def post(gw: GatewayThread, method: str, body: Any, token: str = "") -> tuple[int, Any]:
    headers = {"Connect-Protocol-Version": "1", **(bearer(token) if token else {})}
    reply = send(gw, f"{LORENZO}/{method}", json.dumps(body).encode(), "application/json", headers)
    return reply.status_code, reply.json()


def create(gw: GatewayThread) -> int:
    status, body = post(gw, "CreateMatch", {"matchId": "m1", "seats": 2, "seed": "7"}, service_token())
    assert status == 200, body
    return int(body["version"])


def submit_first_legal(gw: GatewayThread) -> None:
    _, head = post(gw, "GetView", {"matchId": "m1"}, service_token())
    token = service_token() if head["systemToAct"] else seat_token("m1", head["seatsToAct"][0])
    _, view = post(gw, "GetView", {"matchId": "m1"}, token)
    command = {"matchId": "m1", "expectedVersion": view["version"], "commandId": "c1"}
    status, done = post(gw, "SubmitCommand", {**command, "command": view["legalCommands"][0]}, token)
    assert status == 200, done


def test_connect_json_and_binary_unary_over_http2(gw: GatewayThread) -> None:
    version = create(gw)
    status, body = post(gw, "GetView", {"matchId": "m1"}, spectator_token("m1"))
    assert status == 200 and int(body["version"]) == version
    assert all("coins" in p["goods"] for p in body["view"]["players"])
    request = PB2.GetViewRequest(match_id="m1").SerializeToString()
    reply = send(gw, f"{LORENZO}/GetView", request, "application/proto", bearer(spectator_token("m1")))
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/proto"
    assert PB2.GetViewResponse.FromString(reply.content).version == version


async def _watch(gw: GatewayThread, content_type: str, until_version: int) -> AsyncIterator[tuple[int, Any]]:
    """A Connect server stream over HTTP/2: (flags, message) as the frames arrive, until an event at
    ``until_version``. JSON messages come parsed, binary ones as WatchMatchResponse."""
    body_json = {"matchId": "m1", "fromVersion": "1"}
    if content_type.endswith("json"):
        body = envelope(json.dumps(body_json).encode())
    else:
        body = envelope(PB2.WatchMatchRequest(match_id="m1", from_version=1).SerializeToString())
    headers = {"Content-Type": content_type, "Connect-Protocol-Version": "1", **bearer(spectator_token("m1"))}
    async with (
        h2_client() as client,
        client.stream("POST", f"{gw.url}/{LORENZO}/WatchMatch", content=body, headers=headers) as reply,
    ):
        assert reply.http_version == "HTTP/2" and reply.status_code == 200
        assert reply.headers["content-type"] == content_type
        buffer = b""
        async for chunk in reply.aiter_bytes():
            complete, buffer = split_frames(buffer + chunk)
            for flags, payload in complete:
                if flags & 0x02 or content_type.endswith("json"):
                    yield flags, json.loads(payload)
                    continue
                item = PB2.WatchMatchResponse.FromString(payload)
                yield flags, item
                if item.HasField("event") and item.event.envelope.version >= until_version:
                    return


def _versions(items: list[tuple[int, Any]]) -> list[int]:
    out = []
    for flags, item in items:
        if flags == 0 and isinstance(item, dict) and "event" in item:
            out.append(int(item["event"]["envelope"]["version"]))
        elif flags == 0 and not isinstance(item, dict) and item.HasField("event"):
            out.append(item.event.envelope.version)
    return out


@pytest.mark.parametrize("content_type", ["application/connect+json", "application/connect+proto"])
def test_a_watch_streams_over_http2_and_a_live_command_arrives(gw: GatewayThread, content_type: str) -> None:
    version = create(gw)

    async def go() -> list[tuple[int, Any]]:
        items: list[tuple[int, Any]] = []

        async def collect() -> None:
            async for flags, item in _watch(gw, content_type, version + 1):
                items.append((flags, item))
                if version + 1 in _versions(items):
                    return

        watching = asyncio.ensure_future(collect())
        await asyncio.sleep(1.0)  # the history arrives first; the command after it is live
        assert _versions(items) and _versions(items)[-1] == version
        await asyncio.to_thread(submit_first_legal, gw)
        await asyncio.wait_for(watching, 20)
        return items

    versions = _versions(asyncio.run(go()))  # a spectator is sent the public events only
    assert versions == sorted(set(versions)) and versions[0] == 1 and versions[-1] == version + 1


def test_a_client_resetting_its_http2_stream_ends_the_backend_call(gw: GatewayThread) -> None:
    """The client resets its stream (RST_STREAM) and keeps the connection: the gateway lets the
    backend call go. Spoken with the h2 library (httpx leaves an abandoned stream open)."""
    create(gw)
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    connection.initiate_connection()
    body = envelope(json.dumps({"matchId": "m1", "fromVersion": "1"}).encode())
    headers = [
        (":method", "POST"),
        (":scheme", "http"),
        (":authority", f"127.0.0.1:{gw.port}"),
        (":path", f"/{LORENZO}/WatchMatch"),
        ("content-type", "application/connect+json"),
        ("authorization", f"Bearer {spectator_token('m1')}"),
    ]
    with socket.create_connection(("127.0.0.1", gw.port), timeout=10) as sock:
        connection.send_headers(1, headers)
        connection.send_data(1, body, end_stream=True)
        sock.sendall(connection.data_to_send())
        got_data = False
        while not got_data:
            data = sock.recv(65536)
            assert data, "the connection closed before the stream sent anything"
            got_data = any(isinstance(e, h2.events.DataReceived) for e in connection.receive_data(data))
            sock.sendall(connection.data_to_send())
        assert len(gw.rpc.open_calls) == 1
        connection.reset_stream(1)
        sock.sendall(connection.data_to_send())
        deadline = time.monotonic() + scaled(10)
        while gw.rpc.open_calls and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not gw.rpc.open_calls, "the backend call outlived the client's stream"
        connection.ping(b"12345678")  # the connection itself is still open
        sock.sendall(connection.data_to_send())
        events: list[Any] = []
        while not any(isinstance(e, h2.events.PingAckReceived) for e in events):
            data = sock.recv(65536)
            assert data, "the gateway closed the connection"
            events += connection.receive_data(data)


@pytest.mark.parametrize("http2", [True, False])
def test_a_stopping_gateway_ends_open_streams_with_unavailable(gw: GatewayThread, http2: bool) -> None:
    """On SIGTERM (here ``stop``) a watcher gets a proper end of stream it can reconnect after."""
    create(gw)

    async def go() -> list[tuple[int, Any]]:
        items: list[tuple[int, Any]] = []
        body = envelope(json.dumps({"matchId": "m1", "fromVersion": "1"}).encode())
        headers = {"Content-Type": "application/connect+json", **bearer(spectator_token("m1"))}
        url = f"{gw.url}/{LORENZO}/WatchMatch"
        async with (
            httpx.AsyncClient(http1=not http2, http2=http2, timeout=20) as client,
            client.stream("POST", url, content=body, headers=headers) as reply,
        ):
            assert reply.http_version == ("HTTP/2" if http2 else "HTTP/1.1")
            buffer, stopping = b"", None
            async for chunk in reply.aiter_bytes():
                complete, buffer = split_frames(buffer + chunk)
                items += [(flags, json.loads(payload)) for flags, payload in complete]
                if stopping is None and _versions(items):  # the stream is open: stop the gateway
                    stopping = asyncio.ensure_future(asyncio.to_thread(gw.stop))
            assert stopping is not None
            await stopping
        return items

    items = asyncio.run(go())
    flags, end = items[-1]
    assert flags == 0x02 and end["error"]["code"] == "unavailable"


def test_grpc_web_unary_and_a_stream_error_over_http2(gw: GatewayThread) -> None:
    version = create(gw)
    request = envelope(PB2.GetViewRequest(match_id="m1").SerializeToString())
    headers = {"X-Grpc-Web": "1", **bearer(spectator_token("m1"))}
    reply = send(gw, f"{LORENZO}/GetView", request, "application/grpc-web+proto", headers)
    (data_flags, data), (trailer_flags, trailers) = frames(reply.content)
    assert data_flags == 0 and PB2.GetViewResponse.FromString(data).version == version
    assert trailer_flags == 0x80 and trailers.decode().startswith("grpc-status: 0\r\n")
    watch = envelope(b'{"matchId": "m1"}')
    reply = send(gw, f"{LORENZO}/WatchMatch", watch, "application/connect+json", bearer("forged"))
    ((flags, payload),) = frames(reply.content)
    end = json.loads(payload)
    assert flags == 0x02 and end["error"]["code"] == "unauthenticated"
    assert error_info(end["error"]).reason == "bad_token"


def test_errors_limits_and_the_token_header_are_the_same_over_http2(gw: GatewayThread) -> None:
    create(gw)
    status, body = post(gw, "GetView", {"matchId": "m1"})
    assert status == 401 and error_info(body).reason == "bad_token"
    token = spectator_token("m1")
    reply = send(gw, f"{LORENZO}/GetView?token={token}", b'{"matchId": "m1"}', "application/json")
    assert reply.status_code == 401  # a token in the URL is not read
    reply = send(gw, f"{LORENZO}/GetView", b'{"matchId": "' + b"m" * 5000 + b'"}', "application/json")
    assert reply.status_code == 429 and reply.json()["code"] == "resource_exhausted"
    reply = send(gw, f"{LORENZO}/GetView", b"{}", "text/plain")
    assert reply.status_code == 415 and reply.headers["Accept-Post"] == "application/json, application/proto"
    status, body = post(gw, "Shuffle", {})
    assert status == 404 and body["code"] == "unimplemented"
    reply = send(gw, "tabula.lobby.v1.LobbyService/SignInGuest", b"{}", "application/json")
    assert reply.status_code == 503 and reply.json()["code"] == "unavailable"


def test_security_and_cors_headers_over_http2(gw: GatewayThread) -> None:
    async def go() -> tuple[httpx.Response, httpx.Response, httpx.Response]:
        async with h2_client() as client:
            page = await client.get(f"{gw.url}/")
            preflight = await client.options(
                f"{gw.url}/{LORENZO}/GetView",
                headers={"Origin": ALLOWED, "Access-Control-Request-Method": "POST"},
            )
            call = await client.post(
                f"{gw.url}/{LORENZO}/GetView",
                content=b"{}",
                headers={"Origin": ALLOWED, "Content-Type": "application/json"},
            )
            return page, preflight, call

    page, preflight, call = asyncio.run(go())
    for reply in (page, preflight, call):
        assert reply.http_version == "HTTP/2"
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]
    assert page.status_code == 200 and b"<html" in page.content.lower()
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == ALLOWED
    assert call.headers["access-control-allow-origin"] == ALLOWED
    assert "Grpc-Status" in call.headers["access-control-expose-headers"]


def test_an_http1_request_may_upgrade_to_h2c_on_the_same_port(gw: GatewayThread) -> None:
    """``Upgrade: h2c`` (RFC 7540 3.2), for a request without a body: 101, then the reply as HTTP/2
    stream 1. The same port keeps answering plain HTTP/1.1."""
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    settings = connection.initiate_upgrade_connection()  # the HTTP2-Settings header, base64 already
    assert settings is not None
    with socket.create_connection(("127.0.0.1", gw.port), timeout=10) as sock:
        sock.sendall(
            b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
            b"Upgrade: h2c\r\nHTTP2-Settings: " + settings + b"\r\n\r\n"
        )
        received = b""
        while b"\r\n\r\n" not in received:
            received += sock.recv(65536)
        head, rest = received.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101") and b"upgrade: h2c" in head.lower()
        sock.sendall(connection.data_to_send())
        status, body, ended = "", b"", False
        data = rest
        while not ended:
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == 1:
                    status = dict(event.headers)[b":status"].decode()
                elif isinstance(event, h2.events.DataReceived) and event.stream_id == 1:
                    body += event.data
                    connection.acknowledge_received_data(event.flow_controlled_length, 1)
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == 1:
                    ended = True
            if not ended:
                sock.sendall(connection.data_to_send())
                data = sock.recv(65536)
                assert data, "the connection closed before the reply ended"
    assert status == "200" and json.loads(body)["status"] == "SERVING"

    async def plain() -> httpx.Response:
        async with httpx.AsyncClient() as client:
            return await client.get(f"{gw.url}/healthz")

    reply = asyncio.run(plain())
    assert reply.http_version == "HTTP/1.1" and reply.status_code == 200
