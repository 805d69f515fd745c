"""The reactor in-process on the in-memory store and on real Redis: plans from notices alone, old
notices (Redis), recovery, dead letters."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest
import redis

from services.games import load_game
from services.workers.bots import Budget
from services.workers.jobs import Result, bot_command_id, play_bot_turn
from services.workers.planner import Job, JobKind
from services.workers.reactor import GROUP, Reactor, follower_settings
from services.workers.settings import WorkerSettings
from shared.core.decider import SYSTEM, Actor
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import PROGRESS_KEYS, EventStore, shard_of
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import create_match
from tests.support.race.rules import EndRound, Roll

SETTINGS = dataclasses.replace(
    WorkerSettings.from_env({}), reactor_claim_idle_ms=0, reactor_max_deliveries=2, reactor_block_ms=10
)


class Dispatch:
    def __init__(self, failures: int = 0) -> None:
        self.jobs: list[Job] = []
        self.failures = failures

    def __call__(self, jobs: Sequence[Job]) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("broker down")
        self.jobs += jobs


class NoGameCode:
    """Runners that must not be asked for: a notice with progress is planned without game code."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, game: str) -> MatchRunner[Any]:
        self.asked.append(game)
        raise AssertionError(f"the reactor loaded game code for {game}")


@pytest.fixture
def store(in_process_store: EventStore) -> EventStore:
    return in_process_store


def _reactor(
    store: EventStore,
    dispatch: Dispatch,
    runners: Any = None,
    consumer: str = "",
    settings: WorkerSettings = SETTINGS,
) -> Reactor:
    follow = follower_settings(settings)
    if consumer:
        follow = dataclasses.replace(follow, consumer=consumer)
    reactor = Reactor(store, runners or NoGameCode(), dispatch, settings, follow)
    reactor.follower.ensure_groups()
    return reactor


def test_a_notice_becomes_a_bot_job_without_game_code(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "r1", 2, {0: "greedy"})
    dispatch = Dispatch()
    assert _reactor(store, dispatch).follower.poll(">") == 1
    # the creation is the system's append: its bot job is a reply (whoever created the match waits)
    assert dispatch.jobs == [Job(JobKind.BOT, "r1", "race", version, 0, "greedy", reply=True)]


def test_a_pending_round_end_becomes_a_scoring_job_and_a_finished_match_nothing(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "r6", 2, {}, goal=7)
    wait(race_runner.submit("r6", Actor.of_seat(0), Roll(), version, "a"))
    wait(race_runner.submit("r6", Actor.of_seat(1), Roll(), version + 1, "b"))
    dispatch = Dispatch()
    reactor = _reactor(store, dispatch)
    reactor.follower.poll(">")
    assert dispatch.jobs == [Job(JobKind.SYSTEM, "r6", "race", version + 2)]
    assert wait(play_match(race_runner, "r6", seed=1)).outcome is not None
    dispatch.jobs.clear()
    reactor.follower.poll(">")
    assert dispatch.jobs == []  # the finished notice is the head and plans nothing


