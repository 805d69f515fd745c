"""Ratings and history from the event store: the ``lobby-projections`` group on every outbox shard.

The shared follower (``shared.store.outbox``) reads the notices; a notice whose recorded progress says
the match is still active is skipped at once. For the others the match meta is read: if it says
the match is finished, the outcome the runner recorded with the final append gives the
placings (no game code is loaded), and ratings and history are applied in one script
(idempotent by match id, so a redelivered notice or a second lobby instance changes nothing).
A notice is acknowledged only after that; one that fails stays pending, is claimed again after
``CLAIM_IDLE_MS`` and dead-lettered after ``MAX_DELIVERIES`` (``outbox_group``). A match finished
before outcomes were recorded (meta ``status`` finished, no ``outcome``) cannot be rated here: its
notices fail and end in the dead-letter stream, which says which matches those are.
"""

from __future__ import annotations

import logging

from services.lobby.adapters import keys
from services.lobby.adapters.games import GameCatalog
from services.lobby.adapters.ratings_repo import HistoryItem, RatingsRepository, Standing
from services.lobby.domain import validation
from services.lobby.domain.ratings import FinishedMatch, rate
from services.lobby.service_layer.outbox_group import OutboxGroup
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.serving.errors import Conflict
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta, MatchStatus, OutboxNotice

log = logging.getLogger("tabula.lobby.projections")
APPLY_RETRIES = 50


class RatingsProjector(OutboxGroup):
    def __init__(
        self,
        store: EventStore,
        ratings: RatingsRepository,
        consumer: str,
        group: str = keys.GROUP,
        block_ms: int = 500,
        linger_ms: int = 0,
    ) -> None:
        self.store, self.ratings = store, ratings
        self.follow(store, group, consumer, self.handle, block_ms, linger_ms)

    def handle(self, notice: OutboxNotice) -> None:
        if notice.progress is not None and notice.progress.status is MatchStatus.ACTIVE:
            return  # most notices: the match goes on, nothing to read
        self.project(notice.match_id, _entry_ms(notice.entry_id))

    def project(self, match_id: str, finished_ms: int) -> bool:
        """Rate and record one match if it is finished and not yet rated; True if applied now."""
        meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
        if not meta.finished or self.ratings.is_rated(match_id):
            return False
        progress = meta.progress
        if progress is None or progress.outcome is None:
            raise Conflict(
                "no_outcome", "match {match_id} finished before outcomes were recorded", match_id=match_id
            )
        finished = FinishedMatch(match_id, meta.game, tuple(progress.outcome.placings), meta.players)
        return self.record(finished, finished_ms)

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
        raise Conflict(
            "busy_ratings", "ratings of match {match_id} kept changing; will retry", match_id=match.match_id
        )


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
