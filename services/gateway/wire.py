"""The Connect and gRPC-Web wire formats, without HTTP server code: which protocol a request
speaks (from its Content-Type), enveloped frames, timeouts, and how an error is written.

- Connect unary: ``application/json`` or ``application/proto``; the body is the bare message; an
  error is an HTTP status with the Connect error JSON (``{"code", "message", "details"}``).
- Connect server streaming: ``application/connect+json`` / ``application/connect+proto``; every
  message is an envelope (flags byte, 4-byte big-endian length); the last envelope has flag 0x02
  and carries ``{"error": ..., "metadata": {}}`` as JSON.
- gRPC-Web: ``application/grpc-web`` (``+proto``) or ``application/grpc-web+json``, unary and
  streaming alike: envelopes, then a trailer envelope (flag 0x80) with ``grpc-status`` lines.

Compressed envelopes and ``Content-Encoding`` other than identity are refused (no client of
ours compresses, and it keeps decompression bombs out). The spec: connectrpc.com/docs/protocol.
"""

from __future__ import annotations

import base64
import json
import re
import struct
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import grpc
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2

PREFIX = struct.Struct(">BI")
FLAG_COMPRESSED, FLAG_END_STREAM, FLAG_TRAILER = 0x01, 0x02, 0x80
STATUS_DETAILS_KEY = "grpc-status-details-bin"

# Connect's code -> HTTP status table (the same as google/rpc/code.proto's).
HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNKNOWN: 500,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.FAILED_PRECONDITION: 400,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DATA_LOSS: 500,
    grpc.StatusCode.UNAUTHENTICATED: 401,
}


@dataclass(frozen=True)
class Wire:
    """What a request speaks: ``connect`` (unary), ``connect-stream``, ``grpc-web``; ``json`` or ``proto``."""

    protocol: str
    codec: str
    content_type: str  # echoed on the response

    @property
    def enveloped(self) -> bool:
        return self.protocol != "connect"


WIRES: dict[str, Wire] = {
    ct: Wire(protocol, codec, ct)
    for ct, protocol, codec in (
        ("application/json", "connect", "json"),
        ("application/proto", "connect", "proto"),
        ("application/connect+json", "connect-stream", "json"),
        ("application/connect+proto", "connect-stream", "proto"),
        ("application/grpc-web", "grpc-web", "proto"),
        ("application/grpc-web+proto", "grpc-web", "proto"),
        ("application/grpc-web+json", "grpc-web", "json"),
    )
}


class RpcError(Exception):
    """An error to send the way the caller's protocol writes errors.

    ``http_status`` overrides the code's HTTP status for errors about the HTTP request itself
    (unknown route 404, unsupported media type 415, body too large 413)."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        details: tuple[Any, ...] = (),
        http_status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.details = code, message, details
        self.http_status = http_status or HTTP_STATUS.get(code, 500)

    @classmethod
    def from_rpc(cls, err: grpc.aio.AioRpcError) -> RpcError:
        """A backend's error with the ``google.rpc.Status`` details it attached (``shared.errors``)."""
        details: tuple[Any, ...] = ()
        for key, value in err.trailing_metadata() or ():
            if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
                details = tuple(status_pb2.Status.FromString(value).details)
        return cls(err.code(), err.details() or "", details)

    def connect_json(self) -> dict[str, Any]:
        """The Connect error JSON; each detail is ``{type, value (base64 protobuf), debug}``."""
        body: dict[str, Any] = {"code": connect_code(self.code), "message": self.message}
        if self.details:
            body["details"] = [_detail_json(any_) for any_ in self.details]
        return body

    def grpc_trailers(self) -> dict[str, str]:
        trailers = {"grpc-status": str(self.code.value[0]), "grpc-message": quote(self.message, safe=" ")}
        if self.details:
            status = status_pb2.Status(code=self.code.value[0], message=self.message, details=self.details)
            trailers[STATUS_DETAILS_KEY] = base64.b64encode(status.SerializeToString()).decode()
        return trailers


def connect_code(code: grpc.StatusCode) -> str:
    return "canceled" if code is grpc.StatusCode.CANCELLED else code.name.lower()


