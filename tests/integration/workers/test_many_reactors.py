"""Any number of reactors with the defaults: each reads every shard as its own consumer of the one
group. Matches finish with every step applied once, a clock fires once, and the upkeep (outbox
trimming, archiving) runs from the same loop. In-process reactors on the in-memory store and on a
private Redis, jobs run through the workers' plain functions, a fake clock."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from services.workers.planner import JobKind
from services.workers.reactor import Reactor, build_archiver, follower_settings
from services.workers.settings import WorkerSettings
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import EventStore
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Dispatch, FakeClock, command_ids, create_match, run_job

SETTINGS = dataclasses.replace(
    WorkerSettings.from_env({}),
    reactor_claim_idle_ms=0,
    reactor_block_ms=10,
    clock_tick=0.0,
    sweep_interval=1.0,
    sweep_stall=3.0,
    outbox_groups=("reactor",),
    outbox_trim_interval=0.0,
    archive_after=0.0,
    archive_interval=0.0,
)


@pytest.fixture
def store(in_process_store: EventStore) -> EventStore:
    return in_process_store


def notices(store: EventStore) -> int:
    """The notices left in the outbox, over every shard."""
    return sum(len(wait(store.read_outbox(shard, count=10_000))) for shard in range(store.shards))


def reactors(store: EventStore, dispatch: Dispatch, clock: FakeClock, n: int, **kw: Any) -> list[Reactor]:
    out = []
    for i in range(n):
        settings = dataclasses.replace(SETTINGS, reactor_consumer=f"reactor-pod-{i}")
        reactor = Reactor(store, _no_game_code, dispatch, settings, follower_settings(settings), clock, **kw)
        reactor.follower.ensure_groups()
        out.append(reactor)
    return out


def _no_game_code(game: str) -> MatchRunner[Any]:
    raise AssertionError(f"the reactor loaded game code for {game}")


def drive(
    group: list[Reactor], runner: MatchRunner[Any], dispatch: Dispatch, clock: FakeClock, matches: list[str]
) -> None:
    """The reactors take turns with a 'worker' until every match is over (or archived already);
    time moves when idle."""
    for _ in range(3000):
        if all(wait(runner.store.get_meta(m)).get("status", "finished") == "finished" for m in matches):
            return
        for reactor in group:
            reactor.follower.poll(">")
            reactor.tick()
        if dispatch.sent:
            run_job(runner, dispatch.sent.pop(0))
        else:
            clock.t += 1.0
    raise AssertionError("the matches did not finish")


def test_three_reactors_share_every_shard_and_each_step_is_applied_once(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    matches = [f"m{n}" for n in range(6)]
    for match_id in matches:
        create_match(race_runner, match_id, 3, {0: "random", 1: "greedy", 2: "random"}, goal=10)
    clock, dispatch = FakeClock(), Dispatch()
    group = reactors(store, dispatch, clock, 3)
    drive(group, race_runner, dispatch, clock, matches)
    for match_id in matches:
        ids = command_ids(store, match_id)
        assert [i for i, n in Counter(ids).items() if n > 1] == [], match_id
    assert store.outbox_groups().pending(0, "reactor") == 0
    if isinstance(store, RedisEventStore):  # the consumers are the reactors'
        consumers = {c["name"].decode() for c in store.client.xinfo_consumers(store.outbox_key(0), "reactor")}
        assert consumers <= {f"reactor-pod-{i}" for i in range(3)}


def test_a_turn_clock_fires_once_across_three_reactors(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "slowpoke", 2, {1: "random"}, turn_seconds=30, goal=40)
    clock, dispatch = FakeClock(), Dispatch()
    group = reactors(store, dispatch, clock, 3)
    for reactor in group:
        reactor.follower.poll(">")
    clock.t += 31
    for reactor in group:
        reactor.tick()
    timers = [job for job in dispatch.sent if job.kind is JobKind.TIMER]
    assert [(job.match_id, job.version, job.seat) for job in timers] == [("slowpoke", version, 0)]


def test_the_reactor_loop_trims_the_outbox_and_archives_finished_matches(
    store: EventStore, race_runner: MatchRunner[Any], tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("TABULA_ARCHIVE_DIR", str(tmp_path))
    clock, dispatch = FakeClock(), Dispatch()
    archiver = build_archiver(store, lambda game: race_runner, SETTINGS)
    assert archiver is not None
    group = reactors(store, dispatch, clock, 2, archiver=archiver)
    matches = ["a1", "a2"]
    for match_id in matches:
        create_match(race_runner, match_id, 2, {0: "random", 1: "random"}, goal=8)
    assert notices(store) >= 2
    drive(group, race_runner, dispatch, clock, matches)
    clock.t += 1.0
    for reactor in group:  # read the last notices, then trim and archive
        reactor.follower.poll(">")
        reactor.tick()
    assert notices(store) == 0
    for match_id in matches:
        assert wait(store.get_meta(match_id)) == {} and wait(store.read(match_id)) == []
        assert (tmp_path / "matches" / f"{match_id}.jsonl.gz").exists()
