"""gRPC server bootstrap on ``grpc.aio``: health, reflection, caps, graceful shutdown, error mapping.

Every server of a process runs on one event loop, in a thread of its own (:func:`serving_loop`), so
callers keep a plain synchronous API (:func:`start_server`, :meth:`RunningServer.stop`). Servicers
stay thin: each unary RPC method is wrapped by :func:`rpc`, which records metrics and turns domain
errors into ``google.rpc.Status`` (see ``shared.serving.errors``); streams by :func:`stream_rpc`.

**What runs where.** A unary method written as plain synchronous code runs on the server's
bounded thread pool (``TABULA_RPC_WORKERS`` threads), never on the loop; one written as ``async def``
(the rule services' ``SubmitCommand``) runs on the loop and must only await, never block. A server
stream written as an ``async def`` generator (the rule services' ``WatchMatch``) is a coroutine on
the loop: no thread per stream; what it must do synchronously (a token check against Redis, a fold)
it hands to the same pool with :func:`offload`. A stream written as a plain generator (the lobby's
room, queue and notice watches, which block on their own ``XREAD``) is stepped on a second pool of
``TABULA_MAX_BLOCKING_STREAMS`` threads, one per open stream.

**Caps** (:class:`Limits`, from the environment): unary calls running or queued
(``TABULA_MAX_INFLIGHT``), open server streams (``TABULA_MAX_STREAMS``) and open blocking streams
(``TABULA_MAX_BLOCKING_STREAMS``). A call beyond a cap is answered at once with
``RESOURCE_EXHAUSTED`` (reason ``over_capacity``, metadata ``limit`` naming the cap), so an
instance at its limit refuses the next caller instead of freezing everyone.

Requests arrive as raw bytes (the method handlers are built here with no deserializer): grpc
would log a traceback for every undecodable request and answer INTERNAL, so the bytes are parsed
in the handler instead, where a failure is INVALID_ARGUMENT like any other bad input
(``shared.serving.bounds``). A client's mistake is never logged with a traceback; it is counted by
reason (``tabula_rpc_errors_total``). Its status carries the message in the caller's locale too
(``shared.serving.refusals``).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import logging
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeAlias, TypeVar

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.rpc import code_pb2, status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

from shared.core.i18n import DEFAULT, Texts, locale_of
from shared.runtime.edge import edge_loop
from shared.runtime.observability import RPC_ERRORS, RPC_SECONDS, RPCS, log_fields
from shared.serving.bounds import check_request, parse
from shared.serving.errors import Mapped, ResourceExhausted, map_error, to_status
from shared.serving.refusals import localized

log = logging.getLogger("tabula.grpc")
MAX_MESSAGE = 8 * 1024 * 1024
RETRY_BUSY_S = 1.0  # the RetryInfo of an over_capacity refusal
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True, slots=True)
class Limits:
    """The concurrency one server instance accepts; Redis connection pools are sized from it.

    ``workers``: threads running unary handlers (and what streams offload); ``max_inflight``: unary
    calls running or waiting for a thread; ``max_streams``: open server streams of any kind;
    ``blocking_streams``: open streams written as plain generators (one thread each).
    """

    workers: int = 32
    max_inflight: int = 512
    max_streams: int = 10_000
    blocking_streams: int = 256

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Limits:
        """``TABULA_RPC_WORKERS``, ``TABULA_MAX_INFLIGHT``, ``TABULA_MAX_STREAMS``,
        ``TABULA_MAX_BLOCKING_STREAMS``; the defaults above for those not set."""
        e = env if env is not None else os.environ
        d = Limits()
        limits = Limits(
            workers=int(e.get("TABULA_RPC_WORKERS", d.workers)),
            max_inflight=int(e.get("TABULA_MAX_INFLIGHT", d.max_inflight)),
            max_streams=int(e.get("TABULA_MAX_STREAMS", d.max_streams)),
            blocking_streams=int(e.get("TABULA_MAX_BLOCKING_STREAMS", d.blocking_streams)),
        )
        if min(limits.workers, limits.max_inflight, limits.max_streams, limits.blocking_streams) < 1:
            raise ValueError(f"every TABULA_* concurrency cap must be at least 1: {limits}")
        return limits

    def redis_connections(self, background: int = 0) -> int:
        """Connections of the synchronous Redis pool: one per thread that may use it at once (the
        unary workers, the blocking streams, ``background`` threads of the process) and a few for
        the calls that end a stream (leases given back)."""
        return self.workers + self.blocking_streams + background + 4


class Aborted(Exception):
    """A call's failure, already mapped and counted: the status the call ends with (:meth:`status`,
    in the caller's locale). ``mapped`` is None for an unexpected error (INTERNAL)."""

    def __init__(self, mapped: Mapped | None, domain: str) -> None:
        super().__init__(mapped.message if mapped is not None else "internal error")
        self.mapped, self.domain = mapped, domain

    def status(self, context: Any = None, texts: Sequence[Texts] = ()) -> grpc.Status:
        """The status, its LocalizedMessage in the locale of ``context``'s call (English without
        one) from ``texts`` or the platform's."""
        if self.mapped is None:
            return rpc_status.to_status(status_pb2.Status(code=code_pb2.INTERNAL, message="internal error"))
        locale = locale_of(context.invocation_metadata()) if context is not None else DEFAULT
        return to_status(self.mapped, self.domain, localized(self.mapped, locale, texts))


