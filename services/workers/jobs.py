"""The work behind each Celery task, as plain functions over a :class:`MatchRunner`.

Each one is idempotent: it loads the match, returns early when the work is already done
(the version moved on, the actor is no longer to act, the match is over), calls pure code,
and appends with the expected version and a deterministic command id. A redelivered task
therefore changes nothing: either the version moved (stale) or the command id is known
(duplicate). Workers are inside the trust boundary and append straight to the event store.

The runner and the store are reached through the sync edge (``shared.runtime.edge.wait``), one call
at a time; the bots' moves are computed here, in the task's thread.

A Redis error is never caught here: it reaches the task, whose retry (``celery_app.RETRY``, every
error of ``shared.serving.errors.STORE_UNAVAILABLE``) runs the job again with the same ids, so the same
command id, and the store's dedupe makes a retry after an append that did land a duplicate.
"""

from __future__ import annotations

import enum
import logging
from typing import Any

from services.workers.bots import Budget, bot_rng, make_bot
from services.workers.planner import STAND_IN_LEVEL, chained_seat
from shared.core.decider import SYSTEM, Actor
from shared.matches.runner import HeadMoved, Hold, Loaded, MatchRunner, Submitted, progress_of
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.store import MatchMeta, Progress, VersionConflict

log = logging.getLogger(__name__)
TIMEOUT_LEVEL = STAND_IN_LEVEL


class Result(enum.StrEnum):
    APPLIED = "applied"
    DUPLICATE = "duplicate"  # this command id was applied before
    STALE = "stale"  # the match moved on since the job was planned
    NOT_TO_ACT = "not_to_act"
    FINISHED = "finished"


def bot_command_id(match_id: str, version: int, seat: int) -> str:
    return f"bot:{match_id}:{version}:{seat}"


def system_command_id(match_id: str, version: int) -> str:
    return f"system:{match_id}:{version}"


def timeout_command_id(match_id: str, version: int, seat: int) -> str:
    return f"timeout:{match_id}:{version}:{seat}"


def _check(runner: MatchRunner[Any], match_id: str, version: int, actor: Actor) -> Loaded[Any] | Result:
    try:
        loaded = wait(runner.load(match_id, expect=version))
    except HeadMoved as moved:  # told by the meta: nothing folded
        return Result.FINISHED if moved.finished else Result.STALE
    if runner.outcome(loaded.state, loaded.seating) is not None:
        return Result.FINISHED
    if loaded.version != version:
        return Result.STALE
    if actor not in runner.rules.to_act(loaded.state):
        return Result.NOT_TO_ACT
    return loaded


def _submit(
    runner: MatchRunner[Any],
    match_id: str,
    actor: Actor,
    command: Any,
    version: int,
    command_id: str,
    label: str,
    hold: Hold | None = None,
) -> Result | Submitted[Any]:
    """The append's outcome: the submitted command, or why nothing was written."""
    try:
        done = wait(runner.submit(match_id, actor, command, version, command_id, label, hold))
    except VersionConflict:
        return Result.STALE  # someone else moved between our load and our append
    return Result.DUPLICATE if done.duplicate else done


def _result(outcome: Result | Submitted[Any]) -> Result:
    return outcome if isinstance(outcome, Result) else Result.APPLIED


def _bot_move(runner: MatchRunner[Any], loaded: Loaded[Any], seat: int, level: str, budget: Budget) -> Any:
    bot = make_bot(runner.rules.game, level, budget)
    rng = bot_rng(loaded.meta.seed, loaded.version, seat)
    return bot.choose(runner.rules, loaded.state, seat, loaded.meta.seats, rng)


