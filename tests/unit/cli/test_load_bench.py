"""The load suite's pure parts: the bot-lag pairing, percentiles, the profile and the stack's env."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench import load as load_bench
from bench.load import PROFILES, bot_lags, percentile, profile_from_env, stack_env, turn_lags
from shared.store import StoredEvent


def event(version: int, command_id: str, actor: str, at: int) -> StoredEvent:
    return StoredEvent(version, "E", b"", "public", command_id, actor, at, 1)


def test_a_bot_lag_runs_from_seat_0_to_the_next_bot_move_past_system_steps() -> None:
    log = [
        event(1, "create", "system", 0),
        event(2, "h1", "seat:0", 100),
        event(3, "h1", "seat:0", 105),  # the same command's second event
        event(4, "sys", "system", 130),
        event(5, "b1", "bot:1:random", 400),
        event(6, "b2", "bot:2:random", 900),  # not after a seat-0 command
        event(7, "h2", "seat:0", 1000),
        event(8, "h3", "seat:0", 1200),  # seat 0 again next: h2 has no sample
        event(9, "b3", "bot:3:random", 1250),
        event(10, "h4", "seat:0", 1300),  # nobody after it yet
    ]
    assert bot_lags(log) == [300.0, 50.0]
    # the whole reply: h1 to b2 (the last move before h2), h3 to b3; h2 had no reply, h4 none yet
    assert turn_lags(log) == [800.0, 50.0]


def test_percentile_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50
    assert percentile(values, 0.99) == 99
    assert percentile(list(reversed(values)), 1.0) == 100
    assert percentile([7.0], 0.99) == 7
    assert math.isnan(percentile([], 0.5))


def test_the_profile_is_quick_unless_full_is_asked_for() -> None:
    assert profile_from_env({}) is PROFILES["quick"]
    assert profile_from_env({"TABULA_BENCH_LOAD": "full"}) is PROFILES["full"]
    assert PROFILES["full"].matches == (50, 200, 500)
    assert PROFILES["full"].streams == (1000, 10000)
    with pytest.raises(ValueError, match="quick or full"):
        profile_from_env({"TABULA_BENCH_LOAD": "huge"})


def test_the_stack_runs_on_its_own_redis_ports_and_secret_with_no_limits() -> None:
    env = stack_env(
        "s" * 64, {"REDIS_URL": "redis://127.0.0.1:6379/0", "TABULA_METRICS_PORT": "9100", "X": "y"}
    )
    assert "REDIS_URL" not in env and "TABULA_METRICS_PORT" not in env
    assert env["X"] == "y" and env["TABULA_SECRET"] == "s" * 64
    assert env["TABULA_LIMIT_COMMAND_IP"] == "off" and env["TABULA_LIMIT_WATCHES_PER_TOKEN"] == "0"
    ports = [int(v) for k, v in env.items() if k.endswith("_PORT")]
    assert {"TABULA_LORENZO_PORT", "TABULA_LOBBY_PORT", "TABULA_GATEWAY_PORT"} <= set(env)
    assert len(set(ports)) == len(ports) and 6379 not in ports


def _stat(folder: Path, pid: int, parent: int, user: int, system: int, argv: tuple[str, ...] = ()) -> None:
    (folder / str(pid)).mkdir()
    # pid (comm) state ppid ... utime stime: fields 14 and 15, counted from 1
    rest = ["S", str(parent), *["0"] * 9, str(user), str(system), *["0"] * 5]
    (folder / str(pid) / "stat").write_text(f"{pid} (python -m x) " + " ".join(rest))
    if argv:
        (folder / str(pid) / "cmdline").write_bytes(b"".join(a.encode() + b"\0" for a in argv))


def test_the_stack_s_cpu_is_summed_over_its_whole_tree_and_nothing_else(tmp_path: Path) -> None:
    tick = os.sysconf("SC_CLK_TCK")
    _stat(tmp_path, 10, 1, tick, 0)  # the stack's root
    _stat(tmp_path, 11, 10, 2 * tick, tick, ("python", "-m", "services.cli", "serve", "worker"))
    _stat(tmp_path, 12, 11, 0, tick)  # a worker's process under its parent
    _stat(tmp_path, 13, 1, 50 * tick, 0)  # something else
    _stat(tmp_path, 14, 10, 0, 3 * tick, ("redis-server 127.0.0.1:7001",))  # Redis rewrites its title
    _stat(tmp_path, 15, 10, tick, 0, ("python", "-m", "services.cli", "serve", "lobby"))
    _stat(tmp_path, 16, 10, tick, 0)  # no cmdline (a zombie): its name from stat
    (tmp_path / "self").mkdir()  # not a pid
    assert load_bench.tree_cpu(10, tmp_path) == {
        "run": 1.0,
        "worker": 4.0,
        "redis": 3.0,
        "lobby": 1.0,
        "python -m x": 1.0,
    }
    assert load_bench.tree_cpu_s(10, tmp_path) == 10.0
    assert load_bench.tree_cpu_s(11, tmp_path) == 4.0
    assert load_bench.tree_cpu(10, tmp_path / "none") == {"run": 0.0}


def test_cpu_per_call_counts_each_service_and_the_bench_client(tmp_path: Path) -> None:
    tick = os.sysconf("SC_CLK_TCK")
    _stat(tmp_path, 10, 1, 0, 0)
    _stat(tmp_path, 11, 10, tick, 0, ("python", "-m", "services.cli", "serve", "lobby"))

    def run() -> load_bench.Series:  # the lobby uses 3 more seconds and this process some CPU
        (tmp_path / "11" / "stat").write_text(
            "11 (python) S 10 " + " ".join(["0"] * 9 + [str(4 * tick), "0"] + ["0"] * 5)
        )
        deadline = time.process_time() + 0.05
        while time.process_time() < deadline:
            pass
        return load_bench.Series(100, 1.0, [])

    series, per_call = load_bench.cpu_per_call(10, run, tmp_path)
    assert series.calls == 100
    assert per_call["lobby"] == 30.0  # 3 s over 100 calls, in ms
    assert 0.5 <= per_call["bench_client"] < 5.0
    assert "run" not in per_call  # it used nothing meanwhile


def test_an_idle_stack_is_quiet_at_once_and_a_busy_one_is_waited_for_up_to_the_timeout() -> None:
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as idle:
        started = time.monotonic()
        load_bench.quiet(idle.pid, timeout=20)
        assert time.monotonic() - started < 5
        idle.kill()
    with subprocess.Popen([sys.executable, "-c", "while True: pass"]) as busy:
        started = time.monotonic()
        load_bench.quiet(busy.pid, timeout=2)
        assert time.monotonic() - started >= 2
        busy.kill()
