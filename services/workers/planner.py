"""What a match needs from the workers at its head: pure decisions from progress and meta.

The reactor calls :func:`plan` for each outbox notice that is still the head of its match,
with the :class:`~shared.store.Progress` the runner recorded with that append (seats to act,
system step pending, status): a pending system step becomes a ``scoring`` job, a bot seat to
act a ``bots`` job, a human seat to act (with a turn clock) a ``timers`` job due when the
clock runs out. No game code is needed. What is read of the meta (``shared.store.MatchMeta``) is the
platform's: the game, the bot seats, the turn clock and the seats marked away.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from typing import Any

from shared.store import MatchMeta, MatchStatus, Progress, StoredEvent


class JobKind(enum.StrEnum):
    BOT = "bot"
    SYSTEM = "system"
    TIMER = "timer"


QUEUE = {JobKind.BOT: "bots", JobKind.SYSTEM: "scoring", JobKind.TIMER: "timers"}
TASK = {
    JobKind.BOT: "tabula.bot_turn",
    JobKind.SYSTEM: "tabula.system_step",
    JobKind.TIMER: "tabula.turn_timeout",
}
BATCH_TASK = "tabula.jobs"  # several jobs of one queue in one task (see ``batches``)
# The order kombu's Redis transport takes a queue's messages in: priority 0 first, then 3, 6, 9 (its
# priority steps); a message without one counts as 0.
STAND_IN_LEVEL = "greedy"  # the bot that plays a seat whose turn clock ran out, or that resigned
REPLY_PRIORITY = 0  # a bot's first move after a person's (a reply): taken before other bot jobs
BOT_PRIORITY = 3  # every other bot job


@dataclass(frozen=True, slots=True)
class Job:
    kind: JobKind
    match_id: str
    game: str
    version: int
    seat: int = -1
    level: str = ""
    countdown: float = 0.0
    reply: bool = False  # answering a person's move (``reply_after``): one move, taken first (``priority``)

    @property
    def task_id(self) -> str:
        """Deterministic, so a re-enqueued job is recognisable in logs and results."""
        return f"{self.kind}:{self.match_id}:{self.version}:{self.seat}"

    @property
    def queue(self) -> str:
        return QUEUE[self.kind]

    @property
    def task_name(self) -> str:
        return TASK[self.kind]

    @property
    def priority(self) -> int | None:
        """Its message's priority in its queue: bot jobs only (the other queues hold one kind)."""
        if self.kind is not JobKind.BOT:
            return None
        return REPLY_PRIORITY if self.reply else BOT_PRIORITY

    def args(self) -> list[Any]:
        match self.kind:
            case JobKind.BOT:
                # a reply plays one move (its chain limit): the rest of the turn is a job of its own
                reply = [1] if self.reply else []
                return [self.match_id, self.game, self.seat, self.version, self.level, *reply]
            case JobKind.SYSTEM:
                return [self.match_id, self.game, self.version]
            case JobKind.TIMER:
                return [self.match_id, self.game, self.seat, self.version]


