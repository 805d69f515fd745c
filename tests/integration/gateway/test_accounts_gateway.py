"""The account RPCs through the real gateway in Connect JSON, as a browser calls them: sign up, the
access token on a lobby call, refresh, sign out, refusals as Connect errors with their reason, and
the password tries counted per client address that the gateway forwards."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.gateway.server import config_from_env
from services.lobby.server import Lobby, build
from shared.runtime.config import Settings
from shared.serving.tokens import TokenSigner
from tests.integration.gateway.support import GatewayThread, gateway

SECRET = "accounts-gateway-secret-0123456789abcdef"
LOBBY = "/tabula.lobby.v1.LobbyService"
PASSWORD = "correct horse battery"


@pytest.fixture
def lobby(redis_url: str, redis_client: Any, tmp_path: Path) -> Iterator[Lobby]:
    """A lobby on the session's Redis, emptied first (``redis_client``): other tests sign up the same
    addresses."""
    env = {
        "TABULA_SECRET": SECRET,
        "TABULA_MAIL_DIR": str(tmp_path / "mail"),
        "TABULA_LIMIT_PASSWORD_TRIES_IP": "2/600",
    }
    running = build(Settings.from_env({"REDIS_URL": redis_url}), 0, TokenSigner(SECRET.encode()), env=env)
    yield running
    running.stop(0)


@pytest.fixture
def gw(lobby: Lobby) -> Iterator[GatewayThread]:
    env = {"TABULA_LOBBY_ADDR": f"127.0.0.1:{lobby.server.port}", "TABULA_SECRET": SECRET}
    with gateway(env, config_from_env(env)) as running:
        yield running


def call(
    gw: GatewayThread, method: str, body: Any, token: str = "", client: str = "127.0.0.1"
) -> tuple[int, Any]:
    """A Connect unary JSON call of a lobby method from the loopback address ``client``."""
    connection = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10, source_address=(client, 0))
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        connection.request("POST", f"{LOBBY}/{method}", json.dumps(body).encode(), headers)
        reply = connection.getresponse()
        return reply.status, json.loads(reply.read())
    finally:
        connection.close()


def reason(body: Any) -> str:
    (detail,) = [d for d in body["details"] if d["type"] == "google.rpc.ErrorInfo"]
    return str(detail["debug"]["reason"])


def test_a_session_over_connect_json(gw: GatewayThread) -> None:
    status, body = call(
        gw, "SignUp", {"email": "ada@example.org", "password": PASSWORD, "displayName": "Ada"}
    )
    assert status == 200, body
    session = body["session"]
    assert session["playerId"].startswith("a-") and session["displayName"] == "Ada"
    assert int(session["accessExpiresAt"]) < int(session["refreshExpiresAt"])
    status, account = call(gw, "GetAccount", {}, session["accessToken"])
    assert (status, account["email"], account["emailVerified"]) == (200, "ada@example.org", False)
    status, renewed = call(gw, "RefreshSession", {"refreshToken": session["refreshToken"]})
    assert status == 200 and renewed["session"]["refreshToken"] != session["refreshToken"]
    status, body = call(gw, "RefreshSession", {"refreshToken": session["refreshToken"]})
    assert (status, body["code"], reason(body)) == (400, "failed_precondition", "refresh_reused")
    status, body = call(gw, "SignIn", {"email": "ada@example.org", "password": PASSWORD})
    assert status == 200, body
    status, _ = call(gw, "SignOut", {"refreshToken": body["session"]["refreshToken"], "everywhere": True})
    assert status == 200


def test_password_tries_count_the_address_the_gateway_forwards(gw: GatewayThread) -> None:
    call(gw, "SignUp", {"email": "ada@example.org", "password": PASSWORD, "displayName": "Ada"})
    wrong = {"email": "ada@example.org", "password": "not the password"}
    for attempt in range(2):  # the second locks 127.0.0.2
        status, body = call(gw, "SignIn", wrong | {"email": f"x{attempt}@example.org"}, client="127.0.0.2")
        assert (status, reason(body)) == (400, "wrong_credentials"), body
    status, body = call(gw, "SignIn", wrong | {"password": PASSWORD}, client="127.0.0.2")
    assert (status, body["code"], reason(body)) == (429, "resource_exhausted", "rate_limited")
    status, body = call(gw, "SignIn", wrong | {"password": PASSWORD}, client="127.0.0.3")
    assert status == 200, body
