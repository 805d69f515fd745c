"""One table from domain errors to gRPC status codes, with ``google.rpc.Status`` details.

Every error carries a ``google.rpc.ErrorInfo``: ``reason`` is a stable machine-readable code
(for illegal moves, the rule's reason code), ``domain`` the service, ``metadata`` the facts
a client needs (for a stale version: the expected and the actual version); and a
``google.rpc.LocalizedMessage``, the message in the call's locale (``shared/serving/refusals.py``).
A bad request also carries a ``google.rpc.BadRequest`` naming the offending field
(``command.place_family_member.member``); a store outage is UNAVAILABLE with a
``google.rpc.RetryInfo``: retry with the same command id.

Texts in a status are truncated (:data:`MAX_MESSAGE`, :data:`MAX_DETAIL`): an error never echoes
unbounded client input, and never outgrows the metadata limit of a gRPC trailer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import grpc
import redis.exceptions as redis_errors
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from shared.core.codec import CodecError
from shared.core.decider import RuleViolation
from shared.core.worded import Worded
from shared.matches.runner import MatchExists, MatchNotFound
from shared.serving.tokens import TokenError, TokenRefused
from shared.store import StoreError, VersionConflict

MAX_MESSAGE = 512  # characters of a status message
MAX_DETAIL = 160  # characters of a metadata value, a field path or a violation description
RETRY_DELAY_S = 1

# Redis errors that a retry may cure: the server restarting (connection refused, still loading
# its AOF), a timeout, a cluster failing over (down, resharding, a replica not yet promoted).
STORE_UNAVAILABLE: tuple[type[Exception], ...] = (
    redis_errors.ConnectionError,  # also BusyLoadingError (LOADING) and MaxConnectionsError
    redis_errors.TimeoutError,
    redis_errors.ClusterDownError,  # also MasterDownError
    redis_errors.TryAgainError,
    redis_errors.ReadOnlyError,  # a write reached a replica during a failover
    redis_errors.SlotNotCoveredError,
)
STORE_UNAVAILABLE_TEXT = "the event store is unavailable; retry (a command with the same command_id)"


class InvalidArgument(Worded, ValueError):
    """A request that is malformed whatever the state: missing fields, bad ids, bad names.

    ``field`` is the offending field's path in the request (``room_id``, ``options``); it goes
    into the ``BadRequest`` detail. ``reason`` is the ErrorInfo reason (``malformed_request`` when
    the bytes are not the request message at all, then ``field`` is empty).
    """

    def __init__(
        self, message: str, field: str = "", reason: str = "invalid_argument", **values: Any
    ) -> None:
        super().__init__(message, **values)
        self.field, self.reason = field, reason


class PermissionDenied(Worded):
    """A valid caller asking for something its token does not allow (another seat, match)."""


class NotFound(Worded, LookupError):
    """Something other than a match that does not exist (a room, a player)."""


class Conflict(Worded):
    """A request that lost a race or contradicts the current state (room full, already queued)."""

    def __init__(self, reason: str, message: str, **values: Any) -> None:
        super().__init__(message, **values)
        self.reason = reason


class Unavailable(Worded):
    """A service this call needs cannot be reached right now and the call changed nothing: the
    same request may succeed later (UNAVAILABLE with ``reason`` and a RetryInfo)."""

    def __init__(
        self, reason: str, message: str, retry_after_s: float = RETRY_DELAY_S, **values: Any
    ) -> None:
        super().__init__(message, **values)
        self.reason, self.retry_after_s = reason, retry_after_s


class ResourceExhausted(Worded):
    """A rate limit or quota reached (``shared/serving/ratelimit.py``): ``limit`` names it (ErrorInfo
    metadata), ``retry_after_s`` is the RetryInfo delay; ``reason`` is ``rate_limited`` or
    ``quota_exceeded``."""

    def __init__(self, reason: str, limit: str, retry_after_s: float, message: str, **values: Any) -> None:
        super().__init__(message, **values)
        self.reason, self.limit, self.retry_after_s = reason, limit, retry_after_s


@dataclass(frozen=True, slots=True)
class Mapped:
    code: grpc.StatusCode
    reason: str
    message: str
    metadata: dict[str, str]
    field: str | None = None  # set for a bad request: the BadRequest field path ("" = the whole request)
    retry_after_s: float = 0  # > 0: a RetryInfo detail (the call may succeed if repeated)
    template: str = ""  # the English template of ``message`` ("": the message itself), with ``values``
    values: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def english(self) -> str:
        """The template that keys the refusal's translations (``shared/serving/refusals.py``)."""
        return self.template or self.message


