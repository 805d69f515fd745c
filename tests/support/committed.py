"""What the repository holds of a file: its staged content (on a clean clone, the committed one).

A build step that rewrites a committed file (``make ts`` rebuilds the page bundles) would make a
test comparing a fresh build with the file on disk pass whatever was committed; comparing with the
index catches a commit that forgot the rebuilt file. Outside a git checkout: the file as it is.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def committed_bytes(path: Path) -> bytes:
    relative = path.resolve().relative_to(ROOT).as_posix()
    shown = subprocess.run(["git", "show", f":{relative}"], cwd=ROOT, capture_output=True, timeout=30)
    return shown.stdout if shown.returncode == 0 else path.read_bytes()
