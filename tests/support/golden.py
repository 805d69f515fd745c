"""Golden playthroughs: one seeded random match's event log, compared line by line with a committed file.

``tests/playthroughs/test_golden_playthroughs.py`` names each game's options, seats and seed, and
its files in ``tests/playthroughs/<game>/``. The lines are the events in order (type and fields as
JSON, enums by name) and a last line with the outcome. With the game's ``<GAME>_REGENERATE=1`` the
file is rewritten from this run instead (only after an intended rules or content change; review its
diff before committing it).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
from pathlib import Path
from typing import Any

from tests.support.playout import random_playout


def plain(value: Any) -> Any:
    """A record as JSON values, enums by name (a renumbered enum still reads the same)."""
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def golden_lines(rules: Any, config: Any, seed: int) -> list[str]:
    """The events of the seeded random match, then its outcome, one JSON line each."""
    events, final = random_playout(rules, config, seed)
    out = [json.dumps({"type": type(e).__name__, **plain(e)}, sort_keys=True) for e in events]
    outcome = rules.outcome(final)
    assert outcome is not None
    out.append(
        json.dumps({"type": "Outcome", "scores": list(outcome.scores), "placings": list(outcome.placings)})
    )
    return out


def assert_replays_identically(golden: Path, rules: Any, config: Any, seed: int, regenerate: str) -> None:
    """The match played again is the committed one, event by event (``regenerate``: the variable that
    rewrites the file)."""
    lines = golden_lines(rules, config, seed)
    if os.environ.get(regenerate) == "1":
        golden.write_text("\n".join(lines) + "\n")
    expected = golden.read_text().splitlines()
    assert len(lines) == len(expected)
    for i, (got, want) in enumerate(zip(lines, expected, strict=True)):
        assert got == want, f"event {i} differs"