def failure(err: BaseException, service: str, method: str) -> Aborted:
    """The failure for ``err`` (the error table, else INTERNAL), with its metrics and log line.
    Called while ``err`` is being handled (an INTERNAL one is logged with its traceback)."""
    mapped = map_error(err)
    if mapped is None:
        log.exception("unexpected error", extra=log_fields(service=service, method=method))
        RPCS.labels(service, method, "INTERNAL").inc()
        return Aborted(None, f"tabula.{service}")
    if mapped.code is grpc.StatusCode.UNAVAILABLE:  # ours to watch, not the client's: no traceback
        log.warning(
            "dependency unavailable",
            extra=log_fields(service=service, method=method, reason=mapped.reason, error=repr(err)),
        )
    RPCS.labels(service, method, mapped.code.name).inc()
    RPC_ERRORS.labels(service, method, mapped.code.name, mapped.reason).inc()
    return Aborted(mapped, f"tabula.{service}")


@contextmanager
def _recorded(service: str, method: str) -> Iterator[None]:
    """One unary call's metrics and error mapping, around its body (which ends with the response)."""
    started = time.perf_counter()
    try:
        yield
    except Exception as err:  # every domain error is mapped; the rest is INTERNAL
        raise failure(err, service, method) from None
    finally:
        RPC_SECONDS.labels(service, method).observe(time.perf_counter() - started)
    RPCS.labels(service, method, "OK").inc()


def rpc(service: str) -> Callable[[F], F]:
    """Decorate a unary servicer method: bounds on the request, metrics, and the error table. A plain
    method runs on the server's thread pool; an ``async def`` one on the serving loop."""

    def wrap(method: F) -> F:
        name = method.__name__
        if inspect.iscoroutinefunction(method):

            @functools.wraps(method)
            async def async_handler(self: Any, request: Any, context: Any) -> Any:
                with _recorded(service, name):
                    check_request(request)
                    response = await method(self, request, context)
                return response

            return async_handler  # type: ignore[return-value]

        @functools.wraps(method)
        def handler(self: Any, request: Any, context: Any) -> Any:
            with _recorded(service, name):
                check_request(request)
                response = method(self, request, context)
            return response

        return handler  # type: ignore[return-value]

    return wrap


