"""The peer suite of ``tabula bench`` end to end, in a tiny profile (1 client, 2 s a phase, one
alternation): it installs the peer (``npm ci`` in bench/peer), starts boardgame.io twice (in memory
and on FlatFile) and ``tabula run`` with the race registered, plays each side and reports every
figure it names (CI does not run ``make bench``; this keeps the suite from rotting). Counts only:
speeds are the bench's. Skipped, with the reason, where node or npm is missing or ``npm ci`` fails."""

from __future__ import annotations

import math
import os
import signal
from pathlib import Path

import pytest

from bench import peer as peer_bench
from services.cli.bench import suites
from tests.support.timing import scaled, wait_until

SIDE_FIGURES = (
    "moves",
    "moves_per_s",
    "p50_ms",
    "p99_ms",
    "cpu_ms_per_move",
    "deliveries_per_move",
    "errors",
)


@pytest.fixture(scope="module")
def peer_installed() -> None:
    reason = peer_bench.unavailable()
    if reason:
        pytest.skip(reason)


@pytest.mark.timeout(int(scaled(900)))
def test_the_peer_suite_reports_every_figure(peer_installed: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_BENCH_PEER_SECONDS", "2")
    monkeypatch.setenv("TABULA_BENCH_PEER_ALTERNATIONS", "1")
    monkeypatch.setenv("TABULA_BENCH_PEER_CLIENTS", "1")
    results = {r.name: r for r in suites()["peer"]()}

    named = {
        *(f"peer.c1.{side}.{figure}" for side in peer_bench.SIDES for figure in SIDE_FIGURES),
        "peer.c1.tabula.cpu_ms_per_move.race",  # the rule service alone
        "peer.c1.tabula.redis_commands_per_move.xadd",  # by command at the largest count
        *(f"peer.c1.{ratio}{suffix}" for ratio, *_ in peer_bench.RATIOS for suffix in ("", "_flatfile")),
        "peer.c1.redis_commands_per_move",
    }
    assert named <= set(results), sorted(named - set(results))
    for side in peer_bench.SIDES:
        assert results[f"peer.c1.{side}.moves"].value > 0, side
        assert math.isfinite(results[f"peer.c1.{side}.p99_ms"].value), side
        assert results[f"peer.c1.{side}.cpu_ms_per_move"].value > 0, side
        # the new state pushed to both seats: at least the other seat's for each move
        assert results[f"peer.c1.{side}.deliveries_per_move"].value > 1, side
        assert results[f"peer.c1.{side}.failed_phases"].unit == "phases", side
    services = {n.rsplit(".", 1)[1] for n in results if n.startswith("peer.c1.tabula.cpu_ms_per_move.")}
    assert "race" in services and "worker" in services, services  # the round ends are the worker's
    parts = sum(results[f"peer.c1.tabula.cpu_ms_per_move.{s}"].value for s in services)
    assert parts == pytest.approx(results["peer.c1.tabula.cpu_ms_per_move"].value)
    assert results["peer.c1.tabula.redis_commands_per_move"].value > 0
    # issue 28's goals beside the ratios, and the bars as `.bar`; the p99's only at 32 clients
    assert results["peer.c1.stack_cpu_vs_peer"].goal == "<= 1"
    assert results["peer.c1.stack_cpu_vs_peer.bar"].goal == "<= 2"
    assert results["peer.c1.rule_cpu_vs_peer"].goal == "<= 0.8"
    assert results["peer.c1.rule_cpu_vs_peer.bar"].goal == "<= 1.2"
    assert results["peer.c1.redis_commands_per_move"].goal == "<= 3"
    assert results["peer.c1.redis_commands_per_move.bar"].goal == "<= 6"
    assert results["peer.c1.p99_vs_peer"].goal == ""
    assert results["peer.c1.stack_cpu_vs_peer_flatfile"].goal == ""


def test_the_peer_listens_on_loopback_only(peer_installed: None, tmp_path: Path) -> None:
    with peer_bench.PeerServer("memory", tmp_path) as server:
        port = int(server.url.rsplit(":", 1)[1])
        assert server.url.startswith("http://127.0.0.1:")
        assert peer_bench.listening(port) == {"127.0.0.1"}


def test_a_phase_whose_server_died_is_failed_and_the_server_started_again(
    peer_installed: None, tmp_path: Path
) -> None:
    """boardgame.io's FlatFile can crash its server (a read meeting a write of the same file)."""
    with peer_bench.PeerServer("flatfile", tmp_path) as server:
        dead = server.pid
        os.kill(dead, signal.SIGKILL)
        wait_until(lambda: not server.alive(), 10, "the server's end")
        assert peer_bench.peer_phase(server, 1, 0.5).failed
        assert server.alive() and server.pid != dead
        assert (tmp_path / "flatfile-2").is_dir()  # a fresh folder
        played = peer_bench.peer_phase(server, 1, 0.5)
        assert not played.failed and played.moves > 0
