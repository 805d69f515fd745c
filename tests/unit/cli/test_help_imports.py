"""`tabula --help` loads no server library: they are imported by the commands that use them (lazy
imports), so the help answers at once. Its time is measured in `make bench` (services/cli/bench.py),
not here; this test names what must stay out of the import graph."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("redis", "grpc", "celery", "yaml", "pydantic", "starlette", "hypercorn", "connectrpc")


def test_help_imports_no_server_library() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "services.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "Usage" in result.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}
    loaded = sorted(name for name in imported if name.split(".")[0] in HEAVY)
    assert not loaded, loaded