def stream_rpc(service: str) -> Callable[[F], F]:
    """Decorate a server-streaming servicer method (a generator or an async generator): errors
    before or during the stream are mapped."""

    def wrap(method: F) -> F:
        if inspect.isasyncgenfunction(method):

            @functools.wraps(method)
            async def async_handler(self: Any, request: Any, context: Any) -> AsyncIterator[Any]:
                try:
                    check_request(request)
                    async for item in method(self, request, context):
                        yield item
                except Exception as err:
                    raise failure(err, service, method.__name__) from None
                RPCS.labels(service, method.__name__, "OK").inc()

            return async_handler  # type: ignore[return-value]

        @functools.wraps(method)
        def handler(self: Any, request: Any, context: Any) -> Iterator[Any]:
            try:
                check_request(request)
                yield from method(self, request, context)
            except Exception as err:
                raise failure(err, service, method.__name__) from None
            RPCS.labels(service, method.__name__, "OK").inc()

        return handler  # type: ignore[return-value]

    return wrap


class Gate:
    """A cap on concurrent calls of one kind (thread-safe: a unary call leaves from its thread)."""

    def __init__(self, limit: str, most: int, what: str) -> None:
        self.limit, self.most, self.what = limit, most, what
        self.count = 0
        self._lock = threading.Lock()

    def enter(self) -> None:
        with self._lock:
            if self.count >= self.most:
                raise ResourceExhausted(
                    "over_capacity",
                    self.limit,
                    RETRY_BUSY_S,
                    "this instance already serves {most} {what}; retry shortly",
                    most=self.most,
                    what=self.what,
                )
            self.count += 1

    def leave(self) -> None:
        with self._lock:
            self.count -= 1


@dataclass
class Serving:
    """One server's pools and caps."""

    limits: Limits
    executor: futures.ThreadPoolExecutor = field(init=False)
    blocking: futures.ThreadPoolExecutor = field(init=False)
    unary: Gate = field(init=False)
    streams: Gate = field(init=False)
    blocking_streams: Gate = field(init=False)

    def __post_init__(self) -> None:
        limits = self.limits
        self.executor = futures.ThreadPoolExecutor(limits.workers, thread_name_prefix="rpc")
        # a blocking stream's thread, plus a few for the clean-up of streams that ended mid-step
        self.blocking = futures.ThreadPoolExecutor(limits.blocking_streams + 4, thread_name_prefix="stream")
        self.unary = Gate("max_inflight", limits.max_inflight, "calls at once")
        self.streams = Gate("max_streams", limits.max_streams, "open streams")
        self.blocking_streams = Gate("max_blocking_streams", limits.blocking_streams, "open lobby streams")

    def shutdown(self) -> None:
        """No new work; what is queued (a stream's clean-up: a lease given back) still runs."""
        self.executor.shutdown(wait=False)
        self.blocking.shutdown(wait=False)


AioContext: TypeAlias = grpc.aio.ServicerContext[Any, Any]
_SERVING: contextvars.ContextVar[Serving] = contextvars.ContextVar("tabula_serving")


