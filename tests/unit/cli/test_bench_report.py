"""``tabula bench``'s report: the chosen suites' figures between the machine's speed at the start and
at the end of the run (``bench.report.reference_speed``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.report import Result, _reference_steps, reference_speed
from services.cli import bench as cli_bench

pytestmark = pytest.mark.unit


def test_a_run_reports_the_machine_speed_around_its_suites(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    ran: list[str] = []

    def suite(name: str) -> Callable[[], list[Result]]:
        def run() -> list[Result]:
            ran.append(name)
            return [Result(f"{name}.figure", 1.0, "x")]

        return run

    monkeypatch.setattr(cli_bench, "suites", lambda: {"one": suite("one"), "two": suite("two")})
    out = tmp_path / "latest.json"
    cli_bench.bench(as_json=False, only="two", out=out)
    report = json.loads(out.read_text())
    names = [r["name"] for r in report["results"]]
    assert ran == ["two"]
    assert names == [
        "machine.reference_mops_per_s.start",
        "two.figure",
        "machine.reference_mops_per_s.end",
    ]
    speed = report["machine"]["reference_mops_per_s"]
    assert speed["start"] == report["results"][0]["value"] > 0
    assert speed["end"] == report["results"][-1]["value"] > 0


def test_the_reference_loop_is_fixed() -> None:
    # The loop is never to change (its figures are compared across runs and sessions): its result
    # after 1,000 steps pins every operation of it.
    assert _reference_steps(1000) == 17660865281050591323
    assert reference_speed(runs=3, steps=20_000) > 0
