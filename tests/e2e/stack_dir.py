"""`tabula run` started in a folder of its own, as a user starts `make run` in a clone, and the tools
run from that folder with no address in their environment: they must find the stack by what
`tabula run` recorded (.tabula/stack.json), as the README promises."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from services.games import service_ports
from shared.redis_server import free_port

REPO = Path(__file__).resolve().parents[2]


def tool_env() -> dict[str, str]:
    """The environment of a user's shell: nothing says where the stack is."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "REDIS_URL" and not (k.startswith("TABULA_") and k.endswith(("_PORT", "_ADDR", "_STATE_DIR")))
    }
    env["PYTHONPATH"] = f"{REPO}{os.pathsep}{REPO / 'gen'}"
    return env


@contextmanager
def running_stack(folder: Path) -> Iterator[tuple[dict[str, str], str]]:
    """`tabula run` in ``folder`` on free ports; yields (the tools' environment, run's output so far)."""
    env = {**tool_env(), "TABULA_SECRET": "e2e-stack-dir-secret-0123456789abcdef"}
    for name in service_ports():
        env[f"TABULA_{name.upper()}_PORT"] = str(free_port())
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "run"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "all services up" in line:
            break
    try:
        assert "all services up" in "".join(lines), "".join(lines)
        yield tool_env(), "".join(lines)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()


def cli(
    cwd: Path, env: dict[str, str], *args: str, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
