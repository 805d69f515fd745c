"""`tabula run` (what `make run` calls) starts Redis and every service, says where, and stops them all."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
from pathlib import Path

import psutil

from services.cli.run import processes, wait_healthy, wait_http_healthy
from services.games import service_ports
from shared.serving.grpc_server import start_server
from tests.support.tabula_run import UP, alive, run_env, run_to_end, start_run, stop_run
from tests.support.timing import scaled, wait_until


def test_run_starts_every_service_reports_addresses_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    env = run_env({**os.environ, "TABULA_SECRET": "e2e-secret-0123456789abcdefghijklmn"}, service_ports())
    proc, output = start_run(env, "--data", str(tmp_path / "redis"), timeout=120)
    assert re.search(r"^redis\s+redis://127\.0\.0\.1:\d+/0\s+\(embedded", output, re.M)
    children = psutil.Process(proc.pid).children(recursive=True)
    for expected in processes():
        assert re.search(rf"^{expected.name}\s", output, re.M), f"{expected.name} not reported"
    for port in map(int, re.findall(r"grpc 127\.0\.0\.1:(\d+)", output)):
        assert wait_healthy(port, timeout=scaled(30))  # up already: a bound for a loaded machine
    assert (tmp_path / "redis" / "appendonlydir").exists() or (tmp_path / "redis" / "appendonly.aof").exists()
    assert stop_run(proc) == 0
    wait_until(lambda: not alive(children), 30, "every child of tabula run to end")


SECRET = {"TABULA_SECRET": "e2e-secret-0123456789abcdefghijklmn"}


def test_a_port_another_stack_serves_is_named_with_its_variable_and_nothing_starts(tmp_path: Path) -> None:
    """The lobby's port is held by a server that answers health, as a second checkout's stack does:
    no "all services up", one line naming the port and TABULA_LOBBY_PORT, exit 1, no stack file."""
    env = run_env({**os.environ, **SECRET}, service_ports())
    other = start_server([], port=int(env["TABULA_LOBBY_PORT"]))
    try:
        result = run_to_end(env, "--data", str(tmp_path / "redis"), timeout=90)
    finally:
        other.stop(0)
    assert result.returncode == 1, result.stdout + result.stderr[-3000:]
    assert UP not in result.stdout and "Traceback" not in result.stderr
    port = env["TABULA_LOBBY_PORT"]
    (line,) = [line for line in result.stderr.splitlines() if port in line]
    assert "TABULA_LOBBY_PORT" in line and "--ports auto" in line
    assert not (tmp_path / "stack.json").exists()


def test_ports_auto_takes_a_free_port_for_a_taken_one_and_records_it(tmp_path: Path) -> None:
    env = run_env({**os.environ, **SECRET}, service_ports())
    taken = int(env["TABULA_GATEWAY_PORT"])
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        proc, output = start_run(env, "--data", str(tmp_path / "redis"), "--ports", "auto", timeout=120)
        try:
            moved = re.search(rf"^gateway\s+port {taken} is taken; using (\d+)$", output, re.M)
            assert moved, output
            recorded = json.loads((tmp_path / "stack.json").read_text())["services"]
            assert recorded["gateway"] == f"127.0.0.1:{moved.group(1)}" != f"127.0.0.1:{taken}"
            assert recorded["lobby"] == f"127.0.0.1:{env['TABULA_LOBBY_PORT']}"  # a free one is kept
            assert wait_http_healthy(int(moved.group(1)), timeout=scaled(30))
        finally:
            assert stop_run(proc) == 0


def test_ctrl_c_to_the_process_group_stops_services_before_redis_and_logs_no_error(tmp_path: Path) -> None:
    """A terminal's Ctrl-C: SIGINT to every process of the foreground group at once."""
    env = run_env({**os.environ, **SECRET}, service_ports())
    errors = tmp_path / "stderr.log"
    with errors.open("w") as sink:
        data = str(tmp_path / "redis")
        proc, _ = start_run(env, "--data", data, stderr=sink, timeout=120, new_session=True)
    children = psutil.Process(proc.pid).children(recursive=True)
    assert any("redis-server" in c.name() for c in children)
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(scaled(60)) == 0
    wait_until(lambda: not alive(children), 30, "every child of tabula run to end")
    logged = errors.read_text()
    error = re.compile(r'"level": ?"(error|critical)"|\b(ERROR|CRITICAL)/|Traceback', re.I)
    bad = [line for line in logged.splitlines() if error.search(line)]
    assert not bad, logged[-5000:]