def test_after_its_creation_a_clockless_match_is_planned_without_reading_the_meta(
    store: EventStore, race_runner: MatchRunner[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 0 is human (no clock), seat 1 a bot: the create notice reads the meta (and keeps the game,
    the bots and the clock); after that nothing reads it: seat 0's move plans the bot's turn, the bot's
    move the round end, and the round end, after which seat 0 is to act, plans nothing."""
    version = create_match(race_runner, "fx", 2, {1: "random"})
    reads: list[str] = []
    get_meta = store.get_meta
    monkeypatch.setattr(store, "get_meta", lambda match_id: reads.append(match_id) or get_meta(match_id))
    dispatch = Dispatch()
    reactor = _reactor(store, dispatch)
    reactor.follower.poll(">")
    assert reads == ["fx"] and dispatch.jobs == []  # create: seat 0 to act, read once
    wait(race_runner.submit("fx", Actor.of_seat(0), Roll(), version, "h0"))
    reactor.follower.poll(">")
    assert dispatch.jobs == [Job(JobKind.BOT, "fx", "race", version + 1, 1, "random", reply=True)]
    wait(
        race_runner.submit("fx", Actor.of_seat(1), Roll(), version + 1, "b1")
    )  # the round ends: a system step
    reactor.follower.poll(">")
    assert dispatch.jobs[-1] == Job(JobKind.SYSTEM, "fx", "race", version + 2)
    wait(race_runner.submit("fx", SYSTEM, EndRound(), version + 2, "s1"))  # then seat 0, a human, is to act
    reactor.follower.poll(">")
    assert reads == ["fx"] and len(dispatch.jobs) == 2  # read once in all, nothing planned last


def test_a_notice_a_later_one_of_the_same_page_superseded_plans_nothing(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    """Two appends of a clockless match read in one page: only the head's jobs are sent."""
    version = create_match(race_runner, "pg", 2, {1: "random"})
    dispatch = Dispatch()
    reactor = _reactor(store, dispatch)
    reactor.follower.poll(">")  # the create notice: its meta read and kept
    wait(race_runner.submit("pg", Actor.of_seat(0), Roll(), version, "h0"))  # the bot is to act ...
    wait(race_runner.submit("pg", Actor.of_seat(1), Roll(), version + 1, "b0"))  # ... and moved: a round end
    reactor.follower.poll(">")
    assert dispatch.jobs == [Job(JobKind.SYSTEM, "pg", "race", version + 2)]


@pytest.mark.parametrize("turn_seconds", [0, 30])
def test_a_bot_chain_s_held_append_plans_nothing_and_the_chain_goes_on(
    store: EventStore, race_runner: MatchRunner[Any], turn_seconds: int
) -> None:
    """A person and two bots, with or without a turn clock (the reactor's meta path), replies off (a
    reply is one move: chains start from the bots' own appends). The person's move plans the first
    bot's job. Its chain's first append, held, is read alone and plans nothing; the job, delivered
    again, finds the held head and plays the second bot, whose append plans the round end."""
    version = create_match(race_runner, "ch", 3, {1: "random", 2: "random"}, turn_seconds=turn_seconds)
    dispatch = Dispatch()
    reactor = _reactor(store, dispatch, settings=dataclasses.replace(SETTINGS, reply_first=False))
    reactor.follower.poll(">")
    wait(race_runner.submit("ch", Actor.of_seat(0), Roll(), version, "h0"))
    reactor.follower.poll(">")
    (job,) = dispatch.jobs
    assert job == Job(JobKind.BOT, "ch", "race", version + 1, 1, "random")
    first, label = bot_command_id("ch", job.version, 1), "bot:1:random"
    wait(race_runner.submit("ch", Actor.of_seat(1), Roll(), job.version, first, label, hold=lambda _: True))
    assert reactor.follower.poll(">") == 1 and dispatch.jobs == [job]  # held: nothing planned
    budget = Budget(seconds=1.0, iterations=20)
    assert play_bot_turn(race_runner, "ch", 1, job.version, job.level, budget, chain=4) is Result.APPLIED
    assert [e.actor for e in wait(store.read("ch", version + 2))] == ["bot:1:random", "bot:2:random"]
    reactor.follower.poll(">")
    assert dispatch.jobs == [job, Job(JobKind.SYSTEM, "ch", "race", version + 3)]


@pytest.mark.parametrize("turn_seconds", [0, 30])
def test_a_person_s_move_plans_a_one_move_reply_and_the_bot_s_own_move_an_ordinary_job(
    store: EventStore, race_runner: MatchRunner[Any], turn_seconds: int
) -> None:
    """A person and two bots, with or without a turn clock (the reactor's meta path). The person's
    move plans a reply for the first bot; the reply plays one move (its job's chain limit), whose
    append plans an ordinary job for the second bot."""
    version = create_match(race_runner, "rp", 3, {1: "random", 2: "random"}, turn_seconds=turn_seconds)
    dispatch = Dispatch()
    reactor = _reactor(store, dispatch)
    reactor.follower.poll(">")
    wait(race_runner.submit("rp", Actor.of_seat(0), Roll(), version, "h0"))
    reactor.follower.poll(">")
    (reply,) = dispatch.jobs
    assert reply == Job(JobKind.BOT, "rp", "race", version + 1, 1, "random", reply=True)
    *_, chain = reply.args()
    budget = Budget(seconds=1.0, iterations=20)
    assert play_bot_turn(race_runner, "rp", 1, reply.version, reply.level, budget, chain) is Result.APPLIED
    assert [e.actor for e in wait(store.read("rp", version + 2))] == ["bot:1:random"]  # one move, not held
    reactor.follower.poll(">")
    assert dispatch.jobs[1:] == [Job(JobKind.BOT, "rp", "race", version + 2, 2, "random")]


def test_with_replies_off_a_person_s_move_plans_an_ordinary_job(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    version = create_match(race_runner, "ro", 2, {1: "random"})
    dispatch = Dispatch()
    reactor = _reactor(store, dispatch, settings=dataclasses.replace(SETTINGS, reply_first=False))
    reactor.follower.poll(">")
    wait(race_runner.submit("ro", Actor.of_seat(0), Roll(), version, "h0"))
    reactor.follower.poll(">")
    assert dispatch.jobs == [Job(JobKind.BOT, "ro", "race", version + 1, 1, "random")]


def test_a_notice_written_before_progress_was_recorded_is_planned_from_the_state(
    redis_client: redis.Redis, env: dict[str, str]
) -> None:
    """On Redis, where such notices were written."""
    store, game = RedisEventStore(redis_client), load_game("race")
    race_runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, store)
    version = create_match(race_runner, "old", 2, {0: "random"})
    outbox = store.outbox_key(shard_of("old", store.shards))
    store.client.delete(outbox)  # replace the notice with one of the old format, and the meta too
    store.client.hdel(store._key("old", "meta"), *PROGRESS_KEYS)
    store.client.xadd(outbox, {"match": "old", "first": 1, "last": version, "types": "X", "game": "race"})
    asked: list[str] = []

    def runners(game: str) -> MatchRunner[Any]:
        asked.append(game)
        return race_runner

    dispatch = Dispatch()
    _reactor(store, dispatch, runners).follower.poll(">")
    assert asked == ["race"]  # the state is loaded once, through the registry's runner
    assert dispatch.jobs == [Job(JobKind.BOT, "old", "race", version, 0, "random")]


def test_a_restarted_reactor_handles_what_it_read_but_never_acknowledged(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "r2", 2, {0: "greedy"})
    crashed = Dispatch(failures=1)
    _reactor(store, crashed).follower.poll(">")  # read, failed, left pending
    assert crashed.jobs == []
    restarted = Dispatch()
    assert _reactor(store, restarted).follower.recover_pending() == 1
    assert [j.match_id for j in restarted.jobs] == ["r2"]


def test_a_notice_that_keeps_failing_goes_to_the_dead_letter_stream(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "r3", 2, {0: "greedy"})
    dispatch = Dispatch(failures=100)
    reactor = _reactor(store, dispatch)
    reactor.follower.poll(">")
    for _ in range(3):
        reactor.follower.reclaim()
    shard, groups = shard_of("r3", store.shards), store.outbox_groups()
    dead = groups.dead_letters(shard)
    assert [(fields["match"], fields["group"]) for fields in dead] == [("r3", GROUP)]
    assert groups.pending(shard, GROUP) == 0


def test_a_crashed_consumer_s_entries_are_claimed_by_another(
    store: EventStore, race_runner: MatchRunner[Any]
) -> None:
    create_match(race_runner, "r4", 2, {0: "random"})
    _reactor(store, Dispatch(failures=1)).follower.poll(">")
    other = Dispatch()
    survivor = _reactor(store, other, consumer="reactor-survivor")
    assert survivor.follower.reclaim() == 1
    assert [j.match_id for j in other.jobs] == ["r4"]


def test_a_superseded_notice_enqueues_nothing(store: EventStore, race_runner: MatchRunner[Any]) -> None:
    version = create_match(race_runner, "r5", 2, {0: "random"})
    wait(race_runner.submit("r5", Actor.of_seat(0), Roll(), version, "a"))
    dispatch = Dispatch()
    # the roll left a person to act (nobody signed in, no clock): quiet, so only the create notice
    assert _reactor(store, dispatch).follower.poll(">") == 1
    assert dispatch.jobs == []  # the create notice is superseded: its bot seat has moved since


@pytest.mark.parametrize("count", [1, 2, 3])
def test_reactor_instances_read_only_their_own_shards(store: EventStore, count: int) -> None:
    settings = [dataclasses.replace(SETTINGS, reactor_index=i, reactor_count=count) for i in range(count)]
    reactors = [Reactor(store, NoGameCode(), Dispatch(), s) for s in settings]
    keys = [set(r.follower.keys) for r in reactors]
    assert sorted(k for ks in keys for k in ks) == sorted(store.outbox_key(s) for s in range(store.shards))
    assert {r.follower.settings.consumer for r in reactors} == {f"reactor-{i}" for i in range(count)}
