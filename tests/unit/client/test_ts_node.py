"""The TypeScript client's Node.js tests, which need no server (``make ts`` builds them into
clients/ts/dist/node/): the retry helper (clients/ts/src/retry.ts: it waits out rate limits) and the
pages' words (clients/ts/src/i18n.ts: a module's ``ctx.t`` fills placeholders and falls back to the
key; the page's locale)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

TS_DIR = Path(__file__).resolve().parents[3] / "clients" / "ts"


def _missing(built: Path) -> str:
    """Why the test cannot run here, or "" when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH (Debian package nodejs)"
    if not built.exists():
        return "clients/ts is not built: run `make ts` (npm ci, buf generate, build)"
    return ""


@pytest.mark.parametrize(("name", "passes"), [("retry", 4), ("i18n", 4)])
def test_the_typescript_node_test_passes(name: str, passes: int) -> None:
    built = TS_DIR / "dist" / "node" / f"{name}.test.js"
    if _missing(built):
        pytest.skip(_missing(built))
    done = subprocess.run(
        ["node", "--test", str(built)], cwd=TS_DIR, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert f"# pass {passes}" in done.stdout and "# fail 0" in done.stdout, done.stdout
