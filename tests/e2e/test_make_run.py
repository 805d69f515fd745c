"""`tabula run` (what `make run` calls) starts Redis and every service, says where, and stops them all."""

from __future__ import annotations

import os
import re
from pathlib import Path

import psutil

from services.cli.run import processes, wait_healthy
from services.games import service_ports
from tests.support.tabula_run import run_env, start_run, stop_run
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
    wait_until(lambda: not _alive(children), 30, "every child of tabula run to end")


def _alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    """Those still running (a zombie has ended: only its parent has not reaped it yet)."""
    out = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                out.append(process)
        except psutil.NoSuchProcess:
            pass
    return out
