"""The typed match meta: read from the stored hash and written back to it unchanged, of any age."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from shared.core.decider import Actor, Outcome
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.store import MatchMeta, MatchStatus, MemoryEventStore, Progress
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import Roll


def created(store: MemoryEventStore) -> dict[str, str]:
    """The meta hash a rule service's CreateMatch writes (its own request checks and fields), after
    two moves and a seat marked away and back."""
    request = SimpleNamespace(
        match_id="m1",
        seed=7,
        options={"goal": "30"},
        seats=3,
        bots={2: "greedy", 1: "random"},
        players=["ada", "", ""],
        display_names=["Ada"],
        turn_seconds=60,
    )
    match_id, seed, extra = GameServicer._setup(Any, request)  # type: ignore[arg-type]
    rules: Any = race_rules()
    codec = JsonCodec([*rules.command_types, *rules.event_types])
    runner: MatchRunner[Any] = MatchRunner(rules, codec, store)
    loaded = wait(runner.create(match_id, request.seats, request.options, seed, extra))
    wait(runner.submit(match_id, Actor.of_seat(0), Roll(), loaded.version, "a"))
    wait(store.set_meta(match_id, MatchMeta.away_marks([0], True)))
    wait(store.set_meta(match_id, MatchMeta.away_marks([0], False) | MatchMeta.away_marks([1], True)))
    return wait(store.get_meta(match_id))


def test_a_created_match_s_meta_reads_typed_and_writes_back_byte_for_byte() -> None:
    store = MemoryEventStore()
    stored = created(store)
    meta = MatchMeta.from_fields(stored)
    assert (meta.game, meta.seats, meta.seed, dict(meta.options)) == ("race", 3, 7, {"goal": "30"})
    assert dict(meta.bots) == {1: "random", 2: "greedy"} and meta.turn_seconds == 60
    assert (meta.players, meta.names) == (("ada", "", ""), ("Ada",))
    assert meta.version == meta.head == wait(store.version("m1")) and meta.away_seats == {1}
    assert meta.progress == Progress.parse(stored) and meta.status is MatchStatus.ACTIVE
    assert [s.label for s in meta.seat_infos] == ["Ada", "random bot", "greedy bot"]
    assert meta.fields() == stored
    assert MatchMeta.of(meta) is meta and MatchMeta.of(stored) == meta


def test_an_old_meta_without_the_newer_keys_parses_and_round_trips() -> None:
    """Before progress, the held flag, names, players, bots and turn clocks were recorded."""
    bare = {"game": "race", "seats": "2", "seed": "5", "options": "{}", "version": "3"}
    meta = MatchMeta.from_fields(bare)
    assert meta.progress is None and meta.status is None and not meta.finished
    assert (meta.bots, meta.turn_seconds, meta.players, meta.away_seats) == ({}, 0, (), frozenset())
    assert meta.fields() == bare and meta.exists
    no_held = {**bare, "to_act": "1", "system": "0", "status": "active"}
    assert MatchMeta.from_fields(no_held).fields() == no_held  # no "held" added
    finished = {"status": "finished", "version": "9", "outcome": "x", "extra": "kept"}
    old = MatchMeta.from_fields(finished)  # a status without the rest of the progress
    assert old.finished and old.fields() == finished


def test_a_finished_meta_carries_its_outcome() -> None:
    done = Progress((), False, MatchStatus.FINISHED, Outcome((4, 9), (2, 1)))
    stored = {"game": "race", "players": json.dumps(["a", "b"]), **done.fields(), "version": "12"}
    meta = MatchMeta.from_fields(stored)
    assert meta.finished and meta.progress == done and meta.fields() == stored
    assert meta.seat_count == 2  # no "seats": one per listed player


def test_an_unknown_match_s_meta_is_empty() -> None:
    meta = MatchMeta.from_fields({})
    assert not meta.exists and meta.fields() == {} and meta.seat_infos == () and meta.version is None
