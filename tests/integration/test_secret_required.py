"""A serving process has no default secret: without TABULA_SECRET (or with a short one) it exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("service", ["lobby", "lorenzo"])
def test_a_service_refuses_to_start_without_a_secret(service: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TABULA_SECRET"}
    env |= {"REDIS_URL": "redis://127.0.0.1:1/0", "PYTHONPATH": f"{ROOT}:{ROOT / 'gen'}"}
    for secret, said in ((None, "TABULA_SECRET is not set"), ("too-short", "at least 32 bytes")):
        run_env = env if secret is None else env | {"TABULA_SECRET": secret}
        done = subprocess.run(
            [sys.executable, "-m", "services.cli", "serve", service],
            cwd=tmp_path,
            env=run_env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1 and said in done.stderr, done.stderr
        assert not (tmp_path / ".tabula").exists()  # no development secret made behind our back
