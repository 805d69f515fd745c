"""A client from another ecosystem: the Node.js test in tests/node (@grpc/grpc-js reading the repo's
.proto files) plays a full Lorenzo match through the lobby against three bots.

This wrapper starts what it needs as ``tabula serve`` processes on a private Redis: the Lorenzo rule
service, the lobby, a Celery worker and the reactor (which play the bots and the system steps), then
runs ``node --test``. ``make node`` installs the Node packages (``npm ci``) beforehand.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.cli.run import wait_healthy
from shared.redis_server import free_port, start_redis

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "tests" / "node"
PROCESSES = ("lorenzo", "lobby", "worker", "reactor")


def _missing() -> str:
    """Why the test cannot run here, or "" when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH (Debian package nodejs)"
    if not (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").exists():
        return "tests/node/node_modules is missing: run `make node` (npm ci)"
    return ""


def _tail(path: Path, chars: int = 3000) -> str:
    return path.read_text(errors="replace")[-chars:] if path.exists() else ""


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[dict[str, str]]:
    redis = start_redis()
    lorenzo_port, lobby_port = free_port(), free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis.url,
        "TABULA_SECRET": "node-client-secret-0123456789",
        "TABULA_LORENZO_PORT": str(lorenzo_port),
        "TABULA_LOBBY_PORT": str(lobby_port),
        "TABULA_METRICS_PORT": "-1",
        "TABULA_WORKER_CONCURRENCY": "2",
    }
    children: list[subprocess.Popen[bytes]] = []
    try:
        for name in PROCESSES:
            with (tmp_path / f"{name}.log").open("wb") as log:
                command = [sys.executable, "-m", "services.cli", "serve", name]
                children.append(subprocess.Popen(command, env=env, stdout=log, stderr=log))
        for name, port in (("lorenzo", lorenzo_port), ("lobby", lobby_port)):
            assert wait_healthy(port), f"{name} did not become healthy:\n{_tail(tmp_path / f'{name}.log')}"
        yield {
            **env,
            "TABULA_LOBBY_ADDR": f"127.0.0.1:{lobby_port}",
            "TABULA_LORENZO_ADDR": f"127.0.0.1:{lorenzo_port}",
            "TABULA_PROTO_ROOT": str(ROOT / "proto"),
            "TABULA_NODE_BUDGET_S": "240",
        }
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(20)
            except subprocess.TimeoutExpired:
                child.kill()
        redis.stop()


@pytest.mark.skipif(bool(_missing()), reason=_missing() or "ready")
def test_a_node_client_plays_a_full_lorenzo_match_through_the_lobby(
    stack: dict[str, str], tmp_path: Path
) -> None:
    done = subprocess.run(
        ["node", "--test", "play_lorenzo.test.js"],
        cwd=NODE_DIR,
        env=stack,
        capture_output=True,
        text=True,
        timeout=300,
    )
    logs = "\n".join(f"--- {p.name}\n{_tail(p)}" for p in sorted(tmp_path.glob("*.log")))
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{logs}"
    assert "# pass 1" in done.stdout and "# fail 0" in done.stdout, done.stdout
