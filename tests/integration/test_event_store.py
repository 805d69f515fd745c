"""One event-store suite, run against the in-memory fake, one Redis server and a 3-master cluster."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest
import redis.asyncio
import redis.asyncio.cluster
import redis.cluster

from shared.core.decider import SYSTEM, Actor, Outcome
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.runtime.redis_server import free_port
from shared.serving.errors import STORE_UNAVAILABLE
from shared.store import (
    MAX_BATCH,
    MAX_PAYLOAD,
    BatchTooLarge,
    EventStore,
    MatchStatus,
    NewEvent,
    OutboxNotice,
    PayloadTooLarge,
    Progress,
    Snapshot,
    VersionConflict,
    resp,
    shard_of,
)
from shared.store.base import InvalidAppend
from shared.store.cluster_client import AsyncCluster
from shared.store.redis_store import RedisEventStore, notice_from_entry
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import EndRound, RaceState, Roll
from tests.support.stores import STORES, store_of


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    yield from store_of(request)


def ev(kind: str = "Thing", payload: bytes = b"x", vis: str = "public") -> NewEvent:
    return NewEvent(kind, payload, vis, actor="seat:0")


def test_appends_get_dense_versions_from_one(store: EventStore) -> None:
    assert wait(store.append("m1", 0, [ev("A"), ev("B")], "c1")).last_version == 2
    result = wait(store.append("m1", 2, [ev("C")], "c2"))
    assert (result.first_version, result.last_version, result.duplicate) == (3, 3, False)
    assert [e.version for e in wait(store.read("m1"))] == [1, 2, 3]
    assert [e.type for e in wait(store.read("m1", 2))] == ["B", "C"]
    assert [e.type for e in wait(store.read("m1", 1, 2))] == ["A", "B"]
    assert wait(store.version("m1")) == 3
    assert wait(store.version("unknown")) == 0


def test_envelope_keeps_every_field(store: EventStore) -> None:
    wait(store.append("m1", 0, [NewEvent("Dealt", b"\x00\xffbytes", "seat:2", "system", 3)], "cmd-7"))
    (event,) = wait(store.read("m1"))
    assert (event.type, event.payload, event.visibility) == ("Dealt", b"\x00\xffbytes", "seat:2")
    assert (event.command_id, event.actor, event.schema_version) == ("cmd-7", "system", 3)
    assert event.server_time_ms > 1_600_000_000_000


def test_stale_version_is_a_named_conflict_and_writes_nothing(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()], "c1"))
    with pytest.raises(VersionConflict) as err:
        wait(store.append("m1", 0, [ev()], "c2"))
    assert (err.value.expected, err.value.actual) == (0, 1)
    assert wait(store.version("m1")) == 1
    assert wait(store.command_result("m1", "c2")) is None


def test_retry_of_a_command_returns_the_first_result(store: EventStore) -> None:
    first = wait(store.append("m1", 0, [ev(), ev()], "c1"))
    retry = wait(store.append("m1", 0, [ev()], "c1"))
    assert (retry.first_version, retry.last_version, retry.duplicate) == (1, 2, True)
    assert not first.duplicate
    assert wait(store.version("m1")) == 2
    assert wait(store.command_result("m1", "c1")) == retry


def test_a_retry_sent_with_the_newer_version_its_append_made_returns_the_first_result(
    store: EventStore,
) -> None:
    """A client that saw its command's version (a view read after a lost answer) and sends it again at
    that head: a known command id, not a second append."""
    first = wait(store.append("m1", 0, [ev()], "c1"))
    retry = wait(store.append("m1", first.last_version, [ev()], "c1"))
    assert retry.duplicate and (retry.first_version, retry.last_version) == (1, 1)
    assert wait(store.version("m1")) == 1 and len(wait(store.read("m1"))) == 1
    assert wait(store.command_result("m1", "c1")) == retry


def test_oversized_payload_is_rejected_and_nothing_written(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev(payload=b"a" * MAX_PAYLOAD)], "ok"))
    with pytest.raises(PayloadTooLarge):
        wait(store.append("m1", 1, [ev(), ev(payload=b"a" * (MAX_PAYLOAD + 1))], "big"))
    assert wait(store.version("m1")) == 1


def test_oversized_batch_is_rejected_and_nothing_written(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()] * MAX_BATCH, "ok"))
    with pytest.raises(BatchTooLarge):
        wait(store.append("m1", MAX_BATCH, [ev()] * (MAX_BATCH + 1), "big"))
    assert wait(store.version("m1")) == MAX_BATCH


@pytest.mark.parametrize(
    ("match_id", "command_id", "events"),
    [("bad id!", "c", [ev()]), ("m1", "", [ev()]), ("m1", "c", [])],
)
def test_malformed_appends_are_refused(
    store: EventStore, match_id: str, command_id: str, events: list[NewEvent]
) -> None:
    with pytest.raises(InvalidAppend):
        wait(store.append(match_id, 0, events, command_id))
    assert wait(store.version("m1")) == 0


def test_meta_is_set_with_the_append(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()], "c1", meta={"game": "test", "seats": "3"}))
    wait(store.set_meta("m1", {"status": "finished"}))
    assert wait(store.get_meta("m1")) == {"game": "test", "seats": "3", "version": "1", "status": "finished"}
    assert wait(store.get_meta("nothing")) == {}


def test_update_meta_writes_only_a_match_that_is_there(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()], "c1", meta={"game": "test", "names": '["Ada"]'}))
    assert wait(store.update_meta("m1", {"names": '["deleted player"]'}))
    assert wait(store.get_meta("m1"))["names"] == '["deleted player"]'
    assert not wait(store.update_meta("gone", {"names": '["deleted player"]'}))
    assert wait(store.get_meta("gone")) == {}, "no meta made up for a match that is not there"


def test_the_meta_and_the_tail_are_read_together(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev("A"), ev("B")], "c1", meta={"game": "test"}))
    wait(store.append("m1", 2, [ev("C")], "c2"))
    meta, tail = wait(store.meta_and_tail("m1", 1))
    assert meta == wait(store.get_meta("m1")) and meta["version"] == "3"
    assert [(e.version, e.type) for e in tail] == [(2, "B"), (3, "C")] and tail == wait(store.read("m1", 2))
    assert wait(store.meta_and_tail("m1", 3)) == (meta, [])
    assert wait(store.meta_and_tail("nothing", 0)) == ({}, [])


def on_a_loop(store: EventStore, async_client: bool) -> tuple[EventStore, Any]:
    """The same store as one a rule service appends through from its event loop (not the edge's): with
    a ``redis.asyncio`` client of the same server or cluster, or with the one it makes itself."""
    if not isinstance(store, RedisEventStore):
        return store, None
    if not async_client:
        made = RedisEventStore(store.client, store.shards)
        return made, made.async_client
    client: Any
    if isinstance(store.client, redis.cluster.RedisCluster):
        node = store.client.get_primaries()[0]
        client = AsyncCluster(host=node.host, port=node.port)  # the services' cluster client
    else:
        kwargs = store.client.connection_pool.connection_kwargs
        client = redis.asyncio.Redis(host=kwargs["host"], port=kwargs["port"], db=kwargs.get("db", 0))
    return RedisEventStore(store.client, store.shards, async_client=client), client


@pytest.mark.parametrize("async_client", [True, False])
def test_an_append_awaited_on_an_event_loop_is_the_same_append(store: EventStore, async_client: bool) -> None:
    looped, client = on_a_loop(store, async_client)
    progress = Progress((1,), False, MatchStatus.ACTIVE)

    async def appends() -> tuple[Any, Any]:
        try:
            first = await looped.append("m1", 0, [ev("A"), ev("B")], "c1", {"game": "g"}, progress)
            retry = await looped.append("m1", 0, [ev("X")], "c1")
            with pytest.raises(VersionConflict) as err:
                await looped.append("m1", 0, [ev("Y")], "c2")
            assert (err.value.expected, err.value.actual) == (0, 2)
            with pytest.raises(InvalidAppend):
                await looped.append("m1", 2, [], "c3")
            return first, retry
        finally:
            if client is not None:
                await client.aclose()

    first, retry = asyncio.run(appends())
    assert (first.first_version, first.last_version, first.duplicate) == (1, 2, False)
    assert (retry.first_version, retry.last_version, retry.duplicate) == (1, 2, True)
    assert [e.type for e in wait(store.read("m1"))] == ["A", "B"]
    assert (
        wait(store.get_meta("m1"))["game"] == "g" and Progress.parse(wait(store.get_meta("m1"))) == progress
    )
    assert wait(store.command_result("m1", "c2")) is None and wait(store.command_result("m1", "c3")) is None
    (notice,) = wait(store.read_outbox(shard_of("m1", store.shards)))
    assert (notice.first_version, notice.last_version, notice.progress) == (1, 2, progress)


@pytest.mark.parametrize("async_client", [True, False])
def test_the_meta_and_the_tail_awaited_on_an_event_loop_are_the_same_read(
    store: EventStore, async_client: bool
) -> None:
    looped, client = on_a_loop(store, async_client)
    wait(
        store.append("m1", 0, [ev("A", b"\x00\xff\r\n"), ev("B", vis="seat:1")], "c1", meta={"game": "test"})
    )
    wait(store.append("m1", 2, [ev("C")], "c2"))
    asked = [("m1", 1), ("m1", 0), ("m1", 3), ("nothing", 0)]

    async def reads() -> list[Any]:
        try:
            return [await looped.meta_and_tail(match_id, after) for match_id, after in asked]
        finally:
            if client is not None:
                await client.aclose()

    got = asyncio.run(reads())
    assert got == [wait(store.meta_and_tail(match_id, after)) for match_id, after in asked]
    meta, tail = got[1]
    assert meta["version"] == "3" and tail[0].payload == b"\x00\xff\r\n" and tail[1].visibility == "seat:1"


def test_appends_awaited_together_share_pipelines_and_each_gets_its_own_answer(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many coroutines of one loop append at once (a rule service under load): on one Redis server they
    share one connection, their commands written together (fewer writes than appends); each gets its
    own answer, a conflict or a retry beside others; a script the server lost is loaded again."""
    looped, client = on_a_loop(store, True)
    pipelines: list[int] = []
    if isinstance(looped, RedisEventStore) and isinstance(client, redis.asyncio.Redis):
        write = resp._Protocol._write

        def counted(protocol: Any) -> None:
            pipelines.append(len(protocol.queued))
            write(protocol)

        monkeypatch.setattr(resp._Protocol, "_write", counted)
        looped.client.script_flush()  # the server forgot the script (a restart): NOSCRIPT, loaded again

    async def appends() -> tuple[list[Any], list[Any]]:
        try:
            firsts = await asyncio.gather(*(looped.append(f"p{i}", 0, [ev()], "c") for i in range(20)))
            mixed = await asyncio.gather(
                looped.append("p0", 1, [ev("N")], "d"),
                looped.append("p1", 0, [ev("N")], "d"),  # the version moved: a conflict
                looped.append("p2", 0, [ev("N")], "c"),  # a retry: the first answer
                return_exceptions=True,
            )
            gone = asyncio.ensure_future(looped.append("q0", 0, [ev()], "c"))
            kept = asyncio.ensure_future(looped.append("q1", 0, [ev()], "c"))
            await asyncio.sleep(0)  # both asked for
            gone.cancel()  # its caller gave up (a deadline): the others are answered all the same
            assert (await kept).last_version == 1
            return firsts, mixed
        finally:
            if client is not None:
                await client.aclose()

    firsts, (moved, conflict, retry) = asyncio.run(appends())
    written = pipelines[:]  # the loop's writes (the reads below are the edge loop's own)
    assert [(r.first_version, r.duplicate) for r in firsts] == [(1, False)] * 20
    assert moved.last_version == 2 and isinstance(conflict, VersionConflict) and retry.duplicate
    assert [e.type for e in wait(store.read("p0"))] == ["Thing", "N"] and len(wait(store.read("p1"))) == 1
    if written:  # 25 appends; the first 20 answered NOSCRIPT, then each sent SCRIPT LOAD and again
        assert sum(written) == 25 + 20 * 2 and len(written) < 10


def test_pipelined_appends_to_a_server_that_is_gone_all_fail_as_unavailable() -> None:
    """Each caller of a pipeline that could not be sent gets the connection's error (the services
    answer it UNAVAILABLE, shared.serving.errors.STORE_UNAVAILABLE), and nothing is left waiting."""
    gone = redis.asyncio.Redis(port=free_port())
    looped = RedisEventStore(redis.Redis(port=free_port()), async_client=gone)

    async def appends() -> list[Any]:
        try:
            calls = (looped.append(f"g{i}", 0, [ev()], "c") for i in range(5))
            return await asyncio.gather(*calls, return_exceptions=True)
        finally:
            await gone.aclose()

    answers = asyncio.run(appends())
    assert len(answers) == 5 and all(isinstance(a, STORE_UNAVAILABLE) for a in answers)


@pytest.fixture(params=[s for s in STORES if s != "memory"])
def redis_store(request: pytest.FixtureRequest) -> Iterator[RedisEventStore]:
    for found in store_of(request):
        assert isinstance(found, RedisEventStore)
        yield found


def test_an_entry_in_another_field_order_reads_the_same(redis_store: RedisEventStore) -> None:
    """Entries are read by position when they have the append script's layout, by name otherwise
    (one written by an older script, say): both give the same envelope."""
    store = redis_store
    wait(store.append("m1", 0, [NewEvent("A", b"\x01", "seat:1", "seat:1", 2)], "c1"))
    (written,) = wait(store.read("m1"))
    key = store._key("m1", "events")
    fields = {"time": written.server_time_ms, "schema": 2, "actor": "seat:1", "cmd": "c1"}
    store.client.xadd(key, {**fields, "vis": "seat:1", "payload": b"\x01", "type": "A"}, id="0-2")
    store.client.hset(store._key("m1", "meta"), "version", 2)
    first, second = wait(store.read("m1"))
    assert first == written and second == replace(written, version=2)
    assert wait(store.meta_and_tail("m1", 0))[1] == [first, second]


def test_many_metas_are_read_in_one_pipeline(redis_store: RedisEventStore) -> None:
    for n, match_id in enumerate(["a1", "b2", "c3"]):
        wait(redis_store.append(match_id, 0, [ev()], "c", meta={"game": "test", "n": str(n)}))
    metas = wait(redis_store.get_metas(["c3", "nobody", "a1"]))
    assert [meta.get("n") for meta in metas] == ["2", None, "0"]
    assert metas[0] == wait(redis_store.get_meta("c3")) and metas[1] == {}


def test_snapshots_are_optional_and_round_trip(store: EventStore) -> None:
    assert wait(store.load_snapshot("m1")) is None
    wait(store.save_snapshot("m1", Snapshot(5, b"state:\x00bytes")))
    assert wait(store.load_snapshot("m1")) == Snapshot(5, b"state:\x00bytes")


def test_outbox_holds_one_notice_per_append(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev("A"), ev("B")], "c1", meta={"game": "lorenzo"}))
    wait(store.append("m1", 2, [ev("C")], "c2"))
    wait(store.append("m1", 2, [ev("C")], "c2"))  # retry: no new notice
    with pytest.raises(VersionConflict):
        wait(store.append("m1", 0, [ev()], "c3"))
    wait(store.append("m1", 3, [NewEvent("D", b"y", actor="bot:1:random")], "c4"))
    notices = wait(store.read_outbox(shard_of("m1", store.shards)))
    assert [(n.match_id, n.first_version, n.last_version, n.types, n.actor) for n in notices] == [
        ("m1", 1, 2, ("A", "B"), "seat:0"),  # who made the append: the reactor's replies go by it
        ("m1", 3, 3, ("C",), "seat:0"),
        ("m1", 4, 4, ("D",), "bot:1:random"),
    ]
    assert notices[0].game == "lorenzo"
    assert wait(store.read_outbox(shard_of("m1", store.shards), after=notices[0].entry_id)) == notices[1:]


