"""The finished-match index and the deletion of an archived match, on memory, Redis and a cluster."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shared.core.decider import Outcome
from shared.runtime.edge import wait
from shared.store import MatchStatus, NewEvent, Progress, Snapshot, shard_of
from shared.store.redis_store import RedisEventStore
from tests.support.stores import STORES, store_of

ACTIVE = Progress((0,), False, MatchStatus.ACTIVE)
FINISHED = Progress((), False, MatchStatus.FINISHED, Outcome((3, 1), (1, 2)))


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from store_of(request)


def play(store: Any, match_id: str, finish: bool = True) -> None:
    wait(store.append(match_id, 0, [NewEvent("Started", b"")], "create", meta={"game": "g"}, progress=ACTIVE))
    wait(store.save_snapshot(match_id, Snapshot(1, b"{}")))
    wait(store.append(match_id, 1, [NewEvent("Ended", b"")], "c2", progress=FINISHED if finish else ACTIVE))


def finished(store: Any, match_id: str) -> dict[str, int]:
    return dict(wait(store.finished_matches(shard_of(match_id, store.shards))))


def test_the_finishing_append_indexes_the_match_at_its_notice_time(store: Any) -> None:
    play(store, "done")
    play(store, "going", finish=False)
    stamp = finished(store, "done")["done"]
    assert "going" not in finished(store, "going")
    (last,) = wait(store.read_outbox(shard_of("done", store.shards), count=100))[-1:]
    assert int(last.entry_id.split("-")[0]) == stamp  # the notice id's ms: comparable with group positions
    assert wait(store.finished_matches(shard_of("done", store.shards), until_ms=stamp - 1)) == []


def test_deleting_a_finished_match_removes_every_key_and_index_entry(store: Any) -> None:
    play(store, "done")
    assert wait(store.delete_match("done", 2))
    assert wait(store.get_meta("done")) == {} and wait(store.read("done")) == []
    assert wait(store.load_snapshot("done")) is None and wait(store.command_result("done", "c2")) is None
    assert "done" not in finished(store, "done")
    if isinstance(store, RedisEventStore):
        tag = f"{{s{shard_of('done', store.shards):02d}}}"
        assert not any(store.client.exists(f"{tag}:match:done:{part}") for part in ("events", "meta", "cmds"))


def test_an_active_match_or_one_that_moved_past_the_archived_version_is_not_deleted(store: Any) -> None:
    play(store, "going", finish=False)
    assert not wait(store.delete_match("going", 2))
    assert wait(store.version("going")) == 2
    play(store, "done")
    assert not wait(store.delete_match("done", 1))  # archived at 1, now at 2: the archive is stale
    assert wait(store.version("done")) == 2 and "done" in finished(store, "done")
    assert not wait(store.delete_match("nothing", 1))
