"""Two instances of every process of the stack on a Redis Cluster with replicas, as subprocesses.

A 3-master Redis Cluster, each master with one replica (``tests.support.redis_cluster.start_cluster``), and
the Celery broker on a Redis of its own (Celery's transport does not speak Cluster). Two instances
each of the Lorenzo rule service, the lobby, the gateway, the Celery worker (prefork, two pool
children) and the reactor, each started as ``tabula run`` starts a service (``python -m services.cli
serve NAME``), with ``TABULA_REDIS_CLUSTER=1`` and ``REDIS_URL`` naming one master. The lobby and the
gateways reach the rule services, and the gateways the lobbies, through a list of both instances in
``TABULA_<SERVICE>_ADDR``: one round_robin channel each (``shared/serving/addresses.py``). Killed instances
are not started again: the other instance carries on alone.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import redis.cluster
from prometheus_client.parser import text_string_to_metric_families

from services.cli.run import wait_healthy, wait_http_healthy
from shared.runtime.redis_server import RedisServer, free_port, start_redis
from tests.integration.faults.stack import SETTINGS
from tests.support.redis_cluster import RedisCluster, start_cluster
from tests.support.timing import scaled, wait_until

ROOT = Path(__file__).resolve().parents[3]
SECRET = "scale-suite-secret-0123456789abcdefghijk"
SERVICES = ("lorenzo", "lobby", "gateway", "worker", "reactor")
INSTANCES = 2
POOL = 2  # prefork children per worker


@dataclass
class Instance:
    service: str
    index: int
    port: int | None  # gRPC (rule service, lobby) or HTTP (gateway); None for worker and reactor
    proc: subprocess.Popen[bytes]
    metrics_port: int | None = None  # the rule services' and lobbies' Prometheus endpoint
    killed: bool = False

    @property
    def name(self) -> str:
        return f"{self.service}-{self.index}"


@dataclass
class ClusterStack:
    folder: Path
    cluster: RedisCluster | None = None
    broker: RedisServer | None = None
    instances: list[Instance] = field(default_factory=list)
    children: list[psutil.Process] = field(default_factory=list)  # pool children seen, ended at stop()

    def start(self) -> None:
        self.cluster = start_cluster(masters=3, replicas=1)
        self.broker = start_redis()
        ports = {name: [free_port() for _ in range(INSTANCES)] for name in ("lorenzo", "lobby", "gateway")}
        env = self._env(ports)
        for service in SERVICES:  # every process starts at once; then each is waited for
            for index in range(INSTANCES):
                port = ports[service][index] if service in ports else None
                self.instances.append(self._spawn(service, index, port, env))
        for instance in self.instances:
            if instance.service == "gateway":
                assert instance.port is not None
                healthy = wait_http_healthy(instance.port, timeout=scaled(120))
            elif instance.port is not None:
                healthy = wait_healthy(instance.port, timeout=scaled(120))
            else:
                continue
            assert healthy, f"{instance.name} did not become healthy:\n{self.logs()}"
        wait_until(lambda: all(len(self.pool(w)) == POOL for w in self.of("worker")), 120, "the pools")

    def _env(self, ports: dict[str, list[int]]) -> dict[str, str]:
        assert self.cluster is not None and self.broker is not None
        inherited = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("TABULA_")}
        host, port = self.cluster.startup_nodes[0]
        return {
            **inherited,
            **SETTINGS,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
            "REDIS_URL": f"redis://{host}:{port}/0",
            "TABULA_REDIS_CLUSTER": "1",
            "TABULA_BROKER_URL": self.broker.url,
            "TABULA_SECRET": SECRET,
            "TABULA_LORENZO_ADDR": ",".join(f"127.0.0.1:{p}" for p in ports["lorenzo"]),
            "TABULA_LOBBY_ADDR": ",".join(f"127.0.0.1:{p}" for p in ports["lobby"]),
        }

    def _spawn(self, service: str, index: int, port: int | None, env: dict[str, str]) -> Instance:
        metrics = free_port() if service in ("lorenzo", "lobby") else None
        own = {
            "lorenzo": {"TABULA_LORENZO_PORT": str(port), "TABULA_METRICS_PORT": str(metrics)},
            "lobby": {"TABULA_LOBBY_PORT": str(port), "TABULA_METRICS_PORT": str(metrics)},
            "gateway": {"TABULA_GATEWAY_PORT": str(port)},
            "reactor": {"TABULA_REACTOR_CONSUMER": f"reactor-{index}"},
        }.get(service, {})
        log = open(self.folder / f"{service}-{index}.log", "wb")  # noqa: SIM115 - the child keeps it
        proc = subprocess.Popen(
            [sys.executable, "-m", "services.cli", "serve", service],
            env={**env, **own},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        return Instance(service, index, port, proc, metrics)

    def of(self, service: str) -> list[Instance]:
        return [i for i in self.instances if i.service == service]

    def pool(self, worker: Instance) -> list[psutil.Process]:
        try:
            found: list[psutil.Process] = psutil.Process(worker.proc.pid).children()
        except psutil.NoSuchProcess:
            return []
        self.children.extend(c for c in found if c not in self.children)
        return found

    def served(self, instance: Instance, method: str) -> int:
        """Calls of ``method`` the instance answered OK so far (its ``tabula_rpcs_total``)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{instance.metrics_port}/metrics", timeout=10) as reply:
            text = reply.read().decode()
        return sum(
            int(sample.value)
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == "tabula_rpcs_total"
            and sample.labels.get("method") == method
            and sample.labels.get("code") == "OK"
        )

    def kill(self, service: str) -> Instance:
        """SIGKILL the first live instance of ``service`` (a worker with its pool children, as when
        its pod dies); it is not started again."""
        victim = next(i for i in self.of(service) if not i.killed)
        doomed = [*self.pool(victim), psutil.Process(victim.proc.pid)] if service == "worker" else []
        victim.proc.send_signal(signal.SIGKILL)
        for child in doomed:
            child.kill()
        victim.proc.wait(30)
        victim.killed = True
        return victim

    def exited(self) -> list[str]:
        """Instances that were not killed but are no longer running."""
        return [
            f"{i.name} ({i.proc.returncode})"
            for i in self.instances
            if not i.killed and i.proc.poll() is not None
        ]

    def stop(self) -> None:
        for instance in self.instances:
            if instance.proc.poll() is None:
                instance.proc.send_signal(signal.SIGTERM)
        for instance in self.instances:
            try:
                instance.proc.wait(20)
            except subprocess.TimeoutExpired:
                instance.proc.kill()
                instance.proc.wait()
        for child in self.children:
            if child.is_running():
                child.kill()
        if self.broker is not None:
            self.broker.stop()
        if self.cluster is not None:
            self.cluster.stop()

    def client(self) -> redis.cluster.RedisCluster:
        assert self.cluster is not None
        nodes = [redis.cluster.ClusterNode(h, p) for h, p in self.cluster.startup_nodes]  # type: ignore[no-untyped-call]
        return redis.cluster.RedisCluster(startup_nodes=nodes, socket_timeout=10)

    def logs(self, tail: int = 3000) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-tail:]}"
            for p in sorted(self.folder.glob("*.log"))
        )


@dataclass
class Client:
    """Connect JSON calls through the live gateways, each call to the next one in turn (as a load
    balancer in front of them would); a call refused by a gateway that is gone, or answered
    ``unavailable`` (a backend instance that was killed while the call was on it), is sent again."""

    stack: ClusterStack
    calls: int = 0
    retries: int = 0

    def call(self, method: str, body: dict[str, Any], token: str, attempts: int = 20) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(attempts):
            gateways = [g for g in self.stack.of("gateway") if not g.killed]
            gateway = gateways[(self.calls + attempt) % len(gateways)]
            request = urllib.request.Request(
                f"http://127.0.0.1:{gateway.port}/{method}", json.dumps(body).encode(), headers
            )
            try:
                with urllib.request.urlopen(request, timeout=scaled(30)) as reply:
                    self.calls += 1
                    answer: dict[str, Any] = json.loads(reply.read())
                    return answer
            except urllib.error.HTTPError as err:
                if err.code != 503:  # Connect's unavailable
                    raise AssertionError(f"{method}: HTTP {err.code}: {err.read()!r}") from err
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            self.retries += 1
            time.sleep(0.2)
        raise AssertionError(f"{method}: no answer after {attempts} attempts")
