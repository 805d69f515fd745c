"""Rules never import I/O, clocks or randomness (ARCHITECTURE, rule 2; STYLE)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "redis",
    "grpc",
    "celery",
    "time",
    "random",
    "uuid",
    "os",
    "socket",
    "datetime",
    "secrets",
    "yaml",
    "subprocess",
    "threading",
    "pathlib",
    "requests",
}
PURE = [
    ROOT / "shared" / "core" / "decider.py",
    ROOT / "shared" / "core" / "rng.py",
    *sorted(ROOT.glob("services/*/rules/**/*.py")),
]


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_pure_modules_import_no_io_clock_or_randomness() -> None:
    assert len(PURE) > 2
    offenders = {str(p.relative_to(ROOT)): sorted(imported_roots(p) & FORBIDDEN) for p in PURE}
    assert {k: v for k, v in offenders.items() if v} == {}
