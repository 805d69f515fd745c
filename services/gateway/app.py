"""The aiohttp application: unary RPCs as ``POST /api/<service>/<method>``, server streams as
``/ws/<service>/<method>`` WebSockets, the spectator page at ``/`` and ``GET /healthz``; for the
page, every game's title, content tables and drawing module from its manifest (``/games``).

Handlers stay generic: they look the method up in the registry, transcode JSON, forward the
caller's bearer token as gRPC metadata, and call the backend with a deadline.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from aiohttp import WSCloseCode, WSMsgType, web

from services.games import game_names, manifest
from services.gateway.backends import Backends
from services.gateway.registry import Method, Registry
from services.gateway.transcode import BadRequest, error_json, parse_request, rpc_error_json, to_json

log = logging.getLogger("tabula.gateway")
STATIC = Path(__file__).parent / "static"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class GatewayConfig:
    deadline_s: float = 10.0  # every unary backend call
    stream_deadline_s: float = 3600.0  # a WebSocket stream; clients resume from their last version
    first_message_s: float = 30.0  # how long a WebSocket may wait before sending its request
    static_dir: Path = field(default=STATIC)


REGISTRY = web.AppKey("registry", Registry)
BACKENDS = web.AppKey("backends", Backends)
CONFIG = web.AppKey("config", GatewayConfig)
SOCKETS = web.AppKey("sockets", set[web.WebSocketResponse])


class ApiError(Exception):
    def __init__(self, code: grpc.StatusCode, message: str, reason: str) -> None:
        super().__init__(message)
        self.code, self.message, self.reason = code, message, reason

    def response(self) -> web.Response:
        status, body = error_json(self.code, self.message, self.reason, "tabula.gateway")
        return web.json_response(body, status=status)


def _lookup(request: web.Request) -> Method:
    service, name = request.match_info["service"], request.match_info["method"]
    method = request.app[REGISTRY].find(service, name)
    if method is None:
        raise ApiError(grpc.StatusCode.NOT_FOUND, f"no method {service}/{name}", "unknown_method")
    return method


def _metadata(request: web.Request, allow_query_token: bool = False) -> list[tuple[str, str]]:
    """The caller's bearer token as gRPC metadata (a ``token`` query parameter for WebSockets)."""
    header = request.headers.get("Authorization", "")
    if header:
        return [("authorization", header)]
    token = request.query.get("token", "") if allow_query_token else ""
    return [("authorization", f"Bearer {token}")] if token else []


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except ApiError as err:
        return err.response()
    except BadRequest as err:
        return ApiError(grpc.StatusCode.INVALID_ARGUMENT, str(err), "bad_request").response()


async def call_unary(request: web.Request) -> web.Response:
    method = _lookup(request)
    if not method.is_unary:
        raise ApiError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"{method.name} streams: open the WebSocket /ws/{method.service}/{method.name}",
            "use_websocket",
        )
    message = parse_request(method.request_type, await request.read())
    multicallable = request.app[BACKENDS].unary(method)
    try:
        response = await multicallable(
            message, metadata=_metadata(request), timeout=request.app[CONFIG].deadline_s
        )
    except grpc.aio.AioRpcError as err:
        status, body = rpc_error_json(err)
        return web.json_response(body, status=status)
    return web.json_response(to_json(response))


async def _first_message(ws: web.WebSocketResponse, timeout_s: float) -> str:
    try:
        msg = await ws.receive(timeout=timeout_s)
    except TimeoutError as err:
        raise BadRequest("no request message on the WebSocket") from err
    if msg.type != WSMsgType.TEXT:
        raise BadRequest("the first WebSocket message must be the JSON request")
    return str(msg.data)


async def _until_closed(ws: web.WebSocketResponse) -> None:
    """Read (and ignore) client messages: returns when the client goes away."""
    async for _ in ws:
        pass


async def _pump(call: AsyncIterator[Any], ws: web.WebSocketResponse) -> None:
    async for item in call:
        await ws.send_str(json.dumps(to_json(item)))


async def _close_with_error(ws: web.WebSocketResponse, status: int, body: dict[str, Any]) -> None:
    """The error as the last message; the close code is 4000 + the HTTP status (4401, 4404 ...)."""
    if not ws.closed:
        await ws.send_str(json.dumps(body))
        await ws.close(code=4000 + status, message=body["error"]["status"].encode())


