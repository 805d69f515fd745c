"""Durable turn clocks: deadlines kept in Redis, fired by the reactor's timer loop.

A clock used to be a Celery countdown, held unacknowledged by a worker until it ran; the Redis
broker redelivers such a message after its visibility timeout, so a clock longer than that
timeout (the lobby accepts up to 7 days) ran twice or was lost with the worker. Now a clock is
one member of a sorted set per shard, ``{sNN}:clocks`` (the shard's hash tag, so one cluster
slot with the shard's matches), score = due time in ms since the epoch, member =
``<match>/<version>/<seat>``. It lives as long as Redis keeps its AOF, whatever restarts.

The reactor that owns the shard takes due members out one by one with ``ZREM`` (only the
caller whose ``ZREM`` removed it sends the task, so a clock fires once across reactor
instances) and enqueues the ``turn_timeout`` task then. A clock for a version the match has left
is dropped (the task would find the version stale anyway).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Clock:
    match_id: str
    version: int
    seat: int
    due_ms: int

    @property
    def member(self) -> str:
        return member(self.match_id, self.version, self.seat)

    @staticmethod
    def parse(raw: bytes | str, score: float) -> Clock:
        text = raw.decode() if isinstance(raw, bytes) else raw
        match_id, version, seat = text.rsplit("/", 2)  # match ids never hold "/"
        return Clock(match_id, int(version), int(seat), int(score))


def member(match_id: str, version: int, seat: int) -> str:
    return f"{match_id}/{version}/{seat}"


def clocks_key(shard: int) -> str:
    return f"{{s{shard:02d}}}:clocks"


class ClockStore:
    """The clock sets of every shard, on the event store's Redis client (plain Redis or Cluster)."""

    def __init__(self, client: Any, shard_of: Callable[[str], int]) -> None:
        self.client, self.shard_of = client, shard_of

    def set(self, clock: Clock) -> None:
        """Add the clock; planned again (a redelivered notice, the sweeper) it keeps its earliest due time."""
        key = clocks_key(self.shard_of(clock.match_id))
        self.client.zadd(key, {clock.member: clock.due_ms}, lt=True)

    def cancel(self, match_id: str, version: int, seats: int) -> None:
        """Forget the clocks of ``version`` (the match has moved past it), so long ones do not pile up."""
        if seats > 0 and version > 0:
            members = [member(match_id, version, seat) for seat in range(seats)]
            self.client.zrem(clocks_key(self.shard_of(match_id)), *members)

    def take_due(self, shard: int, now_ms: int, count: int = 100) -> list[Clock]:
        """Remove and return the clocks due by ``now_ms`` that this caller removed (fired once)."""
        key = clocks_key(shard)
        due = self.client.zrangebyscore(key, "-inf", now_ms, 0, count, withscores=True)
        return [Clock.parse(raw, score) for raw, score in due if self.client.zrem(key, raw) == 1]

    def pending(self, shard: int) -> list[Clock]:
        """Every clock of the shard, earliest first (for inspection and tests)."""
        found = self.client.zrange(clocks_key(shard), 0, -1, withscores=True)
        return [Clock.parse(raw, score) for raw, score in found]
