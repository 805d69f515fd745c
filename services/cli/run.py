"""``tabula run``: Redis (embedded unless REDIS_URL is set) and every service, in the foreground.

First every service's port is checked: a port something else listens on (another ``tabula run``, say)
is named in one line with the variable that moves it (``TABULA_<SERVICE>_PORT``) and the command
exits 1 before starting anything; ``--ports auto`` takes a free port for it instead. Each service is
a child process; the command waits until each answers its health check while still running (one
that exits first stops the command with exit 1), prints where they listen, and then supervises
them: a child that exits on its own (a crash, a SIGKILL) is logged on stderr and started again with
the same command and environment, after a back-off of 1, 2, 4 ... up to 30 s while it keeps failing
(a child that stayed up 30 s starts again after 1 s). The embedded Redis is restarted the same way,
on its port and AOF folder.

Ctrl-C (or SIGTERM) stops them all: the services first, each with SIGTERM, then the embedded Redis.
Every child runs in a session of its own, so the terminal's SIGINT (sent to the whole foreground
process group) reaches this command alone, and the order holds.
Finished matches are archived into ``archive/`` beside the data folder (``.tabula/archive/``),
``TABULA_ARCHIVE_AFTER`` seconds after they end, unless ``TABULA_ARCHIVE_DIR`` or
``TABULA_ARCHIVE_STORAGE`` names another archive. The lobby's mail (account verification and
password reset codes) is written into ``mail/`` beside it (``.tabula/mail/``) unless ``TABULA_MAIL_DIR``
or ``TABULA_MAIL`` says otherwise.
"""

from __future__ import annotations

import enum
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.main import app
from services.cli.stack import Stack, remove_stack, stack_path_for, write_stack
from shared.runtime.supervision import Child, exit_text, stop

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


class Ports(enum.StrEnum):
    fixed = "fixed"  # a taken port stops the command
    auto = "auto"  # a taken port is replaced by a free one


def processes(env: Mapping[str, str] | None = None) -> list[Process]:
    """Everything ``make run`` starts, on the ports ``env`` gives them. Later services add themselves here."""
    from services.games import game_names, game_port
    from shared.runtime.config import port_for

    return [
        *(Process(name, game_port(name, env)) for name in game_names()),
        Process("lobby", port_for("lobby", env)),
        Process("gateway", port_for("gateway", env), http=True),
        Process("worker", None),
        Process("reactor", None),
    ]


def port_var(name: str) -> str:
    return f"TABULA_{name.upper()}_PORT"


def port_taken(port: int, host: str = "127.0.0.1") -> bool:
    """Something listens on ``port`` (one left only in TIME_WAIT is free: the servers bind it again)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
        return False


def settle_ports(wanted: list[Process], host: str, ports: Ports) -> list[Process]:
    """``wanted`` with every port free: a taken one (or one twice) moved to a free port with
    ``Ports.auto``; else one line for each taken port, naming its variable, and exit 1."""
    from shared.runtime.redis_server import free_port

    settled: list[Process] = []
    taken: list[Process] = []
    for proc in wanted:
        if proc.port is not None and (proc.port in {p.port for p in settled} or port_taken(proc.port, host)):
            if ports is Ports.fixed:
                taken.append(proc)
                continue
            moved = free_port()
            typer.echo(f"{proc.name:<10} port {proc.port} is taken; using {moved}")
            proc = replace(proc, port=moved)
        settled.append(proc)
    for proc in taken:
        typer.echo(
            f"{proc.name}: port {proc.port} is taken (another tabula run?); set {port_var(proc.name)} "
            "to a free port, or start with --ports auto",
            err=True,
        )
    if taken:
        raise typer.Exit(1)
    return settled


def _running(child: subprocess.Popen[bytes] | None) -> bool:
    return child is None or child.poll() is None


def wait_healthy(port: int, timeout: float = 30.0, child: subprocess.Popen[bytes] | None = None) -> bool:
    """The gRPC health check on ``port`` answers SERVING (while ``child``, if given, still runs)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline and _running(child):
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return _running(child)
            except grpc.RpcError:
                time.sleep(0.2)
    return False


def wait_http_healthy(port: int, timeout: float = 30.0, child: subprocess.Popen[bytes] | None = None) -> bool:
    """``GET /healthz`` on ``port`` answers 200 (while ``child``, if given, still runs)."""
    from services.gateway.__main__ import check

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _running(child):
        if check(f"127.0.0.1:{port}", timeout_s=1):
            return _running(child)
        time.sleep(0.2)
    return False


