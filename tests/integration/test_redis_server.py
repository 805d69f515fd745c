"""The test Redis helper's ports: below the kernel's own range, never handed out twice (in this
process or to another one), and a server whose port was taken meanwhile starts on another; its
cluster with replicas, failed over by hand."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from shared.runtime import redis_server
from shared.runtime.redis_server import free_port, start_redis
from tests.support.redis_cluster import fail_over, role, start_cluster
from tests.support.stores import cluster_client

ROOT = Path(__file__).resolve().parents[2]


def test_free_ports_are_distinct_bindable_and_below_the_kernels_range() -> None:
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    assert all(20000 <= p < redis_server._ephemeral_start() for p in ports)
    for port in ports:
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))


def test_another_process_cannot_claim_a_port_handed_out_here() -> None:
    ports = [free_port() for _ in range(5)]
    code = (
        "import sys; from shared.runtime.redis_server import _claim; "
        "print([_claim(int(p)) for p in sys.argv[1:]])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *map(str, ports)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str([False] * 5)


def test_a_cluster_node_gets_a_free_bus_port_too() -> None:
    port = free_port(cluster=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", port + 10000))


def test_a_server_whose_port_was_taken_meanwhile_starts_on_another(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        offered = [taken.getsockname()[1], free_port()]  # the race lost, then a free one
        monkeypatch.setattr(redis_server, "free_port", lambda cluster=False: offered.pop(0))
        server = start_redis()
        try:
            assert server.client().ping() and offered == []
            assert server.port != taken.getsockname()[1]
        finally:
            server.stop()


def test_a_cluster_with_replicas_fails_over_and_a_client_follows() -> None:
    cluster = start_cluster(masters=3, replicas=1)
    try:
        masters, replicas = cluster.nodes[:3], cluster.nodes[3:]
        assert [role(n) for n in cluster.nodes] == ["master"] * 3 + ["slave"] * 3
        client = cluster_client(cluster)
        keys = [f"key-{n}" for n in range(30)]  # spread over the three masters' slots
        for key in keys:
            client.set(key, b"before")
        fail_over(replicas[0])
        assert role(masters[0]) == "slave"
        for key in keys:  # the slots moved with their data; the client follows the redirects
            assert client.get(key) == b"before"
            client.set(key, b"after")
        assert all(client.get(key) == b"after" for key in keys)
        client.close()
    finally:
        cluster.stop()
