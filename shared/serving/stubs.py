"""A client stub for a game's service, built from its descriptor instead of a generated class name.

Every game module generates one ``<Game>Service``; the platform reaches it through the service
descriptor of the game's ``_pb2`` module (``DESCRIPTOR.services_by_name``, exactly one), so no
class name is ever built from a game's name. Methods are attributes named like the RPCs
(``stub.GetView(request, metadata=..., timeout=...)``), as on a generated stub.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor


def game_service(pb2: ModuleType) -> ServiceDescriptor:
    """The one service a game's generated module declares."""
    services = list(pb2.DESCRIPTOR.services_by_name.values())
    if len(services) != 1:
        raise ValueError(f"{pb2.__name__}: expected one service, found {len(services)}")
    service: ServiceDescriptor = services[0]
    return service


class ServiceStub:
    """Unary and server-streaming callables for every method of ``service`` on ``channel``."""

    def __init__(self, channel: grpc.Channel, service: ServiceDescriptor) -> None:
        self.service = service
        self._calls: dict[str, Any] = {}
        for method in service.methods:
            path = f"/{service.full_name}/{method.name}"
            request = message_factory.GetMessageClass(method.input_type)
            response = message_factory.GetMessageClass(method.output_type)
            make = channel.unary_stream if method.server_streaming else channel.unary_unary
            self._calls[method.name] = make(
                path, request_serializer=request.SerializeToString, response_deserializer=response.FromString
            )

    def __getattr__(self, name: str) -> Any:
        try:
            return self._calls[name]
        except KeyError:
            raise AttributeError(f"{self.service.full_name} has no method {name}") from None


def game_stub(pb2: ModuleType, channel: grpc.Channel) -> ServiceStub:
    return ServiceStub(channel, game_service(pb2))
