"""``POST /<package.Service>/<Method>``: every method of the registry served by ``connectrpc`` (Connect
unary and server streaming, gRPC-Web; JSON and binary) and forwarded to the backend's gRPC method.

connectrpc does the wire formats: content types, envelopes, timeouts, the request size limit, the
error JSON and trailers. Its endpoint table is built here from the descriptors (no generated code, so
no game is named): one ``Endpoint`` per method whose function calls the backend with the caller's
``Authorization`` header, signed address and language (``Accept-Language``) as metadata, a deadline
capped by the configuration, and turns
the backend's gRPC status and ``google.rpc.Status`` details into a ``ConnectError``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.interceptor import MetadataInterceptor
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import descriptor_pb2, duration_pb2, json_format
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from protobuf import Registry as DetailTypes
from protobuf.wkt import Any as AnyDetail
from protobuf.wkt import FileDescriptorSet
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

from services.gateway import http
from services.gateway.backends import Backends
from services.gateway.registry import Method, Registry
from shared.core import i18n
from shared.serving import forwarded
from shared.serving.tokens import Key

log = logging.getLogger("tabula.gateway")
STATUS_DETAILS_KEY = "grpc-status-details-bin"
GRPC_WEB = "application/grpc-web"


@dataclass(frozen=True)
class RpcLimits:
    deadline_s: float = 10.0  # every unary backend call
    stream_deadline_s: float = 3600.0  # a server stream; clients resume from their last version
    max_streams: int = 1000  # open server streams per gateway process; more are RESOURCE_EXHAUSTED
    max_body: int = 64 * 1024  # request message bytes (every request message of ours is far smaller)


@dataclass
class RpcContext:
    registry: Registry
    backends: Backends
    limits: RpcLimits
    open_calls: set[Any]  # backend stream calls in flight, cancelled on shutdown
    forward_key: Key | None = None  # signs the caller's address (None: no address is forwarded)


# ------------------------------------------------------------------ codecs


class JsonCodec:
    """A connectrpc codec for protobuf JSON with google.protobuf, like the library's own
    (``connectrpc.compat``) but printing every field: a client never guesses a missing zero.
    Decoding ignores unknown fields, as connect-go does."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        as_dict = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
        return json.dumps(as_dict, separators=(",", ":")).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        message = message_class()
        json_format.Parse(bytes(data), message, ignore_unknown_fields=True)
        return message


# ------------------------------------------------------------------ errors


def _detail_types() -> DetailTypes:
    """The google.rpc error details (ErrorInfo, BadRequest, RetryInfo, ...) for connectrpc's protobuf
    runtime, so the error JSON carries each detail's readable ``debug`` copy next to its bytes."""
    files = descriptor_pb2.FileDescriptorSet()
    for module in (duration_pb2, error_details_pb2):
        proto = files.file.add()
        module.DESCRIPTOR.CopyToProto(proto)
        for message in proto.message_type:
            _json_names(message, module.DESCRIPTOR.message_types_by_name[message.name])
    return FileDescriptorSet.from_binary(files.SerializeToString()).to_registry()


def _json_names(proto: descriptor_pb2.DescriptorProto, desc: Descriptor) -> None:
    """Fill in the JSON names (lowerCamelCase) that protoc sets and ``CopyToProto`` leaves out."""
    for field in proto.field:
        field.json_name = desc.fields_by_name[field.name].json_name
    for nested in proto.nested_type:
        _json_names(nested, desc.nested_types_by_name[nested.name])


DETAIL_TYPES = _detail_types()


def _detail(type_url: str, value: bytes) -> ErrorDetail:
    packed = AnyDetail(type_url=type_url, value=value)
    desc = DETAIL_TYPES.message(type_url.rsplit("/", 1)[-1])
    readable = packed.unpack(desc) if desc is not None else None
    return ErrorDetail(readable if readable is not None else packed)


def connect_error(err: grpc.aio.AioRpcError) -> ConnectError:
    """A backend's error with the ``google.rpc.Status`` details it attached (``shared.serving.errors``)."""
    details: list[ErrorDetail] = []
    for key, value in err.trailing_metadata() or ():
        if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            details = [_detail(any_.type_url, any_.value) for any_ in status.details]
    return ConnectError(code_of(err.code()), err.details() or "", details)


def code_of(status: grpc.StatusCode) -> Code:
    return Code.CANCELED if status is grpc.StatusCode.CANCELLED else Code[status.name]


# connectrpc's error for an envelope with the compressed flag while no compression is served
COMPRESSED_FLAG = "sent compressed message without compression support"


class CompressedRefused(MetadataInterceptor[None]):
    """A message with the compressed flag set is ``unimplemented`` (the gateway serves no
    compression), not the ``internal`` connectrpc makes of it; every other outcome is left as it is."""

    async def on_start(self, ctx: RequestContext[Any, Any]) -> None:
        return None

    async def on_end(self, token: None, ctx: RequestContext[Any, Any], error: Exception | None, /) -> None:
        internal = isinstance(error, ConnectError) and error.code is Code.INTERNAL
        if internal and COMPRESSED_FLAG in str(error):
            raise ConnectError(Code.UNIMPLEMENTED, "compression is not served: send messages uncompressed")


# ------------------------------------------------------------------ forwarding


