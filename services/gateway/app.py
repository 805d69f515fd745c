"""The ASGI application (Starlette; ``server`` serves it with hypercorn over HTTP/1.1 and HTTP/2):
every RPC of the registry at ``POST /<package.Service>/<Method>`` in Connect and gRPC-Web, served by
connectrpc (``services.gateway.rpc``), the spectator page at ``/``, ``GET /healthz``, and for the page every
game's title, content tables and drawing module from its manifest (``/games``), the words of a game
or of a platform package in the caller's language (``/texts/<name>``), and the play app at ``/play``
(docs/web.md).
Every response carries the security headers and, for allowed origins, CORS (``services.gateway.http``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from services.games import game_names, manifest
from services.gateway import http, rpc, texts
from services.gateway.backends import Backends
from services.gateway.registry import Registry
from shared.core.i18n import negotiate
from shared.serving.refusals import game_words
from shared.serving.tokens import Key

log = logging.getLogger("tabula.gateway")
STATIC = Path(__file__).parent / "static"
# The pages' bundles, generated from every game's proto and built from clients/ts (`make bundle`): the
# spectator page's client and the play app. They live with the client, not here, because they name the
# games (the platform names none).
BUNDLES = Path(__file__).resolve().parents[2] / "clients" / "ts" / "web"
BUNDLE = BUNDLES / "tabula-client.js"
PLAY_BUNDLE = BUNDLES / "tabula-play.js"


@dataclass(frozen=True)
class GatewayConfig:
    limits: rpc.RpcLimits = field(default_factory=rpc.RpcLimits)
    cors_origins: frozenset[str] = frozenset()  # exact origins allowed to call from other sites
    static_dir: Path = field(default=STATIC)
    forward_key: Key | None = None  # signs the caller's address (shared/serving/forwarded.py)


def _not_found(message: str) -> HTTPException:
    return HTTPException(404, message)


async def describe(request: Request) -> JSONResponse:
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
        for service, methods in sorted(_rpc(request).registry.services().items())
    }
    return JSONResponse({"services": out})


async def healthz(request: Request) -> JSONResponse:
    """Liveness; ``?deep=1`` also asks every backend's gRPC health check (503 unless all serve)."""
    body: dict[str, Any] = {"status": "SERVING", "backends": _rpc(request).backends.addresses}
    if request.query_params.get("deep") != "1":
        return JSONResponse(body)
    health = await _rpc(request).backends.health()
    body["health"] = health
    serving = all(status == "SERVING" for status in health.values())
    body["status"] = "SERVING" if serving else "NOT_SERVING"
    return JSONResponse(body, status_code=200 if serving else 503)


def _game(request: Request) -> str:
    game = str(request.path_params["game"])
    if game not in game_names():
        raise _not_found(f"no game {game!r}")
    return game


async def games(request: Request) -> JSONResponse:
    """Every game of the registry: name, title, seats, and whether it ships a spectator module,
    content tables and words (``/texts/<name>``). The title is in the locale of ``?lang=`` if given,
    else of the ``Accept-Language`` header (English by default)."""
    locale = negotiate(request.query_params.get("lang") or request.headers.get("accept-language"))
    out = []
    for name in game_names():
        game = manifest(name)
        module = game.web is not None and (game.web / f"{name}.js").is_file()
        out.append(
            {
                "name": name,
                "title": game_words(game, locale).title,
                "minSeats": game.min_seats,
                "maxSeats": game.max_seats,
                "module": module,
                "content": game.content_tables is not None,
                "texts": texts.has_texts(name),  # its words in every language: /texts/<name>
            }
        )
    return JSONResponse({"games": out}, headers={"Vary": "Accept-Language", "Content-Language": locale})


async def content(request: Request) -> JSONResponse:
    """A game's public component tables (its manifest's ``content_tables``): names for the ids of views."""
    game = _game(request)
    tables = manifest(game).content_tables
    if tables is None:
        raise _not_found(f"{game} has no content tables")
    return JSONResponse(tables(), headers={"Cache-Control": "max-age=3600"})


async def words(request: Request) -> JSONResponse:
    """The English of a game's texts (its manifest's ``texts``) or of a registered package's
    (``shared.core.i18n.register``: ``play`` is the web app's own), with the translation of the
    locale over it: ``?lang=`` if given, else the ``Accept-Language`` header."""
    name = str(request.path_params["name"])
    wanted = request.query_params.get("lang") or request.headers.get("accept-language")
    found = texts.words(name, wanted)
    if found is None:
        raise _not_found(f"no texts {name!r}")
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language", "Content-Language": found["locale"]}
    return JSONResponse(found, headers=headers)


async def game_file(request: Request) -> FileResponse:
    """A file of the game's spectator module folder (its manifest's ``web``): ``<game>.js``, ``<game>.css``.

    Only plain file names directly in that folder are served (no sub-folders, no dot files)."""
    game, name = _game(request), str(request.path_params["file"])
    folder = manifest(game).web
    path = folder / name if folder is not None and "/" not in name and not name.startswith(".") else None
    if path is None or not path.is_file():
        raise _not_found(f"{game} has no web file {name!r}")
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


async def bundle(request: Request) -> FileResponse:
    return FileResponse(BUNDLE, headers={"Cache-Control": "no-cache"})


async def play_bundle(request: Request) -> FileResponse:
    return FileResponse(PLAY_BUNDLE, headers={"Cache-Control": "no-cache"})


async def index(request: Request) -> FileResponse:
    return FileResponse(_config(request).static_dir / "index.html")


async def play(request: Request) -> FileResponse:
    """The play app's page (every screen of it: the app reads its query string)."""
    return FileResponse(_config(request).static_dir / "play.html", headers={"Cache-Control": "no-cache"})


def _rpc(request: Request) -> rpc.RpcContext:
    ctx: rpc.RpcContext = request.app.state.rpc
    return ctx


def _config(request: Request) -> GatewayConfig:
    config: GatewayConfig = request.app.state.config
    return config


# A method path: a package-qualified service and a method name (no other route has a dot there).
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"


class _Identifier(Convertor[str]):
    regex = IDENTIFIER

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


class _ServiceName(_Identifier):
    regex = rf"{IDENTIFIER}(?:\.{IDENTIFIER})+"


register_url_convertor("rpc_service", _ServiceName())
register_url_convertor("rpc_method", _Identifier())
RPC_PATH = "/{service:rpc_service}/{method:rpc_method}"


def build_app(registry: Registry, config: GatewayConfig | None = None) -> Starlette:
    config = config or GatewayConfig()
    ctx = rpc.RpcContext(registry, Backends(registry.addresses), config.limits, set(), config.forward_key)
    rpc_route = rpc.RpcRoute(ctx)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await ctx.backends.open()
        yield
        await ctx.backends.close()

    routes: list[BaseRoute] = [
        Route(RPC_PATH, rpc_route, methods=["POST"]),
        Route("/healthz", healthz),
        Route("/api", describe),
        Route("/content/{game}", content),
        Route("/games", games),
        Route("/games/{game}/{file}", game_file),
        Route("/texts/{name}", words),
        Route("/", index),
        Route("/play", play),
        Route("/play/auth/callback", play),  # a sign-in provider's redirect: the app completes it
        Route("/static/tabula-client.js", bundle),
        Route("/static/tabula-play.js", play_bundle),
        Mount("/static", StaticFiles(directory=config.static_dir)),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(http.Headers, origins=config.cors_origins)],
        exception_handlers={HTTPException: http.http_error},
        lifespan=lifespan,
    )
    app.state.config = config
    app.state.rpc = ctx
    return app
