"""Given events / when command / then events, for the generic runner over the test race game."""

from __future__ import annotations

import pytest

from shared.core.decider import SYSTEM, Actor, RuleViolation
from shared.matches.runner import HeadMoved, MatchExists, MatchNotFound, MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MemoryEventStore, Snapshot, VersionConflict
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import DieRolled, EndRound, RaceState, Roll

RULES = race_rules()
CODEC = JsonCodec([*RULES.event_types, *RULES.command_types])


def make_runner(store: MemoryEventStore | None = None, snapshot_every: int = 64) -> MatchRunner[RaceState]:
    return MatchRunner(RULES, CODEC, store or MemoryEventStore(), snapshot_every=snapshot_every)


def play_until_over(runner: MatchRunner[RaceState], match_id: str) -> int:
    """The race has one actor and one legal command at a time, so the driver's seed changes nothing."""
    result = wait(play_match(runner, match_id, seed=0))
    assert result.violations == []
    return result.events


def test_create_appends_setup_events_with_meta_and_seat_only_secrets() -> None:
    runner = make_runner()
    loaded = wait(runner.create("m1", 3, {"goal": "12"}, seed=7))
    assert loaded.version == 4 and loaded.state.goal == 12
    assert (loaded.meta.game, loaded.meta.seats, loaded.meta.status) == ("race", 3, "active")
    assert [e.visibility for e in wait(runner.store.read("m1"))] == ["public", "seat:0", "seat:1", "seat:2"]


def test_creating_an_existing_match_is_refused() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=1))
    with pytest.raises(MatchExists):
        wait(runner.create("m1", 2, {"goal": "5"}, seed=1))


def test_bad_options_are_rule_violations_and_write_nothing() -> None:
    runner = make_runner()
    with pytest.raises(RuleViolation) as err:
        wait(runner.create("m1", 9, {}, seed=1))
    assert err.value.code == "bad_seats"
    assert wait(runner.store.version("m1")) == 0


def test_legal_command_appends_its_events() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=3))
    done = wait(runner.submit("m1", Actor.of_seat(0), Roll(), 3, "c1"))
    assert (done.first_version, done.last_version, done.duplicate) == (4, 4, False)
    (event,) = wait(runner.store.read("m1", 4))
    assert event.actor == "seat:0" and isinstance(runner.decode(event), DieRolled)


def test_rejected_command_changes_nothing() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=3))
    with pytest.raises(RuleViolation) as err:
        wait(runner.submit("m1", Actor.of_seat(1), Roll(), 3, "c1"))
    assert err.value.code == "not_your_turn"
    assert wait(runner.store.version("m1")) == 3 and wait(runner.store.command_result("m1", "c1")) is None


def test_stale_expected_version_is_a_conflict() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=3))
    with pytest.raises(VersionConflict):
        wait(runner.submit("m1", Actor.of_seat(0), Roll(), 2, "c1"))


def test_retried_command_id_returns_the_first_result() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=3))
    first = wait(runner.submit("m1", Actor.of_seat(0), Roll(), 3, "c1"))
    again = wait(runner.submit("m1", Actor.of_seat(0), Roll(), 3, "c1"))
    assert again.duplicate and (again.first_version, again.last_version) == (
        first.first_version,
        first.last_version,
    )
    assert wait(runner.store.version("m1")) == 4


def test_unknown_match_is_not_found() -> None:
    with pytest.raises(MatchNotFound):
        wait(make_runner().load("nope"))


def test_dice_come_from_the_match_seed_and_version() -> None:
    logs = []
    for _ in range(2):
        runner = make_runner()
        wait(runner.create("m1", 2, {}, seed=99))
        play_until_over(runner, "m1")
        logs.append([(e.type, e.payload) for e in wait(runner.store.read("m1"))])
    assert logs[0] == logs[1]


def test_system_ends_rounds_and_finished_match_refuses_commands() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {"goal": "8"}, seed=5))
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), 3, "a"))
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), 4, "b"))
    assert RULES.to_act(wait(runner.load("m1")).state) in ((SYSTEM,), ())
    version = play_until_over(runner, "m1")
    assert wait(runner.store.get_meta("m1"))["status"] == "finished"
    with pytest.raises(RuleViolation) as err:
        wait(runner.submit("m1", SYSTEM, EndRound(), version, "late"))
    assert err.value.code == "match_over"


def test_snapshots_are_taken_and_equal_a_full_fold() -> None:
    store = MemoryEventStore()
    runner = make_runner(store, snapshot_every=5)
    wait(runner.create("m1", 4, {"goal": "40"}, seed=11))
    play_until_over(runner, "m1")
    snap = wait(store.load_snapshot("m1"))
    assert snap is not None and snap.version >= 5
    fresh = make_runner(store)  # no cache: starts from the snapshot
    folded = make_runner(MemoryEventStore())
    for e in wait(store.read("m1")):
        wait(folded.store.append("m1", e.version - 1, [_copy(e)], f"x{e.version}", meta={"seed": "11"}))
    assert wait(fresh.load("m1")).state == wait(folded.load("m1")).state


def test_a_corrupt_snapshot_is_ignored() -> None:
    store = MemoryEventStore()
    runner = make_runner(store)
    wait(runner.create("m1", 2, {}, seed=1))
    wait(store.save_snapshot("m1", Snapshot(2, b"{not json")))
    assert wait(make_runner(store).load("m1")).state == wait(runner.load("m1")).state


def test_replay_gives_the_state_at_any_version() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=2))
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), 3, "a"))
    at_setup = wait(runner.load("m1", at_version=3))
    assert at_setup.version == 3 and at_setup.state.positions == (0, 0)
    assert wait(runner.load("m1")).state.positions[0] > 0


def _copy(e):  # type: ignore[no-untyped-def]
    from shared.store import NewEvent

    return NewEvent(e.type, e.payload, e.visibility, e.actor, e.schema_version)


def test_a_load_that_expects_another_head_raises_with_the_meta_cached_or_not() -> None:
    runner = make_runner()
    wait(runner.create("m1", 2, {}, seed=3))
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), 3, "c1"))
    cold = make_runner(runner.store)  # nothing cached
    for loader in (runner, cold):
        assert wait(loader.load("m1", expect=4)).version == 4
        with pytest.raises(HeadMoved) as moved:
            wait(loader.load("m1", expect=3))
        assert moved.value.meta.version == 4 and not moved.value.finished
    with pytest.raises(MatchNotFound):
        wait(cold.load("nope", expect=1))
