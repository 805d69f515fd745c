"""Golden playthrough: one seeded 4-player Florenza game's event sequence, replayed and compared.

Regenerate (after an intended rules or content change) with:
    FLORENZA_REGENERATE=1 .venv/bin/pytest tests/playthroughs/florenza -q
and review the diff of ``golden_4p_seed42.jsonl`` before committing it.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
from pathlib import Path
from typing import Any

from services.florenza.content import load_content
from services.florenza.rules import FlorenzaRules
from tests.support.playout import random_playout

GOLDEN = Path(__file__).with_name("golden_4p_seed42.jsonl")
SEED, SEATS = 42, 4


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _lines() -> list[str]:
    rules = FlorenzaRules(load_content())
    events, final = random_playout(rules, rules.make_config(SEATS, {}), SEED)
    out = [json.dumps({"type": type(e).__name__, **_plain(e)}, sort_keys=True) for e in events]
    outcome = rules.outcome(final)
    assert outcome is not None
    out.append(
        json.dumps({"type": "Outcome", "scores": list(outcome.scores), "placings": list(outcome.placings)})
    )
    return out


def test_golden_playthrough_replays_identically() -> None:
    lines = _lines()
    if os.environ.get("FLORENZA_REGENERATE") == "1":
        GOLDEN.write_text("\n".join(lines) + "\n")
    expected = GOLDEN.read_text().splitlines()
    assert len(lines) == len(expected)
    for i, (got, want) in enumerate(zip(lines, expected, strict=True)):
        assert got == want, f"event {i} differs"
