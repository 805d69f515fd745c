"""``shared.runtime.config.available_cpus`` and the worker's default concurrency, which follows it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.workers.settings import WorkerSettings
from shared.runtime.config import available_cpus

AFFINITY = len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [
        ("max 100000\n", AFFINITY),  # no quota: the affinity
        ("100000 100000\n", 1),  # a 1-CPU limit
        ("150000 100000\n", min(2, AFFINITY)),  # 1500m: rounded up
        ("50000 100000\n", 1),  # half a CPU: still one process
        ("6400000 100000\n", AFFINITY),  # a quota above the CPUs this process may use
        ("garbage\n", AFFINITY),
    ],
)
def test_a_cgroup_quota_caps_the_cpus(tmp_path: Path, cpu_max: str, expected: int) -> None:
    (tmp_path / "cpu.max").write_text(cpu_max)
    assert available_cpus(tmp_path / "cpu.max") == expected


def test_without_a_cgroup_file_it_is_the_affinity(tmp_path: Path) -> None:
    assert available_cpus(tmp_path / "absent") == AFFINITY


def test_the_worker_s_concurrency_follows_the_machine_unless_set() -> None:
    assert WorkerSettings.from_env({}).concurrency == available_cpus()
    assert WorkerSettings.from_env({"TABULA_WORKER_CONCURRENCY": "5"}).concurrency == 5
