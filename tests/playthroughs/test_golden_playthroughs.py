"""Golden playthroughs: seeded random matches of each game, their event sequences replayed and compared
with the logs committed in ``tests/playthroughs/<game>/``. Florenza's 4-player game is kept with the
certificates open (recorded before hidden certificates became the default) and hidden.

Regenerate a game's (after an intended rules or content change) with its variable, e.g.:
    TRAJAN_REGENERATE=1 .venv/bin/pytest tests/playthroughs -q
and review the diff of its ``golden_*.jsonl`` files before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.games import load_rules
from tests.support.golden import assert_replays_identically

HERE = Path(__file__).parent
SEED = 42


@pytest.mark.parametrize(
    ("game", "golden", "seats", "options"),
    [
        ("lorenzo", "golden_3p_seed42.jsonl", 3, {"advanced": "true"}),
        ("trajan", "golden_3p_seed42.jsonl", 3, {}),
        ("florenza", "golden_4p_seed42.jsonl", 4, {"hidden_certificates": "false"}),
        ("florenza", "golden_4p_seed42_hidden.jsonl", 4, {"hidden_certificates": "true"}),
    ],
)
def test_golden_playthrough_replays_identically(
    game: str, golden: str, seats: int, options: dict[str, str]
) -> None:
    rules = load_rules(game)
    config = rules.make_config(seats, options)
    assert_replays_identically(
        HERE / game / golden, rules, config, SEED, regenerate=f"{game.upper()}_REGENERATE"
    )
