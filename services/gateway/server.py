"""Bootstrap of the browser gateway: settings, the registry of backends, and the HTTP server.

``tabula serve gateway`` runs it on ``TABULA_HOST``:``TABULA_GATEWAY_PORT`` (default 8080) until
SIGTERM / Ctrl-C; open server streams end with UNAVAILABLE on the way out (clients reconnect).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from aiohttp import web

from services.gateway.app import GatewayConfig, build_app
from services.gateway.http import parse_origins
from services.gateway.registry import discover
from services.gateway.rpc import RpcLimits
from shared.config import Settings, port_for
from shared.observability import setup_logging, start_metrics

log = logging.getLogger("tabula.gateway")


def config_from_env(env: Mapping[str, str]) -> GatewayConfig:
    limits = RpcLimits(
        deadline_s=float(env.get("TABULA_GATEWAY_DEADLINE_S", "10")),
        stream_deadline_s=float(env.get("TABULA_GATEWAY_STREAM_DEADLINE_S", "3600")),
        max_streams=int(env.get("TABULA_GATEWAY_MAX_STREAMS", "1000")),
        max_body=int(env.get("TABULA_GATEWAY_MAX_BODY", str(64 * 1024))),
    )
    return GatewayConfig(limits=limits, cors_origins=parse_origins(env.get("TABULA_CORS_ORIGINS", "")))


def make_app(env: Mapping[str, str] | None = None) -> web.Application:
    e = os.environ if env is None else env
    registry = discover(e)
    for area, address in sorted(registry.addresses.items()):
        log.info("routing %s to %s", area, address)
    return build_app(registry, config_from_env(e))


def main() -> None:
    settings = Settings.from_env()
    setup_logging(settings.log_level)
    start_metrics(settings.metrics_port)
    port = port_for("gateway")
    log.info("gateway on http://%s:%d/", settings.host, port)
    web.run_app(
        make_app(),
        host=settings.host,
        port=port,
        print=None,
        access_log=None,
        shutdown_timeout=5,
        handle_signals=True,
    )
