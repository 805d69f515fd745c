"""Bootstrap of the browser gateway: settings, the registry of backends, and the HTTP server.

``tabula serve gateway`` runs it on ``TABULA_HOST``:``TABULA_GATEWAY_PORT`` (default 8080) until
SIGTERM / Ctrl-C; open server streams end with UNAVAILABLE on the way out (clients reconnect).
The server is hypercorn: on that one port it speaks HTTP/1.1 and cleartext HTTP/2 (h2c), either with
prior knowledge (the connection opens with the HTTP/2 preface) or by ``Upgrade: h2c`` on a request
without a body. Like every serving process it refuses to start without ``TABULA_SECRET``: with it,
the gateway signs the client address it forwards to the services (``shared/serving/forwarded.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Mapping
from typing import cast

from hypercorn.asyncio import serve as hypercorn_serve
from hypercorn.config import Config
from hypercorn.typing import ASGIFramework
from starlette.applications import Starlette

from services.gateway.app import GatewayConfig, build_app
from services.gateway.http import parse_origins
from services.gateway.registry import discover
from services.gateway.rpc import RpcLimits, cancel_streams
from shared.runtime.config import port_for
from shared.serving.process import boot
from shared.serving.tokens import SECRET_VAR, keyring_from_env

log = logging.getLogger("tabula.gateway")


def config_from_env(env: Mapping[str, str]) -> GatewayConfig:
    limits = RpcLimits(
        deadline_s=float(env.get("TABULA_GATEWAY_DEADLINE_S", "10")),
        stream_deadline_s=float(env.get("TABULA_GATEWAY_STREAM_DEADLINE_S", "3600")),
        max_streams=int(env.get("TABULA_GATEWAY_MAX_STREAMS", "1000")),
        max_body=int(env.get("TABULA_GATEWAY_MAX_BODY", str(64 * 1024))),
    )
    origins = parse_origins(env.get("TABULA_CORS_ORIGINS", ""))
    key = keyring_from_env(env).current if env.get(SECRET_VAR) else None  # main() requires it
    return GatewayConfig(limits=limits, cors_origins=origins, forward_key=key)


def make_app(env: Mapping[str, str] | None = None) -> Starlette:
    e = os.environ if env is None else env
    registry = discover(e)
    for area, address in sorted(registry.addresses.items()):
        log.info("routing %s to %s", area, address)
    return build_app(registry, config_from_env(e))


async def serve(app: Starlette, bind: list[str], stop: asyncio.Event) -> None:
    """Serve ``app`` on ``bind`` (hypercorn's ``HOST:PORT`` or ``fd://N``) until ``stop`` is set, then end
    the open streams with UNAVAILABLE and give the connections up to 5 s to finish."""
    config = Config()
    config.bind = bind
    config.accesslog = None
    config.errorlog = logging.getLogger("tabula.gateway.http")
    config.graceful_timeout = 5.0
    config.include_server_header = False

    async def shutdown() -> None:
        await stop.wait()
        cancel_streams(app.state.rpc)

    await hypercorn_serve(cast(ASGIFramework, app), config, shutdown_trigger=shutdown, mode="asgi")


async def _serve_until_signal(app: Starlette, host: str, port: int) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await serve(app, [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"], stop)


def main() -> None:
    settings, _ = boot("gateway")  # its secret signs the callers' addresses (shared/serving/forwarded.py)
    port = port_for("gateway")
    log.info("gateway on http://%s:%d/ (HTTP/1.1 and h2c)", settings.host, port)
    asyncio.run(_serve_until_signal(make_app(), settings.host, port))
