"""The browser gateway over a real Lorenzo service on a private Redis, spoken to on the wire:
Connect unary (JSON and binary), Connect server streaming, gRPC-Web, forwarded tokens, gRPC
errors as Connect error JSON with their ErrorInfo detail, and what is refused before any call."""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
import logging
import struct
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
import redis
from google.rpc import error_details_pb2, status_pb2

from services.games import load_game
from services.gateway.app import GatewayConfig
from services.gateway.rpc import RpcLimits
from tests.integration.gateway.support import (
    GatewayThread,
    bearer,
    gateway,
    lorenzo_gateway,
    lorenzo_service,
    seat_token,
    service_token,
    spectator_token,
)
from tests.support.timing import scaled

LORENZO = "tabula.lorenzo.v1.LorenzoService"
PB2 = load_game("lorenzo").modules.pb2


@pytest.fixture
def gw(redis_client: redis.Redis) -> Iterator[GatewayThread]:
    with lorenzo_gateway(redis_client, GatewayConfig(limits=RpcLimits(deadline_s=5))) as running:
        yield running


def send(
    gw: GatewayThread, path: str, body: bytes, content_type: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    async def go() -> tuple[int, dict[str, str], bytes]:
        async with aiohttp.ClientSession() as session:
            sent = {"Content-Type": content_type, **(headers or {})}
            async with session.post(f"{gw.url}/{path}", data=body, headers=sent) as reply:
                return reply.status, dict(reply.headers), await reply.read()

    return asyncio.run(go())


def post(gw: GatewayThread, method: str, body: Any, token: str = "") -> tuple[int, Any]:
    """A Connect unary call in JSON, the way connect-es sends it."""
    headers = {"Connect-Protocol-Version": "1", **(bearer(token) if token else {})}
    status, _, raw = send(gw, method, json.dumps(body).encode(), "application/json", headers)
    return status, json.loads(raw)


def frames(raw: bytes) -> list[tuple[int, bytes]]:
    """An enveloped body as (flags, payload) pairs."""
    out, at = [], 0
    while at < len(raw):
        flags, length = struct.unpack_from(">BI", raw, at)
        out.append((flags, raw[at + 5 : at + 5 + length]))
        at += 5 + length
    assert at == len(raw), "a frame runs past the body"
    return out


def split_frames(raw: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """The complete frames at the start of ``raw``, and the incomplete rest."""
    at = 0
    while len(raw) - at >= 5 and len(raw) - at >= 5 + struct.unpack_from(">I", raw, at + 1)[0]:
        at += 5 + struct.unpack_from(">I", raw, at + 1)[0]
    return frames(raw[:at]), raw[at:]


def envelope(payload: bytes) -> bytes:
    return struct.pack(">BI", 0, len(payload)) + payload


def create(gw: GatewayThread, match_id: str = "m1", seats: int = 2) -> int:
    request = {"matchId": match_id, "seats": seats, "seed": "7"}
    status, body = post(gw, f"{LORENZO}/CreateMatch", request, service_token())
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


def error_info(body: dict[str, Any]) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo detail of a Connect error JSON, decoded from its base64 protobuf value."""
    (detail,) = [d for d in body["details"] if d["type"] == "google.rpc.ErrorInfo"]
    value = detail["value"]
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))
    assert detail["debug"]["reason"] == info.reason  # the readable copy says the same
    return info


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
    assert {"CreateMatch", "GetView", "SubmitCommand", "WatchMatch", "Replay", "ExportLog"} <= set(lorenzo)
    assert lorenzo["WatchMatch"]["kind"] == "server_stream"
    assert lorenzo["WatchMatch"]["route"] == f"/{LORENZO}/WatchMatch"
    assert lorenzo["GetView"]["route"] == f"/{LORENZO}/GetView"
    assert "SignInGuest" in {m["method"] for m in services["tabula.lobby.v1.LobbyService"]}


def test_a_spectator_gets_the_public_view_as_connect_json_with_every_field(gw: GatewayThread) -> None:
    version = create(gw, seats=3)
    status, body = post(gw, f"{LORENZO}/GetView", {"match_id": "m1"}, spectator_token("m1"))
    assert status == 200
    assert int(body["version"]) == version and body["legalCommands"] == []
    players = body["view"]["players"]
    assert [p["seat"] for p in players] == [0, 1, 2]
    assert all("coins" in p["goods"] for p in players)  # zeros are printed, not left out
    assert all(p["hand"] == [] for p in players)  # redacted for a spectator


def test_connect_binary_unary_round_trips_protobuf(gw: GatewayThread) -> None:
    version = create(gw)
    request = PB2.GetViewRequest(match_id="m1").SerializeToString()
    status, headers, raw = send(
        gw, f"{LORENZO}/GetView", request, "application/proto", bearer(spectator_token("m1"))
    )
    assert status == 200 and headers["Content-Type"] == "application/proto"
    reply = PB2.GetViewResponse.FromString(raw)
    assert reply.version == version and [p.seat for p in reply.view.players] == [0, 1]


def test_json_commands_round_trip_and_advance_the_match(gw: GatewayThread) -> None:
    version = create(gw)
    done = submit_first_legal(gw, "m1")
    assert int(done["firstVersion"]) == version + 1
    request = {"matchId": "m1", "version": str(version)}
    _, replay = post(gw, f"{LORENZO}/Replay", request, spectator_token("m1"))
    assert int(replay["version"]) == version


def test_grpc_errors_become_connect_errors_with_the_error_info_detail(gw: GatewayThread) -> None:
    version = create(gw)
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"})
    assert status == 401 and body["code"] == "unauthenticated"
    assert error_info(body).reason == "bad_token"
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "nope"}, spectator_token("nope"))
    assert status == 404 and body["code"] == "not_found" and error_info(body).reason == "match_not_found"
    status, body = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"}, spectator_token("other"))
    assert status == 403 and body["code"] == "permission_denied"
    _, head = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"}, service_token())
    token = seat_token("m1", head["seatsToAct"][0])
    _, view = post(gw, f"{LORENZO}/GetView", {"matchId": "m1"}, token)
    stale = {"matchId": "m1", "expectedVersion": version + 5, "commandId": "x"}
    stale["command"] = view["legalCommands"][0]
    status, body = post(gw, f"{LORENZO}/SubmitCommand", stale, token)
    assert status == 409 and body["code"] == "aborted"
    info = error_info(body)
    assert info.reason == "stale_version" and info.metadata["actual_version"] == str(version)


def test_unparsable_bodies_are_400_connect_errors_before_any_backend_call(gw: GatewayThread) -> None:
    deep = b"[" * 30_000 + b"]" * 30_000  # under the body limit, far over the recursion limit
    nested = b'{"matchId": ' + b'{"a": ' * 5_000 + b"1" + b"}" * 5_000 + b"}"
    for body in (b"", b"{not json", b"[1, 2]", b'"text"', deep, nested, b"\xff\xfe", b'{"matchId": 5}'):
        status, headers, raw = send(gw, f"{LORENZO}/GetView", body, "application/json")
        assert status == 400, (body[:20], raw[:200])
        assert headers["Content-Type"].startswith("application/json")
        assert json.loads(raw)["code"] == "invalid_argument"
    status, _, raw = send(gw, f"{LORENZO}/GetView", b"\x0a\xff\xff", "application/proto")
    assert status == 400 and json.loads(raw)["code"] == "invalid_argument"


def test_only_the_served_content_types_are_accepted(gw: GatewayThread) -> None:
    """connectrpc answers a content type it does not serve for the method with a bare 415 (as connect-go
    does) and says what a unary method takes; a stream type on a unary method and the reverse too."""
    create(gw)
    token = bearer(spectator_token("m1"))
    body = json.dumps({"matchId": "m1"}).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        status, headers, raw = send(gw, f"{LORENZO}/GetView", body, content_type, token)
        assert status == 415 and raw == b"", content_type
        assert headers["Accept-Post"] == "application/json, application/proto"
    for method, content_type in (("GetView", "application/connect+json"), ("WatchMatch", "application/json")):
        status, _, raw = send(gw, f"{LORENZO}/{method}", body, content_type, token)
        assert status == 415 and raw == b"", (method, content_type)
    status, _, raw = send(gw, f"{LORENZO}/GetView", envelope(body), "application/grpc", token)
    assert status == 415 and json.loads(raw)["code"] == "invalid_argument"  # plain gRPC is not served


def test_unknown_methods_and_routes_answer_in_the_same_error_shape(gw: GatewayThread) -> None:
    status, body = post(gw, f"{LORENZO}/Shuffle", {})
    assert status == 404 and body["code"] == "unimplemented"

    async def go() -> list[tuple[int, Any]]:
        async with aiohttp.ClientSession() as session:
            a = await session.get(f"{gw.url}/no/such/page")
            b = await session.get(f"{gw.url}/{LORENZO}/GetView")
            return [(a.status, await a.json()), (b.status, await b.json())]

    (missing, missing_body), (wrong_verb, verb_body) = asyncio.run(go())
    assert missing == 404 and missing_body["code"] == "not_found"
    assert wrong_verb == 405 and verb_body["code"] == "unimplemented"


def test_bodies_over_the_limit_are_refused(gw: GatewayThread) -> None:
    """Over TABULA_GATEWAY_MAX_BODY a request message is resource_exhausted (connectrpc's read limit:
    HTTP 429 in Connect unary, the end-of-stream error in a stream) and never reaches the backend."""
    big = json.dumps({"matchId": "m" * 200_000}).encode()
    status, _, raw = send(gw, f"{LORENZO}/GetView", big, "application/json")
    assert status == 429 and json.loads(raw)["code"] == "resource_exhausted"
    status, _, raw = send(gw, f"{LORENZO}/WatchMatch", envelope(big), "application/connect+json")
    ((flags, payload),) = frames(raw)
    assert status == 200 and flags == 0x02
    assert json.loads(payload)["error"]["code"] == "resource_exhausted"


def test_a_bad_protocol_version_or_compression_is_refused(gw: GatewayThread) -> None:
    body = b'{"matchId": "m1"}'
    status, _, raw = send(
        gw, f"{LORENZO}/GetView", body, "application/json", {"Connect-Protocol-Version": "2"}
    )
    assert status == 400 and json.loads(raw)["code"] == "invalid_argument"
    status, _, raw = send(gw, f"{LORENZO}/GetView", body, "application/json", {"Content-Encoding": "gzip"})
    assert status == 501 and json.loads(raw)["code"] == "unimplemented"
    status, _, raw = send(gw, f"{LORENZO}/GetView", body, "application/json", {"Connect-Timeout-Ms": "soon"})
    assert status == 400 and "timeout" in json.loads(raw)["message"]


def compressed(payload: bytes) -> bytes:
    """An envelope with the compressed flag (0x01) set."""
    return struct.pack(">BI", 1, len(payload)) + payload


def test_a_message_with_the_compressed_flag_is_unimplemented(gw: GatewayThread) -> None:
    """In a Connect stream's envelope and in a gRPC-Web frame (unary and streaming): the gateway
    serves no compression, so a compressed message is unimplemented, not internal."""
    create(gw)
    body = compressed(b'{"matchId": "m1"}')
    status, _, raw = send(gw, f"{LORENZO}/WatchMatch", body, "application/connect+json")
    ((flags, payload),) = frames(raw)
    assert status == 200 and flags == 0x02 and json.loads(payload)["error"]["code"] == "unimplemented"
    for method in ("GetView", "WatchMatch"):
        status, _, raw = send(gw, f"{LORENZO}/{method}", body, "application/grpc-web+json")
        ((flags, trailers),) = frames(raw)
        assert status == 200 and flags == 0x80, method
        assert trailers.decode().startswith("grpc-status: 12\r\n"), (method, trailers)


# Every kind of route: Connect unary and streaming, gRPC-Web unary and streaming, health, the page.
ROUTES = [
    ("POST", f"/{LORENZO}/GetView", "application/json", b'{"matchId": "m1"}'),
    ("POST", f"/{LORENZO}/WatchMatch", "application/connect+json", envelope(b'{"matchId": "m1"}')),
    ("POST", f"/{LORENZO}/GetView", "application/grpc-web+json", envelope(b'{"matchId": "m1"}')),
    ("POST", f"/{LORENZO}/WatchMatch", "application/grpc-web+json", envelope(b'{"matchId": "m1"}')),
    ("GET", "/healthz", "", b""),
    ("GET", "/", "", b""),
]
HEADER_NAMES = ["X-Foo", "Authorization", "Connect-Timeout-Ms", "Grpc-Timeout", "X-Forwarded-For"]


def raw_request(
    gw: GatewayThread, route: tuple[str, str, str, bytes], name: str, value: bytes
) -> tuple[int, bytes]:
    """``route`` over HTTP/1.1 with the header ``name: value`` sent as raw bytes."""
    verb, path, content_type, body = route
    connection = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10)
    try:
        connection.putrequest(verb, path)
        if content_type:
            connection.putheader("Content-Type", content_type)
        connection.putheader(name, value)
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        reply = connection.getresponse()
        return reply.status, reply.read()
    finally:
        connection.close()


@pytest.mark.parametrize("route", ROUTES, ids=[f"{r[1].rsplit('/', 1)[-1] or 'page'}-{r[2]}" for r in ROUTES])
def test_a_header_that_is_not_utf8_is_invalid_argument_with_one_log_line(
    gw: GatewayThread, route: tuple[str, str, str, bytes], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    assert raw_request(gw, ROUTES[-1], "X-Foo", b"ok")[0] == 200  # the server is up and has logged so
    for name in HEADER_NAMES:
        caplog.clear()
        status, raw = raw_request(gw, route, name, b"caf\xe9")
        assert status == 400, (name, raw)
        assert json.loads(raw) == {
            "code": "invalid_argument",
            "message": f"header {name.lower()!r} is not UTF-8",
        }
        logged = [r for r in caplog.records if r.name.startswith("tabula.gateway")]
        assert [r.getMessage() for r in logged] == [
            f"refused {route[0]} {route[1]!r}: header {name.lower()!r} is not UTF-8"
        ]
        assert logged[0].exc_info is None  # one line, no traceback
    status, _ = raw_request(gw, route, "X-Foo", "café".encode())  # UTF-8 is fine
    assert status != 400 and status < 500


def test_an_unreachable_backend_is_unavailable(gw: GatewayThread) -> None:
    status, body = post(gw, "tabula.lobby.v1.LobbyService/SignInGuest", {"displayName": "Ann"})
    assert status == 503 and body["code"] == "unavailable"


def test_the_token_is_taken_from_the_authorization_header_only(gw: GatewayThread) -> None:
    create(gw)
    token = spectator_token("m1")
    status, _, raw = send(gw, f"{LORENZO}/GetView?token={token}", b'{"matchId": "m1"}', "application/json")
    assert status == 401 and json.loads(raw)["code"] == "unauthenticated"


async def _connect_watch(gw: GatewayThread, token: str, until_version: int) -> list[Any]:
    """Connect streaming JSON: enveloped replies until an event at ``until_version`` (or the end)."""
    items: list[Any] = []
    body = envelope(json.dumps({"matchId": "m1", "fromVersion": "1"}).encode())
    headers = {"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1", **bearer(token)}
    url = f"{gw.url}/{LORENZO}/WatchMatch"
    async with aiohttp.ClientSession() as session, session.post(url, data=body, headers=headers) as reply:
        assert reply.status == 200 and reply.content_type == "application/connect+json"
        buffer = b""
        async for chunk in reply.content.iter_any():
            complete, buffer = split_frames(buffer + chunk)
            for flags, payload in complete:
                items.append((flags, json.loads(payload)))
                event = items[-1][1].get("event")
                if event and int(event["envelope"]["version"]) >= until_version:
                    return items
    return items


def test_watch_streams_events_over_connect_and_live_commands_arrive(gw: GatewayThread) -> None:
    version = create(gw)

    async def go() -> list[Any]:
        watching = asyncio.ensure_future(_connect_watch(gw, spectator_token("m1"), version + 1))
        await asyncio.sleep(1.0)
        await asyncio.to_thread(submit_first_legal, gw, "m1")
        return await asyncio.wait_for(watching, 20)

    items = [item for flags, item in asyncio.run(go()) if flags == 0 and "event" in item]
    versions = [int(i["event"]["envelope"]["version"]) for i in items]
    assert versions == sorted(set(versions)) and versions[0] == 1 and versions[-1] == version + 1
    assert all(i["event"]["envelope"]["visibility"] == "public" for i in items)


def test_a_connect_stream_error_is_its_end_of_stream_message(gw: GatewayThread) -> None:
    create(gw)
    body = envelope(b'{"matchId": "m1"}')
    status, headers, raw = send(
        gw, f"{LORENZO}/WatchMatch", body, "application/connect+json", bearer("forged")
    )
    assert status == 200 and headers["Content-Type"] == "application/connect+json"
    ((flags, payload),) = frames(raw)
    end = json.loads(payload)
    assert flags == 0x02 and end["error"]["code"] == "unauthenticated"
    assert error_info(end["error"]).reason == "bad_token"
    status, _, raw = send(gw, f"{LORENZO}/WatchMatch", b"\x00\x00", "application/connect+json")
    ((flags, payload),) = frames(raw)
    assert flags == 0x02 and json.loads(payload)["error"]["code"] == "invalid_argument"


def test_grpc_web_unary_and_errors_are_frames_and_trailers(gw: GatewayThread) -> None:
    version = create(gw)
    request = envelope(PB2.GetViewRequest(match_id="m1").SerializeToString())
    headers = {"X-Grpc-Web": "1", **bearer(spectator_token("m1"))}
    status, reply_headers, raw = send(
        gw, f"{LORENZO}/GetView", request, "application/grpc-web+proto", headers
    )
    assert status == 200 and reply_headers["Content-Type"] == "application/grpc-web+proto"
    (data_flags, data), (trailer_flags, trailers) = frames(raw)
    assert data_flags == 0 and PB2.GetViewResponse.FromString(data).version == version
    assert trailer_flags == 0x80 and trailers.decode().startswith("grpc-status: 0\r\n")
    status, _, raw = send(gw, f"{LORENZO}/GetView", request, "application/grpc-web", {"X-Grpc-Web": "1"})
    ((flags, trailers),) = frames(raw)
    lines = dict(line.split(": ", 1) for line in trailers.decode().strip().split("\r\n"))
    assert flags == 0x80 and lines["grpc-status"] == "16"
    details_bin = lines["grpc-status-details-bin"]  # base64, unpadded as gRPC allows
    status_pb = status_pb2.Status.FromString(base64.b64decode(details_bin + "=" * (-len(details_bin) % 4)))
    info = error_details_pb2.ErrorInfo()
    assert status_pb.details[0].Unpack(info) and info.reason == "bad_token"
    # refused before the call starts: a trailers-only reply (the status in the headers, no body)
    bad_timeout = {"X-Grpc-Web": "1", "Grpc-Timeout": "soon"}
    status, reply_headers, raw = send(gw, f"{LORENZO}/GetView", request, "application/grpc-web", bad_timeout)
    assert status == 200 and raw == b"" and reply_headers["grpc-status"] == "3"


def test_grpc_web_json_streams_watch_events_then_trailers(redis_client: redis.Redis) -> None:
    with lorenzo_service(redis_client) as lorenzo:
        env = {"TABULA_LORENZO_ADDR": f"127.0.0.1:{lorenzo.port}"}
        with gateway(env, GatewayConfig(limits=RpcLimits(stream_deadline_s=1.5))) as gw:
            version = create(gw)
            body = envelope(b'{"matchId": "m1", "fromVersion": "1"}')
            headers = bearer(spectator_token("m1"))
            status, _, raw = send(gw, f"{LORENZO}/WatchMatch", body, "application/grpc-web+json", headers)
    items = frames(raw)
    events = [json.loads(payload) for flags, payload in items if flags == 0]
    assert (
        status == 200
        and [int(e["event"]["envelope"]["version"]) for e in events if "event" in e][-1] == version
    )
    flags, trailers = items[-1]
    assert (
        flags == 0x80 and "grpc-status: 4\r\n" in trailers.decode()
    )  # the stream deadline: DEADLINE_EXCEEDED


def test_open_streams_are_limited(redis_client: redis.Redis) -> None:
    with lorenzo_service(redis_client) as lorenzo:
        env = {"TABULA_LORENZO_ADDR": f"127.0.0.1:{lorenzo.port}"}
        limits = RpcLimits(max_streams=1, stream_deadline_s=scaled(3))
        with gateway(env, GatewayConfig(limits=limits)) as gw:
            create(gw)
            token = spectator_token("m1")
            open_calls = gw.rpc.open_calls

            async def go() -> tuple[Any, Any]:
                first = asyncio.ensure_future(_connect_watch(gw, token, 10_000))
                deadline = asyncio.get_running_loop().time() + scaled(10)
                while not open_calls:  # the first stream is open (not just sent) before the second
                    assert asyncio.get_running_loop().time() < deadline, "the first stream never opened"
                    await asyncio.sleep(0.02)
                second = await _connect_watch(gw, token, 10_000)
                return second, await asyncio.wait_for(first, scaled(10))

            second, first = asyncio.run(go())
    assert second[-1][0] == 0x02 and second[-1][1]["error"]["code"] == "resource_exhausted"
    assert first[-1][0] == 0x02 and first[-1][1]["error"]["code"] == "deadline_exceeded"
