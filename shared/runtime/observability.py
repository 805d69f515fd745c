"""JSON logs and Prometheus metrics shared by every process."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

from prometheus_client import Counter, Histogram, start_http_server

RPCS = Counter("tabula_rpcs_total", "RPCs handled", ["service", "method", "code"])
# Every mapped (expected) error answer, by its ErrorInfo reason: client mistakes are counted here
# instead of being logged with a traceback (only INTERNAL, an unexpected error, is logged so).
RPC_ERRORS = Counter(
    "tabula_rpc_errors_total", "RPCs answered with a mapped error", ["service", "method", "code", "reason"]
)
RPC_SECONDS = Histogram("tabula_rpc_seconds", "RPC handling time", ["service", "method"])
EVENTS_APPENDED = Counter("tabula_events_appended_total", "Events appended", ["game"])


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def setup_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def log_fields(**fields: Any) -> dict[str, Any]:
    """``logger.info("msg", extra=log_fields(match_id=...))`` puts the fields in the JSON line."""
    return {"fields": fields}


def start_metrics(port: int) -> int:
    """Serve /metrics on ``port`` (0: a free port); returns the port. Negative: disabled."""
    if port < 0:
        return -1
    server, _ = start_http_server(port, addr="127.0.0.1" if port == 0 else "0.0.0.0")
    bound: int = server.server_port
    return bound