def map_error(err: BaseException) -> Mapped | None:
    """The status for a domain error, or None for an unexpected one (an INTERNAL bug); with the
    error's English template and values where it has them (:class:`shared.core.worded.Worded`,
    :class:`RuleViolation`, the runner's and the store's errors)."""
    mapped = _mapped(err)
    template = getattr(err, "template", "")
    if mapped is None or not isinstance(template, str) or not template:
        return mapped
    return replace(mapped, template=template, values=MappingProxyType(dict(getattr(err, "values", {}))))


def _mapped(err: BaseException) -> Mapped | None:
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
        case PermissionDenied() | TokenRefused():
            return Mapped(grpc.StatusCode.PERMISSION_DENIED, "forbidden", str(err), {})
        case ResourceExhausted():
            meta = {"limit": err.limit}
            return Mapped(
                grpc.StatusCode.RESOURCE_EXHAUSTED, err.reason, str(err), meta, None, err.retry_after_s
            )
        case Conflict():
            return Mapped(grpc.StatusCode.FAILED_PRECONDITION, err.reason, str(err), {})
        case Unavailable():
            return Mapped(grpc.StatusCode.UNAVAILABLE, err.reason, str(err), {}, None, err.retry_after_s)
        case InvalidArgument():
            return Mapped(grpc.StatusCode.INVALID_ARGUMENT, err.reason, str(err), {}, err.field)
        case CodecError():
            return Mapped(grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument", str(err), {}, err.field)
        case StoreError():
            return Mapped(grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument", str(err), {}, "")
        case _ if isinstance(err, STORE_UNAVAILABLE):
            text = STORE_UNAVAILABLE_TEXT
            return Mapped(grpc.StatusCode.UNAVAILABLE, "store_unavailable", text, {}, None, RETRY_DELAY_S)
    return None


def clip(text: str, most: int = MAX_DETAIL) -> str:
    """``text`` cut to ``most`` characters (marked with "..."): client input is echoed bounded."""
    return text if len(text) <= most else text[: most - 3] + "..."


def _packed(detail: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(detail)
    return packed


def to_status(
    mapped: Mapped, domain: str, localized: error_details_pb2.LocalizedMessage | None = None
) -> grpc.Status:
    """The status of a refusal: its ErrorInfo, its LocalizedMessage (``localized``: the message in the
    call's locale, ``shared/serving/refusals.py``; None: the English message), a BadRequest for a
    bad field, a RetryInfo when a retry may succeed."""
    metadata = {clip(k): clip(v) for k, v in mapped.metadata.items()}
    details = [_packed(error_details_pb2.ErrorInfo(reason=mapped.reason, domain=domain, metadata=metadata))]
    if localized is None:
        localized = error_details_pb2.LocalizedMessage(locale="en", message=clip(mapped.message, MAX_MESSAGE))
    details.append(_packed(localized))
    if mapped.field is not None:
        violation = error_details_pb2.BadRequest.FieldViolation(
            field=clip(mapped.field), description=clip(mapped.message)
        )
        details.append(_packed(error_details_pb2.BadRequest(field_violations=[violation])))
    if mapped.retry_after_s > 0:
        delay = duration_pb2.Duration()
        delay.FromNanoseconds(round(mapped.retry_after_s * 1e9))
        details.append(_packed(error_details_pb2.RetryInfo(retry_delay=delay)))
    text = clip(mapped.message, MAX_MESSAGE)
    return rpc_status.to_status(status_pb2.Status(code=mapped.code.value[0], message=text, details=details))


def _detail(err: grpc.RpcError, kind: type[Message]) -> Message | None:
    status = rpc_status.from_call(err)
    if status is None:
        return None
    for detail in status.details:
        found = kind()
        if detail.Unpack(found):
            return found
    return None


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """Client side: the ErrorInfo detail of a failed call, if any."""
    found = _detail(err, error_details_pb2.ErrorInfo)
    return found if isinstance(found, error_details_pb2.ErrorInfo) else None


def localized_message(err: grpc.RpcError) -> error_details_pb2.LocalizedMessage | None:
    """Client side: the LocalizedMessage detail (the message in the call's locale), if any."""
    found = _detail(err, error_details_pb2.LocalizedMessage)
    return found if isinstance(found, error_details_pb2.LocalizedMessage) else None


def bad_request(err: grpc.RpcError) -> error_details_pb2.BadRequest | None:
    """Client side: the BadRequest detail (the offending fields) of a failed call, if any."""
    found = _detail(err, error_details_pb2.BadRequest)
    return found if isinstance(found, error_details_pb2.BadRequest) else None


def retry_delay_s(err: grpc.RpcError) -> float | None:
    """Client side: the RetryInfo delay of a failed call in seconds (read from its trailing
    ``grpc-status-details-bin``), or None when the status has no RetryInfo (repeating the call
    would not help)."""
    found = _detail(err, error_details_pb2.RetryInfo)
    if not isinstance(found, error_details_pb2.RetryInfo):
        return None
    return float(found.retry_delay.ToNanoseconds()) / 1e9
