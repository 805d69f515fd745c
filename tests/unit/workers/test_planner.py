"""What the reactor enqueues for a match at its head, planned from the recorded progress alone."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from services.workers.planner import (
    BOT_PRIORITY,
    REPLY_PRIORITY,
    Fixed,
    Job,
    JobKind,
    batches,
    chained_seat,
    latest,
    needs_nothing,
    plan,
    plan_fixed,
    plan_head,
    reply_after,
    seats_back,
)
from shared.core.decider import Actor, Outcome
from shared.runtime.edge import wait
from shared.store import MatchMeta, MatchStatus, MemoryEventStore, NewEvent, Progress, StoredEvent, shard_of
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import Roll

ACTIVE = MatchStatus.ACTIVE


def fields(
    bots: Mapping[int, str] | None = None, turn_seconds: int = 0, away: tuple[int, ...] = ()
) -> dict[str, str]:
    """A match's stored meta hash with these bots, clock and away marks."""
    plain = {str(seat): level for seat, level in (bots or {}).items()}
    marks = {f"away:{seat}": "1" for seat in away}
    return {"game": "race", "bots": json.dumps(plain), "turn_seconds": str(turn_seconds), **marks}


def meta(
    bots: Mapping[int, str] | None = None, turn_seconds: int = 0, away: tuple[int, ...] = ()
) -> MatchMeta:
    return MatchMeta.from_fields(fields(bots, turn_seconds, away))


def test_a_bot_seat_to_act_gets_a_bot_job() -> None:
    jobs = plan(Progress((0,), False, ACTIVE), 3, meta({0: "greedy"}), "m1", 5)
    assert jobs == [Job(JobKind.BOT, "m1", "race", 3, 0, "greedy")]


def test_a_pending_system_step_gets_one_scoring_job() -> None:
    (job,) = plan(Progress((), True, ACTIVE), 9, meta({0: "greedy", 1: "mcts"}), "m1", 5)
    assert (job.kind, job.queue, job.task_name) == (JobKind.SYSTEM, "scoring", "tabula.system_step")
    assert job.args() == ["m1", "race", 9]


def test_a_human_seat_with_a_clock_gets_a_timer_due_when_it_runs_out() -> None:
    jobs = plan(Progress((1,), False, ACTIVE), 4, meta(turn_seconds=30), "m1", 5)
    assert jobs == [Job(JobKind.TIMER, "m1", "race", 4, 1, countdown=30.0)]


def test_an_away_seat_gets_the_short_clock() -> None:
    progress = Progress((0, 1), False, ACTIVE)
    jobs = plan(progress, 4, meta(turn_seconds=30, away=(0,)), "m1", away_seconds=4)
    assert [(j.seat, j.countdown) for j in jobs] == [(0, 4.0), (1, 30.0)]


def test_every_seat_to_act_at_once_gets_its_job() -> None:
    progress = Progress((0, 1, 2), False, ACTIVE)
    jobs = plan(progress, 7, meta({0: "random", 2: "mcts"}, turn_seconds=20), "m1", 5)
    assert [(j.kind, j.seat) for j in jobs] == [(JobKind.BOT, 0), (JobKind.TIMER, 1), (JobKind.BOT, 2)]


def test_a_held_notice_needs_no_bot_job_and_its_stalled_head_is_planned_as_any() -> None:
    """The worker that wrote a held append plays on (a bot chain); the sweeper, which looks only at a
    match that made no progress for a while, plans the head whether held or not."""
    held = Progress((1,), False, ACTIVE, held=True)
    assert Progress.parse(held.fields()) == held and held.fields()["held"] == "1"
    assert plan(held, 5, meta({1: "random"}), "m1", 5) == []
    assert plan(dataclasses.replace(held, held=False), 5, meta({1: "random"}), "m1", 5) != []
    head = {**fields({1: "random"}), **held.fields(), "version": "5"}
    assert plan_head(MatchMeta.from_fields(head), "m1", 5) == [Job(JobKind.BOT, "m1", "race", 5, 1, "random")]


def test_progress_written_before_the_held_flag_is_not_held() -> None:
    fields = Progress((1,), False, ACTIVE).fields()
    del fields["held"]
    assert Progress.parse(fields) == Progress((1,), False, ACTIVE, held=False)


