"""The in-memory store's outbox ids, trims, ranges and turn clocks, as the Redis store has them.

The follower, trimming, archiver and reactor suites run on both stores; these pin what takes a
controlled append time (ids within one millisecond, a clock that went back)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.core.decider import Outcome
from shared.matches.archive import LocalArchive
from shared.matches.archiver import Archiver
from shared.runtime.edge import wait
from shared.store import MatchStatus, MemoryEventStore, NewEvent, Progress, TurnClock, shard_of

T = 1_700_000_000.0  # an append time, in seconds
MS = int(T * 1000)
ACTIVE = Progress((0,), False, MatchStatus.ACTIVE)
FINISHED = Progress((), False, MatchStatus.FINISHED, Outcome((1, 0), (1, 2)))


class Clock:
    def __init__(self) -> None:
        self.t = T

    def __call__(self) -> float:
        return self.t


def append(store: MemoryEventStore, match_id: str, version: int, progress: Progress = ACTIVE) -> str:
    """One append; returns its notice's id."""
    event = [NewEvent("E", b"")]
    wait(store.append(match_id, version, event, f"c{version}", meta={"game": "g"}, progress=progress))
    return wait(store.read_outbox(shard_of(match_id, store.shards), count=1000))[-1].entry_id


def test_notice_ids_are_the_append_ms_and_a_sequence_that_never_goes_back() -> None:
    clock = Clock()
    store = MemoryEventStore(1, clock)
    ids = [append(store, "m", 0), append(store, "m", 1)]
    clock.t = T - 5  # the clock went back: the ids go on in the last millisecond
    ids.append(append(store, "m", 2))
    clock.t = T + 1
    ids.append(append(store, "m", 3))
    assert ids == [f"{MS}-0", f"{MS}-1", f"{MS}-2", f"{MS + 1000}-0"]


def test_a_trim_drops_what_is_below_an_id_and_no_id_is_given_twice() -> None:
    store = MemoryEventStore(1, Clock())
    groups = store.outbox_groups()
    ids = [append(store, "m", version) for version in range(3)]
    assert groups.trim(0, ids[2]) == 2 and groups.trim(0, ids[2]) == 0
    assert [n.entry_id for n in wait(store.read_outbox(0))] == ids[2:]
    assert groups.trim(0, f"{MS + 1}") == 1 and wait(store.read_outbox(0)) == []
    assert append(store, "m", 3) == f"{MS}-3"  # after the trim, still after the last id given


def test_a_range_takes_both_ends_and_a_bare_ms_stands_for_its_whole_millisecond() -> None:
    clock = Clock()
    store = MemoryEventStore(1, clock)
    ids = [append(store, "m", version) for version in range(3)]
    clock.t = T + 0.001
    ids.append(append(store, "m", 3))
    groups = store.outbox_groups()

    def ranged(first: str, last: str) -> list[str]:
        return [n.entry_id for n in groups.read_range(0, first, last)]

    assert ranged(ids[1], str(MS)) == ids[1:3]
    assert ranged(str(MS), str(MS + 1)) == ids
    assert ranged(ids[1], ids[1]) == ids[1:2]
    assert ranged(str(MS + 2), str(MS + 9)) == []


def test_the_lowest_id_needed_is_each_group_s_oldest_pending_or_first_unread() -> None:
    store = MemoryEventStore(1, Clock())
    groups = store.outbox_groups()
    assert groups.lowest_needed(0) is None  # no group: nobody can say
    groups.create_group(0, "a")
    groups.create_group(0, "b")
    ids = [append(store, "m", version) for version in range(3)]
    assert groups.lowest_needed(0) == "0-1"  # nothing read yet: everything
    assert groups.lowest_needed(0, required=["a", "b", "c"]) is None  # "c" missing
    ((_, read),) = groups.read_group("a", "a1", {0: ">"}, 2, None)
    groups.ack("a", [(0, [read[0].entry_id])])
    ((_, every),) = groups.read_group("b", "b1", {0: ">"}, 10, None)
    groups.ack("b", [(0, [entry.entry_id for entry in every])])
    assert groups.lowest_needed(0) == ids[1]  # "a" has the second pending
    groups.ack("a", [(0, [ids[1]])])
    assert groups.lowest_needed(0, required=["a", "b"]) == f"{MS}-2"  # "a" has not read the third


