"""gRPC server bootstrap: health checking, reflection, limits, graceful shutdown, error mapping.

Servicers stay thin: each RPC method is wrapped by :func:`rpc`, which records metrics and
turns domain errors into ``google.rpc.Status`` (see ``shared.errors``).

Requests arrive as raw bytes (the method handlers are built here with no deserializer): grpc
would log a traceback for every undecodable request and answer INTERNAL, so the bytes are parsed
in the handler instead, where a failure is INVALID_ARGUMENT like any other bad input
(``shared.bounds``). A client's mistake is never logged with a traceback; it is counted by
reason (``tabula_rpc_errors_total``).
"""

from __future__ import annotations

import functools
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from shared.bounds import check_request, parse
from shared.errors import map_error, to_status
from shared.observability import RPC_ERRORS, RPC_SECONDS, RPCS, log_fields

log = logging.getLogger("tabula.grpc")
MAX_MESSAGE = 8 * 1024 * 1024
F = TypeVar("F", bound=Callable[..., Any])


def _abort(context: grpc.ServicerContext, err: BaseException, service: str, method: str) -> None:
    mapped = map_error(err)
    if mapped is None:
        log.exception("unexpected error", extra=log_fields(service=service, method=method))
        RPCS.labels(service, method, "INTERNAL").inc()
        context.abort(grpc.StatusCode.INTERNAL, "internal error")
    else:
        if mapped.code is grpc.StatusCode.UNAVAILABLE:  # ours to watch, not the client's: no traceback
            log.warning(
                "dependency unavailable",
                extra=log_fields(service=service, method=method, reason=mapped.reason, error=repr(err)),
            )
        RPCS.labels(service, method, mapped.code.name).inc()
        RPC_ERRORS.labels(service, method, mapped.code.name, mapped.reason).inc()
        context.abort_with_status(to_status(mapped, f"tabula.{service}"))


def rpc(service: str) -> Callable[[F], F]:
    """Decorate a unary servicer method: bounds on the request, metrics, and the error table."""

    def wrap(method: F) -> F:
        @functools.wraps(method)
        def handler(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
            started = time.perf_counter()
            try:
                check_request(request)
                response = method(self, request, context)
            except Exception as err:  # every domain error is mapped; the rest is INTERNAL
                _abort(context, err, service, method.__name__)
            finally:
                RPC_SECONDS.labels(service, method.__name__).observe(time.perf_counter() - started)
            RPCS.labels(service, method.__name__, "OK").inc()
            return response

        return handler  # type: ignore[return-value]

    return wrap


def stream_rpc(service: str) -> Callable[[F], F]:
    """Decorate a server-streaming servicer method: errors before or during the stream are mapped."""

    def wrap(method: F) -> F:
        @functools.wraps(method)
        def handler(self: Any, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                check_request(request)
                yield from method(self, request, context)
            except Exception as err:
                _abort(context, err, service, method.__name__)
            RPCS.labels(service, method.__name__, "OK").inc()

        return handler  # type: ignore[return-value]

    return wrap


@dataclass
class Registration:
    """One servicer: an object with a method per RPC of ``service`` (its descriptor, from the
    generated ``_pb2``), and the ``label`` its metrics and error domain use ("game", "lobby")."""

    servicer: Any
    service: ServiceDescriptor
    label: str

    @property
    def full_name(self) -> str:
        return self.service.full_name

    def handler(self) -> grpc.GenericRpcHandler:
        """Method handlers that take the raw request bytes and parse them in the handler."""
        handlers = {method.name: self._method(method) for method in self.service.methods}
        return grpc.method_handlers_generic_handler(self.full_name, handlers)

    def _method(self, method: MethodDescriptor) -> grpc.RpcMethodHandler:
        request_type = message_factory.GetMessageClass(method.input_type)
        serialize = message_factory.GetMessageClass(method.output_type).SerializeToString
        behaviour = getattr(self.servicer, method.name)
        name, label = method.name, self.label

        def parsed(raw: bytes, context: grpc.ServicerContext) -> Any:
            try:
                return parse(request_type, raw)
            except Exception as err:
                _abort(context, err, label, name)  # ends the call (context.abort raises)
                raise

        if method.client_streaming:
            raise ValueError(f"{self.full_name}.{name}: client streaming is not supported")
        if method.server_streaming:

            def stream(raw: bytes, context: grpc.ServicerContext) -> Iterator[Any]:
                yield from behaviour(parsed(raw, context), context)

            return grpc.unary_stream_rpc_method_handler(stream, response_serializer=serialize)

        def unary(raw: bytes, context: grpc.ServicerContext) -> Any:
            return behaviour(parsed(raw, context), context)

        return grpc.unary_unary_rpc_method_handler(unary, response_serializer=serialize)


@dataclass
class RunningServer:
    server: grpc.Server
    port: int
    health: health.HealthServicer

    def stop(self, grace: float = 5.0) -> None:
        for name in list(self.health._server_status):
            self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.server.stop(grace).wait()


def start_server(
    regs: Sequence[Registration], port: int = 0, host: str = "127.0.0.1", workers: int = 256
) -> RunningServer:
    """Build, bind (port 0: a free port) and start a server with health and reflection.

    Each open watch stream holds a worker thread, so the pool is large (threads start lazily).
    The port is bound without ``SO_REUSEPORT`` (grpc sets it by default): a port another process
    or server holds is refused (RuntimeError) instead of shared with it, calls split between both.
    """
    options = [
        ("grpc.max_receive_message_length", MAX_MESSAGE),
        ("grpc.max_send_message_length", MAX_MESSAGE),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.so_reuseport", 0),
    ]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers), options=options)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_generic_rpc_handlers(tuple(reg.handler() for reg in regs))
    for reg in regs:
        health_servicer.set(reg.full_name, health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    names = [reg.full_name for reg in regs] + [health.SERVICE_NAME, reflection.SERVICE_NAME]
    reflection.enable_server_reflection(names, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    server.start()
    return RunningServer(server, bound, health_servicer)


def serve_forever(running: RunningServer, name: str, grace: float = 5.0) -> None:
    """Block until SIGTERM or SIGINT, then stop gracefully (in-flight RPCs get ``grace`` s)."""
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.set())
    log.info("listening", extra=log_fields(service=name, port=running.port))
    stopping.wait()
    log.info("stopping", extra=log_fields(service=name))
    running.stop(grace)
