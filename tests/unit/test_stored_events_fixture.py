"""Stored events are forever (ARCHITECTURE, rule 6): yesterday's bytes must still mean what they meant.

``tests/fixtures/<game>/match-v1.jsonl`` holds the raw entries of one whole match of each game as the
store kept them (type, base64 protobuf payload, visibility, command id, actor, schema version), with a
header naming the game, seats, options and seed and giving the final state's hash and the scores it had
when it was written. Each holds every event type its game had then (December 2026): Lorenzo's 4-player
advanced match 36, Florenza's 5-player match 43, Trajan's 4-player match 56 (the draw pile's reshuffle
and a wild commodity tile's loading among them, and the seat-only visibility of its card draws).
``make_match_v1.py`` beside each says how it was made.

THESE FIXTURES ARE NEVER REGENERATED. If a test here fails, the change broke stored matches: every
match in Redis holds bytes like these. Put the field numbers, oneof tags and meanings back, or give
the event a new ``@message(schema=N)`` and an upcaster (docs/platform.md, "How a stored event's
schema evolves"). The one legitimate update is a header's ``final_state_sha256`` when the ``State``
record itself gains a field: then the scores must still match, and the commit says why.
"""

from __future__ import annotations

import base64
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from services.games import load_game
from shared.matches.archive import state_hash
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MemoryEventStore, NewEvent

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EVENT_TYPES = {"lorenzo": 36, "florenza": 43, "trajan": 56}  # every event type each had when written


def _fixture(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *entries = (
        json.loads(line) for line in (FIXTURES / game / "match-v1.jsonl").read_text().splitlines()
    )
    assert header["game"] == game and header["events"] == len(entries)
    return header, entries


@pytest.mark.parametrize("game", list(EVENT_TYPES))
def test_every_stored_event_decodes_and_folds_to_the_state_and_scores_it_had(game: str) -> None:
    header, entries = _fixture(game)
    loaded = load_game(game)
    state = loaded.rules.initial_state()
    for version, e in enumerate(entries, start=1):
        assert e["version"] == version
        event = loaded.codec.decode(e["type"], base64.b64decode(e["payload"]), e["schema_version"])
        assert type(event).__name__ == e["type"]
        assert e["visibility"] == loaded.rules.visibility(event).encode()  # e.g. card draws stay seat-only
        state = loaded.rules.evolve(state, event)
    outcome = loaded.rules.outcome(state)
    assert outcome is not None
    assert (list(outcome.scores), list(outcome.placings)) == (header["scores"], header["placings"])
    assert state_hash(state) == header["final_state_sha256"]
    assert len({e["type"] for e in entries}) == EVENT_TYPES[game]


@pytest.mark.parametrize("game", list(EVENT_TYPES))
def test_the_runner_loads_the_stored_match_from_a_store_to_the_same_state(game: str) -> None:
    header, entries = _fixture(game)
    loaded = load_game(game)
    store = MemoryEventStore()
    meta = {"game": game, "seats": str(header["seats"]), "seed": str(header["seed"])}
    meta["options"] = json.dumps(header["options"])
    expected = 0
    for command_id, group in itertools.groupby(entries, key=lambda e: e["command_id"]):
        batch = [
            NewEvent(
                e["type"], base64.b64decode(e["payload"]), e["visibility"], e["actor"], e["schema_version"]
            )
            for e in group
        ]
        wait(store.append("stored", expected, batch, command_id, meta=meta if expected == 0 else None))
        expected += len(batch)

    match = wait(MatchRunner(loaded.rules, loaded.codec, store).load("stored"))

    assert match.version == len(entries)
    assert state_hash(match.state) == header["final_state_sha256"]
