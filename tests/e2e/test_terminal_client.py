"""`tabula play` against the whole stack (`tabula run`): a guest plays a full Lorenzo match against a
random bot by always choosing the first legal command; then `tabula replay` and `tabula watch`.

Bots and the system's round / Vatican / game-end steps are played by the workers and the reactor
(`tabula serve worker|reactor`), so this needs them in `tabula run`'s process list.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from services.cli.run import processes
from services.games import service_ports
from shared.redis_server import free_port

NEEDED = ("worker", "reactor")
_missing = [name for name in NEEDED if name not in {p.name for p in processes()}]
pytestmark = pytest.mark.skipif(
    bool(_missing),
    reason=(
        f"services/workers not wired yet: `tabula serve {'|'.join(_missing)}` is missing from processes() in "
        "services/cli/run.py, so nothing plays the bots or the system steps of the match"
    ),
)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    env = {**os.environ, "TABULA_SECRET": "e2e-client-secret-0123456789"}
    env.pop("REDIS_URL", None)
    for name in service_ports():
        env[f"TABULA_{name.upper()}_PORT"] = str(free_port())
    data = tmp_path_factory.mktemp("stack") / "redis"
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "run", "--data", str(data)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "all services up" in line:
            break
    try:
        assert "all services up" in "".join(lines), "".join(lines)
        yield env
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()


def _cli(
    env: dict[str, str], *args: str, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _addresses(env: dict[str, str]) -> list[str]:
    return [
        "--lobby",
        f"127.0.0.1:{env['TABULA_LOBBY_PORT']}",
        "--game-addr",
        f"127.0.0.1:{env['TABULA_LORENZO_PORT']}",
    ]


@pytest.fixture(scope="module")
def played(stack: dict[str, str]) -> tuple[str, str]:
    """(match id, output) of a whole match played by answering "1" to every prompt."""
    answers = "1\n" * 5000
    result = _cli(
        stack,
        "play",
        "--game",
        "lorenzo",
        "--seats",
        "2",
        "--bots",
        "random",
        "--name",
        "Ada",
        *_addresses(stack),
        stdin=answers,
        timeout=900,
    )
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    found = re.search(r"^Match (\S+): you are Ada at seat (\d)", out, re.M)
    assert found, out[:2000]
    return found.group(1), out


def test_play_shows_the_board_commands_and_final_scores(played: tuple[str, str]) -> None:
    _, out = played
    assert "Lorenzo il Magnifico" in out and "Towers" in out and "Players" in out
    assert "Your legal commands" in out and "Your leaders in hand" in out
    assert "Place family member" in out
    final = out[out.index("Final scores") :]
    assert "Ada" in final and "random bot" in final
    assert re.search(r"[12] \W+ Ada \W+ \d+", final)  # place, player, score


def test_replay_prints_the_view_at_a_version(stack: dict[str, str], played: tuple[str, str]) -> None:
    match_id, _ = played
    result = _cli(stack, "replay", match_id, "--at", "5", *_addresses(stack))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"match {match_id}  v5" in result.stdout and "Towers" in result.stdout


def test_watch_follows_the_public_view(stack: dict[str, str], played: tuple[str, str]) -> None:
    match_id, _ = played
    result = _cli(
        stack, "watch", match_id, "--until-version", "10", "--max-seconds", "20", *_addresses(stack)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Towers" in result.stdout and "(you)" not in result.stdout
    assert "Final scores" in result.stdout  # the match is over: the spectator sees the result
