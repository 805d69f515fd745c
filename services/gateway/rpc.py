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
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import Message
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

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


def context(request: Request) -> RpcContext:
    ctx: RpcContext = request.app.state.rpc
    return ctx


def _wire(request: Request, method: Method) -> Wire:
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    wire = WIRES.get(media_type)
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


def _check_headers(request: Request, wire: Wire) -> None:
    """Connect-Protocol-Version may be left out (plain curl calls work); if sent it must be 1."""
    version = request.headers.get("Connect-Protocol-Version")
    if wire.protocol != "grpc-web" and version is not None and version != "1":
        raise invalid(f"unsupported Connect-Protocol-Version {version!r}")
    if request.headers.get(ENCODING_HEADER[wire.protocol], "identity") != "identity":
        raise RpcError(grpc.StatusCode.UNIMPLEMENTED, "compressed requests are not accepted")


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as it is known to be over ``limit`` bytes."""
    too_large = RpcError(
        grpc.StatusCode.RESOURCE_EXHAUSTED, f"the body is over {limit} bytes", http_status=413
    )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


async def _request_message(request: Request, method: Method, wire: Wire) -> Message:
    _check_headers(request, wire)
    body = await read_body(request, context(request).limits.max_body)
    data = single_envelope(body) if wire.enveloped else body
    return decode(method.request_type, data, wire.codec)


def _metadata(request: Request) -> list[tuple[str, str]]:
    """The caller's token, from the ``Authorization`` header only (never the URL), and the caller's
    address for the services' per-address limits (believed from trusted gateways only:
    ``shared/ratelimit.py``). No other header of the caller is passed on."""
    header = request.headers.get("Authorization", "")
    address = [("x-forwarded-for", request.client.host)] if request.client and request.client.host else []
    return ([("authorization", header)] if header else []) + address


def _error_reply(wire: Wire | None, err: RpcError) -> Response:
    """An error before or instead of any message, the way the protocol writes one."""
    if wire is None or wire.protocol == "connect" or err.http_status in (413, 415):
        return JSONResponse(err.connect_json(), status_code=err.http_status)
    return Response(end_stream(wire, err), media_type=wire.content_type)


async def handle(request: Request) -> Response:
    ctx = context(request)
    service, name = request.path_params["service"], request.path_params["method"]
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
    replies = _server_stream(ctx, method, wire, message, _metadata(request), timeout)
    return StreamingResponse(replies, media_type=wire.content_type, headers={"Cache-Control": "no-store"})


async def _unary(
    request: Request, ctx: RpcContext, method: Method, wire: Wire, message: Message, timeout: float
) -> Response:
    call = ctx.backends.unary(method)
    try:
        reply = await call(message, metadata=_metadata(request), timeout=timeout)
    except grpc.aio.AioRpcError as err:
        return _error_reply(wire, RpcError.from_rpc(err))
    if wire.protocol == "connect":
        return Response(encode(reply, wire.codec), media_type=wire.content_type)
    frames = envelope(0, encode(reply, wire.codec)) + end_stream(wire, None)
    return Response(frames, media_type=wire.content_type)


async def _server_stream(
    ctx: RpcContext,
    method: Method,
    wire: Wire,
    message: Message,
    metadata: list[tuple[str, str]],
    timeout: float,
) -> AsyncIterator[bytes]:
    """The body of a server stream: a frame per backend message, then the closing frame. The server
    sends the headers before the first frame; a client that leaves cancels this generator."""
    call = ctx.backends.server_stream(method)(message, metadata=metadata, timeout=timeout)
    ctx.open_calls.add(call)
    error: RpcError | None = None
    try:
        async for item in call:
            yield envelope(0, encode(item, wire.codec))
    except grpc.aio.AioRpcError as err:
        error = RpcError.from_rpc(err)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():  # the client went away: this task is being cancelled
            log.info("stream client went away: %s", method.path)
            raise
        # the shutdown cancelled the backend call (cancel_streams): end the stream properly
        error = RpcError(grpc.StatusCode.UNAVAILABLE, "the gateway is shutting down; reconnect")
    finally:
        call.cancel()  # the client left, or the stream ended: either way the backend call is over
        ctx.open_calls.discard(call)
    yield end_stream(wire, error)


def cancel_streams(ctx: RpcContext) -> None:
    """On shutdown: end every open stream (clients see UNAVAILABLE and reconnect elsewhere)."""
    for call in list(ctx.open_calls):
        call.cancel()
