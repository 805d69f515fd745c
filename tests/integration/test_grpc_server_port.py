"""A gRPC server binds its port alone: a second server on a taken port fails to start, loudly,
instead of sharing the port with SO_REUSEPORT (grpc's default), where calls would split between
the two servers (in tests: a port picked free, then taken by another test's server meanwhile)."""

from __future__ import annotations

import socket

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from shared.serving.grpc_server import start_server


def test_a_second_server_on_a_taken_port_fails_to_start() -> None:
    first = start_server([])
    try:
        with pytest.raises(RuntimeError, match="bind"):
            start_server([], port=first.port)
        with grpc.insecure_channel(f"127.0.0.1:{first.port}") as channel:  # the first still serves
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        first.stop(0)


def test_a_port_held_by_another_socket_is_refused() -> None:
    """Another program's listening socket (with SO_REUSEPORT itself: it would let us share)."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        with pytest.raises(RuntimeError, match="bind"):
            start_server([], port=holder.getsockname()[1])
    finally:
        holder.close()
