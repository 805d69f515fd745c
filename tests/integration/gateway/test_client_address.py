"""Whose address the per-address limits count, end to end: a real lobby over gRPC on a private Redis,
wired as ``tabula serve lobby`` wires it, behind the real gateway. A client calling the lobby directly
cannot choose its address (a forged ``x-forwarded-for`` or forwarded address is ignored, and the
sign-in limit of its own address still bites); the address the gateway forwards is believed."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.gateway.server import config_from_env
from services.lobby.server import Lobby, build
from shared.runtime.config import Settings
from shared.serving import forwarded
from shared.serving.ratelimit import PREFIX
from shared.serving.tokens import Keyring, TokenSigner
from tests.integration.gateway.support import GatewayThread, gateway

SECRET = "client-address-secret-0123456789abcdef"
SIGN_IN = "/tabula.lobby.v1.LobbyService/SignInGuest"
AT_ONCE = 3  # the sign-in limit: 3 per address, then one every 200 s


@pytest.fixture
def lobby(redis_url: str) -> Iterator[Lobby]:
    env = {"TABULA_SECRET": SECRET, "TABULA_LIMIT_SIGN_IN_IP": f"{AT_ONCE}/600"}
    running = build(Settings.from_env({"REDIS_URL": redis_url}), 0, TokenSigner(SECRET.encode()), env=env)
    yield running
    running.stop(0)


@pytest.fixture
def gw(lobby: Lobby) -> Iterator[GatewayThread]:
    env = {"TABULA_LOBBY_ADDR": f"127.0.0.1:{lobby.server.port}", "TABULA_SECRET": SECRET}
    with gateway(env, config_from_env(env)) as running:
        yield running


def direct_sign_in(lobby: Lobby, metadata: list[tuple[str, str]]) -> grpc.StatusCode:
    """A SignInGuest straight to the lobby's gRPC port, from 127.0.0.1."""
    with grpc.insecure_channel(f"127.0.0.1:{lobby.server.port}") as channel:
        stub: Any = lobby_pb2_grpc.LobbyServiceStub(channel)
        try:
            stub.SignInGuest(pb.SignInGuestRequest(display_name="Eve"), metadata=metadata, timeout=5)
        except grpc.RpcError as err:
            return err.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def gateway_sign_in(gw: GatewayThread, client: str) -> tuple[int, Any]:
    """A SignInGuest in Connect JSON through the gateway, from the loopback address ``client``."""
    connection = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10, source_address=(client, 0))
    try:
        body = b'{"displayName": "Ann"}'
        connection.request("POST", SIGN_IN, body, {"Content-Type": "application/json"})
        reply = connection.getresponse()
        return reply.status, json.loads(reply.read())
    finally:
        connection.close()


def forgeries(n: int) -> list[list[tuple[str, str]]]:
    """What a direct client may send to choose an address: a plain x-forwarded-for, a forwarded address
    signed with another secret, a signed one replayed with another address."""
    other = Keyring.of(b"not-the-secret-of-this-lobby-0123456789").current
    genuine = forwarded.sign(Keyring.of(SECRET.encode()).current, f"198.51.100.{n}").split(" ")
    return [
        [("x-forwarded-for", f"203.0.113.{n}")],
        [(forwarded.HEADER, forwarded.sign(other, f"203.0.113.{n}"))],
        [(forwarded.HEADER, " ".join([f"203.0.113.{n}", *genuine[1:]]))],
    ]


def test_a_direct_client_cannot_choose_its_address_and_the_gateways_is_believed(
    lobby: Lobby, gw: GatewayThread, redis_client: redis.Redis
) -> None:
    for _ in range(AT_ONCE):
        assert direct_sign_in(lobby, []) == grpc.StatusCode.OK
    assert direct_sign_in(lobby, []) == grpc.StatusCode.RESOURCE_EXHAUSTED  # 127.0.0.1's bucket is empty
    refused = [direct_sign_in(lobby, forged) for n in range(10) for forged in forgeries(n)]
    assert refused == [grpc.StatusCode.RESOURCE_EXHAUSTED] * 30  # every forged address still counts 127.0.0.1
    assert not list(redis_client.scan_iter(f"{PREFIX}:sign_in_ip:203.0.113.*"))
    # the gateway's calls come from 127.0.0.1 too, but the address it forwards is the one counted
    for client in ("127.0.0.2", "127.0.0.3"):
        for _ in range(AT_ONCE):
            status, body = gateway_sign_in(gw, client)
            assert status == 200 and body["token"], body
        status, body = gateway_sign_in(gw, client)
        assert status == 429 and body["code"] == "resource_exhausted", body
        assert redis_client.exists(f"{PREFIX}:sign_in_ip:{client}")