def test_a_chain_goes_on_only_to_a_bot_seat_alone_to_act() -> None:
    levels = {1: "random", 2: "mcts"}
    assert chained_seat(Progress((1,), False, ACTIVE), levels) == 1
    assert chained_seat(Progress((2,), False, ACTIVE), levels) == 2
    assert chained_seat(Progress((0,), False, ACTIVE), levels) is None  # a person
    assert chained_seat(Progress((1, 2), False, ACTIVE), levels) is None  # seats at once: a job each
    assert chained_seat(Progress((), True, ACTIVE), levels) is None  # a system step
    assert chained_seat(Progress((1,), True, ACTIVE), levels) is None
    done = Progress((), False, MatchStatus.FINISHED, Outcome((1, 2, 3), (3, 2, 1)))
    assert chained_seat(done, levels) is None


def test_a_human_seat_without_a_clock_needs_nothing() -> None:
    assert plan(Progress((0,), False, ACTIVE), 3, meta(), "m1", 5) == []


def test_a_finished_match_needs_nothing() -> None:
    done = Progress((), False, MatchStatus.FINISHED, Outcome((3, 9), (2, 1)))
    assert plan(done, 12, meta({0: "random", 1: "random"}, turn_seconds=30), "m1", 5) == []


def test_task_ids_are_deterministic() -> None:
    job = Job(JobKind.BOT, "m1", "race", 5, 2, "mcts")
    assert job.task_id == "bot:m1:5:2" and job.args() == ["m1", "race", 2, 5, "mcts"]


def test_a_reply_is_one_move_taken_before_other_bot_jobs_and_only_bot_jobs_have_a_priority() -> None:
    reply = Job(JobKind.BOT, "m1", "race", 5, 2, "mcts", reply=True)
    other = dataclasses.replace(reply, reply=False)
    assert reply.args() == ["m1", "race", 2, 5, "mcts", 1]  # the worker's chain limit: one move
    assert reply.task_id == other.task_id  # the same work, whichever way it was planned
    assert (reply.priority, other.priority) == (REPLY_PRIORITY, BOT_PRIORITY)
    assert REPLY_PRIORITY < BOT_PRIORITY  # kombu's Redis transport takes the lower first
    assert Job(JobKind.SYSTEM, "m1", "race", 5).priority is None
    assert Job(JobKind.TIMER, "m1", "race", 5, 0, countdown=3.0).priority is None


def test_bot_jobs_after_a_person_s_move_or_a_system_step_are_replies() -> None:
    assert reply_after("seat:0") and reply_after("seat:3") and reply_after("system")
    assert not reply_after("bot:1:random") and not reply_after("timeout:0:greedy") and not reply_after("")
    progress, bots = Progress((1, 2), False, ACTIVE), meta({1: "random", 2: "greedy"})
    assert [job.reply for job in plan(progress, 7, bots, "m1", 5, reply=True)] == [True, True]
    assert [job.reply for job in plan(progress, 7, bots, "m1", 5)] == [False, False]
    clocked = meta({1: "random"}, turn_seconds=30)
    (timer, bot) = plan(Progress((0, 1), False, ACTIVE), 7, clocked, "m1", 5, reply=True)
    assert (timer.kind, timer.reply, bot.reply) == (JobKind.TIMER, False, True)  # only bot jobs reply


def test_a_seat_command_from_an_away_seat_brings_it_back() -> None:
    away = MatchMeta.from_fields({"away:1": "1", "away:0": "0"})
    human = StoredEvent(9, "DieRolled", b"", "public", "c", "seat:1", 0, 1)
    bot = StoredEvent(9, "DieRolled", b"", "public", "c", "timeout:1:greedy", 0, 1)
    assert seats_back(away, [human]) == {1}
    assert seats_back(away, [bot]) == set()


def test_the_runner_s_notices_plan_a_whole_turn_cycle() -> None:
    """The notices a real runner writes are all the planner needs: bot, then system, then bot."""
    from shared.matches.runner import MatchRunner

    rules: Any = race_rules()
    store = MemoryEventStore()
    runner: MatchRunner[Any] = MatchRunner(
        rules, JsonCodec([*rules.command_types, *rules.event_types]), store
    )
    extra = fields({1: "greedy"})
    version = wait(runner.create("m1", 2, {"goal": "50"}, seed=4, extra_meta=extra)).version
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))  # a human seat moves; seat 1 is a bot
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))
    kinds, typed = [], MatchMeta.from_fields(extra)
    for notice in wait(store.read_outbox(shard_of("m1", store.shards))):
        assert notice.progress is not None
        kinds += [
            (j.kind, j.version, j.seat) for j in plan(notice.progress, notice.last_version, typed, "m1", 5)
        ]
    assert kinds == [(JobKind.BOT, version + 1, 1), (JobKind.SYSTEM, version + 2, -1)]