def _metadata(ctx: RpcContext, request: RequestContext[Any, Any]) -> list[tuple[str, str]]:
    """The caller's token, from the ``Authorization`` header only (never the URL), and the caller's
    address for the services' per-address limits, signed with the token secret so that the services
    believe it from the gateway only (``shared/serving/forwarded.py``); the caller's language, from its
    ``Accept-Language`` header, as the metadata ``accept-language`` (the locale it picks of those
    served, ``shared.core.i18n.negotiate``: refusals and content come back in it). No other header of
    the caller is passed on."""
    header = request.request_headers.get("authorization", "")
    peer = request.client_address  # "host:port" (an IPv6 host keeps its colons)
    key = ctx.forward_key
    address = [(forwarded.HEADER, forwarded.sign(key, peer.rsplit(":", 1)[0]))] if peer and key else []
    wanted = request.request_headers.get(i18n.METADATA_KEY, "")
    language = [(i18n.METADATA_KEY, i18n.negotiate(wanted))] if wanted else []
    return ([("authorization", header)] if header else []) + address + language


def _timeout_s(request: RequestContext[Any, Any], ceiling_s: float) -> float:
    """The caller's timeout (connectrpc reads ``Connect-Timeout-Ms`` / ``grpc-timeout``), capped."""
    left_ms = request.timeout_ms
    return ceiling_s if left_ms is None else max(0.0, min(left_ms / 1000, ceiling_s))


UnaryFunction = Callable[[Message, RequestContext[Any, Any]], Awaitable[Message]]
StreamFunction = Callable[[Message, RequestContext[Any, Any]], AsyncIterator[Message]]


def _unary(ctx: RpcContext, method: Method) -> UnaryFunction:
    async def forward(message: Message, request: RequestContext[Any, Any]) -> Message:
        call = ctx.backends.unary(method)
        timeout = _timeout_s(request, ctx.limits.deadline_s)
        try:
            reply: Message = await call(message, metadata=_metadata(ctx, request), timeout=timeout)
        except grpc.aio.AioRpcError as err:
            raise connect_error(err) from None
        return reply

    return forward


def _server_stream(ctx: RpcContext, method: Method) -> StreamFunction:
    async def forward(message: Message, request: RequestContext[Any, Any]) -> AsyncIterator[Message]:
        """A reply per backend message; a client that leaves cancels this generator's task."""
        if len(ctx.open_calls) >= ctx.limits.max_streams:
            raise ConnectError(Code.RESOURCE_EXHAUSTED, "too many open streams; retry later")
        timeout = _timeout_s(request, ctx.limits.stream_deadline_s)
        call = ctx.backends.server_stream(method)(message, metadata=_metadata(ctx, request), timeout=timeout)
        ctx.open_calls.add(call)
        try:
            async for item in call:
                yield item
        except grpc.aio.AioRpcError as err:
            raise connect_error(err) from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # the client went away: this task is being cancelled
                log.info("stream client went away: %s", method.path)
                raise
            # the shutdown cancelled the backend call (cancel_streams): end the stream properly
            raise ConnectError(Code.UNAVAILABLE, "the gateway is shutting down; reconnect") from None
        finally:
            call.cancel()  # the client left, or the stream ended: either way the backend call is over
            ctx.open_calls.discard(call)

    return forward


def _info(method: Method) -> MethodInfo[Message, Message]:
    return MethodInfo(
        name=method.name,
        service_name=method.service,
        input=method.request_type,
        output=method.response_type,
        idempotency_level=IdempotencyLevel.UNKNOWN,  # POST only: no method is marked side-effect free
        stream_type=StreamType.UNARY if method.is_unary else StreamType.SERVER_STREAM,
    )


def endpoints(ctx: RpcContext) -> dict[str, Any]:
    """connectrpc's endpoint table (URL path -> ``Endpoint.unary`` or ``Endpoint.server_stream``, whose
    classes the library does not export) for every unary and server-streaming method."""
    table: dict[str, Any] = {}
    for method in ctx.registry.methods.values():
        if method.is_unary:
            table[method.path] = Endpoint.unary(_info(method), _unary(ctx, method))
        elif method.is_server_stream:
            table[method.path] = Endpoint.server_stream(_info(method), _server_stream(ctx, method))
    return table


class ConnectApp(ConnectASGIApplication[RpcContext]):
    """One connectrpc application for every service of the registry (its table is keyed by full path)."""

    @property
    def path(self) -> str:
        return "/"


class RpcRoute:
    """The ASGI app of the RPC route: a known method goes to connectrpc; an unknown one is a 404
    ``unimplemented`` error JSON; plain gRPC (``application/grpc``) is not served (415: gRPC clients
    call the services directly, and HTTP/1.1 has no trailers for it)."""

    def __init__(self, ctx: RpcContext) -> None:
        table = endpoints(ctx)
        self.paths = frozenset(table)
        self.app = ConnectApp(
            service=ctx,
            endpoints=lambda _: table,
            read_max_bytes=ctx.limits.max_body,
            compressions=(),  # identity only: no client of ours compresses, and no decompression work
            codecs=[google_protobuf_binary_codec(), JsonCodec()],
            interceptors=[CompressedRefused()],
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        content_type = Headers(scope=scope).get("content-type", "").lower()
        if path not in self.paths:
            refused = http.error_response(Code.UNIMPLEMENTED, f"no method {path.lstrip('/')}", 404)
        elif content_type.startswith("application/grpc") and not content_type.startswith(GRPC_WEB):
            refused = http.error_response(Code.INVALID_ARGUMENT, "plain gRPC is not served here", 415)
        else:
            await self.app(scope, receive, send)
            return
        await refused(scope, receive, send)


def cancel_streams(ctx: RpcContext) -> None:
    """On shutdown: end every open stream (clients see UNAVAILABLE and reconnect elsewhere)."""
    for call in list(ctx.open_calls):
        call.cancel()