def test_a_quiet_append_writes_its_events_and_meta_but_no_notice_and_leaves_the_index(
    store: EventStore,
) -> None:
    active = Progress((0,), False, MatchStatus.ACTIVE)
    wait(store.append("m1", 0, [ev("A")], "c1", meta={"game": "g"}, progress=active))
    shard = shard_of("m1", store.shards)
    (indexed,) = wait(store.active_matches(shard))
    moved = Progress((1,), False, MatchStatus.ACTIVE)
    result = wait(store.append("m1", 1, [ev("B"), ev("C")], "c2", progress=moved, quiet=True))
    assert (result.first_version, result.last_version, result.duplicate) == (2, 3, False)
    assert [e.type for e in wait(store.read("m1"))] == ["A", "B", "C"]
    assert Progress.parse(wait(store.get_meta("m1"))) == moved and wait(store.version("m1")) == 3
    assert [n.last_version for n in wait(store.read_outbox(shard))] == [1]
    assert wait(store.active_matches(shard)) == [indexed]  # the time of the last append that notified
    assert wait(store.append("m1", 1, [ev("B")], "c2", quiet=True)).duplicate  # a retry, as ever
    wait(store.append("m1", 3, [ev("D")], "c3", progress=active))
    assert [n.last_version for n in wait(store.read_outbox(shard))] == [1, 4]
    assert wait(store.read_outbox(shard))[-1].game == "g"


