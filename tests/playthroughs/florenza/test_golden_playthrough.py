"""Golden playthroughs: seeded 4-player Florenza games' event sequences, replayed and compared, with
the certificates open (the game recorded before hidden certificates became the default) and hidden.

Regenerate (after an intended rules or content change) with:
    FLORENZA_REGENERATE=1 .venv/bin/pytest tests/playthroughs/florenza -q
and review the diff of the ``golden_4p_seed42*.jsonl`` files before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.florenza.manifest import MANIFEST
from tests.support.golden import assert_replays_identically

HERE = Path(__file__).parent
SEED, SEATS = 42, 4


@pytest.mark.parametrize(
    ("golden", "hidden"), [("golden_4p_seed42.jsonl", "false"), ("golden_4p_seed42_hidden.jsonl", "true")]
)
def test_golden_playthrough_replays_identically(golden: str, hidden: str) -> None:
    rules = MANIFEST.load_rules()
    config = rules.make_config(SEATS, {"hidden_certificates": hidden})
    assert_replays_identically(HERE / golden, rules, config, SEED, regenerate="FLORENZA_REGENERATE")
