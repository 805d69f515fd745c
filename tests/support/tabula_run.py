"""`tabula run` (what `make run` calls) as a child of an end-to-end test: on free ports, waited for
until it says "all services up", stopped with Ctrl-C as a user stops it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import psutil
import pytest

from services.cli.stack import STATE_DIR
from services.games import EXTRA_GAMES, GAMES, load_game
from shared.core.manifest import GameManifest
from shared.runtime.redis_server import free_port
from tests.support.timing import scaled

REPO = Path(__file__).resolve().parents[2]
UP = "all services up"


def run_env(base: Mapping[str, str], services: Iterable[str]) -> dict[str, str]:
    """``base`` with a free port for each service and no ``REDIS_URL`` (the run embeds its Redis)."""
    env = {k: v for k, v in base.items() if k != "REDIS_URL"}
    env.update({f"TABULA_{name.upper()}_PORT": str(free_port()) for name in services})
    return env


def start_run(
    env: Mapping[str, str],
    *args: str,
    cwd: Path = REPO,
    stderr: int | IO[Any] = subprocess.DEVNULL,
    timeout: float = 180,
    new_session: bool = False,
) -> tuple[subprocess.Popen[str], str]:
    """``tabula run ARGS``, and what it printed up to "all services up"; stopped again if it never
    says so in ``timeout`` seconds (scaled by TABULA_TEST_SLOWDOWN; the test fails with its output).
    ``new_session``: in a session (and process group) of its own, as a terminal's foreground job,
    so that the test can send its process group a Ctrl-C."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "run", *args],
        cwd=cwd,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        start_new_session=new_session,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + scaled(timeout)
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if UP in line:
            break
    output = "".join(lines)
    if UP not in output:
        stop_run(proc)
        raise AssertionError(f"tabula run did not come up:\n{output}")
    return proc, output


def alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    """Those still running (a zombie has ended: only its parent has not reaped it yet)."""
    out = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                out.append(process)
        except psutil.NoSuchProcess:
            pass
    return out


def stop_run(proc: subprocess.Popen[str], timeout: float = 60) -> int:
    """Ctrl-C, then its exit code; killed if it has not stopped in ``timeout`` seconds."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def run_to_end(env: Mapping[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``tabula run ARGS`` that is expected to stop by itself (a refused start). Still running after
    ``timeout`` seconds, it is stopped (Ctrl-C, then SIGKILL to its process group) and the test fails."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "run", *args],
        cwd=REPO,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=scaled(timeout))
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=scaled(60))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        raise AssertionError(f"tabula run still ran after {timeout} s:\n{out}\n{err[-3000:]}") from None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@contextmanager
def tabula_run(
    env: Mapping[str, str], *args: str, cwd: Path = REPO
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """:func:`start_run` for the ``with`` block, :func:`stop_run` after it."""
    proc, output = start_run(env, *args, cwd=cwd)
    try:
        yield proc, output
    finally:
        stop_run(proc)


@contextmanager
def run_with_game(
    game: GameManifest, registration: str, gen: Path, tmp: pytest.TempPathFactory, **settings: str
) -> Iterator[tuple[dict[str, str], str, str]]:
    """`tabula run` with one more game registered as ``TABULA_EXTRA_GAMES`` names it (``registration``,
    the ``module:ATTR`` of its manifest ``game``; its generated code in ``gen``), ``settings`` in its
    environment, its Redis data and the client's state (``matches.json``) in new temporary folders.
    Yields (its processes' environment, what it printed up to "all services up", its Redis URL); this
    process registers the game too for as long, to decode its messages."""
    env = {
        **os.environ,
        EXTRA_GAMES: registration,
        "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "gen"), str(gen)]),
        "TABULA_MCTS_SECONDS": "0.05",
        STATE_DIR: str(tmp.mktemp("state")),
        **settings,
    }
    env = run_env(env, ("lobby", "gateway", *(m.name for m in GAMES), game.name))
    with tabula_run(env, "--data", str(tmp.mktemp("stack") / "redis")) as (_, output):
        redis_url = re.search(r"^redis\s+(redis://\S+)", output, re.M)
        assert redis_url, output
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(EXTRA_GAMES, registration)
            load_game.cache_clear()
            yield env, output, redis_url.group(1)
        load_game.cache_clear()


def play_as_ada(env: Mapping[str, str], *args: str, answers: str) -> tuple[str, int, str]:
    """`tabula play ARGS --name Ada`, typing ``answers``, to its end: (the match id, Ada's seat, what it
    printed)."""
    result = subprocess.run(
        [sys.executable, "-m", "services.cli", "play", *args, "--name", "Ada"],
        env=dict(env),
        cwd=REPO,
        input=answers,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    found = re.search(r"^Match (\S+): you are Ada at seat (\d)", out, re.M)
    assert found, out[:3000]
    return found.group(1), int(found.group(2)), out
