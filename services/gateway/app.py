"""The aiohttp application: every RPC of the registry at ``POST /<package.Service>/<Method>`` in
Connect and gRPC-Web (``services.gateway.rpc``), the spectator page at ``/``, ``GET /healthz``, and
for the page every game's title, content tables and drawing module from its manifest (``/games``).
Every response carries the security headers and, for allowed origins, CORS (``services.gateway.http``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from aiohttp import web

from services.games import game_names, manifest
from services.gateway import http, rpc
from services.gateway.backends import Backends
from services.gateway.registry import Registry
from services.gateway.wire import RpcError

log = logging.getLogger("tabula.gateway")
STATIC = Path(__file__).parent / "static"
# The page's client, generated from every game's proto and bundled (clients/ts, `make bundle`); it lives
# with the client, not here, because it names the games (the platform names none).
BUNDLE = Path(__file__).resolve().parents[2] / "clients" / "ts" / "web" / "tabula-client.js"


@dataclass(frozen=True)
class GatewayConfig:
    limits: rpc.RpcLimits = field(default_factory=rpc.RpcLimits)
    cors_origins: frozenset[str] = frozenset()  # exact origins allowed to call from other sites
    static_dir: Path = field(default=STATIC)


CONFIG = web.AppKey("config", GatewayConfig)


def _not_found(message: str) -> RpcError:
    return RpcError(grpc.StatusCode.NOT_FOUND, message)


async def describe(request: web.Request) -> web.Response:
    """Every routable method, so clients (and people) can see what the gateway offers."""
    out = {
        service: [
            {
                "method": m.name,
                "route": f"/{service}/{m.name}",
                "kind": "unary" if m.is_unary else "server_stream" if m.is_server_stream else "unsupported",
                "request": m.request_type.DESCRIPTOR.full_name,
                "response": m.response_type.DESCRIPTOR.full_name,
            }
            for m in methods
        ]
        for service, methods in sorted(request.app[rpc.RPC].registry.services().items())
    }
    return web.json_response({"services": out})


async def healthz(request: web.Request) -> web.Response:
    """Liveness; ``?deep=1`` also asks every backend's gRPC health check (503 unless all serve)."""
    body: dict[str, Any] = {"status": "SERVING", "backends": request.app[rpc.RPC].backends.addresses}
    if request.query.get("deep") != "1":
        return web.json_response(body)
    health = await request.app[rpc.RPC].backends.health()
    body["health"] = health
    serving = all(status == "SERVING" for status in health.values())
    body["status"] = "SERVING" if serving else "NOT_SERVING"
    return web.json_response(body, status=200 if serving else 503)


def _game(request: web.Request) -> str:
    game = request.match_info["game"]
    if game not in game_names():
        raise _not_found(f"no game {game!r}")
    return game


async def games(request: web.Request) -> web.Response:
    """Every game of the registry: name, title, seats, and whether it ships a spectator module."""
    out = []
    for name in game_names():
        game = manifest(name)
        module = game.web is not None and (game.web / f"{name}.js").is_file()
        out.append(
            {
                "name": name,
                "title": game.title,
                "minSeats": game.min_seats,
                "maxSeats": game.max_seats,
                "module": module,
                "content": game.content_tables is not None,
            }
        )
    return web.json_response({"games": out})


async def content(request: web.Request) -> web.Response:
    """A game's public component tables (its manifest's ``content_tables``): names for the ids of views."""
    game = _game(request)
    tables = manifest(game).content_tables
    if tables is None:
        raise _not_found(f"{game} has no content tables")
    return web.json_response(tables(), headers={"Cache-Control": "max-age=3600"})


async def game_file(request: web.Request) -> web.FileResponse:
    """A file of the game's spectator module folder (its manifest's ``web``): ``<game>.js``, ``<game>.css``.

    Only plain file names directly in that folder are served (no sub-folders, no dot files)."""
    game, name = _game(request), request.match_info["file"]
    folder = manifest(game).web
    path = folder / name if folder is not None and "/" not in name and not name.startswith(".") else None
    if path is None or not path.is_file():
        raise _not_found(f"{game} has no web file {name!r}")
    return web.FileResponse(path, headers={"Cache-Control": "no-cache"})


async def bundle(request: web.Request) -> web.FileResponse:
    return web.FileResponse(BUNDLE, headers={"Cache-Control": "no-cache"})


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(request.app[CONFIG].static_dir / "index.html")


async def _lifecycle(app: web.Application) -> AsyncIterator[None]:
    backends = app[rpc.RPC].backends
    await backends.open()
    yield
    await backends.close()


# A method path: a package-qualified service and a method name (no other route has a dot there).
RPC_PATH = r"/{service:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+}/{method:[A-Za-z_][A-Za-z0-9_]*}"


def build_app(registry: Registry, config: GatewayConfig | None = None) -> web.Application:
    config = config or GatewayConfig()
    app = web.Application(middlewares=[http.errors, http.preflight], client_max_size=config.limits.max_body)
    app[CONFIG] = config
    app[http.ORIGINS] = config.cors_origins
    app[rpc.RPC] = rpc.RpcContext(registry, Backends(registry.addresses), config.limits, set())
    app.cleanup_ctx.append(_lifecycle)
    app.on_shutdown.append(rpc.cancel_streams)
    app.on_response_prepare.append(http.add_headers)
    app.router.add_post(RPC_PATH, rpc.handle)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/api", describe)
    app.router.add_get("/content/{game}", content)
    app.router.add_get("/games", games)
    app.router.add_get("/games/{game}/{file}", game_file)
    app.router.add_get("/", index)
    app.router.add_get("/static/tabula-client.js", bundle)
    app.router.add_static("/static/", config.static_dir)
    return app
