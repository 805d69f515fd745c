"""The play app of clients/ts without a server: its step-by-step picker's Node.js test (``make ts``
builds it into clients/ts/dist/node/steps.test.js), and its committed bundle (clients/ts/web/
tabula-play.js, served at /static/tabula-play.js so a machine without npm still serves /play) must be
what clients/ts builds from today's sources."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.committed import committed_bytes

TS_DIR = Path(__file__).resolve().parents[3] / "clients" / "ts"
BUILT_TEST = TS_DIR / "dist" / "node" / "steps.test.js"
BUNDLE = TS_DIR / "web" / "tabula-play.js"


def _missing() -> str:
    """Why the tests cannot run here, or "" when they can."""
    if shutil.which("node") is None:
        return "node is not on PATH (Debian package nodejs)"
    if not (TS_DIR / "node_modules" / "esbuild").exists() or not BUILT_TEST.exists():
        return "clients/ts is not built: run `make ts` (npm ci, buf generate, build)"
    return ""


pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "ready")


def test_the_picker_asks_in_steps_built_from_the_legal_commands() -> None:
    done = subprocess.run(
        ["node", "--test", str(BUILT_TEST)], cwd=TS_DIR, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "# pass 6" in done.stdout and "# fail 0" in done.stdout, done.stdout


def test_the_committed_play_bundle_is_what_clients_ts_builds(tmp_path: Path) -> None:
    subprocess.run(["node", "build.mjs", "--out", str(tmp_path)], cwd=TS_DIR, check=True, timeout=120)
    fresh = (tmp_path / "tabula-play.js").read_bytes()
    assert fresh == committed_bytes(BUNDLE), "stale: run `make ts`, commit it"
