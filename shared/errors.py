"""One table from domain errors to gRPC status codes, with ``google.rpc.Status`` details.

Every error carries a ``google.rpc.ErrorInfo``: ``reason`` is a stable machine-readable code
(for illegal moves, the rule's reason code), ``domain`` the service, ``metadata`` the facts
a client needs (for a stale version: the expected and the actual version).
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from shared.codec import CodecError
from shared.decider import RuleViolation
from shared.runner import MatchExists, MatchNotFound
from shared.store import StoreError, VersionConflict
from shared.tokens import TokenError


class InvalidArgument(ValueError):
    """A request that is malformed whatever the state: missing fields, bad ids, bad names."""


class PermissionDenied(Exception):
    """A valid caller asking for something its token does not allow (another seat, match)."""


class NotFound(LookupError):
    """Something other than a match that does not exist (a room, a player)."""


class Conflict(Exception):
    """A request that lost a race or contradicts the current state (room full, already queued)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Mapped:
    code: grpc.StatusCode
    reason: str
    message: str
    metadata: dict[str, str]


def map_error(err: BaseException) -> Mapped | None:
    """The status for a domain error, or None for an unexpected one (an INTERNAL bug)."""
    match err:
        case RuleViolation():
            return Mapped(grpc.StatusCode.FAILED_PRECONDITION, err.code, err.message, {})
        case VersionConflict():
            meta = {"expected_version": str(err.expected), "actual_version": str(err.actual)}
            return Mapped(grpc.StatusCode.ABORTED, "stale_version", str(err), meta)
        case MatchNotFound():
            return Mapped(grpc.StatusCode.NOT_FOUND, "match_not_found", str(err), {"match_id": err.match_id})
        case NotFound():
            return Mapped(grpc.StatusCode.NOT_FOUND, "not_found", str(err), {})
        case MatchExists():
            return Mapped(
                grpc.StatusCode.ALREADY_EXISTS, "match_exists", str(err), {"match_id": err.match_id}
            )
        case TokenError():
            return Mapped(grpc.StatusCode.UNAUTHENTICATED, "bad_token", str(err), {})
        case PermissionDenied():
            return Mapped(grpc.StatusCode.PERMISSION_DENIED, "forbidden", str(err), {})
        case Conflict():
            return Mapped(grpc.StatusCode.FAILED_PRECONDITION, err.reason, str(err), {})
        case InvalidArgument() | CodecError() | StoreError():
            return Mapped(grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument", str(err), {})
    return None


def to_status(mapped: Mapped, domain: str) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(reason=mapped.reason, domain=domain, metadata=mapped.metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(code=mapped.code.value[0], message=mapped.message, details=[detail])
    return rpc_status.to_status(status)


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """Client side: the ErrorInfo detail of a failed call, if any."""
    status = rpc_status.from_call(err)
    if status is None:
        return None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    return None
