"""Test helpers for the gateway: run its aiohttp app in a thread, and a Lorenzo service on a private Redis."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

from services.games import load_game
from services.gateway.app import GatewayConfig, build_app
from services.gateway.registry import discover
from shared.game_service import GameServicer
from shared.grpc_server import RunningServer, start_server
from shared.runner import MatchRunner
from shared.store.redis_store import RedisEventStore
from shared.tokens import TokenSigner

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
    game = load_game("lorenzo")
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))
    running = start_server([GameServicer(runner, game.modules, SIGNER, keepalive_s=0.5).registration()])
    try:
        yield running
    finally:
        running.stop(0)


class GatewayThread:
    """The gateway's aiohttp app on a free loopback port, in its own thread and event loop."""

    def __init__(self, env: dict[str, str], config: GatewayConfig | None = None) -> None:
        self.app = build_app(discover(env), config)
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._runner = web.AppRunner(self.app)
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gateway", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> GatewayThread:
        self._thread.start()
        if not self._ready.wait(15):
            raise TimeoutError("the gateway did not start")
        return self

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(15)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(15)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]


@contextmanager
def gateway(env: dict[str, str], config: GatewayConfig | None = None) -> Iterator[GatewayThread]:
    running = GatewayThread(env, config).start()
    try:
        yield running
    finally:
        running.stop()
