"""Protobuf JSON in and out, and gRPC status -> HTTP status with a JSON error body.

Requests and responses use the canonical protobuf JSON mapping (``google.protobuf.json_format``):
lowerCamelCase field names (the proto names are accepted too), enums by name, 64-bit integers as
strings, bytes as base64, and every field printed, defaults included, so a client never has to
guess a missing zero. Errors follow the Google API JSON error shape, with the ``google.rpc.ErrorInfo``
detail the services attach (``shared.errors``) flattened in.
"""

from __future__ import annotations

import json
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

# The mapping of google/rpc/code.proto (also what grpc-gateway uses).
HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.OK: 200,
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
STATUS_DETAILS_KEY = "grpc-status-details-bin"


class BadRequest(ValueError):
    """A body that is not JSON, or not the method's request message."""


def parse_request(request_type: type[Message], body: str | bytes) -> Message:
    """The request message from a JSON body; an empty body is the empty message."""
    message = request_type()
    if not body or not body.strip():
        return message
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as err:
        raise BadRequest(f"body is not JSON: {err}") from err
    if not isinstance(data, dict):
        raise BadRequest("body must be a JSON object")
    try:
        json_format.ParseDict(data, message)
    except json_format.ParseError as err:
        raise BadRequest(str(err)) from err
    return message


def to_json(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def error_json(
    code: grpc.StatusCode,
    message: str,
    reason: str = "",
    domain: str = "",
    metadata: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """HTTP status and body: ``{"error": {code, status, message, reason, domain, metadata}}``."""
    body = {
        "code": code.value[0],
        "status": code.name,
        "message": message,
        "reason": reason,
        "domain": domain,
        "metadata": metadata or {},
    }
    return HTTP_STATUS.get(code, 500), {"error": body}


def error_info(trailing: Any) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo in a call's ``grpc-status-details-bin`` trailer, if any."""
    for key, value in trailing or ():
        if key != STATUS_DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                return info
    return None


def rpc_error_json(err: grpc.aio.AioRpcError) -> tuple[int, dict[str, Any]]:
    info = error_info(err.trailing_metadata())
    if info is None:
        return error_json(err.code(), err.details() or "")
    return error_json(err.code(), err.details() or "", info.reason, info.domain, dict(info.metadata))
