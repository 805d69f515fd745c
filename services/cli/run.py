"""``tabula run``: Redis (embedded unless REDIS_URL is set) and every service, in the foreground.

Each service is a child process; the command waits until each answers its health check,
prints where they listen, and then supervises them: a child that exits on its own (a crash, a
SIGKILL) is logged on stderr and started again with the same command and environment, after a
back-off of 1, 2, 4 ... up to 30 s while it keeps failing (a child that stayed up 30 s starts
again after 1 s). The embedded Redis is restarted the same way, on its port and AOF folder.
Ctrl-C (or SIGTERM) stops them all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.main import app
from services.cli.stack import Stack, remove_stack, stack_path_for, write_stack
from shared.runtime.supervision import Child, stop

STOP_WAIT_S = 10.0  # for each child, after SIGTERM, before SIGKILL

if TYPE_CHECKING:
    from shared.runtime.redis_server import RedisServer


@dataclass(frozen=True)
class Process:
    name: str
    port: int | None  # a gRPC port to health-check, or None for background workers
    argv: tuple[str, ...] = ()
    http: bool = False  # the port speaks HTTP (the gateway): health is GET /healthz

    def command(self) -> list[str]:
        return [sys.executable, "-m", "services.cli", "serve", self.name, *self.argv]


def processes() -> list[Process]:
    """Everything ``make run`` starts. Later services add themselves here."""
    from services.games import game_names, game_port
    from shared.runtime.config import port_for

    return [
        *(Process(name, game_port(name)) for name in game_names()),
        Process("lobby", port_for("lobby")),
        Process("gateway", port_for("gateway"), http=True),
        Process("worker", None),
        Process("reactor", None),
    ]


def wait_healthy(port: int, timeout: float = 30.0) -> bool:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                time.sleep(0.2)
    return False


def wait_http_healthy(port: int, timeout: float = 30.0) -> bool:
    from services.gateway.__main__ import check

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check(f"127.0.0.1:{port}", timeout_s=1):
            return True
        time.sleep(0.2)
    return False


def _service(proc: Process, env: dict[str, str]) -> Callable[[], subprocess.Popen[bytes]]:
    child_env = {**env, **({f"TABULA_{proc.name.upper()}_PORT": str(proc.port)} if proc.port else {})}
    return lambda: subprocess.Popen(proc.command(), env=child_env)


def _embedded_redis(server: RedisServer) -> Child:
    """The embedded Redis as a supervised child: started again on its port, with its AOF."""
    from shared.runtime.redis_server import start_redis

    def start() -> subprocess.Popen[bytes]:
        return start_redis(folder=server.folder, port=server.port).process

    return Child("redis", start, server.process, time.monotonic())


def record_stack(path: Path, env: dict[str, str], started: list[Process]) -> None:
    """Tell the tools where everything listens (services/cli/stack.py); removed on stop."""
    stack = Stack(
        pid=os.getpid(),
        redis_url=env["REDIS_URL"],
        redis_cluster=env.get("TABULA_REDIS_CLUSTER", "0") == "1",
        shards=int(env.get("TABULA_SHARDS", "16")),
        services={p.name: f"127.0.0.1:{p.port}" for p in started if p.port is not None},
        http=tuple(p.name for p in started if p.http),
    )
    write_stack(path, stack)
    typer.echo(f"stack      recorded in {path} (tabula export, watch, health ... read it)")


@app.command()
def run(
    data: Path = typer.Option(Path(".tabula/redis"), help="embedded Redis folder (AOF kept here)"),
) -> None:
    """Start Redis and every service; Ctrl-C stops them all."""
    from shared.runtime.redis_server import start_redis
    from shared.serving.tokens import SECRET_VAR, dev_secret

    redis: Child | None = None
    env = dict(os.environ)
    env.setdefault(SECRET_VAR, dev_secret(data.parent / "secret"))  # services refuse to start without one
    if "REDIS_URL" not in env:
        data.mkdir(parents=True, exist_ok=True)
        server = start_redis(folder=data)
        server.owns_folder = False
        redis = _embedded_redis(server)
        env["REDIS_URL"] = server.url
    typer.echo(f"redis      {env['REDIS_URL']}" + ("  (embedded, AOF in " + str(data) + ")" if redis else ""))
    children: list[Child] = []
    stopping = False

    def on_signal(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    started = processes()
    try:
        for proc in started:
            start = _service(proc, env)
            children.append(Child(proc.name, start, start(), time.monotonic()))
            healthy = wait_http_healthy if proc.http else wait_healthy
            if proc.port is not None and not healthy(proc.port):
                typer.echo(f"{proc.name} did not become healthy on port {proc.port}", err=True)
                raise typer.Exit(1)
            where = f"grpc 127.0.0.1:{proc.port}" if proc.port else "running"
            if proc.http:
                where = f"http://127.0.0.1:{proc.port}/ (spectator page)"
            typer.echo(f"{proc.name:<10} {where}  (pid {children[-1].popen.pid})")
        record_stack(stack_path_for(data), env, started)
        typer.echo("all services up; Ctrl-C stops them")
        supervised = [*([redis] if redis else []), *children]
        while not stopping:
            for child in supervised:
                child.check(time.monotonic())
            time.sleep(0.2)
    finally:
        remove_stack(stack_path_for(data), os.getpid())
        stop([c.popen for c in children], STOP_WAIT_S)
        stop([redis.popen] if redis else [], STOP_WAIT_S)  # last: the services may flush on their way out
        typer.echo("stopped")
