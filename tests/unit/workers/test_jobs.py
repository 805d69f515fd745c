"""The idempotent jobs behind the Celery tasks: a second delivery changes nothing."""

from __future__ import annotations

from typing import Any

from services.workers.bots import Budget
from services.workers.jobs import Result, apply_system_step, bot_command_id, expire_turn, play_bot_turn
from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import shard_of
from tests.support.race.rules import Roll
from tests.unit.workers.conftest import create, make_runner

BUDGET = Budget(seconds=1.0, iterations=20)


def test_a_bot_turn_is_applied_once(runner: MatchRunner[Any]) -> None:
    version = create(runner, bots={"0": "greedy"})
    assert play_bot_turn(runner, "m1", 0, version, "greedy", BUDGET) is Result.APPLIED
    after = wait(runner.store.version("m1"))
    assert play_bot_turn(runner, "m1", 0, version, "greedy", BUDGET) is Result.STALE
    assert wait(runner.store.version("m1")) == after
    assert wait(runner.store.read("m1", after))[0].actor == "bot:0:greedy"


def _held(runner: MatchRunner[Any]) -> list[tuple[str, bool]]:
    """(actor of the append, whether its notice is held), for every append after the match's creation."""
    notices = wait(runner.store.read_outbox(shard_of("m1", runner.store.shards)))[1:]
    out = []
    for notice in notices:
        (event,) = wait(runner.store.read("m1", notice.first_version, notice.last_version))
        assert notice.progress is not None
        out.append((event.actor, notice.progress.held))
    return out


def test_a_bot_chain_plays_each_bot_seat_alone_to_act_in_one_job(runner: MatchRunner[Any]) -> None:
    """Three bots in a row: one job plays all three, holding the first two appends (nobody plans the
    next move); the third leaves a round end, a system step, to the reactor. Each move is the one its
    own job would have played (the bot's RNG depends on the match, the version and the seat only)."""
    bots = {"0": "random", "1": "random", "2": "greedy"}
    version = create(runner, seats=3, bots=bots)
    assert play_bot_turn(runner, "m1", 0, version, "random", BUDGET, chain=4) is Result.APPLIED
    assert _held(runner) == [("bot:0:random", True), ("bot:1:random", True), ("bot:2:greedy", False)]
    assert wait(runner.store.get_meta("m1"))["system"] == "1"
    one_by_one = make_runner()
    create(one_by_one, seats=3, bots=bots)
    for seat, level in enumerate(bots.values()):
        assert play_bot_turn(one_by_one, "m1", seat, version + seat, level, BUDGET) is Result.APPLIED
    assert [e.payload for e in wait(one_by_one.store.read("m1"))] == [
        e.payload for e in wait(runner.store.read("m1"))
    ]


def test_a_bot_chain_stops_at_its_length_with_an_append_the_reactor_plans(runner: MatchRunner[Any]) -> None:
    version = create(runner, seats=3, bots={"0": "random", "1": "random", "2": "random"})
    assert play_bot_turn(runner, "m1", 0, version, "random", BUDGET, chain=2) is Result.APPLIED
    assert _held(runner) == [("bot:0:random", True), ("bot:1:random", False)]
    assert wait(runner.store.get_meta("m1"))["to_act"] == "2"


def test_a_bot_chain_stops_before_a_person(runner: MatchRunner[Any]) -> None:
    version = create(runner, seats=3, bots={"0": "random", "2": "random"}, players=["", "p1", ""])
    assert play_bot_turn(runner, "m1", 0, version, "random", BUDGET, chain=4) is Result.APPLIED
    assert _held(runner) == [("bot:0:random", False)]


def test_a_bot_chain_stopping_before_a_person_nobody_signed_in_for_writes_no_notice(
    runner: MatchRunner[Any],
) -> None:
    version = create(runner, seats=3, bots={"0": "random", "2": "random"})
    assert play_bot_turn(runner, "m1", 0, version, "random", BUDGET, chain=4) is Result.APPLIED
    assert _held(runner) == []  # no follower acts on it (``shared.store.quiet``)
    meta = wait(runner.store.get_meta("m1"))
    assert (meta["to_act"], meta["held"], meta["version"]) == ("1", "0", str(version + 1))