def play_bot_turn(
    runner: MatchRunner[Any],
    match_id: str,
    seat: int,
    version: int,
    level: str,
    budget: Budget,
    chain: int = 1,
) -> Result:
    """A bot seat's move at ``version``; the first move's result.

    A bot chain: up to ``chain`` moves in all, while a move leaves one bot seat alone to act (no
    system step, nobody else), this job plays that seat's move too, on the state it just made, with
    no task, no reactor and no load in between. Each such append is recorded as held
    (``Progress.held``), so the reactor plans no job for it; the chain's last move is not held and is
    planned as usual. A job that finds its match moved on to a held head (its own chain retried or
    redelivered after an append landed) plays the chain on from there: deterministic command ids
    keep any race between two such jobs to one append per version. If the chain stops for good (its
    worker lost), the sweeper plans the held head like any other stalled one.
    """
    checked = _check(runner, match_id, version, Actor.of_seat(seat))
    resumed = checked is Result.STALE and _held_head(runner, match_id)
    if resumed:
        checked, seat = resumed
    if isinstance(checked, Result):
        return checked
    levels = checked.meta.bots
    level = levels[seat] if resumed else level

    def holds(progress: Progress) -> bool:
        return chained_seat(progress, levels) is not None

    loaded, moves, results = checked, max(chain, 1), []
    for move in range(moves):
        last = move == moves - 1
        command = _bot_move(runner, loaded, seat, level, budget)
        command_id, label = bot_command_id(match_id, loaded.version, seat), f"bot:{seat}:{level}"
        actor, hold = Actor.of_seat(seat), None if last else holds
        done = _submit(runner, match_id, actor, command, loaded.version, command_id, label, hold)
        results.append(_result(done))
        if last or isinstance(done, Result):
            break
        following = chained_seat(progress_of(runner.rules, done.state), levels)
        if following is None:
            break
        seat, level, loaded = following, levels[following], Loaded(done.state, done.last_version, loaded.meta)
    return results[0]


def _held_head(runner: MatchRunner[Any], match_id: str) -> tuple[Loaded[Any], int] | None:
    """The match's head and the bot seat to play, if the head is held (a chain to go on with). The
    meta says whether it is, so a stale job folds nothing unless it goes on with a chain."""
    progress = MatchMeta.of(wait(runner.store.get_meta(match_id))).progress
    if progress is None or not progress.held:
        return None
    loaded = wait(runner.load(match_id))
    progress = loaded.meta.progress
    if progress is None or not progress.held or loaded.meta.head != loaded.version:
        return None
    seat = chained_seat(progress, loaded.meta.bots)
    return None if seat is None else (loaded, seat)


def apply_system_step(runner: MatchRunner[Any], match_id: str, version: int) -> Result:
    """The pending round, period or game end: the rules list the one system step and do the work."""
    checked = _check(runner, match_id, version, SYSTEM)
    if isinstance(checked, Result):
        return checked
    legal = runner.rules.legal_commands(checked.state, SYSTEM)
    command_id = system_command_id(match_id, version)
    return _result(_submit(runner, match_id, SYSTEM, legal[0], version, command_id, str(SYSTEM)))


def expire_turn(runner: MatchRunner[Any], match_id: str, seat: int, version: int, budget: Budget) -> Result:
    """The seat's clock ran out at ``version``: a greedy bot plays the turn and the seat is marked away.

    The away mark is set only once the timeout move is in the log (checked by its command id),
    so a player who moved just in time is never marked, and a redelivery still sets it.
    """
    command_id = timeout_command_id(match_id, version, seat)
    if wait(runner.store.command_result(match_id, command_id)) is not None:
        _mark_away(runner, match_id, seat)
        return Result.DUPLICATE
    checked = _check(runner, match_id, version, Actor.of_seat(seat))
    if isinstance(checked, Result):
        return checked
    command = _bot_move(runner, checked, seat, TIMEOUT_LEVEL, budget)
    label = f"timeout:{seat}:{TIMEOUT_LEVEL}"
    result = _result(_submit(runner, match_id, Actor.of_seat(seat), command, version, command_id, label))
    if result in (Result.APPLIED, Result.DUPLICATE):
        _mark_away(runner, match_id, seat)
    return result


def _mark_away(runner: MatchRunner[Any], match_id: str, seat: int) -> None:
    wait(runner.store.set_meta(match_id, MatchMeta.away_marks([seat], True)))
    log.info("seat marked away", extra=log_fields(match_id=match_id, seat=seat))
