"""Thin gRPC clients for the terminal: a game's rule service and the lobby, with a deadline on every call.

:class:`GameClient` wraps ``<Game>Service`` for one match and one token; :meth:`GameClient.follow`
is a resumable watch: on a stream error (the server restarting, the stream's own deadline) it
reconnects from the last version it delivered, so no event is lost or repeated.

A call refused by a rate limit (``RESOURCE_EXHAUSTED`` with a ``google.rpc.RetryInfo``: reason
``rate_limited``, or ``quota_exceeded`` for watch streams) changed nothing on the server, so it is
sent again, the very same request (a command keeps its command id and expected version), after the
RetryInfo delay: at most :data:`LIMITED_RETRIES` times, each wait capped at :data:`LIMITED_WAIT_S`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc

from services import games as registry
from services.client.texts import language
from shared.serving.errors import retry_delay_s
from shared.serving.stubs import game_stub

T = TypeVar("T")

# Errors that a retry (after a short wait) may cure: the server or its Redis restarting
# (UNAVAILABLE, reason store_unavailable) or a lost answer (DEADLINE_EXCEEDED). RESOURCE_EXHAUSTED is
# retried only with a RetryInfo (a rate limit: limited_wait_s); without one it is a request over
# grpc's size limit, the same on every try. Anything else is the caller's problem.
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
LIMITED_RETRIES = 3  # a rate-limited call is sent again at most this many times
LIMITED_WAIT_S = 5.0  # and never after more than this (a longer RetryInfo delay is cut to it)


def limited_wait_s(err: grpc.RpcError, most_s: float = LIMITED_WAIT_S) -> float | None:
    """How long to wait before sending a rate-limited call again: its RetryInfo delay, at most
    ``most_s``; None when ``err`` is not RESOURCE_EXHAUSTED with a RetryInfo."""
    if err.code() is not grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    delay = retry_delay_s(err)
    return None if delay is None else min(max(delay, 0.0), most_s)


def retry_limited(
    call: Callable[[], T],
    on_limited: Callable[[float], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    retries: int = LIMITED_RETRIES,
    most_s: float = LIMITED_WAIT_S,
) -> T:
    """``call()``, called again after the RetryInfo delay (capped) while a rate limit refuses it, at
    most ``retries`` more times; ``on_limited`` is told each wait first. ``call`` must send the very
    same request every time. Any other error is raised at once."""
    attempt = 0
    while True:
        try:
            return call()
        except grpc.RpcError as err:
            wait = limited_wait_s(err, most_s)
            if wait is None or attempt >= retries:
                raise
            attempt += 1
            if on_limited is not None:
                on_limited(wait)
            sleep(wait)


def auth(token: str) -> tuple[tuple[str, str], ...]:
    """A call's metadata: the token, and the client's locale (``accept-language``)."""
    return (("authorization", f"Bearer {token}"), *language())


def game_modules(game: str) -> tuple[Any, Any]:
    """The generated ``_pb2`` and ``_pb2_grpc`` modules of a game (``make proto``), from the registry."""
    modules = registry.game_modules(game)
    return modules.pb2, modules.pb2_grpc


@dataclass(frozen=True)
class Followed:
    """One item of a followed match: an event (``event`` set) or the head version of a keepalive."""

    version: int
    event: Any = None


@dataclass
class GameClient:
    """One match of one game, seen with one token (a seat's or a spectator's)."""

    stub: Any
    pb2: Any
    match_id: str
    token: str
    deadline_s: float = 10.0
    stream_deadline_s: float = 120.0
    retries: int = 5
    limited_retries: int = LIMITED_RETRIES
    max_limited_wait_s: float = LIMITED_WAIT_S
    sleep: Callable[[float], None] = time.sleep
    on_limited: Callable[[float], None] | None = None  # told the wait before a limited call is resent
    reconnects: int = field(default=0, init=False)
    stopped: bool = field(default=False, init=False)
    stream: Any = field(default=None, init=False)  # the open WatchMatch call, to cancel it

    @classmethod
    def connect(cls, channel: grpc.Channel, game: str, match_id: str, token: str, **kw: Any) -> GameClient:
        pb2, _ = game_modules(game)
        stub = game_stub(pb2, channel)
        return cls(stub, pb2, match_id, token, **kw)

    def _call(self, method: str, request: Any) -> Any:
        """A unary call with a deadline; retried a few times on UNAVAILABLE / DEADLINE_EXCEEDED, and
        after the RetryInfo delay when rate-limited (``on_limited`` is told the wait first).

        Every retry sends the very same request, so a command keeps its command id: if the first
        try was applied and only its answer lost, the retry gets the first result (``duplicate``).
        """

        def answered() -> Any:
            for attempt in range(self.retries + 1):
                try:
                    return getattr(self.stub, method)(
                        request, metadata=auth(self.token), timeout=self.deadline_s
                    )
                except grpc.RpcError as err:
                    if err.code() not in RETRYABLE or attempt == self.retries:
                        raise
                    self.sleep(min(0.2 * 2**attempt, 3.0))
            raise AssertionError("unreachable")

        return retry_limited(
            answered, self.on_limited, self.sleep, self.limited_retries, self.max_limited_wait_s
        )

    def get_view(self) -> Any:
        return self._call("GetView", self.pb2.GetViewRequest(match_id=self.match_id))

    def replay(self, version: int) -> Any:
        return self._call("Replay", self.pb2.ReplayRequest(match_id=self.match_id, version=version))

    def submit(self, command: Any, expected_version: int, command_id: str | None = None) -> Any:
        """Send one command with a fresh command id (the retries of :meth:`_call` reuse it)."""
        request = self.pb2.SubmitCommandRequest(
            match_id=self.match_id,
            expected_version=expected_version,
            command_id=command_id or uuid.uuid4().hex,
            command=command,
        )
        return self._call("SubmitCommand", request)

    def resign(self, command_id: str | None = None) -> Any:
        """Resign the token's seat, at the match's head (the retries of :meth:`_call` reuse the id)."""
        request = self.pb2.ResignRequest(match_id=self.match_id, command_id=command_id or uuid.uuid4().hex)
        return self._call("Resign", request)

    def undo(self, expected_version: int, command_id: str | None = None) -> Any:
        """Take back the token's seat's latest command (the retries of :meth:`_call` reuse the id)."""
        request = self.pb2.UndoRequest(
            match_id=self.match_id,
            expected_version=expected_version,
            command_id=command_id or uuid.uuid4().hex,
        )
        return self._call("Undo", request)

    def stop_following(self) -> None:
        """End :meth:`follow` (from another thread too): its open stream is cancelled."""
        self.stopped = True
        cancel = getattr(self.stream, "cancel", None)
        if cancel is not None:
            cancel()

    def follow(self, from_version: int) -> Iterator[Followed]:
        """Events from ``from_version`` on, forever; keepalives as head versions. Reconnects on
        retryable errors (and after the stream's own deadline) from the last delivered version; a
        refusal by the watch limits is waited out silently (its RetryInfo delay, capped)."""
        next_version = max(from_version, 1)
        failures = 0
        self.stopped = False
        while not self.stopped:
            request = self.pb2.WatchMatchRequest(match_id=self.match_id, from_version=next_version)
            try:
                stream = self.stream = self.stub.WatchMatch(
                    request, metadata=auth(self.token), timeout=self.stream_deadline_s
                )
                for item in stream:
                    if self.stopped:
                        return
                    failures = 0
                    if item.WhichOneof("item") == "event":
                        version = item.event.envelope.version
                        if version < next_version:
                            continue  # already delivered before a reconnect
                        next_version = version + 1
                        yield Followed(version, item.event)
                    else:
                        yield Followed(item.keepalive.head_version)
            except grpc.RpcError as err:
                if self.stopped:
                    return
                wait = limited_wait_s(err, self.max_limited_wait_s)
                if wait is None and err.code() not in RETRYABLE:
                    raise
                if err.code() is not grpc.StatusCode.DEADLINE_EXCEEDED:
                    failures += 1
                    if failures > self.retries:
                        raise
                    self.sleep(min(0.2 * 2**failures, 3.0) if wait is None else wait)
            self.reconnects += 1
