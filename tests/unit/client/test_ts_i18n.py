"""The pages' words (clients/ts/src/i18n.ts: a module's ``ctx.t``, the page's locale): their Node.js
test, which needs no server (``make ts`` builds it into clients/ts/dist/node/i18n.test.js)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

TS_DIR = Path(__file__).resolve().parents[3] / "clients" / "ts"
BUILT_TEST = TS_DIR / "dist" / "node" / "i18n.test.js"


def _missing() -> str:
    """Why the test cannot run here, or "" when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH (Debian package nodejs)"
    if not BUILT_TEST.exists():
        return "clients/ts is not built: run `make ts` (npm ci, buf generate, build)"
    return ""


@pytest.mark.skipif(bool(_missing()), reason=_missing() or "ready")
def test_the_typescript_t_fills_placeholders_and_falls_back_to_the_key() -> None:
    done = subprocess.run(
        ["node", "--test", str(BUILT_TEST)], cwd=TS_DIR, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "# pass 4" in done.stdout and "# fail 0" in done.stdout, done.stdout
