"""A real Redis Cluster on loopback for the tests (nodes from ``shared.runtime.redis_server``),
its replicas failed over by hand; and whether a Docker engine may be used."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import Any

import redis

from shared.runtime.redis_server import RedisServer, start_redis


@dataclass
class RedisCluster:
    nodes: list[RedisServer]  # the masters first (as started), then their replicas

    @property
    def startup_nodes(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", n.port) for n in self.nodes]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def start_cluster(masters: int = 3, replicas: int = 0) -> RedisCluster:
    """A real Redis Cluster of ``masters`` nodes on loopback, slots split evenly, each master with
    ``replicas`` replicas (in sync when this returns, so ``CLUSTER FAILOVER`` on one works)."""
    nodes = [
        start_redis(extra=["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"])
        for _ in range(masters * (1 + replicas))
    ]
    cluster = RedisCluster(nodes)
    try:
        per = 16384 // masters
        for i, node in enumerate(nodes[:masters]):
            end = 16384 if i == masters - 1 else (i + 1) * per
            _command(node, "CLUSTER", "ADDSLOTS", *range(i * per, end))
        for node in nodes[1:]:
            _command(node, "CLUSTER", "MEET", "127.0.0.1", nodes[0].port)
        _wait_cluster_ok(cluster)
        for i, node in enumerate(nodes[masters:]):
            _command(node, "CLUSTER", "REPLICATE", node_id(nodes[i % masters]))
        _wait_replicas(nodes[masters:])
        _wait_cluster_ok(cluster)
    except Exception:
        cluster.stop()
        raise
    return cluster


def node_id(node: RedisServer) -> str:
    reply = _command(node, "CLUSTER", "MYID")
    return reply.decode() if isinstance(reply, bytes) else str(reply)


def role(node: RedisServer) -> str:
    """``master`` or ``slave``, as the node itself says (INFO replication)."""
    return str(_info(node, "replication")["role"])


def fail_over(replica: RedisServer, timeout: float = 60.0) -> None:
    """``CLUSTER FAILOVER`` on ``replica`` (a manual failover: its master stops taking writes, the
    replica catches up and takes over its slots); returns once the replica says it is a master and
    its old master says it is a replica (it learns that a moment later, from the cluster bus).

    Redis drops a manual failover silently after 5 s when the master has not answered it: the master
    ignores the request until gossip has told it that this node is its replica, and a loaded machine
    can miss the window. So this waits until the master lists the replica, and asks again each time
    a window has passed without a takeover."""
    old = redis.Redis(host="127.0.0.1", port=int(_info(replica, "replication")["master_port"]))
    try:
        deadline = time.monotonic() + timeout
        me = node_id(replica)
        old_id = old.execute_command("CLUSTER", "MYID")  # type: ignore[no-untyped-call]
        while not any(me in str(line) for line in old.execute_command("CLUSTER", "REPLICAS", old_id)):  # type: ignore[no-untyped-call]
            _wait_or_fail(deadline, replica)
        asked = -_MANUAL_FAILOVER_WINDOW
        while role(replica) != "master" or old.info("replication")["role"] != "slave":
            if role(replica) != "master" and time.monotonic() - asked >= _MANUAL_FAILOVER_WINDOW:
                _command(replica, "CLUSTER", "FAILOVER")
                asked = time.monotonic()
            _wait_or_fail(deadline, replica)
    finally:
        old.close()


_MANUAL_FAILOVER_WINDOW = 6.0  # Redis's own manual-failover timeout is 5 s (CLUSTER_MF_TIMEOUT)


def _wait_or_fail(deadline: float, replica: RedisServer) -> None:
    if time.monotonic() >= deadline:
        raise TimeoutError(f"the replica on port {replica.port} did not take over")
    time.sleep(0.05)


def _info(node: RedisServer, section: str) -> dict[str, Any]:
    client = node.client()
    try:
        return client.info(section)
    finally:
        client.close()


def _wait_replicas(replicas: list[RedisServer], timeout: float = 60.0) -> None:
    """Until every replica's link to its master is up and the initial sync is done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        infos = [_info(n, "replication") for n in replicas]
        if all(i.get("role") == "slave" and i.get("master_link_status") == "up" for i in infos):
            return
        time.sleep(0.1)
    raise TimeoutError("the cluster's replicas did not sync with their masters")


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


def docker_available() -> bool:
    """Docker is used only when asked for (TABULA_TEST_DOCKER=1) and an engine answers."""
    if os.environ.get("TABULA_TEST_DOCKER") != "1" or not shutil.which("docker"):
        return False
    return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
