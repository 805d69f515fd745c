"""The runner's state cache: a command at the cached version is one append, and a cache behind
(or ahead of) the log never decides or serves anything the log does not say."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from shared.core.decider import Actor, RuleViolation
from shared.matches.runner import MatchNotFound, MatchRunner
from shared.matches.simulate import play_match
from shared.store import MemoryEventStore, VersionConflict
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import RaceState, Roll

RULES = race_rules()
CODEC = JsonCodec([*RULES.event_types, *RULES.command_types])


class CountingStore(MemoryEventStore):
    """Counts the calls that would each be a round trip to Redis."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def append(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append")
        return super().append(*args, **kwargs)

    async def append_async(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append_async")
        return super().append(*args, **kwargs)

    def command_result(self, match_id: str, command_id: str) -> Any:
        self.calls.append("command_result")
        return super().command_result(match_id, command_id)

    def get_meta(self, match_id: str) -> dict[str, str]:
        self.calls.append("get_meta")
        return super().get_meta(match_id)

    def read(self, match_id: str, from_version: int = 1, to_version: int | None = None) -> Any:
        self.calls.append("read")
        return super().read(match_id, from_version, to_version)

    def meta_and_tail(self, match_id: str, after_version: int) -> Any:
        self.calls.append("meta_and_tail")
        return super().meta_and_tail(match_id, after_version)

    async def meta_and_tail_async(self, match_id: str, after_version: int) -> Any:
        self.calls.append("meta_and_tail_async")
        return super().meta_and_tail(match_id, after_version)


def runner_on(store: MemoryEventStore) -> MatchRunner[RaceState]:
    return MatchRunner(RULES, CODEC, store)


def fold(store: MemoryEventStore, match_id: str) -> Any:
    """The state the log says, folded from nothing by a runner that has cached nothing."""
    return runner_on(store).load(match_id)


def test_a_command_at_the_cached_version_is_one_append_and_nothing_else() -> None:
    store = CountingStore()
    runner = runner_on(store)
    version = runner.create("m1", 2, {}, seed=3).version
    store.calls.clear()
    done = runner.submit("m1", Actor.of_seat(0), Roll(), version, "c1")
    assert store.calls == ["append"]
    cached = runner.cached("m1")
    assert cached is not None and cached.version == done.last_version
    assert cached.state == done.state == fold(store, "m1").state


def test_a_load_from_a_cached_state_reads_the_meta_and_the_tail_in_one_call() -> None:
    store = CountingStore()
    first, other = runner_on(store), runner_on(store)
    version = first.create("m1", 2, {}, seed=3).version
    other.load("m1")
    first.submit("m1", Actor.of_seat(0), Roll(), version, "c1")
    store.calls.clear()
    loaded = other.load("m1")  # its cache is one command behind
    assert store.calls == ["meta_and_tail"]
    assert (loaded.version, loaded.state) == (fold(store, "m1").version, fold(store, "m1").state)


def test_a_cache_behind_the_log_is_brought_to_the_head_before_deciding() -> None:
    store = MemoryEventStore()
    first, other = runner_on(store), runner_on(store)
    version = first.create("m1", 2, {}, seed=3).version
    other.load("m1")
    first.submit("m1", Actor.of_seat(0), Roll(), version, "c1")  # the other instance's cache is now behind
    done = other.submit("m1", Actor.of_seat(1), Roll(), version + 1, "c2")
    assert (done.first_version, done.duplicate) == (version + 2, False)
    assert done.state == fold(store, "m1").state
    assert other.load("m1").state == fold(store, "m1").state


def test_a_command_at_a_stale_cached_version_is_a_conflict_not_a_rule_violation() -> None:
    store = MemoryEventStore()
    first, other = runner_on(store), runner_on(store)
    version = first.create("m1", 2, {}, seed=3).version
    other.load("m1")
    first.submit("m1", Actor.of_seat(0), Roll(), version, "c1")  # now it is seat 1's turn
    with pytest.raises(VersionConflict) as err:  # seat 0 again at the old version: stale, not out of turn
        other.submit("m1", Actor.of_seat(0), Roll(), version, "c2")
    assert (err.value.expected, err.value.actual) == (version, version + 1)
    with pytest.raises(VersionConflict):  # seat 1 at the old version, legal on the stale cache
        other.submit("m1", Actor.of_seat(1), Roll(), version, "c3")
    assert store.version("m1") == version + 1
    assert store.command_result("m1", "c2") is None and store.command_result("m1", "c3") is None


def test_a_rejection_at_the_cached_head_writes_nothing_and_keeps_the_cache() -> None:
    store = MemoryEventStore()
    runner = runner_on(store)
    version = runner.create("m1", 2, {}, seed=3).version
    with pytest.raises(RuleViolation) as err:
        runner.submit("m1", Actor.of_seat(1), Roll(), version, "c1")
    assert err.value.code == "not_your_turn"
    assert store.version("m1") == version and store.command_result("m1", "c1") is None
    cached = runner.cached("m1")
    assert cached is not None and cached.version == version


def test_the_same_dice_whether_the_state_was_cached_or_folded() -> None:
    warm_store, cold_store = MemoryEventStore(), MemoryEventStore()
    warm = runner_on(warm_store)
    for store in (warm_store, cold_store):
        runner_on(store).create("m1", 3, {"goal": "30"}, seed=41)
    warm.load("m1")
    for n in range(12):
        actor = RULES.to_act(fold(cold_store, "m1").state)[0]
        command = RULES.legal_commands(fold(cold_store, "m1").state, actor)[0]
        version = cold_store.version("m1")
        warm.submit("m1", actor, command, version, f"c{n}")
        runner_on(cold_store).submit("m1", actor, command, version, f"c{n}")  # a new instance each time
    assert [(e.type, e.payload) for e in warm_store.read("m1")] == [
        (e.type, e.payload) for e in cold_store.read("m1")
    ]


def test_a_cache_ahead_of_the_log_is_dropped_when_a_match_id_is_created_again() -> None:
    store = MemoryEventStore()
    first, other = runner_on(store), runner_on(store)
    first.create("m1", 2, {"goal": "5"}, seed=3)
    finished = play_match(first, "m1", seed=0)
    assert finished.violations == []
    head = other.load("m1").version  # the other instance caches the finished match
    assert store.delete_match("m1", head)  # archived and removed
    again = first.create("m1", 2, {}, seed=4)
    assert again.version < head
    loaded = other.load("m1")
    assert loaded.version == again.version and loaded.state == fold(store, "m1").state
    done = other.submit("m1", Actor.of_seat(0), Roll(), again.version, "new-1")
    assert done.state == fold(store, "m1").state


def range_of(done: Any) -> tuple[int, int]:
    return done.first_version, done.last_version


class Offloads:
    """The ``offload`` of ``submit_async``: runs the blocking call here and names what it ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.ran.append(fn.__name__)
        return fn(*args)


def test_on_an_event_loop_a_command_at_the_cached_version_is_one_awaited_append_and_no_thread() -> None:
    store, offload = CountingStore(), Offloads()
    runner = runner_on(store)
    version = runner.create("m1", 2, {}, seed=3).version
    store.calls.clear()
    done = asyncio.run(runner.submit_async("m1", Actor.of_seat(0), Roll(), version, "c1", offload=offload))
    assert store.calls == ["append_async"] and offload.ran == []
    assert (done.first_version, done.duplicate) == (version + 1, False)
    assert done.state == fold(store, "m1").state
    cached = runner.cached("m1")
    assert cached is not None and cached.version == done.last_version


def test_on_an_event_loop_every_other_path_is_the_blocking_one_offloaded() -> None:
    store, offload = MemoryEventStore(), Offloads()
    first, other = runner_on(store), runner_on(store)
    version = first.create("m1", 2, {}, seed=3).version
    other.load("m1")
    first.submit("m1", Actor.of_seat(0), Roll(), version, "c1")  # the other's cache is now behind
    done = asyncio.run(other.submit_async("m1", Actor.of_seat(1), Roll(), version + 1, "c2", offload=offload))
    assert offload.ran == ["_checked"] and done.state == fold(store, "m1").state
    offload.ran.clear()
    retry = asyncio.run(
        other.submit_async("m1", Actor.of_seat(1), Roll(), version + 1, "c2", offload=offload)
    )
    assert offload.ran == ["_checked"]  # the cache is past that version now: the checked path finds the id
    assert (retry.first_version, retry.last_version, retry.duplicate) == (*range_of(done), True)
    offload.ran.clear()
    head = store.version("m1")
    with pytest.raises(RuleViolation) as err:  # out of turn at the cached head: decided again on the head
        asyncio.run(other.submit_async("m1", Actor.of_seat(1), Roll(), head, "c3", offload=offload))
    assert err.value.code == "not_your_turn" and offload.ran == ["_checked"]
    assert store.version("m1") == head and store.command_result("m1", "c3") is None


def test_on_an_event_loop_a_retry_at_the_cached_version_is_the_first_result() -> None:
    store, offload = MemoryEventStore(), Offloads()
    runner, other = runner_on(store), runner_on(store)
    version = runner.create("m1", 2, {}, seed=3).version
    other.load("m1")
    first = runner.submit("m1", Actor.of_seat(0), Roll(), version, "c1")  # the other still caches `version`
    retry = asyncio.run(other.submit_async("m1", Actor.of_seat(0), Roll(), version, "c1", offload=offload))
    assert offload.ran == ["_duplicate"]  # the append script found the id; the state is read off the loop
    assert (retry.first_version, retry.last_version, retry.duplicate) == (*range_of(first), True)
    assert retry.state == fold(store, "m1").state


def test_on_an_event_loop_a_snapshot_due_is_saved_off_the_loop() -> None:
    store, offload = MemoryEventStore(), Offloads()
    runner = MatchRunner(RULES, CODEC, store, snapshot_every=1)
    version = runner.create("m1", 2, {}, seed=3).version
    done = asyncio.run(runner.submit_async("m1", Actor.of_seat(0), Roll(), version, "c1", offload=offload))
    assert offload.ran == ["_snapshot"]
    saved = store.load_snapshot("m1")
    assert saved is not None and saved.version == done.last_version


def test_on_an_event_loop_a_cached_match_is_loaded_with_one_awaited_read_and_no_thread() -> None:
    store, offload = CountingStore(), Offloads()
    runner, other = runner_on(store), runner_on(store)
    version = runner.create("m1", 2, {}, seed=3).version
    store.calls.clear()
    at_head = asyncio.run(runner.load_async("m1", offload=offload))
    assert store.calls == ["meta_and_tail_async"] and offload.ran == []
    assert at_head.version == version and at_head.state == fold(store, "m1").state
    other.submit("m1", Actor.of_seat(0), Roll(), version, "c1")  # the runner's cache is now behind
    store.calls.clear()
    caught_up = asyncio.run(runner.load_async("m1", offload=offload))
    assert store.calls == ["meta_and_tail_async"] and offload.ran == []
    assert caught_up.version == store.version("m1") and caught_up.state == fold(store, "m1").state
    assert caught_up.meta == store.get_meta("m1")
    cached = runner.cached("m1")
    assert cached is not None and cached.version == caught_up.version


def test_on_an_event_loop_a_long_tail_is_folded_off_the_loop() -> None:
    store, offload = MemoryEventStore(), Offloads()
    runner = MatchRunner(RULES, CODEC, store, snapshot_every=1)
    other = runner_on(store)
    version = runner.create("m1", 2, {}, seed=3).version
    done = other.submit("m1", Actor.of_seat(0), Roll(), version, "c1")
    done = other.submit("m1", Actor.of_seat(1), Roll(), done.last_version, "c2")
    assert done.last_version - version > 1  # more events than snapshot_every behind the cache
    loaded = asyncio.run(runner.load_async("m1", offload=offload))
    assert offload.ran == ["_fold"] and loaded.state == fold(store, "m1").state


def test_on_an_event_loop_a_match_not_cached_or_cached_ahead_is_the_blocking_load_offloaded() -> None:
    store, offload = MemoryEventStore(), Offloads()
    first, other = runner_on(store), runner_on(store)
    first.create("m1", 2, {"goal": "5"}, seed=3)
    assert play_match(first, "m1", seed=0).violations == []
    loaded = asyncio.run(other.load_async("m1", offload=offload))  # nothing cached
    assert offload.ran == ["load"] and loaded.state == fold(store, "m1").state
    offload.ran.clear()
    assert store.delete_match("m1", loaded.version)  # archived and removed: the other's cache is ahead
    with pytest.raises(MatchNotFound):
        asyncio.run(other.load_async("m1", offload=offload))
    again = first.create("m1", 2, {}, seed=4)
    loaded = asyncio.run(other.load_async("m1", offload=offload))
    assert offload.ran == ["load"] and loaded.version == again.version
    assert loaded.state == fold(store, "m1").state
