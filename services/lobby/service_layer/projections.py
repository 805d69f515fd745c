"""Ratings and history from the event store: the ``lobby-projections`` group on every outbox shard.

The shared follower (``shared.store.outbox``) reads the notices; a notice whose recorded progress says
the match is still active is skipped at once. For the others the match meta is read: if it says
the match is finished, the outcome the runner recorded with the final append gives the
placings (no game code is loaded), the time of its last event says which season it is rated in
(``domain/seasons.py``: the same on any replay of the notices), and ratings (all-time and the
season's) and history are applied in one script
(idempotent by match id, so a redelivered notice or a second lobby instance changes nothing).
A notice is acknowledged only after that; one that fails stays pending, is claimed again after
``CLAIM_IDLE_MS`` and dead-lettered after ``MAX_DELIVERIES`` (``outbox_group``). A match finished
before outcomes were recorded (meta ``status`` finished, no ``outcome``) cannot be rated here: its
notices fail and end in the dead-letter stream, which says which matches those are.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from services.lobby.adapters import keys
from services.lobby.adapters.games import GameCatalog
from services.lobby.adapters.ratings_repo import HistoryItem, Rated, RatingsRepository, Standing
from services.lobby.domain import seasons, validation
from services.lobby.domain.ratings import FinishedMatch, rate
from services.lobby.domain.seasons import ALL_TIME, Schedule, Season
from services.lobby.service_layer.outbox_group import OutboxGroup
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.serving.errors import Conflict, InvalidArgument, NotFound
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
        schedule: Schedule | None = None,
    ) -> None:
        self.store, self.ratings = store, ratings
        self.schedule = schedule if schedule is not None else seasons.parse("")
        self.follow(store, group, consumer, self.handle, block_ms, linger_ms)

    def handle(self, notice: OutboxNotice) -> None:
        if notice.progress is not None and notice.progress.status is MatchStatus.ACTIVE:
            return  # most notices: the match goes on, nothing to read
        self.project(notice.match_id)

    def project(self, match_id: str) -> bool:
        """Rate and record one match if it is finished and not yet rated; True if applied now. It ends
        when its last event was stored: that time is its history's and says its season."""
        meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
        if not meta.finished or self.ratings.is_rated(match_id):
            return False
        progress = meta.progress
        if progress is None or progress.outcome is None:
            raise Conflict(
                "no_outcome", "match {match_id} finished before outcomes were recorded", match_id=match_id
            )
        finished = FinishedMatch(match_id, meta.game, tuple(progress.outcome.placings), meta.players)
        last = wait(self.store.read(match_id, meta.head, meta.head))
        if not last:  # the archiver waits for this group's acknowledgement: never in practice
            raise Conflict(
                "busy_ratings",
                "match {match_id} has no last event to date its end; will retry",
                match_id=match_id,
            )
        return self.record(finished, last[-1].server_time_ms)

    def record(self, match: FinishedMatch, finished_ms: int) -> bool:
        """Rate a match ended at ``finished_ms``: all-time, and in the season that time falls in (a
        player new to that season starts at the starting rating)."""
        ids = [h.player_id for h in match.humans]
        placings = [h.placing for h in match.humans]
        season = self.schedule.at(finished_ms)
        season_id = season.id if season is not None else ""
        for _ in range(APPLY_RETRIES):
            before, raw = self.ratings.ratings(match.game, ids)
            after = rate(before, placings) if match.is_rated else before
            season_before, season_raw = (
                self.ratings.ratings(match.game, ids, season_id) if season_id else ([], [])
            )
            season_after = rate(season_before, placings) if match.is_rated and season_id else season_before
            rated = Rated(match, season_id, raw, after, season_raw, season_after)
            result = self.ratings.apply(rated, finished_ms)
            if result >= 0:
                if result:
                    log.info("match rated", extra=log_fields(match_id=match.match_id, game=match.game))
                return result == 1
        raise Conflict(
            "busy_ratings", "ratings of match {match_id} kept changing; will retry", match_id=match.match_id
        )


ALL = Season(ALL_TIME, 0, 0)


class Standings:
    """Leaderboards, seasons and match history, read side."""

    def __init__(
        self, ratings: RatingsRepository, catalog: GameCatalog, schedule: Schedule, clock: Callable[[], int]
    ) -> None:
        self.ratings, self.catalog, self.schedule, self.clock = ratings, catalog, schedule, clock

    def leaderboard(self, game: str, season_id: str, limit: int) -> tuple[Season, list[Standing]]:
        """The season answered and its board: ``season_id`` "" is the current season (the all-time
        board while a list of seasons has not begun), ``all`` the all-time board."""
        validation.game_name(game, self.catalog.names())
        season = self.season(season_id)
        most = validation.limit(limit, 20, 100)
        return season, self.ratings.leaderboard(game, most, "" if season is ALL else season.id)

    def season(self, season_id: str) -> Season:
        """The season of this id ("": the current one); refused: malformed, unknown or not begun."""
        if not season_id:
            return self.schedule.at(self.clock()) or ALL
        if season_id == ALL_TIME:
            return ALL
        if not seasons.well_formed(season_id):
            raise InvalidArgument(
                "season is a season id (ListSeasons), or 'all' (letters, digits, ':' and '-', 32 at most)",
                "season",
            )
        found = self.schedule.get(season_id, self.clock())
        if found is None:
            raise NotFound(
                "no season {season!r} has begun (ListSeasons names them)", "season_unknown", season=season_id
            )
        return found

    def current_id(self) -> str:
        """The current season's id ("" while a list of seasons has not begun)."""
        current = self.schedule.at(self.clock())
        return current.id if current is not None else ""

    def seasons(self, limit: int) -> tuple[list[Season], str]:
        """The current season and every earlier one a match was rated in, newest first; and the
        current season's id ("" while a list of seasons has not begun)."""
        now = self.clock()
        current = self.schedule.at(now)
        found = {s.id: s for sid in self.ratings.seasons() if (s := self.schedule.get(sid, now)) is not None}
        if current is not None:
            found[current.id] = current
        newest = sorted(found.values(), key=lambda s: s.starts_ms, reverse=True)
        return newest[: validation.limit(limit, 20, 100)], current.id if current is not None else ""

    def history(self, caller: Claims, player_id: str, limit: int) -> list[HistoryItem]:
        who = validation.identifier(player_id, "player_id") if player_id else caller.player_id
        return self.ratings.history(who, validation.limit(limit, 20, 100))
