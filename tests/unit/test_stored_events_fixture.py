"""Stored events are forever (ARCHITECTURE, rule 6): yesterday's bytes must still mean what they meant.

tests/fixtures/lorenzo/match-v1.jsonl holds the raw entries of one whole 4-player Lorenzo match
as the store kept them (type, base64 protobuf payload, visibility, command id, actor, schema
version), with the final state's hash and the scores it had when it was written. It holds every
event type Lorenzo had then (December 2026); make_match_v1.py beside it says how it was made.

THIS FIXTURE IS NEVER REGENERATED. If a test here fails, the change broke stored matches: every
match in Redis holds bytes like these. Put the field numbers, oneof tags and meanings back, or
give the event a new ``@message(schema=N)`` and an upcaster (docs/platform.md, "How a stored
event's schema evolves"). The one legitimate update is the header's ``final_state_sha256`` when
the ``State`` record itself gains a field: then the scores must still match, and the commit
says why.
"""

from __future__ import annotations

import base64
import itertools
import json
from pathlib import Path
from typing import Any

from services.games import load_game
from shared.archive import state_hash
from shared.runner import MatchRunner
from shared.store import MemoryEventStore, NewEvent

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lorenzo" / "match-v1.jsonl"


def _fixture(path: Path = FIXTURE) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *entries = (json.loads(line) for line in path.read_text().splitlines())
    assert header["events"] == len(entries)
    return header, entries


def test_every_stored_event_decodes_and_folds_to_the_state_and_scores_it_had() -> None:
    header, entries = _fixture()
    game = load_game("lorenzo")
    state = game.rules.initial_state()
    for version, e in enumerate(entries, start=1):
        assert e["version"] == version
        event = game.codec.decode(e["type"], base64.b64decode(e["payload"]), e["schema_version"])
        assert type(event).__name__ == e["type"]
        state = game.rules.evolve(state, event)
    outcome = game.rules.outcome(state)
    assert outcome is not None
    assert (list(outcome.scores), list(outcome.placings)) == (header["scores"], header["placings"])
    assert state_hash(state) == header["final_state_sha256"]


def test_the_runner_loads_the_stored_match_from_a_store_to_the_same_state() -> None:
    header, entries = _fixture()
    game = load_game("lorenzo")
    store = MemoryEventStore()
    meta = {"game": "lorenzo", "seats": "4", "seed": str(header["seed"]), "options": "{}"}
    expected = 0
    for command_id, group in itertools.groupby(entries, key=lambda e: e["command_id"]):
        batch = [
            NewEvent(
                e["type"], base64.b64decode(e["payload"]), e["visibility"], e["actor"], e["schema_version"]
            )
            for e in group
        ]
        store.append("stored", expected, batch, command_id, meta=meta if expected == 0 else None)
        expected += len(batch)

    loaded = MatchRunner(game.rules, game.codec, store).load("stored")

    assert loaded.version == len(entries)
    assert state_hash(loaded.state) == header["final_state_sha256"]


# ---------------------------------------------------------------- Florenza
#
# tests/fixtures/florenza/match-v1.jsonl holds the raw entries of one whole 5-player Florenza match as
# the store kept them, with every event type Florenza had then (December 2026); make_match_v1.py
# beside it says how it was made.
#
# THIS FIXTURE IS NEVER REGENERATED. If a test here fails, the change broke stored matches: every
# match in Redis holds bytes like these. Put the field numbers, oneof tags and meanings back, or give
# the event a new ``@message(schema=N)`` and an upcaster (docs/platform.md, "How a stored event's
# schema evolves"). The one legitimate update is the header's ``final_state_sha256`` when the
# ``State`` record itself gains a field: then the scores must still match, and the commit says why.

FLORENZA = Path(__file__).resolve().parents[1] / "fixtures" / "florenza" / "match-v1.jsonl"


