"""Test helpers for the gateway: serve its app with hypercorn in a thread (as ``tabula serve gateway``
does: HTTP/1.1 and h2c on one port), and a Lorenzo service on a private Redis."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from services.games import load_game
from services.gateway.app import GatewayConfig, build_app
from services.gateway.registry import discover
from services.gateway.rpc import RpcContext
from services.gateway.server import serve
from shared.runtime.redis_server import free_port
from shared.serving.grpc_server import RunningServer
from shared.serving.tokens import TokenSigner
from tests.support.game_server import serving

SIGNER = TokenSigner(b"gateway-test-secret-0123456789abcdef")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def service_token() -> str:
    return SIGNER.service("lorenzo")


def spectator_token(match_id: str) -> str:
    return SIGNER.spectator("lorenzo", match_id, "watcher")


def seat_token(match_id: str, seat: int) -> str:
    return SIGNER.seat("lorenzo", match_id, seat, f"p{seat}")


@contextmanager
def lorenzo_service(redis_client: Any) -> Iterator[RunningServer]:
    with serving(load_game("lorenzo"), redis_client, SIGNER, keepalive_s=0.5) as running:
        yield running


class GatewayThread:
    """The gateway's app served by hypercorn on a free loopback port, in its own thread and event loop."""

    def __init__(self, env: dict[str, str], config: GatewayConfig | None = None) -> None:
        self.app = build_app(discover(env), config)
        self.rpc: RpcContext = self.app.state.rpc
        self._socket = socket.create_server(("127.0.0.1", 0))
        self.port = self._socket.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._thread = threading.Thread(target=self._run, name="gateway", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> GatewayThread:
        self._thread.start()
        return self

    def stop(self) -> None:
        """As SIGTERM does: open streams end with UNAVAILABLE, then the server closes (idempotent)."""
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(15)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        listening = f"fd://{self._socket.detach()}"  # hypercorn owns the socket from here and closes it
        self._loop.run_until_complete(serve(self.app, [listening], self._stop))
        self._loop.close()


@contextmanager
def gateway(env: dict[str, str], config: GatewayConfig | None = None) -> Iterator[GatewayThread]:
    running = GatewayThread(env, config).start()
    try:
        yield running
    finally:
        running.stop()


@contextmanager
def lorenzo_gateway(redis_client: redis.Redis, config: GatewayConfig) -> Iterator[GatewayThread]:
    """A gateway in front of a Lorenzo rule service on ``redis_client``; the lobby's address is a free
    port nobody listens on."""
    with lorenzo_service(redis_client) as lorenzo:
        env = {
            "TABULA_LORENZO_ADDR": f"127.0.0.1:{lorenzo.port}",
            "TABULA_LOBBY_ADDR": f"127.0.0.1:{free_port()}",
        }
        with gateway(env, config) as running:
            yield running