def _service(proc: Process, env: dict[str, str]) -> Callable[[], subprocess.Popen[bytes]]:
    """Started in a session of its own: a Ctrl-C at the terminal reaches ``tabula run`` alone, which
    stops the services in its own order (SIGTERM), and then Redis."""
    return lambda: subprocess.Popen(proc.command(), env=env, start_new_session=True)


def start_service(proc: Process, env: dict[str, str]) -> Child:
    """``proc`` started, and up: it answers its health check on its port; else exit 1."""
    start = _service(proc, env)
    child = Child(proc.name, start, start(), time.monotonic())
    healthy = wait_http_healthy if proc.http else wait_healthy
    if proc.port is not None and not healthy(proc.port, child=child.popen):
        code = child.popen.poll()
        why = "did not become healthy" if code is None else f"exited ({exit_text(code)}) before it answered"
        typer.echo(f"{proc.name} {why} on port {proc.port}", err=True)
        stop([child.popen], STOP_WAIT_S)
        raise typer.Exit(1)
    return child


def default_mail(env: dict[str, str], data: Path) -> None:
    """The lobby's mail goes to ``mail/`` beside the data folder unless a mail folder or sender is set."""
    if not env.get("TABULA_MAIL_DIR") and not env.get("TABULA_MAIL"):
        env["TABULA_MAIL_DIR"] = str(data.resolve().parent / "mail")


def default_archive(env: dict[str, str], data: Path) -> None:
    """Finished matches go to ``archive/`` beside the data folder unless an archive is configured."""
    if not env.get("TABULA_ARCHIVE_DIR") and not env.get("TABULA_ARCHIVE_STORAGE"):
        env["TABULA_ARCHIVE_DIR"] = str(data.resolve().parent / "archive")


def _embedded_redis(server: RedisServer) -> Child:
    """The embedded Redis as a supervised child: started again on its port, with its AOF."""
    from shared.runtime.redis_server import start_redis

    def start() -> subprocess.Popen[bytes]:
        return start_redis(folder=server.folder, port=server.port, own_session=True).process

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
        archive_dir=env.get("TABULA_ARCHIVE_DIR", ""),
    )
    write_stack(path, stack)
    typer.echo(f"stack      recorded in {path} (tabula export, watch, health ... read it)")


def start_services(
    started: list[Process], env: dict[str, str], children: list[Child], stopping: Callable[[], bool]
) -> bool:
    """Start each service in turn into ``children``, each once the one before is up, and say where it
    listens; False when asked to stop meanwhile."""
    for proc in started:
        if stopping():
            return False
        children.append(start_service(proc, env))
        where = f"grpc 127.0.0.1:{proc.port}" if proc.port else "running"
        if proc.http:
            where = f"http://127.0.0.1:{proc.port}/ (spectator page)"
        typer.echo(f"{proc.name:<10} {where}  (pid {children[-1].popen.pid})")
    return not stopping()


@app.command()
def run(
    data: Path = typer.Option(Path(".tabula/redis"), help="embedded Redis folder (AOF kept here)"),
    ports: Ports = typer.Option(
        Ports.fixed, help="fixed: a taken port stops the command; auto: a free port is taken instead"
    ),
) -> None:
    """Start Redis and every service; Ctrl-C stops them all."""
    from services.workers.settings import WorkerSettings
    from shared.runtime.redis_server import start_redis
    from shared.serving.tokens import SECRET_VAR, dev_secret

    env = dict(os.environ)
    started = settle_ports(processes(env), env.get("TABULA_HOST", "127.0.0.1"), ports)
    env.update({port_var(p.name): str(p.port) for p in started if p.port is not None})  # for each other too
    env.setdefault(SECRET_VAR, dev_secret(data.parent / "secret"))  # services refuse to start without one
    default_archive(env, data)
    default_mail(env, data)
    redis: Child | None = None
    children: list[Child] = []
    stopping = False

    def on_signal(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        if "REDIS_URL" not in env:
            data.mkdir(parents=True, exist_ok=True)
            server = start_redis(folder=data, own_session=True)
            server.owns_folder = False
            redis = _embedded_redis(server)
            env["REDIS_URL"] = server.url
        embedded = f"  (embedded, AOF in {data})" if redis else ""
        typer.echo(f"redis      {env['REDIS_URL']}{embedded}")
        if env.get("TABULA_ARCHIVE_DIR"):
            after = WorkerSettings.from_env(env).archive_after
            typer.echo(
                f"archive    {env['TABULA_ARCHIVE_DIR']}  (finished matches, {after:g} s after they end)"
            )
        if env.get("TABULA_MAIL_DIR"):
            typer.echo(f"mail       {env['TABULA_MAIL_DIR']}  (the lobby's sign-up and reset codes)")
        if start_services(started, env, children, lambda: stopping):
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
