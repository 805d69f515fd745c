"""`tabula run` started in a folder of its own, as a user starts `make run` in a clone, and the tools
run from that folder with no address in their environment: they must find the stack by what
`tabula run` recorded (.tabula/stack.json), as the README promises."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from services.games import service_ports
from tests.support.tabula_run import run_env, tabula_run
from tests.support.timing import scaled

REPO = Path(__file__).resolve().parents[2]


def tool_env() -> dict[str, str]:
    """The environment of a user's shell: nothing says where the stack is."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "REDIS_URL" and not (k.startswith("TABULA_") and k.endswith(("_PORT", "_ADDR", "_STATE_DIR")))
    }
    env["PYTHONPATH"] = f"{REPO}{os.pathsep}{REPO / 'gen'}"
    return env


@contextmanager
def running_stack(folder: Path, **settings: str) -> Iterator[tuple[dict[str, str], str]]:
    """`tabula run` in ``folder`` on free ports, with ``settings`` in its environment; yields (the tools'
    environment, run's output so far)."""
    base = {**tool_env(), "TABULA_SECRET": "e2e-stack-dir-secret-0123456789abcdef", **settings}
    env = run_env(base, service_ports())
    with tabula_run(env, cwd=folder) as (_, output):
        yield tool_env(), output


def stack_in(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[tuple[Path, dict[str, str]]]:
    """A module's stack fixture: :func:`running_stack` in a new folder ``name``; yields (the folder, the
    tools' environment)."""
    folder = tmp_path_factory.mktemp(name)
    with running_stack(folder) as (env, _):
        yield folder, env


def cli(
    cwd: Path, env: dict[str, str], *args: str, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=scaled(timeout),
    )
