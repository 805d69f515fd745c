"""What every gateway response gets, whatever route made it: security headers, CORS for the
allowed origins (preflight included), and errors in the one Connect error JSON shape.

Headers are added in ``on_response_prepare`` (not a middleware), because a server stream sends
its headers before its handler returns.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import grpc
from aiohttp import web

from services.gateway.wire import RpcError

log = logging.getLogger("tabula.gateway")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
ORIGINS = web.AppKey("cors_origins", frozenset[str])

# The page loads only its own scripts, styles and data; nobody may frame it.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
# What Connect and gRPC-Web clients send and read (connect-es' cors helpers list the same).
ALLOW_HEADERS = (
    "Authorization, Content-Type, Connect-Protocol-Version, Connect-Timeout-Ms, Connect-Accept-Encoding, "
    "Connect-Content-Encoding, Grpc-Timeout, X-Grpc-Web, X-User-Agent"
)
EXPOSE_HEADERS = "Grpc-Status, Grpc-Message, Grpc-Status-Details-Bin, Connect-Content-Encoding"
PREFLIGHT_MAX_AGE_S = "7200"

# The code named in the error JSON of an HTTP-level refusal (no RPC was made).
HTTP_CODES = {
    400: grpc.StatusCode.INVALID_ARGUMENT,
    403: grpc.StatusCode.PERMISSION_DENIED,
    404: grpc.StatusCode.NOT_FOUND,
    405: grpc.StatusCode.UNIMPLEMENTED,
    413: grpc.StatusCode.RESOURCE_EXHAUSTED,
    415: grpc.StatusCode.INVALID_ARGUMENT,
}


def parse_origins(raw: str) -> frozenset[str]:
    """``TABULA_CORS_ORIGINS``: comma-separated exact origins (``https://play.example.com``)."""
    return frozenset(o.strip().rstrip("/") for o in raw.split(",") if o.strip())


def error_response(err: RpcError) -> web.Response:
    return web.json_response(err.connect_json(), status=err.http_status)


@web.middleware
async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Routing errors (404, 405) and crashes as Connect error JSON, never an HTML or text page."""
    try:
        return await handler(request)
    except RpcError as err:
        return error_response(err)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        code = HTTP_CODES.get(exc.status, grpc.StatusCode.UNKNOWN)
        return error_response(RpcError(code, exc.reason, http_status=exc.status))
    except Exception:
        log.exception("gateway error on %s %s", request.method, request.path)
        return error_response(RpcError(grpc.StatusCode.INTERNAL, "internal gateway error"))


@web.middleware
async def preflight(request: web.Request, handler: Handler) -> web.StreamResponse:
    """CORS preflight: 204 with what may be sent for an allowed origin, 403 for any other."""
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
        return await handler(request)
    origin = request.headers.get("Origin", "")
    if origin not in request.app[ORIGINS]:
        return error_response(
            RpcError(grpc.StatusCode.PERMISSION_DENIED, f"origin {origin!r} is not allowed")
        )
    return web.Response(
        status=204,
        headers={
            "Access-Control-Allow-Methods": "GET, POST",
            "Access-Control-Allow-Headers": ALLOW_HEADERS,
            "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_S,
        },
    )


async def add_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Security headers on every response; CORS headers when the Origin is allowed."""
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    origin = request.headers.get("Origin", "")
    if origin in request.app[ORIGINS]:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
    response.headers["Vary"] = "Origin"
