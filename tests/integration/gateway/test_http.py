"""What every gateway response carries, whatever the route: security headers, CORS for the
configured origins only (preflight included), and the limits set in the configuration."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import aiohttp
import pytest

from services.gateway.app import GatewayConfig
from services.gateway.http import parse_origins
from services.gateway.registry import default_areas
from services.gateway.server import config_from_env
from shared.runtime.redis_server import free_port
from shared.serving.tokens import Keyring
from tests.integration.gateway.support import GatewayThread, gateway

ALLOWED = "https://play.example.com"
METHOD = "/tabula.lobby.v1.LobbyService/SignInGuest"


@pytest.fixture
def gw() -> Iterator[GatewayThread]:
    nowhere = {f"TABULA_{area.upper()}_ADDR": f"127.0.0.1:{free_port()}" for area in default_areas()}
    with gateway(nowhere, GatewayConfig(cors_origins=frozenset({ALLOWED}))) as running:
        yield running


def request(gw: GatewayThread, verb: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    async def go() -> tuple[int, dict[str, str]]:
        async with (
            aiohttp.ClientSession() as session,
            session.request(
                verb, gw.url + path, headers=headers, data=b"{}" if verb == "POST" else None
            ) as reply,
        ):
            await reply.read()
            return reply.status, dict(reply.headers)

    return asyncio.run(go())


def test_every_response_carries_the_security_headers(gw: GatewayThread) -> None:
    for verb, path, headers in (
        ("GET", "/", {}),
        ("GET", "/static/spectator.js", {}),
        ("GET", "/no/such/page", {}),
        ("POST", METHOD, {"Content-Type": "application/json"}),  # the backend is down: 503
        ("POST", METHOD, {"Content-Type": "text/plain"}),
    ):
        status, got = request(gw, verb, path, headers)
        assert got["X-Content-Type-Options"] == "nosniff", (path, status)
        assert got["X-Frame-Options"] == "DENY"
        assert got["Referrer-Policy"] == "no-referrer"
        csp = got["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp


def test_a_preflight_from_an_allowed_origin_may_send_connect_headers(gw: GatewayThread) -> None:
    status, got = request(
        gw,
        "OPTIONS",
        METHOD,
        {
            "Origin": ALLOWED,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,connect-protocol-version",
        },
    )
    assert status == 204 and got["Access-Control-Allow-Origin"] == ALLOWED
    allowed = {h.strip().lower() for h in got["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "connect-protocol-version", "connect-timeout-ms"} <= allowed
    assert {"x-grpc-web", "grpc-timeout"} <= allowed
    assert "POST" in got["Access-Control-Allow-Methods"] and int(got["Access-Control-Max-Age"]) > 0


def test_other_origins_get_no_cors_headers_and_their_preflight_is_refused(gw: GatewayThread) -> None:
    headers = {"Origin": "https://evil.example.com", "Access-Control-Request-Method": "POST"}
    status, got = request(gw, "OPTIONS", METHOD, headers)
    assert status == 403 and "Access-Control-Allow-Origin" not in got
    _, got = request(
        gw, "POST", METHOD, {"Origin": "https://evil.example.com", "Content-Type": "application/json"}
    )
    assert "Access-Control-Allow-Origin" not in got and got["Vary"] == "Origin"


def test_responses_to_an_allowed_origin_expose_the_grpc_web_trailers(gw: GatewayThread) -> None:
    _, got = request(gw, "POST", METHOD, {"Origin": ALLOWED, "Content-Type": "application/json"})
    assert got["Access-Control-Allow-Origin"] == ALLOWED and got["Vary"] == "Origin"
    assert "Grpc-Status" in got["Access-Control-Expose-Headers"]


def test_a_text_plain_post_that_needs_no_preflight_is_refused(gw: GatewayThread) -> None:
    status, _ = request(gw, "POST", METHOD, {"Origin": ALLOWED, "Content-Type": "text/plain"})
    assert status == 415


def test_the_configuration_comes_from_the_environment() -> None:
    config = config_from_env(
        {
            "TABULA_CORS_ORIGINS": " https://a.example ,https://b.example/ ,",
            "TABULA_GATEWAY_MAX_STREAMS": "7",
            "TABULA_GATEWAY_MAX_BODY": "1024",
        }
    )
    assert config.cors_origins == {"https://a.example", "https://b.example"}
    assert config.limits.max_streams == 7 and config.limits.max_body == 1024
    assert parse_origins("") == frozenset()
    assert config.forward_key is None  # no secret: no address forwarded (main() refuses to start)
    secret = "gateway-config-secret-0123456789abcdef"
    assert config_from_env({"TABULA_SECRET": secret}).forward_key == Keyring.of(secret.encode()).current
