"""Stubs built from a service descriptor: every RPC callable by name, nothing built from a game's name."""

from __future__ import annotations

import types

import grpc
import pytest
from tabula.lobby.v1 import lobby_pb2

from services.games import game_modules, game_names
from shared.serving.stubs import ServiceStub, game_service, game_stub


def test_each_registered_game_module_has_one_service_and_the_stub_has_its_methods() -> None:
    channel = grpc.insecure_channel("127.0.0.1:9")  # never connected: no call is made
    try:
        for name in game_names():
            pb2 = game_modules(name).pb2
            service = game_service(pb2)
            stub = game_stub(pb2, channel)
            assert {m.name for m in service.methods} >= {"GetView", "SubmitCommand", "WatchMatch"}
            assert callable(stub.GetView) and callable(stub.WatchMatch)
            with pytest.raises(AttributeError, match="no method Nope"):
                _ = stub.Nope
    finally:
        channel.close()


def test_a_module_without_exactly_one_service_is_refused() -> None:
    fake = types.SimpleNamespace(__name__="fake_pb2", DESCRIPTOR=types.SimpleNamespace(services_by_name={}))
    with pytest.raises(ValueError, match="expected one service, found 0"):
        game_service(fake)  # type: ignore[arg-type]


def test_the_lobby_service_works_the_same_way() -> None:
    channel = grpc.insecure_channel("127.0.0.1:9")
    try:
        stub = ServiceStub(channel, game_service(lobby_pb2))
        assert callable(stub.SignInGuest)
    finally:
        channel.close()