def batches(jobs: Sequence[Job], size: int) -> list[tuple[str, list[Job]]]:
    """``jobs`` as (queue, jobs) task loads: the jobs of each queue and priority, in order, split into
    as few loads of at most ``size`` as there can be, their sizes at most one apart. One job is one load
    (sent as its own task); many, as under load, cost one broker message and one task per load instead
    of per job, while several loads still keep several worker processes busy."""
    by_queue: dict[tuple[str, int | None], list[Job]] = {}
    for job in jobs:
        by_queue.setdefault((job.queue, job.priority), []).append(job)
    out = []
    for (queue, _), queued in by_queue.items():
        loads = -(-len(queued) // max(size, 1))
        out += [(queue, queued[i::loads]) for i in range(loads)]
    return out


def reply_after(actor: str) -> bool:
    """Whether the bot jobs planned after an append by ``actor`` (its label) are replies: after a
    person's move (``seat:N``), and after a system step (``system``), which the rules may take between
    a person's move and the bots' (a round's end), itself a job of the first tier (the scoring queue's
    messages have no priority). Not after a bot's move (``bot:N:level``) or a turn timeout's
    (``timeout:N:level``), whose player is away."""
    return actor.startswith("seat:") or actor == "system"


@dataclass(frozen=True, slots=True)
class Fixed:
    """What a match's meta says once, at its creation: its game, its bots and its turn clock."""

    bots: frozenset[int]
    turn_seconds: int
    game: str = ""
    levels: tuple[tuple[int, str], ...] = ()  # (seat, bot level), by seat

    @staticmethod
    def of(meta: MatchMeta) -> Fixed:
        levels = meta.bots
        return Fixed(frozenset(levels), meta.turn_seconds, meta.game, tuple(sorted(levels.items())))


def needs_nothing(progress: Progress, fixed: Fixed) -> bool:
    """Whether a notice with ``progress`` can need nothing, whatever the rest of the meta says: no turn
    clock in the match (so no clocks to cancel or set, and no seat marked away, which only a clock's
    timeout does), no system step and no bot seat to act. Such a notice (every move of a match of
    people without clocks) is handled without reading the meta."""
    played = fixed.bots | set(progress.resigned)  # a resigned seat is played like a bot's
    return fixed.turn_seconds == 0 and not progress.system and not played & set(progress.to_act)


def plan(
    progress: Progress,
    version: int,
    meta: MatchMeta,
    match_id: str,
    away_seconds: int,
    reply: bool = False,
) -> list[Job]:
    """The jobs the match at ``version`` needs, from its meta (see :func:`plan_fixed`)."""
    return plan_fixed(progress, version, match_id, Fixed.of(meta), meta.away_seats, away_seconds, reply)


def plan_fixed(
    progress: Progress,
    version: int,
    match_id: str,
    fixed: Fixed,
    away: Set[int] = frozenset(),
    away_seconds: int = 0,
    reply: bool = False,
) -> list[Job]:
    """The jobs the match at ``version`` needs; none once it is over. ``fixed``: its game, bots and
    clock; ``away``: its seats marked away (none in a match without a clock: only a clock's timeout
    marks one, so such a match is planned from ``fixed`` alone). ``reply``: its bot jobs are replies
    (:attr:`Job.reply`; the reactor's call, by who made the append: :func:`reply_after`).

    A pending system step comes first: while it is due nobody else may act (the rules list
    only SYSTEM then), so no seat job is planned beside it. A held notice (``Progress.held``) needs
    no bot job: the worker that wrote it plays the next bot move itself (:func:`chained_seat`). A seat
    that resigned (``Progress.resigned``) gets a bot job of level :data:`STAND_IN_LEVEL`, at once,
    clock or not (docs/workers.md, "Resigning").
    """
    if progress.status is MatchStatus.FINISHED:
        return []
    game = fixed.game
    if progress.system:
        return [Job(JobKind.SYSTEM, match_id, game, version)]
    bots, clock = dict(fixed.levels), fixed.turn_seconds
    jobs = []
    for seat in progress.to_act:
        if seat in progress.resigned and seat not in bots:
            jobs.append(Job(JobKind.BOT, match_id, game, version, seat, STAND_IN_LEVEL))
        elif seat in bots:
            if progress.held:
                continue
            jobs.append(Job(JobKind.BOT, match_id, game, version, seat, bots[seat], reply=reply))
        elif clock > 0:
            seconds = min(clock, away_seconds) if seat in away else clock
            jobs.append(Job(JobKind.TIMER, match_id, game, version, seat, countdown=float(seconds)))
    return jobs


def chained_seat(progress: Progress, levels: Mapping[int, str]) -> int | None:
    """The bot seat a worker that just moved may play next itself (a bot chain): the only seat to act,
    a bot's, with no system step pending in an active match; None otherwise. Seats acting at once
    are left to the reactor, one job each, as are system steps and people."""
    if progress.status is MatchStatus.ACTIVE and not progress.system and len(progress.to_act) == 1:
        seat = progress.to_act[0]
        return seat if seat in levels else None
    return None


def latest(jobs: Sequence[Job]) -> list[Job]:
    """``jobs`` without those planned at an older version of their match than another job here: a later
    append of the match in the same page made them stale (the jobs of one version, for seats acting
    at once, all stay)."""
    head: dict[str, int] = {}
    for job in jobs:
        head[job.match_id] = max(head.get(job.match_id, 0), job.version)
    return [job for job in jobs if job.version == head[job.match_id]]


def plan_head(meta: MatchMeta, match_id: str, away_seconds: int, reply: bool = False) -> list[Job]:
    """The jobs the match needs at its head, from its meta alone (the sweeper's view).

    None without recorded progress (a match only ever written by bare appends, e.g. imported). A held
    head is planned as any other: the sweeper looks only at a match that made no progress for a
    while, so the chain that held it has stopped (its worker lost, or a retry that gave up). ``reply``:
    its bot jobs are replies (:attr:`Job.reply`), as the sweeper plans them: the match has waited
    longest of all.
    """
    if meta.progress is None:
        return []
    progress = replace(meta.progress, held=False)
    return plan(progress, meta.head, meta, match_id, away_seconds, reply)


def seats_back(meta: MatchMeta, events: Iterable[StoredEvent]) -> set[int]:
    """Away seats whose player acted in ``events`` (the actor label of a human seat is ``seat:N``)."""
    return {seat for seat in meta.away_seats for e in events if e.actor == f"seat:{seat}"}
