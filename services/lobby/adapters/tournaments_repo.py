"""Tournaments in Redis: one hash per tournament (version + JSON), saved by one compare-and-set script
that also keeps the indexes (all by start time; the live ones) and appends to the tournament's feed.

Every change is a pure function of the tournament read (``domain/tournaments.py``) saved only if
nobody saved another version meanwhile, so a change decided by two lobbies at once is applied once:
the loser re-reads and finds it made (a round started, a result recorded).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from services.lobby.adapters import keys
from services.lobby.adapters.feeds import Feed
from services.lobby.domain.tournaments import (
    Entrant,
    Format,
    Round,
    Status,
    Table,
    TableState,
    Tournament,
)
from shared.serving.errors import Conflict, NotFound
from shared.store.redis_store import RedisClient

T = TypeVar("T")
RETRIES = 100
TOURNAMENT_TTL_S = 30 * 24 * 3600  # an ended tournament is kept a month

# KEYS: tournament hash, feed, all-by-start zset, live set.
# ARGV: expected version, new JSON, live (1/0), id, start ms, ttl.
# Returns {1, version} or {-1, current version}.
TOURNAMENT_CAS_LUA = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if cur ~= tonumber(ARGV[1]) then return {-1, cur} end
local new = cur + 1
redis.call('HSET', KEYS[1], 'version', new, 'data', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
if ARGV[3] == '1' then
  redis.call('PERSIST', KEYS[1])
  redis.call('SADD', KEYS[4], ARGV[4])
else
  redis.call('EXPIRE', KEYS[1], ARGV[6])
  redis.call('SREM', KEYS[4], ARGV[4])
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 100, '*', 'version', new)
redis.call('EXPIRE', KEYS[2], ARGV[6])
return {1, new}
"""


def to_json(t: Tournament) -> str:
    return json.dumps(
        {
            "id": t.tournament_id,
            "name": t.name,
            "game": t.game,
            "creator": t.creator,
            "format": t.format.value,
            "options": dict(t.options),
            "seats": t.seats,
            "rounds": t.rounds,
            "turn": t.turn_seconds,
            "bots": t.allow_bots,
            "level": t.bot_level,
            "start": t.start_ms,
            "max": t.max_players,
            "created": t.created_ms,
            "status": t.status.value,
            "entrants": [[e.player_id, e.name, e.registered_ms, e.seed, e.withdrawn] for e in t.entrants],
            "played": [
                {
                    "n": r.number,
                    "at": r.started_ms,
                    "tables": [
                        {
                            "n": tb.number,
                            "seats": list(tb.seats),
                            "match": tb.match_id,
                            "state": tb.state.value,
                            "placings": list(tb.placings),
                            "scores": list(tb.scores),
                            "forfeited": list(tb.forfeited),
                        }
                        for tb in r.tables
                    ],
                }
                for r in t.played
            ],
            "schedule": [[list(p) for p in r] for r in t.schedule],
            "ended": t.ended_ms,
            "why": t.ended_reason,
        },
        separators=(",", ":"),
    )


def from_json(text: bytes | str, version: int) -> Tournament:
    raw: dict[str, Any] = json.loads(text)
    return Tournament(
        raw["id"],
        raw["name"],
        raw["game"],
        raw["creator"],
        Format(raw["format"]),
        tuple(sorted(raw["options"].items())),
        raw["seats"],
        raw["rounds"],
        raw["turn"],
        raw["bots"],
        raw["level"],
        raw["start"],
        raw["max"],
        raw["created"],
        Status(raw["status"]),
        tuple(Entrant(p, n, at, seed, out) for p, n, at, seed, out in raw["entrants"]),
        tuple(
            Round(
                r["n"],
                tuple(
                    Table(
                        tb["n"],
                        tuple(tb["seats"]),
                        tb["match"],
                        TableState(tb["state"]),
                        tuple(tb["placings"]),
                        tuple(tb["scores"]),
                        tuple(tb["forfeited"]),
                    )
                    for tb in r["tables"]
                ),
                r["at"],
            )
            for r in raw["played"]
        ),
        tuple(tuple((a, b) for a, b in r) for r in raw["schedule"]),
        raw["ended"],
        raw["why"],
        version,
    )


class TournamentRepository:
    def __init__(self, client: RedisClient, ttl_s: int = TOURNAMENT_TTL_S) -> None:
        self.client, self.ttl_s = client, ttl_s
        self._cas = client.register_script(TOURNAMENT_CAS_LUA)

    def get(self, tournament_id: str) -> Tournament:
        version, data = self.client.hmget(keys.tournament(tournament_id), ["version", "data"])
        if data is None:
            raise NotFound("no tournament {tournament_id!r}", tournament_id=tournament_id)
        return from_json(data, int(keys.text(version)))

    def newest(self, limit: int) -> Iterator[Tournament]:
        """Tournaments by start time, the latest first (ended ones that expired are skipped)."""
        at = 0
        while True:
            ids = self.client.zrevrange(keys.tournaments(), at, at + limit - 1)
            if not ids:
                return
            gone = 0
            for raw in ids:
                try:
                    yield self.get(keys.text(raw))
                except NotFound:  # ended and expired: off the index
                    self.client.zrem(keys.tournaments(), keys.text(raw))
                    gone += 1
            at += len(ids) - gone

    def live(self) -> list[str]:
        return sorted(keys.text(raw) for raw in self.client.smembers(keys.live_tournaments()))

    def watch(self, tournament_id: str, block_ms: int) -> Iterator[bool]:
        return Feed(self.client, keys.tournament_feed(tournament_id)).follow(block_ms)

    def create(self, t: Tournament) -> Tournament:
        if not self._save(t, 0):
            raise Conflict(
                "tournament_exists",
                "tournament {tournament_id} already exists",
                tournament_id=t.tournament_id,
            )
        return replace(t, version=1)

    def update(
        self, tournament_id: str, change: Callable[[Tournament], tuple[Tournament, T]]
    ) -> tuple[Tournament, T]:
        """Apply a pure change with compare-and-set, re-reading after a lost race; ``out`` is the
        change's own answer for the version saved (or for the unchanged tournament)."""
        for _ in range(RETRIES):
            t = self.get(tournament_id)
            new, out = change(t)
            if new == t:
                return t, out
            if self._save(new, t.version):
                return replace(new, version=t.version + 1), out
        raise Conflict(
            "busy_tournament",
            "tournament {tournament_id} is changing too fast; try again",
            tournament_id=tournament_id,
        )

    def _save(self, t: Tournament, expected: int) -> bool:
        live = t.status in (Status.REGISTERING, Status.RUNNING)
        status, _ = self._cas(
            keys=[
                keys.tournament(t.tournament_id),
                keys.tournament_feed(t.tournament_id),
                keys.tournaments(),
                keys.live_tournaments(),
            ],
            args=[expected, to_json(t), int(live), t.tournament_id, t.start_ms, self.ttl_s],
        )
        return bool(status == 1)