def test_every_stored_florenza_event_decodes_and_folds_to_the_state_and_scores_it_had() -> None:
    header, entries = _fixture(FLORENZA)
    game = load_game("florenza")
    state = game.rules.initial_state()
    for version, e in enumerate(entries, start=1):
        assert e["version"] == version
        event = game.codec.decode(e["type"], base64.b64decode(e["payload"]), e["schema_version"])
        assert type(event).__name__ == e["type"]
        state = game.rules.evolve(state, event)
    outcome = game.rules.outcome(state)
    assert outcome is not None
    assert (list(outcome.scores), list(outcome.placings)) == (header["scores"], header["placings"])
    assert state_hash(state) == header["final_state_sha256"]
    assert len({e["type"] for e in entries}) == 43  # every event type Florenza had when it was written


def test_the_runner_loads_the_stored_florenza_match_from_a_store_to_the_same_state() -> None:
    header, entries = _fixture(FLORENZA)
    game = load_game("florenza")
    store = MemoryEventStore()
    meta = {"game": "florenza", "seats": "5", "seed": str(header["seed"]), "options": "{}"}
    expected = 0
    for command_id, group in itertools.groupby(entries, key=lambda e: e["command_id"]):
        batch = [
            NewEvent(
                e["type"], base64.b64decode(e["payload"]), e["visibility"], e["actor"], e["schema_version"]
            )
            for e in group
        ]
        store.append("stored", expected, batch, command_id, meta=meta if expected == 0 else None)
        expected += len(batch)

    loaded = MatchRunner(game.rules, game.codec, store).load("stored")

    assert loaded.version == len(entries)
    assert state_hash(loaded.state) == header["final_state_sha256"]


# ---------------------------------------------------------------- Trajan
#
# tests/fixtures/trajan/match-v1.jsonl holds the raw entries of one whole 4-player Trajan match as the
# store kept them, with every event type Trajan had then (December 2026: 56, the draw pile's reshuffle
# and a wild commodity tile's loading among them) and the seat-only visibility of its card draws;
# make_match_v1.py beside it says how it was made.
#
# THIS FIXTURE IS NEVER REGENERATED. If a test here fails, the change broke stored matches: every
# match in Redis holds bytes like these. Put the field numbers, oneof tags and meanings back, or give
# the event a new ``@message(schema=N)`` and an upcaster (docs/platform.md, "How a stored event's
# schema evolves"). The one legitimate update is the header's ``final_state_sha256`` when the
# ``State`` record itself gains a field: then the scores must still match, and the commit says why.

TRAJAN = Path(__file__).resolve().parents[1] / "fixtures" / "trajan" / "match-v1.jsonl"


def test_every_stored_trajan_event_decodes_and_folds_to_the_state_and_scores_it_had() -> None:
    header, entries = _fixture(TRAJAN)
    game = load_game("trajan")
    state = game.rules.initial_state()
    for version, e in enumerate(entries, start=1):
        assert e["version"] == version
        event = game.codec.decode(e["type"], base64.b64decode(e["payload"]), e["schema_version"])
        assert type(event).__name__ == e["type"]
        assert e["visibility"] == game.rules.visibility(event).encode()  # card draws stay seat-only
        state = game.rules.evolve(state, event)
    outcome = game.rules.outcome(state)
    assert outcome is not None
    assert (list(outcome.scores), list(outcome.placings)) == (header["scores"], header["placings"])
    assert state_hash(state) == header["final_state_sha256"]
    assert len({e["type"] for e in entries}) == 56  # every event type Trajan had when it was written


def test_the_runner_loads_the_stored_trajan_match_from_a_store_to_the_same_state() -> None:
    header, entries = _fixture(TRAJAN)
    game = load_game("trajan")
    store = MemoryEventStore()
    meta = {"game": "trajan", "seats": "4", "seed": str(header["seed"]), "options": "{}"}
    expected = 0
    for command_id, group in itertools.groupby(entries, key=lambda e: e["command_id"]):
        batch = [
            NewEvent(
                e["type"], base64.b64decode(e["payload"]), e["visibility"], e["actor"], e["schema_version"]
            )
            for e in group
        ]
        store.append("stored", expected, batch, command_id, meta=meta if expected == 0 else None)
        expected += len(batch)

    loaded = MatchRunner(game.rules, game.codec, store).load("stored")

    assert loaded.version == len(entries)
    assert state_hash(loaded.state) == header["final_state_sha256"]
