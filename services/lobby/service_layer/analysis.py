"""Analysis of a finished match (``AnalyzeMatch``, ``GetAnalysis``, ``CancelAnalysis``; docs/lobby.md).

Who may ask is who may watch the match (a private room's match: its players and invitees, as for
spectating; a finished match's whole log is open to them). The match must be finished (live in the
store or archived), the seat one of its seats, and its game must have a search bot (its manifest's
bot hooks with an evaluation). The lobby records the request beside the match and sends one job to
the ``analysis`` queue; a worker rates the moves and writes them into the same record, which every
read answers as it stands. A job whose worker died (its lease ran out) is sent again by the reactor's
sweep or by the next request or read, and goes on from the first move not rated yet.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from services.lobby.adapters.match_index import PrivateMatches
from services.lobby.domain import validation
from shared.core.manifest import BotHooks
from shared.matches.analysis import AnalysisStore, Record, has_search
from shared.matches.archive import ArchiveStorage, archived_lines
from shared.runtime.edge import wait
from shared.serving.errors import Conflict, InvalidArgument, NotFound, PermissionDenied
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta

Send = Callable[[str, str, int], None]  # (match id, game, seat): one job to the analysis queue


@dataclass(frozen=True, slots=True)
class Asked:
    match_id: str
    seat: int
    record: Record


class Analyses:
    def __init__(
        self,
        store: EventStore,
        records: AnalysisStore,
        send: Send,
        private: PrivateMatches,
        hooks: Callable[[str], BotHooks],
        archive: ArchiveStorage | None = None,
        iterations: int = 400,
    ) -> None:
        """``hooks``: a game's bot hooks (its manifest's ``bots()``); ``iterations``: the search's
        budget per decision, recorded with each new analysis."""
        self.store, self.records, self.send, self.private = store, records, send, private
        self.hooks, self.archive, self.iterations = hooks, archive, iterations

    def _meta(self, match_id: str) -> MatchMeta:
        meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
        if meta.exists or self.archive is None:
            return meta
        lines = archived_lines(self.archive, match_id)
        return MatchMeta.of(json.loads(lines[0])["meta"]) if lines else meta

    def _checked(self, caller: Claims, match_id: str, seat: int) -> tuple[MatchMeta, str]:
        if not match_id:
            raise InvalidArgument("match_id is required", "match_id")
        validation.identifier(match_id, "match_id")
        meta = self._meta(match_id)
        if not meta.game:
            raise NotFound("no match {match_id!r}", match_id=match_id)
        if not self.private.may_watch(match_id, caller.player_id):
            raise PermissionDenied("a private room's match is analysed only by its players and invitees")
        if not 0 <= seat < meta.seat_count:
            raise InvalidArgument(
                "match {match_id} has seats 0 to {last}, not {seat}",
                "seat",
                "unknown_seat",
                match_id=match_id,
                last=meta.seat_count - 1,
                seat=seat,
            )
        return meta, meta.game

    def analyze(self, caller: Claims, match_id: str, seat: int) -> Asked:
        meta, game = self._checked(caller, match_id, seat)
        if not meta.finished:
            raise Conflict(
                "match_not_finished",
                "match {match_id} is not finished: analyse it once it is",
                match_id=match_id,
            )
        try:
            searchable = has_search(self.hooks(game))
        except (KeyError, InvalidArgument):  # a game this lobby does not serve
            searchable = False
        if not searchable:
            raise Conflict("no_search_bot", "{game} has no search bot to rate its moves", game=game)
        if self.records.request(match_id, seat, caller.player_id, 0, self.iterations, game):
            self.send(match_id, game, seat)
        return Asked(match_id, seat, self.records.read(match_id, seat))

    def get(self, caller: Claims, match_id: str, seat: int) -> Asked:
        _, game = self._checked(caller, match_id, seat)
        if self.records.stalled(match_id, seat):
            self.send(match_id, game, seat)
        return Asked(match_id, seat, self.records.read(match_id, seat))

    def cancel(self, caller: Claims, match_id: str, seat: int) -> tuple[Asked, bool]:
        self._checked(caller, match_id, seat)
        cancelled = self.records.cancel(match_id, seat)
        return Asked(match_id, seat, self.records.read(match_id, seat)), cancelled
