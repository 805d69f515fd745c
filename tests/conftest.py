"""Test harness: private Redis servers (never the machine's 6379) and folder-based markers.

``TABULA_TEST_DOCKER=1`` with a working Docker uses testcontainers instead of a local
``redis-server``; without Docker everything runs on a private process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.connection

from shared.runtime.redis_server import start_redis
from shared.store.resp import PipelinedConnection
from tests.support.redis_cluster import RedisCluster, docker_available, start_cluster

# The machine's own Redis (port 6379) is never touched by a test: any connection attempt to it from
# this process fails loudly instead of silently reading or writing someone else's data.
_real_connect = redis.connection.Connection._connect


def _guarded_connect(self: redis.connection.Connection) -> object:
    if int(self.port) == 6379:
        raise RuntimeError(f"a test tried to reach the machine's Redis at {self.host}:6379")
    return _real_connect(self)


redis.connection.Connection._connect = _guarded_connect  # type: ignore[method-assign]
_real_piped_connect = PipelinedConnection._connect


async def _guarded_piped_connect(self: PipelinedConnection) -> Any:
    if int(self.port) == 6379:  # the hot path's own connection (shared.store.resp), guarded alike
        raise RuntimeError(f"a test tried to reach the machine's Redis at {self.host}:6379")
    return await _real_piped_connect(self)


PipelinedConnection._connect = _guarded_piped_connect  # type: ignore[method-assign]

_MARKS = {"unit": pytest.mark.unit, "integration": pytest.mark.integration, "e2e": pytest.mark.e2e}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).parent
    soak = os.environ.get("TABULA_SOAK") == "1"
    for item in items:
        parts = Path(str(item.fspath)).relative_to(root).parts
        if parts and parts[0] in _MARKS:
            item.add_marker(_MARKS[parts[0]])
        if "soak" in item.keywords and not soak:
            item.add_marker(pytest.mark.skip(reason="soak run: set TABULA_SOAK=1"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What a test recorded for people to read (``record_property("counts", ...)``: the fault suite's
    kills, matches and commands), also from xdist workers."""
    for report in terminalreporter.getreports("passed"):
        for name, value in report.user_properties:
            if name == "counts":
                terminalreporter.write_line(f"{report.nodeid}: {value}")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One private Redis for the session, with AOF on in a temporary folder."""
    if docker_available():
        from testcontainers.redis import RedisContainer

        with RedisContainer("redis:7").with_command("redis-server --appendonly yes") as container:
            host, port = container.get_container_host_ip(), container.get_exposed_port(6379)
            yield f"redis://{host}:{port}/0"
        return
    server = start_redis(folder=tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client of the private server, emptied before each test (it is ours alone)."""
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    yield client
    client.close()


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[RedisCluster]:
    cluster = start_cluster(3)
    try:
        yield cluster
    finally:
        cluster.stop()
