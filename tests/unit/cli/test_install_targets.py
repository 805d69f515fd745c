"""`make run` installs only what running needs: the project's `dependencies`, never its `test` or
`lint` extras, which come with `make test` and `make lint`. Read from `make -n` (what make would run
for a venv that does not exist yet), so nothing is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def installs(target: str, tmp_path: Path) -> list[str]:
    """The pip install lines `make TARGET` runs from a fresh clone (no venv yet)."""
    venv = tmp_path / "venv"
    result = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [
        line for line in result.stdout.splitlines() if "pip install" in line and "--upgrade pip" not in line
    ]


def test_make_run_installs_the_dependencies_only(tmp_path: Path) -> None:
    assert installs("run", tmp_path) == [f"{tmp_path / 'venv'}/bin/python -m pip install -q -e ."]


def test_test_and_lint_bring_their_own_extras(tmp_path: Path) -> None:
    """Their install stamps (`make test` and `make lint` depend on them; `make -n test` itself would
    run the TypeScript build, a recursive make line)."""
    assert any(re.search(r"-e '\.\[test\]'", line) for line in installs("install-test", tmp_path))
    assert any(re.search(r"-e '\.\[lint\]'", line) for line in installs("install-lint", tmp_path))
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^test:.*\$\(TEST_STAMP\)", makefile, re.M)
    assert re.search(r"^lint:.*\$\(LINT_STAMP\)", makefile, re.M)


def test_no_test_or_lint_tool_is_a_runtime_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {re.split(r"[=<>\[ ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    extras = project["optional-dependencies"]
    tools = {re.split(r"[=<>\[ ]", d, maxsplit=1)[0].lower() for d in extras["test"] + extras["lint"]}
    assert not runtime & tools, runtime & tools
