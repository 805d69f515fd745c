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


@app.command()
def health(address: str = typer.Argument(..., help="host:port of a gRPC service")) -> None:
    """Exit 0 when the service at ADDRESS answers its gRPC health check with SERVING."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=3)
        except grpc.RpcError as err:
            typer.echo(f"{address}: {err.code().name}", err=True)
            raise typer.Exit(1) from err
    serving = reply.status == health_pb2.HealthCheckResponse.SERVING
    typer.echo(f"{address}: {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}")
    raise typer.Exit(0 if serving else 1)


for _module in ("proto", "run", "bench", "simulate", "content", "games", "logs", "play"):
    importlib.import_module(f"services.cli.{_module}")