def test_sixteen_concurrent_writers_exactly_one_wins(store: EventStore) -> None:
    wait(store.append("race", 0, [ev()], "setup"))
    barrier = threading.Barrier(16)

    def write(i: int) -> str:
        barrier.wait()
        try:
            wait(store.append("race", 1, [ev(f"W{i}")], f"writer-{i}"))
            return "won"
        except VersionConflict:
            return "conflict"

    with ThreadPoolExecutor(16) as pool:
        outcomes = list(pool.map(write, range(16)))
    assert outcomes.count("won") == 1 and outcomes.count("conflict") == 15
    assert wait(store.version("race")) == 2
    assert len(wait(store.read_outbox(shard_of("race", store.shards)))) == 2


def test_a_thousand_retries_write_nothing_new(store: EventStore) -> None:
    for i in range(10):
        wait(store.append("m1", i, [ev()], f"c{i}"))
    for n in range(1000):
        i = n % 10
        result = wait(store.append("m1", i, [ev()], f"c{i}"))
        assert result.duplicate and result.last_version == i + 1
    assert wait(store.version("m1")) == 10
    assert len(wait(store.read_outbox(shard_of("m1", store.shards), count=2000))) == 10


def test_keys_of_a_match_and_its_outbox_share_one_cluster_slot() -> None:
    from redis.crc import key_slot

    store = RedisEventStore.__new__(RedisEventStore)
    store.shards = 16
    for match_id in ("a", "match-42", "zz-top"):
        shard = shard_of(match_id)
        slots = {key_slot(store._key(match_id, p).encode()) for p in ("events", "meta", "cmds", "snap")}
        slots.add(key_slot(store.outbox_key(shard).encode()))
        assert len(slots) == 1