def _detail_json(any_: Any) -> dict[str, Any]:
    detail: dict[str, Any] = {
        "type": any_.TypeName(),
        "value": base64.b64encode(any_.value).decode().rstrip("="),
    }
    info = error_details_pb2.ErrorInfo()
    if any_.Unpack(info):  # readable without protobuf: reason, domain, metadata
        detail["debug"] = json_format.MessageToDict(info)
    return detail


def invalid(message: str) -> RpcError:
    return RpcError(grpc.StatusCode.INVALID_ARGUMENT, message)


# ------------------------------------------------------------------ messages


def decode(request_type: type[Message], data: bytes, codec: str) -> Message:
    """The request message; JSON as protobuf's JSON mapping (unknown fields ignored, as connect-go does).

    Deep nesting is refused, not crashed on: ``json`` and protobuf raise RecursionError / DecodeError."""
    message = request_type()
    try:
        if codec == "proto":
            message.ParseFromString(data)
            return message
        if not data.strip():
            return message
        parsed = json.loads(data)
        if not isinstance(parsed, dict):
            raise invalid("the body must be a JSON object")
        json_format.ParseDict(parsed, message, ignore_unknown_fields=True)
    except (ValueError, UnicodeDecodeError, DecodeError, json_format.ParseError) as err:
        raise invalid(f"the body is not a {request_type.DESCRIPTOR.full_name}: {err}") from err
    except RecursionError as err:
        raise invalid("the body is nested too deeply") from err
    return message


def encode(message: Message, codec: str) -> bytes:
    """Protobuf bytes, or protobuf JSON with every field printed (a client never guesses a missing zero)."""
    if codec == "proto":
        return message.SerializeToString()
    as_dict = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    return json.dumps(as_dict, separators=(",", ":")).encode()


# ------------------------------------------------------------------ envelopes


def envelope(flags: int, data: bytes) -> bytes:
    return PREFIX.pack(flags, len(data)) + data


def single_envelope(body: bytes) -> bytes:
    """The one message of an enveloped request (server streaming and gRPC-Web send exactly one)."""
    if len(body) < PREFIX.size:
        raise invalid("the body is not an enveloped message")
    flags, length = PREFIX.unpack_from(body)
    if flags & FLAG_COMPRESSED:
        raise RpcError(grpc.StatusCode.UNIMPLEMENTED, "compressed messages are not accepted")
    if flags != 0 or len(body) != PREFIX.size + length:
        raise invalid("the body must be exactly one uncompressed enveloped message")
    return body[PREFIX.size :]


def end_stream(wire: Wire, error: RpcError | None) -> bytes:
    """The closing envelope: Connect's end-of-stream JSON, or gRPC-Web's trailers."""
    if wire.protocol == "connect-stream":
        body: dict[str, Any] = {"metadata": {}}
        if error is not None:
            body["error"] = error.connect_json()
        return envelope(FLAG_END_STREAM, json.dumps(body, separators=(",", ":")).encode())
    trailers = error.grpc_trailers() if error is not None else {"grpc-status": "0", "grpc-message": ""}
    return envelope(FLAG_TRAILER, "".join(f"{k}: {v}\r\n" for k, v in trailers.items()).encode())


# ------------------------------------------------------------------ timeouts

GRPC_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
CONNECT_TIMEOUT = re.compile(r"[0-9]{1,10}")
GRPC_TIMEOUT = re.compile(r"([0-9]{1,8})([HMSmun])")


def timeout_s(wire: Wire, headers: Any, ceiling_s: float) -> float:
    """The caller's timeout (``Connect-Timeout-Ms`` or ``grpc-timeout``), never above ``ceiling_s``."""
    if wire.protocol == "grpc-web":
        raw = headers.get("grpc-timeout")
        match = GRPC_TIMEOUT.fullmatch(raw) if raw is not None else None
        asked = int(match[1]) * GRPC_UNITS[match[2]] if match else None
    else:
        raw = headers.get("connect-timeout-ms")
        asked = int(raw) / 1000 if raw is not None and CONNECT_TIMEOUT.fullmatch(raw) else None
    if raw is not None and asked is None:
        raise invalid(f"bad timeout header {raw!r}")
    return ceiling_s if asked is None else min(asked, ceiling_s)
