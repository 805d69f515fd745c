"""What every gateway response gets, whatever route made it and whatever HTTP version carried it:
security headers, CORS for the allowed origins (preflight included), and the gateway's own refusals
(a header that is not UTF-8, unknown page, wrong verb, origin not allowed, a crash) in the Connect
error JSON shape.

``Headers`` is a plain ASGI middleware around the whole application: it adds the headers to the
``http.response.start`` message (a server stream sends it before its handler is done), answers
preflights, and turns a crash into the error JSON when nothing was sent yet. The RPC replies and their
errors are connectrpc's (``services.gateway.rpc``).
"""

from __future__ import annotations

import logging

from connectrpc.code import Code
from starlette.datastructures import Headers as RequestHeaders
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("tabula.gateway")

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
    400: Code.INVALID_ARGUMENT,
    403: Code.PERMISSION_DENIED,
    404: Code.NOT_FOUND,
    405: Code.UNIMPLEMENTED,
}


def parse_origins(raw: str) -> frozenset[str]:
    """``TABULA_CORS_ORIGINS``: comma-separated exact origins (``https://play.example.com``)."""
    return frozenset(o.strip().rstrip("/") for o in raw.split(",") if o.strip())


def error_response(code: Code, message: str, status: int) -> JSONResponse:
    """The Connect error JSON (``{"code", "message"}``) with an HTTP status."""
    return JSONResponse({"code": code.value, "message": message}, status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    """Routing errors (404, 405) and the pages' own (unknown game or file) as Connect error JSON,
    never an HTML or text page."""
    assert isinstance(exc, HTTPException)
    return error_response(HTTP_CODES.get(exc.status_code, Code.UNKNOWN), exc.detail, exc.status_code)


def undecodable_header(scope: Scope) -> str | None:
    """The name of the first request header whose name or value is not UTF-8, if any."""
    for name, value in scope["headers"]:
        try:
            name.decode(), value.decode()
        except UnicodeDecodeError:
            return str(name.decode("latin-1"))
    return None


def preflight(origin: str, origins: frozenset[str]) -> Response:
    """CORS preflight: 204 with what may be sent for an allowed origin, 403 for any other."""
    if origin not in origins:
        return error_response(Code.PERMISSION_DENIED, f"origin {origin!r} is not allowed", 403)
    return Response(
        status_code=204,
        headers={
            "Access-Control-Allow-Methods": "GET, POST",
            "Access-Control-Allow-Headers": ALLOW_HEADERS,
            "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_S,
        },
    )


class Headers:
    """Security headers on every response; CORS headers when the Origin is allowed; preflights;
    a request with a header that is not UTF-8 refused with a 400 ``invalid_argument`` on every route
    (connectrpc decodes them and would crash); a crash before the response started as a 500
    ``internal`` error JSON."""

    def __init__(self, app: ASGIApp, origins: frozenset[str]) -> None:
        self.app, self.origins = app, origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_headers = RequestHeaders(scope=scope)
        origin = request_headers.get("origin", "")
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
                if origin in self.origins:
                    headers["Access-Control-Allow-Origin"] = origin
                    headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
                headers.add_vary_header("Origin")  # with what the route varies on (Accept-Language)
            await send(message)

        bad = undecodable_header(scope)
        if bad is not None:
            log.info("refused %s %r: header %r is not UTF-8", scope["method"], scope["path"], bad)
            refused = error_response(Code.INVALID_ARGUMENT, f"header {bad!r} is not UTF-8", 400)
            await refused(scope, receive, send_with_headers)
            return
        if scope["method"] == "OPTIONS" and "access-control-request-method" in request_headers:
            await preflight(origin, self.origins)(scope, receive, send_with_headers)
            return
        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if started:
                raise
            log.exception("gateway error on %s %s", scope["method"], scope["path"])
            crash = error_response(Code.INTERNAL, "internal gateway error", 500)
            await crash(scope, receive, send_with_headers)
