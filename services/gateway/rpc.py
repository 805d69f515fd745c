"""``POST /<package.Service>/<Method>``: one handler for every method of the registry, in Connect
(unary and server streaming) and gRPC-Web, forwarded to the backend's gRPC method.

The handler stays generic: it looks the method up, picks the wire format from the Content-Type,
decodes the one request message, forwards the ``Authorization`` header as gRPC metadata, calls the
backend with a deadline (the caller's timeout, capped by the configuration) and writes the replies
and the final status the way the caller's protocol writes them.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import grpc
from aiohttp import web
from google.protobuf.message import Message

from services.gateway.backends import Backends
from services.gateway.registry import Method, Registry
from services.gateway.wire import (
    WIRES,
    RpcError,
    Wire,
    decode,
    encode,
    end_stream,
    envelope,
    invalid,
    single_envelope,
    timeout_s,
)

log = logging.getLogger("tabula.gateway")


@dataclass(frozen=True)
class RpcLimits:
    deadline_s: float = 10.0  # every unary backend call
    stream_deadline_s: float = 3600.0  # a server stream; clients resume from their last version
    max_streams: int = 1000  # open server streams per gateway process; more are RESOURCE_EXHAUSTED
    max_body: int = 64 * 1024  # request bytes (every request message of ours is far smaller)


@dataclass
class RpcContext:
    registry: Registry
    backends: Backends
    limits: RpcLimits
    open_calls: set[Any]  # backend stream calls in flight, cancelled on shutdown


RPC = web.AppKey("rpc", RpcContext)


def _wire(request: web.Request, method: Method) -> Wire:
    wire = WIRES.get(request.content_type)
    if wire is None:
        served = ", ".join(sorted(WIRES))
        raise RpcError(
            grpc.StatusCode.INVALID_ARGUMENT, f"unsupported content type; use {served}", http_status=415
        )
    if (wire.protocol == "connect") != method.is_unary and wire.protocol != "grpc-web":
        kind = "unary" if method.is_unary else "server streaming"
        raise RpcError(
            grpc.StatusCode.INVALID_ARGUMENT, f"{method.name} is {kind}: wrong content type", http_status=415
        )
    return wire


ENCODING_HEADER = {
    "connect": "Content-Encoding",
    "connect-stream": "Connect-Content-Encoding",
    "grpc-web": "grpc-encoding",
}


def _check_headers(request: web.Request, wire: Wire) -> None:
    """Connect-Protocol-Version may be left out (plain curl calls work); if sent it must be 1."""
    version = request.headers.get("Connect-Protocol-Version")
    if wire.protocol != "grpc-web" and version is not None and version != "1":
        raise invalid(f"unsupported Connect-Protocol-Version {version!r}")
    if request.headers.get(ENCODING_HEADER[wire.protocol], "identity") != "identity":
        raise RpcError(grpc.StatusCode.UNIMPLEMENTED, "compressed requests are not accepted")


async def _request_message(request: web.Request, method: Method, wire: Wire) -> Message:
    _check_headers(request, wire)
    try:
        body = await request.read()
    except web.HTTPRequestEntityTooLarge as err:
        limit = request.app[RPC].limits.max_body
        raise RpcError(
            grpc.StatusCode.RESOURCE_EXHAUSTED, f"the body is over {limit} bytes", http_status=413
        ) from err
    data = single_envelope(body) if wire.enveloped else body
    return decode(method.request_type, data, wire.codec)


def _metadata(request: web.Request) -> list[tuple[str, str]]:
    """The caller's token, from the ``Authorization`` header only (never the URL), and the caller's
    address for the services' per-address limits (believed from trusted gateways only:
    ``shared/ratelimit.py``). No other header of the caller is passed on."""
    header = request.headers.get("Authorization", "")
    address = [("x-forwarded-for", request.remote)] if request.remote else []
    return ([("authorization", header)] if header else []) + address


def _error_reply(wire: Wire | None, err: RpcError) -> web.Response:
    """An error before or instead of any message, the way the protocol writes one."""
    if wire is None or wire.protocol == "connect" or err.http_status in (413, 415):
        return web.json_response(err.connect_json(), status=err.http_status)
    return web.Response(body=end_stream(wire, err), content_type=wire.content_type)


async def handle(request: web.Request) -> web.StreamResponse:
    ctx = request.app[RPC]
    service, name = request.match_info["service"], request.match_info["method"]
    method = ctx.registry.find(service, name)
    wire: Wire | None = None
    try:
        if method is None or not (method.is_unary or method.is_server_stream):
            raise RpcError(grpc.StatusCode.UNIMPLEMENTED, f"no method {service}/{name}", http_status=404)
        wire = _wire(request, method)
        message = await _request_message(request, method, wire)
        if method.is_unary:
            timeout = timeout_s(wire, request.headers, ctx.limits.deadline_s)
            return await _unary(request, ctx, method, wire, message, timeout)
        if len(ctx.open_calls) >= ctx.limits.max_streams:
            raise RpcError(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many open streams; retry later")
        timeout = timeout_s(wire, request.headers, ctx.limits.stream_deadline_s)
    except RpcError as err:
        return _error_reply(wire, err)
    return await _server_stream(request, ctx, method, wire, message, timeout)


async def _unary(
    request: web.Request, ctx: RpcContext, method: Method, wire: Wire, message: Message, timeout: float
) -> web.Response:
    call = ctx.backends.unary(method)
    try:
        reply = await call(message, metadata=_metadata(request), timeout=timeout)
    except grpc.aio.AioRpcError as err:
        return _error_reply(wire, RpcError.from_rpc(err))
    if wire.protocol == "connect":
        return web.Response(body=encode(reply, wire.codec), content_type=wire.content_type)
    frames = envelope(0, encode(reply, wire.codec)) + end_stream(wire, None)
    return web.Response(body=frames, content_type=wire.content_type)


async def _server_stream(
    request: web.Request, ctx: RpcContext, method: Method, wire: Wire, message: Message, timeout: float
) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": wire.content_type, "Cache-Control": "no-store"})
    await response.prepare(request)
    call = ctx.backends.server_stream(method)(message, metadata=_metadata(request), timeout=timeout)
    ctx.open_calls.add(call)
    error: RpcError | None = None
    try:
        async for item in call:
            await response.write(envelope(0, encode(item, wire.codec)))
    except grpc.aio.AioRpcError as err:
        error = RpcError.from_rpc(err)
    except ConnectionResetError:
        log.info("stream client went away: %s", method.path)
        return response
    except asyncio.CancelledError:
        if not call.cancelled():  # this handler itself is being cancelled
            raise
        # the shutdown cancelled the backend call (cancel_streams): end the stream properly
        error = RpcError(grpc.StatusCode.UNAVAILABLE, "the gateway is shutting down; reconnect")
    finally:
        call.cancel()  # the client left, or the stream ended: either way the backend call is over
        ctx.open_calls.discard(call)
    try:
        await response.write(end_stream(wire, error))
        await response.write_eof()
    except ConnectionResetError:
        log.info("stream client went away before the end: %s", method.path)
    return response


async def cancel_streams(app: web.Application) -> None:
    """On shutdown: end every open stream (clients see UNAVAILABLE and reconnect elsewhere)."""
    for call in list(app[RPC].open_calls):
        call.cancel()