def test_a_pending_entry_trimmed_away_is_handed_out_again_without_its_notice() -> None:
    store = MemoryEventStore(1, Clock())
    groups = store.outbox_groups()
    groups.create_group(0, "g")
    ids = [append(store, "m", version) for version in range(2)]
    groups.read_group("g", "c1", {0: ">"}, 1, None)
    assert groups.trim(0, ids[1]) == 1  # below what "g" needs: only a direct trim does that
    ((_, again),) = groups.read_group("g", "c1", {0: "0"}, 10, None)
    assert [(e.entry_id, e.notice, e.deliveries) for e in again] == [(ids[0], None, 2)]
    (claimed,) = groups.claim_idle(0, "g", "c2", 0, 10)
    assert (claimed.entry_id, claimed.notice, claimed.deliveries) == (ids[0], None, 3)


def test_a_finished_match_is_indexed_at_its_finishing_notice_s_millisecond() -> None:
    clock = Clock()
    store = MemoryEventStore(1, clock)
    clock.t = T + 1
    append(store, "a", 0)
    clock.t = T  # the clock went back: the notice stays in the last millisecond, and so does the index
    last = append(store, "b", 0, FINISHED)
    assert wait(store.finished_matches(0)) == [("b", MS + 1000)] and last == f"{MS + 1000}-1"


def test_the_archiver_waits_for_a_match_whose_end_a_group_has_not_read_in_the_same_millisecond(
    tmp_path: Path,
) -> None:
    store = MemoryEventStore(1, Clock())
    groups = store.outbox_groups()
    groups.create_group(0, "g")
    ends = [append(store, "a", 0, FINISHED), append(store, "b", 0, FINISHED)]
    assert len({end.partition("-")[0] for end in ends}) == 1  # both in one millisecond

    def games(game: str) -> Any:
        raise AssertionError("nothing is archived here")

    archiver = Archiver(store, LocalArchive(tmp_path), games, 0, ("g",), now=lambda: T + 1)
    assert archiver.due(0) == []  # "g" has read neither end
    groups.read_group("g", "g1", {0: ">"}, 1, None)
    groups.ack("g", [(0, ends[:1])])
    assert archiver.due(0) == ["a"]  # "b" ended in the same millisecond, but "g" still needs it
    groups.read_group("g", "g1", {0: ">"}, 1, None)
    groups.ack("g", [(0, ends[1:])])
    assert archiver.due(0) == ["a", "b"]


def test_turn_clocks_keep_their_earliest_due_time_and_are_taken_once() -> None:
    clocks = MemoryEventStore(1).clocks()
    clocks.set(TurnClock("m", 4, 0, 5_000))
    clocks.set(TurnClock("m", 4, 0, 1_000))  # earlier: it moves
    clocks.set(TurnClock("m", 4, 0, 7_000))  # later: it does not
    clocks.set(TurnClock("m", 4, 1, 9_000))
    clocks.set(TurnClock("n", 2, 0, 3_000))
    expected = [TurnClock("m", 4, 0, 1_000), TurnClock("n", 2, 0, 3_000), TurnClock("m", 4, 1, 9_000)]
    assert clocks.pending(0) == expected
    assert clocks.take_due(0, 4_000, count=1) == expected[:1]
    assert clocks.take_due(0, 4_000) == expected[1:2]
    assert clocks.take_due(0, 4_000) == []  # each went to one caller
    clocks.cancel("m", 4, seats=2)
    assert clocks.pending(0) == []


def test_turn_clocks_are_the_store_s_and_kept_per_shard() -> None:
    store = MemoryEventStore(16)
    assert store.clocks() is store.clocks()
    store.clocks().set(TurnClock("m", 1, 0, 10))
    shard = shard_of("m", 16)
    assert store.clocks().pending(shard) == [TurnClock("m", 1, 0, 10)]
    assert store.clocks().take_due((shard + 1) % 16, 10**6) == []
    assert MemoryEventStore(16).clocks().pending(shard) == []
