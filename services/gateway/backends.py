"""gRPC channels to the backends (one per area) and the generic callables built from descriptors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.gateway.registry import Method
from shared.serving.addresses import ROUND_ROBIN, channel_target

MAX_MESSAGE = 8 * 1024 * 1024


class Backends:
    """Channels are opened inside the running event loop (``open``), never at import time."""

    def __init__(self, addresses: Mapping[str, str]) -> None:
        self.addresses = dict(addresses)
        self._channels: dict[str, grpc.aio.Channel] = {}

    async def open(self) -> None:
        options = [
            ("grpc.max_receive_message_length", MAX_MESSAGE),
            ("grpc.max_send_message_length", MAX_MESSAGE),
            ROUND_ROBIN,  # every address a name resolves to (headless Services) or a list names
        ]
        for area, address in self.addresses.items():
            self._channels[area] = grpc.aio.insecure_channel(channel_target(address), options=options)

    async def close(self) -> None:
        for channel in self._channels.values():
            await channel.close(grace=1)
        self._channels.clear()

    def unary(self, method: Method) -> Any:
        return self._channels[method.area].unary_unary(
            method.path,
            request_serializer=method.request_type.SerializeToString,
            response_deserializer=method.response_type.FromString,
        )

    def server_stream(self, method: Method) -> Any:
        return self._channels[method.area].unary_stream(
            method.path,
            request_serializer=method.request_type.SerializeToString,
            response_deserializer=method.response_type.FromString,
        )

    async def health(self, timeout_s: float = 2.0) -> dict[str, str]:
        """Each backend's gRPC health status name (or the error code name)."""
        out: dict[str, str] = {}
        for area, channel in self._channels.items():
            stub = health_pb2_grpc.HealthStub(channel)
            try:
                reply = await stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout_s)
                out[area] = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
            except grpc.aio.AioRpcError as err:
                out[area] = err.code().name
        return out