# ------------------------------------------------------------ progress: what the platform decides from


def _last_notice(store: EventStore, match_id: str) -> OutboxNotice:
    return wait(store.read_outbox(shard_of(match_id, store.shards), count=1000))[-1]


def test_progress_goes_into_the_meta_and_the_notice_of_its_append(store: EventStore) -> None:
    done = Progress((), False, MatchStatus.FINISHED, Outcome((7, 9), (2, 1)))
    wait(
        store.append(
            "m1", 0, [ev()], "c1", meta={"game": "test"}, progress=Progress((0, 2), True, MatchStatus.ACTIVE)
        )
    )
    assert _last_notice(store, "m1").progress == Progress((0, 2), True, MatchStatus.ACTIVE)
    wait(store.append("m1", 1, [ev()], "c2", progress=done))
    meta = wait(store.get_meta("m1"))
    assert (meta["to_act"], meta["system"], meta["status"]) == ("", "0", "finished")
    assert json.loads(meta["outcome"]) == {"scores": [7, 9], "placings": [2, 1]}
    assert _last_notice(store, "m1").progress == done == Progress.parse(meta)


def test_a_bare_append_carries_no_progress(store: EventStore) -> None:
    wait(store.append("m1", 0, [ev()], "c1", meta={"game": "test"}))
    assert _last_notice(store, "m1").progress is None
    assert Progress.parse(wait(store.get_meta("m1"))) is None


