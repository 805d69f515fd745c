"""``tabula proto`` runs on a clean clone, where no generated code exists yet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Runs `tabula proto --out OUT` with the generated package unimportable, as on a clean clone before
# its first `make proto` (gen/ is on the path only through the venv's .pth file).
_WITHOUT_GEN = """
import importlib.abc, runpy, sys

class NoGen(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "tabula" or name.startswith("tabula."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoGen())
sys.argv = ["tabula", "proto", "--out", sys.argv[1]]
runpy.run_module("services.cli", run_name="__main__")
"""


def test_proto_generates_without_generated_code(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_GEN, str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "tabula" / "common" / "v1" / "common_pb2.py").exists()
