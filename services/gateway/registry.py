"""Which gRPC methods the gateway can reach, and where: read from the generated modules' descriptors.

Each area (the lobby and every registered game) has a generated module
``tabula.<area>.v1.<area>_pb2``; every service in its ``DESCRIPTOR.services_by_name`` becomes
routable, with its backend address from ``TABULA_<AREA>_ADDR`` (default: the convention
``TABULA_ADDRESS_PATTERN``, else ``127.0.0.1``, and the area's port: ``TABULA_<AREA>_PORT``, else
the lobby's from ``shared.runtime.config`` and a game's from its manifest). The areas are the
lobby and every game of the registry (``services.games``).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message

from services.games import game_names, manifest, service_ports
from shared.serving.addresses import service_address

log = logging.getLogger("tabula.gateway")


@dataclass(frozen=True)
class Method:
    """One RPC: its full path and message classes, and which backend serves it."""

    area: str
    service: str  # full name, e.g. "tabula.lobby.v1.LobbyService"
    name: str
    request_type: type[Message]
    response_type: type[Message]
    server_streaming: bool
    client_streaming: bool

    @property
    def path(self) -> str:
        return f"/{self.service}/{self.name}"

    @property
    def is_unary(self) -> bool:
        return not self.server_streaming and not self.client_streaming

    @property
    def is_server_stream(self) -> bool:
        return self.server_streaming and not self.client_streaming


@dataclass(frozen=True)
class Registry:
    methods: Mapping[tuple[str, str], Method]  # (service full name, method name) -> method
    addresses: Mapping[str, str]  # area -> host:port

    def find(self, service: str, name: str) -> Method | None:
        return self.methods.get((service, name))

    def services(self) -> dict[str, list[Method]]:
        out: dict[str, list[Method]] = {}
        for method in self.methods.values():
            out.setdefault(method.service, []).append(method)
        return out


def default_areas() -> list[str]:
    return ["lobby", *game_names()]


def module_name(area: str) -> str:
    """The generated module of an area: a game's from its manifest, else ``tabula.<area>.v1.<area>_pb2``."""
    if area in game_names():
        return manifest(area).pb2_module
    return f"tabula.{area}.v1.{area}_pb2"


def backend_address(area: str, env: Mapping[str, str]) -> str | None:
    """``TABULA_<AREA>_ADDR``, else the convention ``TABULA_ADDRESS_PATTERN``, else 127.0.0.1, with the
    area's port (``TABULA_<AREA>_PORT`` or the default: the platform's for the lobby, the manifest's
    for a game; ``shared.serving.addresses.service_address``)."""
    port = env.get(f"TABULA_{area.upper()}_PORT") or service_ports().get(area)
    explicit = env.get(f"TABULA_{area.upper()}_ADDR")
    return explicit or (service_address(area, port, env) if port else None)


def _method(area: str, descriptor: MethodDescriptor) -> Method:
    return Method(
        area=area,
        service=descriptor.containing_service.full_name,
        name=descriptor.name,
        request_type=message_factory.GetMessageClass(descriptor.input_type),
        response_type=message_factory.GetMessageClass(descriptor.output_type),
        server_streaming=descriptor.server_streaming,
        client_streaming=descriptor.client_streaming,
    )


def discover(env: Mapping[str, str], areas: Sequence[str] | None = None) -> Registry:
    """Every service of every area whose generated module imports and whose address is known."""
    methods: dict[tuple[str, str], Method] = {}
    addresses: dict[str, str] = {}
    for area in default_areas() if areas is None else areas:
        address = backend_address(area, env)
        try:
            module = importlib.import_module(module_name(area))
        except ModuleNotFoundError:
            log.warning("no generated module for %s (run make proto); not routed", area)
            continue
        if address is None:
            log.warning("no address for %s: set TABULA_%s_ADDR; not routed", area, area.upper())
            continue
        addresses[area] = address
        for service in module.DESCRIPTOR.services_by_name.values():
            for descriptor in service.methods:
                method = _method(area, descriptor)
                methods[(method.service, method.name)] = method
    return Registry(methods, addresses)
