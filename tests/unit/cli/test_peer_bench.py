"""The peer suite's pure parts: its profile, the loopback check, the medians and ratios, the skip."""

from __future__ import annotations

import socket
from collections import Counter
from pathlib import Path

import pytest

from bench import peer as peer_bench
from bench.peer import Phase, listening, profile_from_env, summarize


def test_the_profile_comes_from_the_environment() -> None:
    assert profile_from_env({}) == peer_bench.PeerProfile((1, 8, 32), 8.0, 3)
    found = profile_from_env(
        {
            "TABULA_BENCH_PEER_SECONDS": "2",
            "TABULA_BENCH_PEER_ALTERNATIONS": "1",
            "TABULA_BENCH_PEER_CLIENTS": "1,4",
        }
    )
    assert found == peer_bench.PeerProfile((1, 4), 2.0, 1)
    with pytest.raises(ValueError, match="TABULA_BENCH_PEER"):
        profile_from_env({"TABULA_BENCH_PEER_ALTERNATIONS": "0"})


@pytest.mark.parametrize(
    ("host", "family", "expected"),
    [
        ("127.0.0.1", socket.AF_INET, "127.0.0.1"),
        ("0.0.0.0", socket.AF_INET, "0.0.0.0"),
        ("::", socket.AF_INET6, "::"),
    ],
)
def test_listening_names_the_address_a_port_is_bound_to(host: str, family: int, expected: str) -> None:
    if not Path("/proc/net/tcp").exists():
        pytest.skip("no /proc/net/tcp")
    with socket.socket(family) as server:
        server.bind((host, 0))
        server.listen()
        assert listening(server.getsockname()[1]) == {expected}


def phase(moves: int, cpu_ms: float, p99: float, rule_ms: float = 0.0, commands: int = 0) -> Phase:
    cpu = {"server": cpu_ms} if not commands else {"race": rule_ms, "worker": cpu_ms - rule_ms}
    return Phase(moves, 1.0, [1.0] * 98 + [p99] * 2, 2 * moves, 0, cpu, 0.0, Counter(xadd=commands))


def test_figures_are_medians_and_ratios_medians_of_each_alternation() -> None:
    tabula = [phase(10, 40, 9, rule_ms=20, commands=50), phase(10, 50, 9, 10, 30), phase(10, 900, 9, 90, 40)]
    memory = [phase(10, 10, 3), phase(10, 20, 3), phase(10, 30, 3)]  # 1, 2, 3 ms a move
    durable = [phase(10, 100, 90)] * 3
    phases = {(32, "tabula"): tabula, (32, "bgio"): memory, (32, "bgio_flatfile"): durable}
    results = {r.name: r for r in summarize(phases, [32])}
    assert results["peer.c32.tabula.cpu_ms_per_move"].value == 5.0  # of 4, 5 and 90
    assert results["peer.c32.tabula.cpu_ms_per_move.race"].value == 2.0
    assert results["peer.c32.bgio.cpu_ms_per_move"].value == 2.0
    # per alternation: 4/1, 5/2, 90/3 -> median 4 (the ratio of the medians would be 2.5)
    assert results["peer.c32.stack_cpu_vs_peer"].value == 4.0
    assert results["peer.c32.stack_cpu_vs_peer"].meets_goal is False
    assert results["peer.c32.rule_cpu_vs_peer"].value == 2.0  # 2/1, 1/2, 9/3
    assert results["peer.c32.p99_vs_peer"].value == 3.0
    assert results["peer.c32.p99_vs_peer"].goal == "<= 1"  # at 32 clients
    assert results["peer.c32.p99_vs_peer_flatfile"].value == pytest.approx(0.1)
    assert results["peer.c32.redis_commands_per_move"].value == 4.0
    assert (
        results["peer.c32.redis_commands_per_move.bar"].goal,
        results["peer.c32.redis_commands_per_move.bar"].meets_goal,
    ) == ("<= 6", True)
    assert results["peer.c32.tabula.deliveries_per_move"].value == 2.0


def test_without_node_the_suite_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(peer_bench.shutil, "which", lambda tool: None)
    [result] = peer_bench.peer_benchmarks(peer_bench.PeerProfile(), tmp_path)
    assert result.name == "peer.skipped"
    assert "node and npm not found" in result.unit


def test_a_failed_phase_gives_no_figure_and_no_ratio_and_is_counted() -> None:
    tabula = [phase(10, 40, 9, rule_ms=20, commands=50), phase(10, 50, 9, 10, 30)]
    memory = [phase(10, 10, 3), phase(10, 20, 3)]
    durable = [Phase(failed=True), phase(10, 100, 90)]
    phases = {(1, "tabula"): tabula, (1, "bgio"): memory, (1, "bgio_flatfile"): durable}
    results = {r.name: r for r in summarize(phases, [1])}
    assert results["peer.c1.bgio_flatfile.failed_phases"].value == 1
    assert results["peer.c1.bgio.failed_phases"].value == 0
    assert results["peer.c1.bgio_flatfile.cpu_ms_per_move"].value == 10.0  # the one that ran
    assert results["peer.c1.stack_cpu_vs_peer_flatfile"].value == 0.5  # its alternation only: 5 / 10
    assert results["peer.c1.stack_cpu_vs_peer"].value == 3.25  # median of 4 and 2.5
