"""Lorenzo states survive the snapshot codec, so the runner really starts from snapshots."""

from __future__ import annotations

import json

from services.games import load_game
from shared.core.codec import from_plain, to_plain
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MemoryEventStore


def test_a_lorenzo_match_loads_from_its_snapshot_to_the_same_state() -> None:
    game = load_game("lorenzo")
    store = MemoryEventStore()
    runner = MatchRunner(game.rules, game.codec, store, snapshot_every=16)
    wait(runner.create("s1", 4, {"advanced": "true"}, seed=3))
    assert wait(play_match(runner, "s1", seed=9)).violations == []
    snapshot = wait(store.load_snapshot("s1"))
    assert snapshot is not None and snapshot.version > 16
    state = from_plain(game.rules.state_type, json.loads(snapshot.data))
    assert to_plain(state) == json.loads(snapshot.data)
    fresh = MatchRunner(game.rules, game.codec, store)
    folded = game.rules.initial_state()
    for event in wait(store.read("s1")):
        folded = game.rules.evolve(folded, game.codec.decode(event.type, event.payload))
    assert wait(fresh.load("s1")).state == folded
    assert wait(fresh.load("s1", at_version=snapshot.version)).state == state
