"""Golden playthrough: one seeded 3-player Trajan match's event sequence, replayed and compared.

Regenerate (after an intended rules change) with:
    TRAJAN_REGENERATE=1 .venv/bin/pytest tests/playthroughs/trajan -q
and review the diff of ``golden_3p_seed42.jsonl`` before committing it.
"""

from __future__ import annotations

from pathlib import Path

from services.trajan.manifest import MANIFEST
from tests.support.golden import assert_replays_identically

GOLDEN = Path(__file__).with_name("golden_3p_seed42.jsonl")
SEED, SEATS = 42, 3


def test_golden_playthrough_replays_identically() -> None:
    rules = MANIFEST.load_rules()
    config = rules.make_config(SEATS, {})
    assert_replays_identically(GOLDEN, rules, config, SEED, regenerate="TRAJAN_REGENERATE")