def _race(store: EventStore) -> MatchRunner[RaceState]:
    rules: Any = race_rules()
    return MatchRunner(rules, JsonCodec([*rules.command_types, *rules.event_types]), store)


def _recorded(runner: MatchRunner[RaceState], match_id: str) -> tuple[Progress | None, Progress | None]:
    """(progress in the meta, progress in the notice of the head's append: None when it wrote none)."""
    notice = _last_notice(runner.store, match_id)
    head = wait(runner.store.version(match_id))
    return Progress.parse(wait(runner.store.get_meta(match_id))), (
        notice.progress if notice.last_version == head else None
    )


def test_the_runner_records_progress_after_create_a_move_and_a_pending_system_step(store: EventStore) -> None:
    """Every append records its progress in the meta; those a follower acts on (the setup, a system
    step due) also in a notice, the quiet ones (a move of people to people nobody signed in for) not."""
    runner = _race(store)
    version = wait(runner.create("m1", 2, {"goal": "30"}, seed=3)).version
    assert _recorded(runner, "m1") == (Progress((0,), False, MatchStatus.ACTIVE),) * 2
    assert wait(runner.store.get_meta("m1"))["to_act"] == "0" and "outcome" not in wait(
        runner.store.get_meta("m1")
    )
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    assert _recorded(runner, "m1") == (Progress((1,), False, MatchStatus.ACTIVE), None)
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))
    assert runner.rules.to_act(wait(runner.load("m1")).state) == (SYSTEM,)
    assert _recorded(runner, "m1") == (Progress((), True, MatchStatus.ACTIVE),) * 2
    assert wait(runner.store.get_meta("m1"))["system"] == "1"
    wait(runner.submit("m1", SYSTEM, EndRound(), version + 2, "end"))
    assert _recorded(runner, "m1") == (Progress((0,), False, MatchStatus.ACTIVE), None)


