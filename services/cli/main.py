"""``tabula``: serve, run, proto, bench and the game tools."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(help="Tabula: event-sourced backend for Euro board games.", no_args_is_help=True)

# Non-game processes: name -> "module:function" (games are served by services.game_server).
ENTRY_POINTS: dict[str, str] = {
    "gateway": "services.gateway.server:main",
    "lobby": "services.lobby.server:main",
    "worker": "services.workers.celery_app:main",
    "reactor": "services.workers.reactor:main",
}


@app.command()
def serve(
    name: str = typer.Argument(..., help="a game (see `tabula games`) or a process (lobby, worker, ...)"),
) -> None:
    """Run one service in the foreground until SIGTERM / Ctrl-C."""
    from services.games import game_names

    if name in ENTRY_POINTS:
        module, _, attr = ENTRY_POINTS[name].partition(":")
        getattr(importlib.import_module(module), attr)()
    elif name in game_names():
        from services.game_server import main

        main(name)
    else:
        raise typer.BadParameter(f"unknown service {name!r}")


def _grpc_health(address: str) -> str:
    """The gRPC health check's status name (SERVING ...), or the call's error code name."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=3)
        except grpc.RpcError as err:
            return str(err.code().name)
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def _http_health(address: str) -> str:
    """SERVING when ``GET /healthz`` answers 200 (the gateway speaks HTTP, not gRPC)."""
    from services.gateway.__main__ import check

    return "SERVING" if check(address) else "NOT_SERVING"


def health_targets(targets: list[str], http: bool) -> list[tuple[str, str, bool]]:
    """(label, host:port, speaks HTTP) for each target: an address, a service name, or (none) every
    service of the running stack. Raises NoStack when a name or the default needs a stack."""
    from services.cli.stack import NoStack, find_stack, service_address

    stack = find_stack()
    http_services = set(stack.http if stack else ()) | {"gateway"}
    if not targets:
        if stack is None:
            raise NoStack("name HOST:PORT")
        return [(name, addr, name in http_services) for name, addr in stack.services.items()]
    out = []
    for target in targets:
        if ":" in target:
            known = {addr: name for name, addr in (stack.services.items() if stack else ())}
            out.append((known.get(target, target), target, http or known.get(target) in http_services))
        else:
            out.append((target, service_address(target), http or target in http_services))
    return out


@app.command()
def health(
    targets: list[str] = typer.Argument(
        None, help="HOST:PORT or a service name (lobby, gateway, a game); none: every service running"
    ),
    http: bool = typer.Option(False, "--http", help="the addresses speak HTTP: GET /healthz"),
) -> None:
    """Exit 0 when every service named (default: every service running) answers SERVING.

    gRPC services answer the gRPC health check; the gateway its HTTP GET /healthz. Without
    arguments: every service of the stack ``tabula run`` recorded (services/cli/stack.py)."""
    from services.cli.stack import NoStack

    try:
        found = health_targets(targets or [], http)
    except NoStack as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from err
    healthy = True
    for label, address, speaks_http in found:
        status = _http_health(address) if speaks_http else _grpc_health(address)
        healthy = healthy and status == "SERVING"
        typer.echo(f"{address}: {status}" if label == address else f"{label} {address}: {status}")
    raise typer.Exit(0 if healthy else 1)


for _module in (
    "proto",
    "run",
    "bench",
    "simulate",
    "balance",
    "content",
    "games",
    "logs",
    "archive",
    "play",
    "friends",
    "tournaments",
    "reasons",
    "i18n",
    "deploy",
    "rescore",
    "leaderboard",
    "analyze",
):
    importlib.import_module(f"services.cli.{_module}")