async def _stream_to(ws: web.WebSocketResponse, request: web.Request, method: Method) -> None:
    config = request.app[CONFIG]
    message = parse_request(method.request_type, await _first_message(ws, config.first_message_s))
    call = request.app[BACKENDS].server_stream(method)(
        message, metadata=_metadata(request, allow_query_token=True), timeout=config.stream_deadline_s
    )
    pump = asyncio.ensure_future(_pump(call, ws))
    reader = asyncio.ensure_future(_until_closed(ws))
    try:
        await asyncio.wait({pump, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        call.cancel()  # the client left, or the stream ended: either way the backend call is over
        reader.cancel()
        if not pump.done():
            pump.cancel()
        await asyncio.gather(pump, reader, return_exceptions=True)
    if not pump.cancelled():
        pump.result()  # raises the backend's error, if any
        await ws.close(code=WSCloseCode.OK)


async def stream(request: web.Request) -> web.StreamResponse:
    method = _lookup(request)
    if not method.is_server_stream:
        raise ApiError(
            grpc.StatusCode.INVALID_ARGUMENT, f"{method.name} is not a server stream", "not_stream"
        )
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    try:
        await _stream_to(ws, request, method)
    except grpc.aio.AioRpcError as err:
        await _close_with_error(ws, *rpc_error_json(err))
    except BadRequest as err:
        await _close_with_error(ws, *error_json(grpc.StatusCode.INVALID_ARGUMENT, str(err), "bad_request"))
    except ConnectionResetError:
        log.info("websocket client went away")
    finally:
        request.app[SOCKETS].discard(ws)
    return ws


async def describe(request: web.Request) -> web.Response:
    """Every routable method, so clients (and people) can see what the gateway offers."""
    out = {
        service: [
            {
                "method": m.name,
                "route": f"/api/{service}/{m.name}" if m.is_unary else f"/ws/{service}/{m.name}",
                "kind": "unary" if m.is_unary else "server_stream" if m.is_server_stream else "unsupported",
                "request": m.request_type.DESCRIPTOR.full_name,
                "response": m.response_type.DESCRIPTOR.full_name,
            }
            for m in methods
        ]
        for service, methods in sorted(request.app[REGISTRY].services().items())
    }
    return web.json_response({"services": out})


async def healthz(request: web.Request) -> web.Response:
    """Liveness; ``?deep=1`` also asks every backend's gRPC health check (503 unless all serve)."""
    body: dict[str, Any] = {"status": "SERVING", "backends": request.app[BACKENDS].addresses}
    if request.query.get("deep") != "1":
        return web.json_response(body)
    health = await request.app[BACKENDS].health()
    body["health"] = health
    serving = all(status == "SERVING" for status in health.values())
    body["status"] = "SERVING" if serving else "NOT_SERVING"
    return web.json_response(body, status=200 if serving else 503)


def _game(request: web.Request) -> str:
    game = request.match_info["game"]
    if game not in game_names():
        raise ApiError(grpc.StatusCode.NOT_FOUND, f"no game {game!r}", "unknown_game")
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
        raise ApiError(grpc.StatusCode.NOT_FOUND, f"{game} has no content tables", "no_content")
    return web.json_response(tables(), headers={"Cache-Control": "max-age=3600"})


async def game_file(request: web.Request) -> web.FileResponse:
    """A file of the game's spectator module folder (its manifest's ``web``): ``<game>.js``, ``<game>.css``.

    Only plain file names directly in that folder are served (no sub-folders, no dot files)."""
    game, name = _game(request), request.match_info["file"]
    folder = manifest(game).web
    path = folder / name if folder is not None and "/" not in name and not name.startswith(".") else None
    if path is None or not path.is_file():
        raise ApiError(grpc.StatusCode.NOT_FOUND, f"{game} has no web file {name!r}", "no_file")
    return web.FileResponse(path, headers={"Cache-Control": "no-cache"})


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(request.app[CONFIG].static_dir / "index.html")


async def _lifecycle(app: web.Application) -> AsyncIterator[None]:
    await app[BACKENDS].open()
    yield
    await app[BACKENDS].close()


async def _close_sockets(app: web.Application) -> None:
    sockets = app[SOCKETS]
    for ws in list(sockets):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"gateway shutting down")


def build_app(registry: Registry, config: GatewayConfig | None = None) -> web.Application:
    app = web.Application(middlewares=[json_errors], client_max_size=1024 * 1024)
    app[REGISTRY] = registry
    app[BACKENDS] = Backends(registry.addresses)
    app[CONFIG] = config or GatewayConfig()
    app[SOCKETS] = set()
    app.cleanup_ctx.append(_lifecycle)
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/api", describe)
    app.router.add_post("/api/{service}/{method}", call_unary)
    app.router.add_get("/ws/{service}/{method}", stream)
    app.router.add_get("/content/{game}", content)
    app.router.add_get("/games", games)
    app.router.add_get("/games/{game}/{file}", game_file)
    app.router.add_get("/", index)
    app.router.add_static("/static/", app[CONFIG].static_dir)
    return app