def test_the_runner_records_the_outcome_with_the_final_move(store: EventStore) -> None:
    runner = _race(store)
    version = wait(runner.create("m1", 3, {"goal": "1"}, seed=8)).version
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "win"))  # any roll reaches a goal of 1
    outcome = runner.rules.outcome(wait(runner.load("m1")).state)
    assert outcome is not None and outcome.placings[0] == 1
    finished = Progress((), False, MatchStatus.FINISHED, outcome)
    assert _recorded(runner, "m1") == (finished, finished)
    meta = wait(runner.store.get_meta("m1"))
    assert meta["status"] == "finished"
    assert json.loads(meta["outcome"]) == {"scores": list(outcome.scores), "placings": list(outcome.placings)}


def test_a_notice_written_before_notices_named_their_actor_reads_with_none() -> None:
    """An outbox entry of an older append script has no ``by``: its notice has actor "" (no reply)."""
    fields = {b"match": b"m1", b"first": b"1", b"last": b"2", b"types": b"A,B", b"game": b"g"}
    notice = notice_from_entry(b"5-0", {**fields, b"to_act": b"1", b"status": b"active"})
    assert (notice.actor, notice.types, notice.progress) == (
        "",
        ("A", "B"),
        Progress((1,), False, MatchStatus.ACTIVE),
    )