def test_a_bare_append_has_no_progress_to_plan_from() -> None:
    store = MemoryEventStore()
    wait(store.append("m1", 0, [NewEvent("RaceStarted", b"{}")], "c1", meta=fields()))
    (notice,) = wait(store.read_outbox(shard_of("m1", store.shards)))
    assert notice.progress is None  # the reactor then folds the state once (test_reactor)


def test_a_page_s_jobs_go_out_per_queue_in_as_few_even_loads_as_the_size_allows() -> None:
    bots = [Job(JobKind.BOT, f"m{i}", "race", 3, 1, "random") for i in range(9)]
    system = Job(JobKind.SYSTEM, "s1", "race", 4)
    loads = batches([bots[0], system, *bots[1:]], 4)
    assert [(queue, len(load)) for queue, load in loads] == [
        ("bots", 3),
        ("bots", 3),
        ("bots", 3),
        ("scoring", 1),
    ]
    assert sorted(job.match_id for _, load in loads for job in load) == sorted(
        j.match_id for j in [*bots, system]
    )
    assert [load for _, load in loads[:3]] == [bots[0::3], bots[1::3], bots[2::3]]  # each in page order
    assert batches(bots[:1], 4) == [("bots", bots[:1])] and batches([], 4) == []
    assert [len(load) for _, load in batches(bots, 1)] == [1] * 9  # size 1: a task per job, as before


def test_replies_and_other_bot_jobs_never_share_a_load() -> None:
    """A load is one message with one priority: replies go in loads of their own."""
    jobs = [Job(JobKind.BOT, f"m{i}", "race", 3, 1, "random", reply=i % 3 == 0) for i in range(9)]
    loads = batches(jobs, 4)
    assert [(queue, [job.reply for job in load]) for queue, load in loads] == [
        ("bots", [True, True, True]),
        ("bots", [False, False, False]),
        ("bots", [False, False, False]),
    ]


def test_only_a_clockless_match_with_no_bot_and_no_system_step_to_act_needs_nothing() -> None:
    fixed = Fixed.of(MatchMeta.from_fields({"bots": json.dumps({"1": "random"}), "turn_seconds": "0"}))
    assert fixed == Fixed(frozenset({1}), 0, "", ((1, "random"),))
    assert needs_nothing(Progress((0,), False, MatchStatus.ACTIVE), fixed)
    assert needs_nothing(Progress((), False, MatchStatus.FINISHED), fixed)
    assert not needs_nothing(Progress((0, 1), False, MatchStatus.ACTIVE), fixed)  # the bot may act
    assert not needs_nothing(Progress((), True, MatchStatus.ACTIVE), fixed)  # a round end
    clocked = Fixed.of(MatchMeta.from_fields({"turn_seconds": "60"}))
    assert not needs_nothing(Progress((0,), False, MatchStatus.ACTIVE), clocked)  # a clock to set


def test_a_clockless_match_is_planned_from_its_fixed_meta_as_from_its_meta() -> None:
    full = meta({1: "random", 3: "mcts"})
    fixed = Fixed.of(MatchMeta.from_fields({**full.fields(), "version": "40", "to_act": "1"}))
    assert (fixed.game, fixed.levels, fixed.turn_seconds) == ("race", ((1, "random"), (3, "mcts")), 0)
    for progress in (
        Progress((1, 3), False, ACTIVE),
        Progress((), True, ACTIVE),
        Progress((0,), False, ACTIVE),
    ):
        assert plan_fixed(progress, 41, "m1", fixed) == plan(progress, 41, full, "m1", 5)


def test_jobs_a_later_append_of_the_page_superseded_are_dropped() -> None:
    old = Job(JobKind.BOT, "m1", "race", 3, 1, "random")
    head = [Job(JobKind.BOT, "m1", "race", 5, 1, "random"), Job(JobKind.BOT, "m1", "race", 5, 2, "random")]
    other = Job(JobKind.SYSTEM, "m2", "race", 2)
    assert latest([old, other, *head]) == [other, *head]  # both seats acting at once stay, in order
    assert latest([other]) == [other] and latest([]) == []
