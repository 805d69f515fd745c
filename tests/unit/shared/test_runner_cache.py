"""The runner's state cache: a command at the cached version is one append, and a cache behind
(or ahead of) the log never decides or serves anything the log does not say."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from shared.core.decider import SYSTEM, Actor, RuleViolation
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MemoryEventStore, VersionConflict
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import EndRound, RaceState, Roll

RULES = race_rules()
CODEC = JsonCodec([*RULES.event_types, *RULES.command_types])


class CountingStore(MemoryEventStore):
    """Counts the calls that would each be a round trip to Redis."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    async def append(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append")
        return await super().append(*args, **kwargs)

    async def command_result(self, match_id: str, command_id: str) -> Any:
        self.calls.append("command_result")
        return await super().command_result(match_id, command_id)

    async def get_meta(self, match_id: str) -> dict[str, str]:
        self.calls.append("get_meta")
        return await super().get_meta(match_id)

    async def read(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> Any:
        self.calls.append("read")
        return await super().read(match_id, from_version, to_version)

    async def meta_and_tail(self, match_id: str, after_version: int) -> Any:
        self.calls.append("meta_and_tail")
        return await super().meta_and_tail(match_id, after_version)


def runner_on(store: MemoryEventStore) -> MatchRunner[RaceState]:
    return MatchRunner(RULES, CODEC, store)


def fold(store: MemoryEventStore, match_id: str) -> Any:
    """The state the log says, folded from nothing by a runner that has cached nothing."""
    return wait(runner_on(store).load(match_id))


def test_a_command_at_the_cached_version_is_one_append_and_nothing_else() -> None:
    store = CountingStore()
    runner = runner_on(store)
    version = wait(runner.create("m1", 2, {}, seed=3)).version
    store.calls.clear()
    done = wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "c1"))
    assert store.calls == ["append"]
    cached = runner.cached("m1")
    assert cached is not None and cached.version == done.last_version
    assert cached.state == done.state == fold(store, "m1").state


def test_a_load_from_a_cached_state_reads_the_meta_and_the_tail_in_one_call() -> None:
    store = CountingStore()
    first, other = runner_on(store), runner_on(store)
    version = wait(first.create("m1", 2, {}, seed=3)).version
    wait(other.load("m1"))
    wait(first.submit("m1", Actor.of_seat(0), Roll(), version, "c1"))
    store.calls.clear()
    loaded = wait(other.load("m1"))  # its cache is one command behind
    assert store.calls == ["meta_and_tail"]
    assert (loaded.version, loaded.state) == (fold(store, "m1").version, fold(store, "m1").state)


def test_a_cache_behind_the_log_is_brought_to_the_head_before_deciding() -> None:
    store = MemoryEventStore()
    first, other = runner_on(store), runner_on(store)
    version = wait(first.create("m1", 2, {}, seed=3)).version
    wait(other.load("m1"))
    wait(
        first.submit("m1", Actor.of_seat(0), Roll(), version, "c1")
    )  # the other instance's cache is now behind
    done = wait(other.submit("m1", Actor.of_seat(1), Roll(), version + 1, "c2"))
    assert (done.first_version, done.duplicate) == (version + 2, False)
    assert done.state == fold(store, "m1").state
    assert wait(other.load("m1")).state == fold(store, "m1").state


def test_a_command_at_a_stale_cached_version_is_a_conflict_not_a_rule_violation() -> None:
    store = MemoryEventStore()
    first, other = runner_on(store), runner_on(store)
    version = wait(first.create("m1", 2, {}, seed=3)).version
    wait(other.load("m1"))
    wait(first.submit("m1", Actor.of_seat(0), Roll(), version, "c1"))  # now it is seat 1's turn
    with pytest.raises(VersionConflict) as err:  # seat 0 again at the old version: stale, not out of turn
        wait(other.submit("m1", Actor.of_seat(0), Roll(), version, "c2"))
    assert (err.value.expected, err.value.actual) == (version, version + 1)
    with pytest.raises(VersionConflict):  # seat 1 at the old version, legal on the stale cache
        wait(other.submit("m1", Actor.of_seat(1), Roll(), version, "c3"))
    assert wait(store.version("m1")) == version + 1
    assert wait(store.command_result("m1", "c2")) is None and wait(store.command_result("m1", "c3")) is None


def test_a_rejection_at_the_cached_head_writes_nothing_and_keeps_the_cache() -> None:
    store = MemoryEventStore()
    runner = runner_on(store)
    version = wait(runner.create("m1", 2, {}, seed=3)).version
    with pytest.raises(RuleViolation) as err:
        wait(runner.submit("m1", Actor.of_seat(1), Roll(), version, "c1"))
    assert err.value.code == "not_your_turn"
    assert wait(store.version("m1")) == version and wait(store.command_result("m1", "c1")) is None
    cached = runner.cached("m1")
    assert cached is not None and cached.version == version


