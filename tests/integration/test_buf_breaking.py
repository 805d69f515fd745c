"""``buf breaking`` (``make lint``) refuses a change that would make stored events decode wrongly.

Runs the pinned buf CLI from tools/buf (``make buf``) on a copy of proto/: renumbering one
Lorenzo event field, or deleting one without reserving its number and name, must fail the check
against the untouched protos; a deletion with both reserved (the way shared/core/wire.py removes a
field) must pass.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / "tools" / "buf" / "node_modules" / ".bin" / "buf"

pytestmark = pytest.mark.skipif(
    not BUF.exists(), reason="buf is not installed: run `make buf` (npm ci in tools/buf; needs npm)"
)


def _breaking(proto: Path, against: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BUF), "breaking", str(proto), "--against", str(against)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _renumber(text: str, message: str, field: str, number: int) -> str:
    block = re.compile(rf"(message {message} \{{[^}}]*?\b{field} = )\d+;")
    changed, count = block.subn(rf"\g<1>{number};", text)
    assert count == 1, f"{message}.{field} not found once in lorenzo.proto"
    return changed


def test_buf_breaking_refuses_a_renumbered_event_field(tmp_path: Path) -> None:
    original, changed = tmp_path / "original", tmp_path / "changed"
    shutil.copytree(ROOT / "proto", original)
    shutil.copytree(ROOT / "proto", changed)
    assert _breaking(changed, original).returncode == 0  # unchanged protos pass

    lorenzo = changed / "tabula" / "lorenzo" / "v1" / "lorenzo.proto"
    lorenzo.write_text(_renumber(lorenzo.read_text(), "DiceRolled", "orange", 4))
    result = _breaking(changed, original)

    assert result.returncode != 0
    report = result.stdout + result.stderr
    assert "DiceRolled" in report and "orange" in report


def _without_orange(text: str, reserved: str) -> str:
    line = "  int32 orange = 3;\n"
    assert text.count(line) == 1
    return text.replace(line, reserved)


@pytest.mark.parametrize(
    ("reserved", "refused"),
    [("", True), ("  reserved 3;\n", True), ('  reserved 3;\n  reserved "orange";\n', False)],
)
def test_buf_breaking_allows_deleting_a_field_only_with_its_number_and_name_reserved(
    tmp_path: Path, reserved: str, refused: bool
) -> None:
    original, changed = tmp_path / "original", tmp_path / "changed"
    shutil.copytree(ROOT / "proto", original)
    shutil.copytree(ROOT / "proto", changed)
    lorenzo = changed / "tabula" / "lorenzo" / "v1" / "lorenzo.proto"
    lorenzo.write_text(_without_orange(lorenzo.read_text(), reserved))

    assert (_breaking(changed, original).returncode != 0) is refused