async def offload(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run blocking ``fn`` on the calling RPC's thread pool (outside a call: the loop's default)."""
    serving = _SERVING.get(None)
    if serving is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    return await asyncio.wrap_future(serving.executor.submit(fn, *args, **kwargs))


def offload_soon(fn: Callable[[], object]) -> None:
    """Start blocking ``fn`` on the calling RPC's thread pool and not wait (a stream's clean-up,
    which must run even when the stream was cancelled)."""
    serving = _SERVING.get(None)
    if serving is None:
        threading.Thread(target=fn, daemon=True).start()
        return
    try:
        serving.executor.submit(fn)
    except RuntimeError:  # the pool is shut down (the server stopped): do it here
        fn()


class BlockingContext:
    """What a plain-generator stream sees of its call: ``is_active`` and ``add_callback`` as the
    synchronous server had them, the rest delegated to the grpc.aio context."""

    def __init__(self, context: AioContext) -> None:
        self._context = context
        self._active = True
        self._callbacks: list[Callable[[], object]] = []

    def is_active(self) -> bool:
        return self._active

    def add_callback(self, callback: Callable[[], object]) -> bool:
        self._callbacks.append(callback)
        return True

    def end(self) -> None:
        """The call is over: run the callbacks once (from a pool thread: they may touch Redis)."""
        self._active = False
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("stream end callback failed")

    def invocation_metadata(self) -> Any:
        return self._context.invocation_metadata()

    def peer(self) -> str:
        return str(self._context.peer())


_END = object()


@dataclass
class Registration:
    """One servicer: an object with a method per RPC of ``service`` (its descriptor, from the
    generated ``_pb2``), and the ``label`` its metrics and error domain use ("game", "lobby");
    ``texts``: where its refusals' translations are looked up before the platform's."""

    servicer: Any
    service: ServiceDescriptor
    label: str
    texts: Sequence[Texts] = ()

    @property
    def full_name(self) -> str:
        return self.service.full_name

    def handler(self, serving: Serving) -> grpc.GenericRpcHandler:
        """Method handlers that take the raw request bytes and parse them in the handler."""
        handlers = {method.name: self._method(method, serving) for method in self.service.methods}
        return grpc.method_handlers_generic_handler(self.full_name, handlers)

    def _method(self, method: MethodDescriptor, serving: Serving) -> grpc.RpcMethodHandler:
        request_type = message_factory.GetMessageClass(method.input_type)
        serialize = message_factory.GetMessageClass(method.output_type).SerializeToString
        behaviour = getattr(self.servicer, method.name)
        name, label, texts = method.name, self.label, self.texts

        async def admit(raw: bytes, context: AioContext, *gates: Gate) -> Any:
            """The parsed request once every gate let the call in (else the call ends here)."""
            entered: list[Gate] = []
            try:
                request = parse(request_type, raw)
                for gate in gates:
                    gate.enter()
                    entered.append(gate)
            except Exception as err:
                for gate in entered:
                    gate.leave()
                await context.abort_with_status(failure(err, label, name).status(context, texts))
            _SERVING.set(serving)
            return request

        if method.client_streaming:
            raise ValueError(f"{self.full_name}.{name}: client streaming is not supported")
        if method.server_streaming and inspect.isasyncgenfunction(behaviour):

            async def stream(raw: bytes, context: AioContext) -> AsyncIterator[Any]:
                request = await admit(raw, context, serving.streams)
                try:
                    async for item in behaviour(request, context):
                        yield item
                except Aborted as aborted:
                    await context.abort_with_status(aborted.status(context, texts))
                finally:
                    serving.streams.leave()

            return grpc.unary_stream_rpc_method_handler(stream, response_serializer=serialize)
        if method.server_streaming:

            async def blocking_stream(raw: bytes, context: AioContext) -> AsyncIterator[Any]:
                request = await admit(raw, context, serving.streams, serving.blocking_streams)
                scope = BlockingContext(context)
                items = behaviour(request, scope)
                step: futures.Future[Any] | None = None
                try:
                    while True:
                        step = serving.blocking.submit(next, items, _END)
                        item = await asyncio.wrap_future(step)
                        if item is _END:
                            return
                        yield item
                except Aborted as aborted:
                    await context.abort_with_status(aborted.status(context, texts))
                finally:
                    serving.streams.leave()
                    serving.blocking_streams.leave()
                    try:
                        serving.blocking.submit(_close, items, step, scope)
                    except RuntimeError:  # the server stopped and its pool with it
                        threading.Thread(target=_close, args=(items, step, scope), daemon=True).start()

            return grpc.unary_stream_rpc_method_handler(blocking_stream, response_serializer=serialize)

        if inspect.iscoroutinefunction(behaviour):

            async def unary_on_loop(raw: bytes, context: AioContext) -> Any:
                request = await admit(raw, context, serving.unary)
                try:
                    return await behaviour(request, context)
                except Aborted as aborted:
                    await context.abort_with_status(aborted.status(context, texts))
                finally:
                    serving.unary.leave()

            return grpc.unary_unary_rpc_method_handler(unary_on_loop, response_serializer=serialize)

        async def unary(raw: bytes, context: AioContext) -> Any:
            request = await admit(raw, context, serving.unary)
            try:
                done = serving.executor.submit(behaviour, request, context)
            except RuntimeError:  # the pool is shut down: the server is stopping
                serving.unary.leave()
                raise
            done.add_done_callback(lambda _: serving.unary.leave())  # also when cancelled before it ran
            try:
                return await asyncio.wrap_future(done)
            except Aborted as aborted:
                await context.abort_with_status(aborted.status(context, texts))

        return grpc.unary_unary_rpc_method_handler(unary, response_serializer=serialize)


def _close(items: Iterator[Any], step: futures.Future[Any] | None, scope: BlockingContext) -> None:
    """End a plain-generator stream from a pool thread: after its last step, close it and run the
    call's end callbacks."""
    if step is not None:
        futures.wait([step])
    scope.end()
    close = getattr(items, "close", None)
    if close is not None:
        try:
            close()
        except Exception:
            log.exception("closing a stream failed")


