"""The sweeper: active matches that wait on the workers with no progress are planned again.

Nothing waits on a task that may be lost (ARCHITECTURE, rule 5). A bot or system task can vanish
with a broker connection, a Redis restart that lost its last second, or a worker killed while
holding it (the broker would give it back only after its visibility timeout); a fired clock's
task likewise. The reactor's notice path never looks at such a match again, since nothing is
appended. So the reactor also sweeps, every ``TABULA_SWEEP_INTERVAL`` seconds, the active
matches of its shards (the index the append keeps: ``store.active_matches``), and plans again
from the meta's recorded progress (``planner.plan_head``) every job that is overdue: a bot or
system step ``TABULA_SWEEP_STALL`` seconds after the last append, a clock that many seconds after
it ran out (planned to fire at once). A double plan is harmless: the tasks load the match and
append with the expected version and a deterministic command id.

Each match is looked at again only when due: a match that needs nothing (a human seat without a
clock) when it moves (its index time changes), or after ``MAX_BACKOFF`` anyway (two appends in
the same millisecond keep the time); a planned one after its stall time; a re-planned one after
a doubling back-off, up to ``MAX_BACKOFF`` (a bot that fails for good is retried, but not every
few seconds forever). What the sweeper remembers is in memory: a restarted reactor looks at
every match once.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from services.workers.planner import Job, JobKind, plan_head
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.store import EventStore, MatchMeta

log = logging.getLogger(__name__)
MAX_BACKOFF = 600.0  # seconds between two re-plans of a match that stays stuck


def due_at(job: Job, last_append: float) -> float:
    """When the job's work is due: at once for a bot or system step, when the clock runs out for a timer."""
    return last_append + (job.countdown if job.kind is JobKind.TIMER else 0.0)


def overdue(jobs: Sequence[Job], last_append: float, now: float, stall: float) -> list[Job]:
    """The jobs that should have been done ``stall`` seconds ago; a late clock is to fire at once."""
    late = [job for job in jobs if now >= due_at(job, last_append) + stall]
    return [replace(job, countdown=0.0) if job.kind is JobKind.TIMER else job for job in late]


@dataclass(frozen=True, slots=True)
class Checked:
    last_append_ms: int  # the match as it was looked at; a new append makes it due for a look again
    next_check: float  # seconds since the epoch
    replans: int = 0  # re-plans at this head, for the back-off


class Sweeper:
    def __init__(
        self,
        store: EventStore,
        shards: Sequence[int],
        stall: float,
        away_seconds: int,
        now: Callable[[], float],
        replies: bool,
    ) -> None:
        """``replies``: a stalled match's bot jobs are replies (``Job.reply``; ``TABULA_BOT_REPLY_FIRST``)."""
        self.store, self.shards, self.stall = store, list(shards), stall
        self.away_seconds, self.now, self.replies = away_seconds, now, replies
        self._checked: dict[str, Checked] = {}

    def sweep(self) -> list[Job]:
        """The overdue jobs of every active match of the shards idle for at least the stall time."""
        now = self.now()
        idle_since = math.floor((now - self.stall) * 1000)
        checked: dict[str, Checked] = {}
        late: list[Job] = []
        for shard in self.shards:
            for match_id, last_append_ms in wait(self.store.active_matches(shard, idle_since)):
                seen = self._checked.get(match_id)
                if seen is None or seen.last_append_ms != last_append_ms or now >= seen.next_check:
                    seen, found = self._look(match_id, last_append_ms, seen, now)
                    late += found
                checked[match_id] = seen
        self._checked = checked  # matches that moved or finished are forgotten
        return late

    def _look(
        self, match_id: str, last_append_ms: int, seen: Checked | None, now: float
    ) -> tuple[Checked, list[Job]]:
        """Plan the match's head from its meta; what to remember, and the overdue jobs."""
        meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
        jobs = plan_head(meta, match_id, self.away_seconds, self.replies)
        last_append = last_append_ms / 1000
        found = overdue(jobs, last_append, now, self.stall)
        if not found:
            upcoming = [due_at(job, last_append) + self.stall for job in jobs]
            return Checked(last_append_ms, min(upcoming, default=now + MAX_BACKOFF)), []
        replans = seen.replans + 1 if seen is not None and seen.last_append_ms == last_append_ms else 1
        log.warning(
            "stalled match planned again",
            extra=log_fields(match_id=match_id, jobs=[job.task_id for job in found], replans=replans),
        )
        backoff = min(self.stall * 2 ** (replans - 1), MAX_BACKOFF)
        return Checked(last_append_ms, now + backoff, replans), found
