"""The npm packages of clients/ts and tools/buf run on the Node.js the project names (README; Debian's
``nodejs``; clients/ts/package.json ``engines``): every package their lock files pin accepts that
version, so ``npm ci`` (``make ts``) prints no unsupported-engine warning."""

from __future__ import annotations

import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
LOCKS = (REPO / "clients" / "ts" / "package-lock.json", REPO / "tools" / "buf" / "package-lock.json")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _at_least(spec: str) -> tuple[int, ...]:
    """The lowest version an ``engines.node`` range of the form ``>=X[.Y[.Z]]`` accepts."""
    found = re.fullmatch(r">=\s*(\d+(?:\.\d+){0,2})", spec.strip())
    assert found, f"an engines range this test does not read: {spec!r} (extend _at_least)"
    return _version(found.group(1))


def _named_node() -> tuple[int, ...]:
    """The Node.js version clients/ts/package.json asks for, which the README must name too."""
    wanted = _at_least(json.loads((REPO / "clients" / "ts" / "package.json").read_text())["engines"]["node"])
    assert f"Node.js {wanted[0]}" in (REPO / "README.md").read_text(), "the README names another Node.js"
    return wanted


def test_every_pinned_npm_package_runs_on_the_node_the_project_names() -> None:
    node = _named_node()
    refused = [
        f"{lock.parent.name}: {name or '(root)'} needs node {info['engines']['node']}"
        for lock in LOCKS
        for name, info in json.loads(lock.read_text())["packages"].items()
        if isinstance(info.get("engines"), dict)
        and "node" in info["engines"]
        and _at_least(info["engines"]["node"]) > node
    ]
    assert not refused, refused
