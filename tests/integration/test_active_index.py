"""The active-match index the append keeps per shard, on memory, one Redis server and a cluster.

The reactor's sweeper reads it to find matches that wait on the workers with no progress.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from shared.core.decider import Outcome
from shared.runtime.edge import wait
from shared.store import EventStore, MatchStatus, NewEvent, Progress, shard_of
from tests.support.stores import STORES, store_of

ACTIVE = Progress((0,), False, MatchStatus.ACTIVE)
FINISHED = Progress((), False, MatchStatus.FINISHED, Outcome((3, 1), (1, 2)))


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    yield from store_of(request)


def ev() -> NewEvent:
    return NewEvent("Thing", b"x")


def _index(store: EventStore, match_id: str) -> dict[str, int]:
    return dict(wait(store.active_matches(shard_of(match_id, store.shards))))


def test_an_active_append_indexes_the_match_at_its_server_time(store: EventStore) -> None:
    before = int(time.time() * 1000)
    wait(store.append("m1", 0, [ev()], "c1", progress=ACTIVE))
    stamp = _index(store, "m1")["m1"]
    assert before - 1000 <= stamp <= int(time.time() * 1000) + 1000
    assert stamp == wait(store.read("m1"))[0].server_time_ms


def test_each_append_moves_the_match_to_its_time_and_the_finishing_one_removes_it(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()], "c1", progress=ACTIVE))
    time.sleep(0.01)
    wait(store.append("m1", 1, [ev()], "c2", progress=ACTIVE))
    assert _index(store, "m1")["m1"] == wait(store.read("m1"))[1].server_time_ms
    wait(store.append("m1", 2, [ev()], "c3", progress=FINISHED))
    assert "m1" not in _index(store, "m1")


def test_a_bare_append_or_a_retried_command_leaves_the_index_alone(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()], "c1"))
    assert "m1" not in _index(store, "m1")
    wait(store.append("m1", 1, [ev()], "c2", progress=ACTIVE))
    stamp = _index(store, "m1")["m1"]
    time.sleep(0.01)
    assert wait(store.append("m1", 2, [ev()], "c2", progress=FINISHED)).duplicate  # a retried command id
    assert _index(store, "m1") == {"m1": stamp}


def test_only_matches_idle_since_a_time_are_listed_oldest_first(store: EventStore) -> None:
    shard = shard_of("a", store.shards)
    names = [m for m in (f"m{i}" for i in range(200)) if shard_of(m, store.shards) == shard][:3]
    for name in names:
        wait(store.append(name, 0, [ev()], "c1", progress=ACTIVE))
        time.sleep(0.005)
    listed = wait(store.active_matches(shard))
    assert [m for m, _ in listed] == names
    cut = listed[1][1]
    assert [m for m, _ in wait(store.active_matches(shard, until_ms=cut))] == names[:2]
    assert wait(store.active_matches(shard, until_ms=listed[0][1] - 1)) == []
