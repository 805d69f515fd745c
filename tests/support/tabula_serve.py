"""A stack of ``tabula serve`` processes on a private Redis, for an end-to-end test that starts only the
parts it needs (rule services, lobby, worker, reactor, gateway), each on a free port."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from services.cli.run import wait_healthy, wait_http_healthy
from shared.runtime.redis_server import free_port, start_redis
from tests.support.timing import scaled

REPO = Path(__file__).resolve().parents[2]
STARTUP_S = scaled(90)  # a service subprocess until healthy, on a loaded 2-core machine
UNSERVED = ("worker", "reactor")  # processes without a port of their own


def tail(log: Path, chars: int = 3000) -> str:
    return log.read_text(errors="replace")[-chars:] if log.exists() else ""


@contextmanager
def tabula_serve(
    folder: Path, names: Sequence[str], **settings: str
) -> Iterator[tuple[dict[str, str], dict[str, int]]]:
    """``tabula serve NAME`` for each of ``names``, logging into ``folder/NAME.log``, with ``settings``
    in their environment; yields (that environment, the port of each process that has one) once every
    one of them answers its health check. Stopped in reverse order: the gateway first, which ends its
    streams."""
    redis = start_redis()
    ports = {name: free_port() for name in names if name not in UNSERVED}
    env = {
        **os.environ,
        "REDIS_URL": redis.url,
        **{f"TABULA_{name.upper()}_PORT": str(port) for name, port in ports.items()},
        "TABULA_METRICS_PORT": "-1",
        **settings,
    }
    children: list[subprocess.Popen[bytes]] = []
    try:
        for name in names:
            with (folder / f"{name}.log").open("wb") as log:
                command = [sys.executable, "-m", "services.cli", "serve", name]
                children.append(subprocess.Popen(command, env=env, stdout=log, stderr=log, cwd=REPO))
        for name, port in ports.items():
            healthy = wait_http_healthy if name == "gateway" else wait_healthy
            assert healthy(port, timeout=STARTUP_S), f"{name} is not healthy:\n{tail(folder / f'{name}.log')}"
        yield env, ports
    finally:
        _stop(children)
        redis.stop()


def _stop(children: Sequence[subprocess.Popen[bytes]]) -> None:
    for child in reversed(children):
        child.terminate()
    for child in children:
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