def test_the_same_dice_whether_the_state_was_cached_or_folded() -> None:
    warm_store, cold_store = MemoryEventStore(), MemoryEventStore()
    warm = runner_on(warm_store)
    for store in (warm_store, cold_store):
        wait(runner_on(store).create("m1", 3, {"goal": "30"}, seed=41))
    wait(warm.load("m1"))
    for n in range(12):
        actor = RULES.to_act(fold(cold_store, "m1").state)[0]
        command = RULES.legal_commands(fold(cold_store, "m1").state, actor)[0]
        version = wait(cold_store.version("m1"))
        wait(warm.submit("m1", actor, command, version, f"c{n}"))
        wait(runner_on(cold_store).submit("m1", actor, command, version, f"c{n}"))  # a new instance each time
    assert [(e.type, e.payload) for e in wait(warm_store.read("m1"))] == [
        (e.type, e.payload) for e in wait(cold_store.read("m1"))
    ]


def test_a_cache_ahead_of_the_log_is_dropped_when_a_match_id_is_created_again() -> None:
    store = MemoryEventStore()
    first, other = runner_on(store), runner_on(store)
    wait(first.create("m1", 2, {"goal": "5"}, seed=3))
    finished = wait(play_match(first, "m1", seed=0))
    assert finished.violations == []
    head = wait(other.load("m1")).version  # the other instance caches the finished match
    assert wait(store.delete_match("m1", head))  # archived and removed
    again = wait(first.create("m1", 2, {}, seed=4))
    assert again.version < head
    loaded = wait(other.load("m1"))
    assert loaded.version == again.version and loaded.state == fold(store, "m1").state
    done = wait(other.submit("m1", Actor.of_seat(0), Roll(), again.version, "new-1"))
    assert done.state == fold(store, "m1").state


def range_of(done: Any) -> tuple[int, int]:
    return done.first_version, done.last_version


class Offloads:
    """A runner's ``offload``: runs the call here and names what it ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.ran.append(fn.__name__)
        return fn(*args)


def test_a_long_tail_is_folded_through_the_offload_and_a_short_one_here() -> None:
    store, offload = MemoryEventStore(), Offloads()
    runner = MatchRunner(RULES, CODEC, store, snapshot_every=1, offload=offload)
    other = runner_on(store)
    version = wait(runner.create("m1", 2, {}, seed=3)).version  # the setup's events: folded there
    offload.ran.clear()
    done = wait(other.submit("m1", Actor.of_seat(0), Roll(), version, "c1"))
    assert wait(runner.load("m1")).version == done.last_version and offload.ran == []  # one event: here
    done = wait(other.submit("m1", Actor.of_seat(1), Roll(), done.last_version, "c2"))
    done = wait(other.submit("m1", SYSTEM, EndRound(), done.last_version, "c3"))
    loaded = wait(runner.load("m1"))  # more events than snapshot_every behind the cache
    assert offload.ran == ["_fold"] and loaded.state == fold(store, "m1").state
    offload.ran.clear()
    replayed = wait(runner.load("m1", at_version=version + 2))  # before the cache: from nothing
    assert offload.ran == ["_fold"] and replayed.version == version + 2


def test_events_read_elsewhere_bring_the_cache_to_the_head_so_the_next_command_is_one_append() -> None:
    """The watch hub hands a rule service the events another writer appended (a worker's system step):
    absorbed, they make the cache the head, as a fold from nothing says."""
    store = CountingStore()
    here, worker = runner_on(store), runner_on(store)
    version = wait(here.create("m1", 2, {}, seed=5)).version
    wait(here.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    wait(here.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))
    wait(worker.submit("m1", SYSTEM, EndRound(), version + 2, "end"))  # not seen here
    here.absorb("m1", wait(store.read("m1", 1)))  # what the hub read, older versions included
    cached = here.cached("m1")
    assert cached is not None and cached.version == version + 3 and cached.state == fold(store, "m1").state
    store.calls.clear()
    wait(here.submit("m1", Actor.of_seat(0), Roll(), version + 3, "c"))
    assert store.calls == ["append"]


def test_events_that_leave_a_gap_or_are_known_change_nothing_and_nothing_cached_stays_so() -> None:
    store = MemoryEventStore()
    here, other = runner_on(store), runner_on(store)
    version = wait(here.create("m1", 2, {}, seed=5)).version
    wait(other.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    wait(other.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))
    before = here.cached("m1")
    here.absorb("m1", wait(store.read("m1", version + 2)))  # version + 1 missing: a gap
    here.absorb("m1", wait(store.read("m1", 1, version)))  # what it has already
    assert here.cached("m1") == before
    fresh = runner_on(store)
    fresh.absorb("m1", wait(store.read("m1", 1)))
    assert fresh.cached("m1") is None
