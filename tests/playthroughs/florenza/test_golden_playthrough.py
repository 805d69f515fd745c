"""Golden playthrough: one seeded 4-player Florenza game's event sequence, replayed and compared.

Regenerate (after an intended rules or content change) with:
    FLORENZA_REGENERATE=1 .venv/bin/pytest tests/playthroughs/florenza -q
and review the diff of ``golden_4p_seed42.jsonl`` before committing it.
"""

from __future__ import annotations

from pathlib import Path

from services.florenza.manifest import MANIFEST
from tests.support.golden import assert_replays_identically

GOLDEN = Path(__file__).with_name("golden_4p_seed42.jsonl")
SEED, SEATS = 42, 4


def test_golden_playthrough_replays_identically() -> None:
    rules = MANIFEST.load_rules()
    config = rules.make_config(SEATS, {})
    assert_replays_identically(GOLDEN, rules, config, SEED, regenerate="FLORENZA_REGENERATE")
