"""Live and recent matches for spectators (``ListMatches``): the lobby's index of the matches it
created, each read as the event store records it now (status, version, outcome) with the seats'
display names, a page at a time. No game code is loaded.

A page ends with a token naming its last match (creation time and id, the index's own order);
the next page starts after it, so matches created between two calls never shift a page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from services.lobby.adapters.games import GameCatalog
from services.lobby.adapters.match_index import MatchIndex
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.domain import validation
from services.lobby.domain.profiles import DELETED_NAME
from shared.runtime.edge import wait
from shared.serving.errors import InvalidArgument
from shared.store import EventStore, MatchMeta


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    player_id: str  # "" for a bot
    name: str  # the player's display name, or the bot's level
    bot: bool


@dataclass(frozen=True, slots=True)
class MatchSummary:
    match_id: str
    game: str
    seats: tuple[SeatSummary, ...]
    finished: bool
    version: int
    created_ms: int
    placings: tuple[int, ...]


class MatchList:
    def __init__(
        self, index: MatchIndex, store: EventStore, ratings: RatingsRepository, catalog: GameCatalog
    ) -> None:
        self.index, self.store, self.ratings, self.catalog = index, store, ratings, catalog

    def newest(self, game: str, limit: int, page_token: str = "") -> tuple[list[MatchSummary], str]:
        """A page of matches, newest first, after the one ``page_token`` names ("": the newest), and
        the token of the next page ("" when this one is the last)."""
        if game:
            validation.game_name(game, self.catalog.names())
        most = validation.limit(limit, 20, 100)
        after = parse_page_token(page_token)
        out: list[MatchSummary] = []
        for match_id, created_ms in self.index.newest():
            if after is not None and (created_ms, match_id) >= after:
                continue
            meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
            if meta.game and (not game or meta.game == game):
                if len(out) == most:  # one more exists: the page is not the last
                    last = out[-1]
                    return out, page_token_of(last.created_ms, last.match_id)
                out.append(self._summary(match_id, created_ms, meta))
        return out, ""

    def _summary(self, match_id: str, created_ms: int, meta: MatchMeta) -> MatchSummary:
        progress, players = meta.progress, meta.players
        humans = [p for p in players if p]
        names = dict(zip(humans, self.ratings.names(humans), strict=True))
        for seat, player in enumerate(players):  # a deleted account: its name is gone, its seats say so
            if (
                player
                and not names.get(player)
                and seat < len(meta.names)
                and meta.names[seat] == DELETED_NAME
            ):
                names[player] = DELETED_NAME
        summary = tuple(_seat(seat, players, meta.bots, names) for seat in range(meta.seat_count))
        placings = progress.outcome.placings if progress and progress.outcome else ()
        return MatchSummary(
            match_id, meta.game, summary, meta.finished, meta.head, created_ms, tuple(placings)
        )


def page_token_of(created_ms: int, match_id: str) -> str:
    return f"{created_ms}:{match_id}"


def parse_page_token(token: str) -> tuple[int, str] | None:
    """(creation time, match id) of the last match of the previous page; None for the first page."""
    if not token:
        return None
    created, _, match_id = token.partition(":")
    if not created.isdigit() or len(created) > 20 or not match_id:
        raise InvalidArgument("page_token must be a next_page_token from ListMatches", "page_token")
    return int(created), validation.identifier(match_id, "page_token")


def _seat(seat: int, players: Sequence[str], bots: Mapping[int, str], names: dict[str, str]) -> SeatSummary:
    player = players[seat] if seat < len(players) else ""
    if seat in bots:
        return SeatSummary(seat, "", bots[seat], True)
    return SeatSummary(seat, player, names.get(player, "") or player, False)
