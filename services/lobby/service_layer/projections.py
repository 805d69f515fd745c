"""Ratings and history from the event store: a consumer group on every shard's outbox.

For each notice, if the match's meta says it is finished, fold its final state, ask the
rules for the placings, and apply ratings and history in one script (idempotent by match
id, so a redelivered notice or a second lobby instance changes nothing). A notice is
acknowledged only after that; one that fails stays pending and is re-claimed later.
"""

from __future__ import annotations

import json
import logging
import threading

import redis

from services.lobby.adapters import keys
from services.lobby.adapters.games import GameCatalog
from services.lobby.adapters.ratings_repo import HistoryItem, RatingsRepository, Standing
from services.lobby.domain import validation
from services.lobby.domain.ratings import FinishedMatch, rate
from shared.errors import Conflict
from shared.observability import log_fields
from shared.store import OutboxNotice
from shared.store.redis_store import RedisEventStore, notice_from_entry
from shared.tokens import Claims

log = logging.getLogger("tabula.lobby.projections")
RECLAIM_IDLE_MS = 30_000
APPLY_RETRIES = 50


class RatingsProjector:
    def __init__(
        self,
        store: RedisEventStore,
        ratings: RatingsRepository,
        catalog: GameCatalog,
        consumer: str,
        group: str = keys.GROUP,
    ) -> None:
        self.store, self.ratings, self.catalog = store, ratings, catalog
        self.client, self.consumer, self.group = store.client, consumer, group

    def ensure_groups(self) -> None:
        for shard in range(self.store.shards):
            try:
                self.client.xgroup_create(self.store.outbox_key(shard), self.group, id="0", mkstream=True)
            except redis.ResponseError as err:
                if "BUSYGROUP" not in str(err):
                    raise

    def poll(self) -> int:
        """One pass over every shard (new notices, then long-pending ones); returns notices handled."""
        return sum(self._poll_shard(shard) for shard in range(self.store.shards))

    def _poll_shard(self, shard: int) -> int:
        key = self.store.outbox_key(shard)
        reply = self.client.xreadgroup(self.group, self.consumer, {key: ">"}, count=200)
        entries = [item for _, items in reply for item in items]
        claimed = self.client.xautoclaim(key, self.group, self.consumer, RECLAIM_IDLE_MS, count=50)
        entries += claimed[1]
        # an entry trimmed from the stream while pending comes back without fields: nothing to do
        done = [
            entry_id
            for entry_id, fields in entries
            if not fields or self._handled(notice_from_entry(entry_id, fields))
        ]
        if done:
            self.client.xack(key, self.group, *done)
        return len(done)

    def _handled(self, notice: OutboxNotice) -> bool:
        try:
            self.project(notice.match_id, _entry_ms(notice.entry_id))
            return True
        except Exception:  # left pending: re-claimed after RECLAIM_IDLE_MS, nothing half-written
            log.exception("projection failed", extra=log_fields(match_id=notice.match_id))
            return False

    def project(self, match_id: str, finished_ms: int) -> bool:
        """Rate and record one match if it is finished and not yet rated; True if applied now."""
        meta = self.store.get_meta(match_id)
        if meta.get("status") != "finished" or self.ratings.is_rated(match_id):
            return False
        game = meta["game"]
        rules = self.catalog.rules(game)
        outcome = rules.outcome(self.catalog.runner(game, self.store).load(match_id).state)
        if outcome is None:
            raise Conflict("not_finished", f"match {match_id} is marked finished but has no outcome")
        players = tuple(json.loads(meta.get("players", "[]")))
        return self.record(FinishedMatch(match_id, game, tuple(outcome.placings), players), finished_ms)

    def record(self, match: FinishedMatch, finished_ms: int) -> bool:
        ids = [h.player_id for h in match.humans]
        for _ in range(APPLY_RETRIES):
            before, raw = self.ratings.ratings(match.game, ids)
            after = rate(before, [h.placing for h in match.humans]) if match.is_rated else before
            result = self.ratings.apply(match, raw, after, finished_ms)
            if result >= 0:
                if result:
                    log.info("match rated", extra=log_fields(match_id=match.match_id, game=match.game))
                return result == 1
        raise Conflict("busy_ratings", f"ratings of match {match.match_id} kept changing; will retry")

    def run(self, stopping: threading.Event, interval_s: float = 0.5) -> None:
        while not stopping.is_set():
            try:
                handled = self.poll()
            except Exception:  # keep projecting after a Redis blip
                log.exception("projection poll failed")
                handled = 0
            if not handled:
                stopping.wait(interval_s)


def _entry_ms(entry_id: str) -> int:
    head = entry_id.partition("-")[0]
    return int(head) if head.isdigit() else 0


class Standings:
    """Leaderboards and match history, read side."""

    def __init__(self, ratings: RatingsRepository, catalog: GameCatalog) -> None:
        self.ratings, self.catalog = ratings, catalog

    def leaderboard(self, game: str, limit: int) -> list[Standing]:
        validation.game_name(game, self.catalog.names())
        return self.ratings.leaderboard(game, validation.limit(limit, 20, 100))

    def history(self, caller: Claims, player_id: str, limit: int) -> list[HistoryItem]:
        who = validation.identifier(player_id, "player_id") if player_id else caller.player_id
        return self.ratings.history(who, validation.limit(limit, 20, 100))