def test_a_job_finding_its_chain_held_plays_it_on(runner: MatchRunner[Any]) -> None:
    """The chain's first append landed, then its worker was lost (or the task retried): the job,
    delivered again, finds the match moved on to a held head and plays the chain from there."""
    version = create(runner, seats=3, bots={"0": "random", "1": "random", "2": "random"})
    command = runner.rules.legal_commands(wait(runner.load("m1")).state, Actor.of_seat(0))[0]
    first = bot_command_id("m1", version, 0)
    wait(runner.submit("m1", Actor.of_seat(0), command, version, first, "bot:0:random", hold=lambda _: True))
    assert play_bot_turn(runner, "m1", 0, version, "random", BUDGET, chain=4) is Result.APPLIED
    assert [actor for actor, _ in _held(runner)] == ["bot:0:random", "bot:1:random", "bot:2:random"]
    assert play_bot_turn(runner, "m1", 0, version, "random", BUDGET, chain=4) is Result.STALE  # not held now


def test_a_bot_job_for_a_seat_not_to_act_does_nothing(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    assert play_bot_turn(runner, "m1", 1, version, "random", BUDGET) is Result.NOT_TO_ACT
    assert wait(runner.store.version("m1")) == version


def test_the_system_step_ends_the_round_once(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))
    pending = version + 2
    assert apply_system_step(runner, "m1", pending) is Result.APPLIED
    assert wait(runner.store.read("m1", pending + 1))[0].type == "RoundEnded"
    assert apply_system_step(runner, "m1", pending) is Result.STALE
    assert wait(runner.store.version("m1")) == pending + 1


def test_no_system_step_while_seats_are_to_act(runner: MatchRunner[Any]) -> None:
    version = create(runner)
    assert apply_system_step(runner, "m1", version) is Result.NOT_TO_ACT


def test_a_clock_that_runs_out_plays_the_turn_and_marks_the_seat_away(runner: MatchRunner[Any]) -> None:
    version = create(runner, turn_seconds=10)
    assert expire_turn(runner, "m1", 0, version, BUDGET) is Result.APPLIED
    assert wait(runner.store.get_meta("m1"))["away:0"] == "1"
    assert wait(runner.store.read("m1", version + 1))[0].actor == "timeout:0:greedy"
    wait(runner.store.set_meta("m1", {"away:0": "0"}))
    assert expire_turn(runner, "m1", 0, version, BUDGET) is Result.DUPLICATE  # redelivered: mark, no move
    assert (
        wait(runner.store.version("m1")) == version + 1 and wait(runner.store.get_meta("m1"))["away:0"] == "1"
    )


def test_a_player_who_moved_in_time_is_not_marked_away(runner: MatchRunner[Any]) -> None:
    version = create(runner, turn_seconds=10)
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "human"))
    assert expire_turn(runner, "m1", 0, version, BUDGET) is Result.STALE
    assert "away:0" not in wait(runner.store.get_meta("m1"))


def test_jobs_on_a_finished_match_do_nothing(runner: MatchRunner[Any]) -> None:
    version = create(runner, goal="1")
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    assert play_bot_turn(runner, "m1", 1, version + 1, "random", BUDGET) is Result.FINISHED


class CountingEvolve:
    """The runner's rules with their ``evolve`` calls counted: how much a job folded."""

    def __init__(self, runner: MatchRunner[Any]) -> None:
        self.calls, evolve = 0, runner.rules.evolve

        def counted(state: Any, event: Any) -> Any:
            self.calls += 1
            return evolve(state, event)

        runner.rules.evolve = counted  # type: ignore[method-assign]


def test_a_stale_job_learns_it_from_the_meta_and_folds_nothing(runner: MatchRunner[Any]) -> None:
    version = create(runner, bots={"0": "greedy", "1": "greedy"})
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))  # the cached state is at the head
    fresh = make_runner()  # a worker that never saw the match: nothing cached
    fresh.store = runner.store
    for worker in (runner, fresh):
        folds = CountingEvolve(worker)
        assert play_bot_turn(worker, "m1", 0, version, "greedy", BUDGET) is Result.STALE
        assert apply_system_step(worker, "m1", version + 1) is Result.STALE
        assert expire_turn(worker, "m1", 1, version + 1, BUDGET) is Result.STALE
        assert folds.calls == 0
    assert apply_system_step(fresh, "m1", version + 2) is Result.APPLIED  # at the head: folded, played


def test_a_job_at_an_old_version_of_a_finished_match_is_told_finished_by_the_meta(
    runner: MatchRunner[Any],
) -> None:
    version = create(runner, goal="1")
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))
    fresh = make_runner()  # nothing cached: a full load would fold the whole log
    fresh.store = runner.store
    folds = CountingEvolve(fresh)
    assert apply_system_step(fresh, "m1", version) is Result.FINISHED
    assert play_bot_turn(fresh, "m1", 0, version, "random", BUDGET) is Result.FINISHED
    assert folds.calls == 0