def serving_loop() -> asyncio.AbstractEventLoop:
    """The process's serving event loop: its one loop (``shared.runtime.edge``), so a synchronous
    handler's store calls (``edge.wait``) share the loop, and the connections, of the server."""
    return edge_loop()


def on_loop(work: Awaitable[T], timeout: float | None = None) -> T:
    """Run ``work`` on the serving loop from another thread and wait for its result."""

    async def run() -> T:
        return await work

    return asyncio.run_coroutine_threadsafe(run(), serving_loop()).result(timeout)


@dataclass
class RunningServer:
    server: grpc.aio.Server
    port: int
    health: HealthServicer
    serving: Serving
    names: list[str]

    def stop(self, grace: float = 5.0) -> None:
        """Health says NOT_SERVING, new calls are refused, calls in flight get ``grace`` s (then
        are cancelled: an open stream ends with CANCELLED and its client opens it elsewhere)."""

        async def stop() -> None:
            for name in self.names:
                await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
            await self.server.stop(grace)

        try:
            on_loop(stop(), grace + 10)
        finally:
            self.serving.shutdown()


def start_server(
    regs: Sequence[Registration], port: int = 0, host: str = "127.0.0.1", limits: Limits | None = None
) -> RunningServer:
    """Build, bind (port 0: a free port) and start a server with health and reflection, on the
    serving loop; ``limits``: its pools and caps (default: :meth:`Limits.from_env`).

    The port is bound without ``SO_REUSEPORT`` (grpc sets it by default): a port another process
    or server holds is refused (RuntimeError) instead of shared with it, calls split between both.
    """
    limits = limits if limits is not None else Limits.from_env()
    serving = Serving(limits)
    options = [
        ("grpc.max_receive_message_length", MAX_MESSAGE),
        ("grpc.max_send_message_length", MAX_MESSAGE),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        # calls grpc holds until the loop takes them: past these it cancels them (CANCELLED, before
        # the caps could answer), so room for every call the caps admit arriving at once
        ("grpc.server.max_pending_requests", limits.max_inflight + limits.max_streams),
        ("grpc.server.max_pending_requests_hard_limit", limits.max_inflight + limits.max_streams),
        ("grpc.so_reuseport", 0),
    ]

    async def start() -> RunningServer:
        server = grpc.aio.server(options=options)
        health_servicer = HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        server.add_generic_rpc_handlers(tuple(reg.handler(serving) for reg in regs))
        names = [reg.full_name for reg in regs]
        for name in [*names, ""]:
            await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        reflection.enable_server_reflection([*names, health.SERVICE_NAME, reflection.SERVICE_NAME], server)
        bound = server.add_insecure_port(f"{host}:{port}")
        await server.start()
        return RunningServer(server, bound, health_servicer, serving, [*names, ""])

    try:
        return on_loop(start(), 60)
    except BaseException:
        serving.shutdown()
        raise


def serve_forever(running: RunningServer, name: str, grace: float = 5.0) -> None:
    """Block until SIGTERM or SIGINT, then stop gracefully (in-flight RPCs get ``grace`` s)."""
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.set())
    log.info("listening", extra=log_fields(service=name, port=running.port))
    stopping.wait()
    log.info("stopping", extra=log_fields(service=name))
    running.stop(grace)
