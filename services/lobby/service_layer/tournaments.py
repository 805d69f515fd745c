"""Tournament use cases (create, list, read, register, withdraw, cancel, watch) and the director that
plays them out in every lobby (docs/tournaments.md).

The director's tick, per live tournament, drives the pure state machine of ``domain/tournaments.py``
through compare-and-set saves (``adapters/tournaments_repo.py``): start it at its start time; create
each pending table's match (its id derived from the tournament, round and table, so two lobbies
creating it make one match) and mark it playing; forfeit a seat whose turn clock ran out (marked
first, then resigned on the rule service with a command id of its own, so a retry changes nothing);
record a finished match's placings; open the next round once every table is done. A step decided by
two lobbies at once is saved once (the other's save finds a newer version and re-applies the step
to it, which then changes nothing), so each round starts exactly once and only the lobby whose save
opened it sends its notices. A lobby stopped anywhere leaves a state the next tick, in any lobby,
carries on from.
"""

from __future__ import annotations

import itertools
import logging
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from services.lobby.adapters.games import GameCatalog, MatchRequest
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.adapters.tournaments_repo import TournamentRepository
from services.lobby.domain import tournaments as tm
from services.lobby.domain import validation
from services.lobby.domain.notices import Notice, NoticeKind
from services.lobby.domain.rooms import BotLevel
from services.lobby.domain.tournaments import Format, Standing, Status, Table, TableState, Tournament
from services.lobby.service_layer.identity import Identity
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.serving.errors import Conflict, InvalidArgument, Unavailable
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta

log = logging.getLogger("tabula.lobby.tournaments")
Clock = Callable[[], int]  # milliseconds
MAX_AHEAD_MS = 30 * 24 * 3600 * 1000
DEFAULT_PLAYERS = 64
ENDED = (Status.FINISHED, Status.CANCELLED)
LIST_SCAN = 1000  # tournaments ListTournaments reads at most, newest first, to find its page


@dataclass(frozen=True, slots=True)
class NewTournament:
    name: str
    game: str
    format: Format
    options: Mapping[str, str]
    seats: int
    rounds: int
    turn_seconds: int
    allow_bots: bool
    bot_level: str
    start_ms: int
    max_players: int


@dataclass(frozen=True, slots=True)
class TournamentSeen:
    """A tournament as one player sees it: the standings, and the caller's table of the current round."""

    tournament: Tournament
    standings: list[Standing]
    registered: bool
    match_id: str
    seat: int
    seat_token: str


class TournamentService:
    def __init__(
        self,
        repo: TournamentRepository,
        catalog: GameCatalog,
        identity: Identity,
        clock: Clock,
        notices: NoticeRepository,
    ) -> None:
        self.repo, self.catalog, self.identity, self.clock = repo, catalog, identity, clock
        self.notices = notices

    def create(self, caller: Claims, new: NewTournament) -> Tournament:
        name = validation.display_name(new.name).strip()
        info, rules = self.catalog.manifest(new.game), self.catalog.rules(new.game)
        validation.seat_count(new.seats, info, "seats_per_table")
        tm.check_shape(new.format, new.seats, new.rounds)
        options = validation.game_options(new.options, new.seats, info, rules)
        if not validation.MIN_TURN_SECONDS <= new.turn_seconds <= validation.MAX_TURN_SECONDS:
            raise InvalidArgument(
                "turn_seconds is {least} to {most}: a tournament match always has a clock",
                "turn_seconds",
                least=validation.MIN_TURN_SECONDS,
                most=validation.MAX_TURN_SECONDS,
            )
        level = new.bot_level or BotLevel.GREEDY.value
        if level not in {b.value for b in BotLevel}:
            raise InvalidArgument("bot_level is random, greedy or mcts", "bot_level")
        most = new.max_players or DEFAULT_PLAYERS
        if not 2 <= most <= tm.MAX_PLAYERS:
            raise InvalidArgument(
                "max_players is 2 to {most} (0: {default})",
                "max_players",
                most=tm.MAX_PLAYERS,
                default=DEFAULT_PLAYERS,
            )
        now = self.clock()
        if not now <= new.start_ms <= now + MAX_AHEAD_MS:
            raise InvalidArgument("start_at_ms is from now to 30 days ahead", "start_at_ms")
        t = Tournament(
            uuid.uuid4().hex,
            name,
            new.game,
            caller.player_id,
            new.format,
            tuple(sorted(options.items())),
            new.seats,
            new.rounds,
            new.turn_seconds,
            new.allow_bots,
            level,
            new.start_ms,
            most,
            now,
        )
        return self.repo.create(t)

    def list(self, game: str, limit: int, include_ended: bool) -> list[Tournament]:
        if game:
            validation.game_name(game, self.catalog.names())
        most = validation.limit(limit, 20, 100)
        out = []
        for t in itertools.islice(self.repo.newest(most), LIST_SCAN):
            if (not game or t.game == game) and (include_ended or t.status not in ENDED):
                out.append(t)
                if len(out) == most:
                    break
        return out

    def get(self, caller: Claims, tournament_id: str) -> TournamentSeen:
        return self.seen(self.repo.get(validation.identifier(tournament_id, "tournament_id")), caller)

    def seen(self, t: Tournament, caller: Claims) -> TournamentSeen:
        entrant = t.entrant(caller.player_id)
        match_id, seat, token = "", -1, ""
        mine = t.table_of(caller.player_id) if t.status is Status.RUNNING else None
        if mine is not None and not mine[0].is_bye:
            match_id, seat = mine[0].match_id, mine[1]
            token = self.identity.seat_token(t.game, caller.player_id, match_id, seat)
        registered = entrant is not None and not entrant.withdrawn
        return TournamentSeen(t, tm.standings(t), registered, match_id, seat, token)

    def register(self, caller: Claims, tournament_id: str) -> Tournament:
        now = self.clock()
        return self._change(tournament_id, lambda t: tm.register(t, caller.player_id, caller.name, now))

    def withdraw(self, caller: Claims, tournament_id: str) -> Tournament:
        return self._change(tournament_id, lambda t: tm.withdraw(t, caller.player_id))

    def cancel(self, caller: Claims, tournament_id: str) -> Tournament:
        now = self.clock()
        t = self._change(tournament_id, lambda t: tm.cancel(t, caller.player_id, now))
        tell_ended(self.notices, t)
        return t

    def _change(self, tournament_id: str, change: Callable[[Tournament], Tournament]) -> Tournament:
        validation.identifier(tournament_id, "tournament_id")
        t, _ = self.repo.update(tournament_id, lambda t: (change(t), None))
        return t

    def watch(self, caller: Claims, tournament_id: str, block_ms: int) -> Iterator[TournamentSeen | None]:
        """The tournament now and after each change (None: a quiet ``block_ms``); ends once ended."""
        self.repo.get(validation.identifier(tournament_id, "tournament_id"))
        return self._follow(caller, tournament_id, block_ms)

    def _follow(self, caller: Claims, tournament_id: str, block_ms: int) -> Iterator[TournamentSeen | None]:
        changes, sent = self.repo.watch(tournament_id, block_ms), -1
        while True:
            t = self.repo.get(tournament_id)
            if t.version != sent:
                sent = t.version
                yield self.seen(t, caller)
            if t.status in ENDED:
                return
            if not next(changes):
                yield None


class TournamentDirector:
    """Plays out every live tournament (safe in any number of lobbies at once)."""

    def __init__(
        self,
        repo: TournamentRepository,
        catalog: GameCatalog,
        store: EventStore,
        ratings: RatingsRepository,
        notices: NoticeRepository,
        clock: Clock,
    ) -> None:
        self.repo, self.catalog, self.store, self.ratings = repo, catalog, store, ratings
        self.notices, self.clock = notices, clock

    def tick(self) -> int:
        """One pass over the live tournaments; returns how many steps were saved by this lobby."""
        steps = 0
        for tournament_id in self.repo.live():
            try:
                steps += self.step(tournament_id)
            except (Conflict, Unavailable) as err:  # a game service down, a refusal: the next tick retries
                log.warning(
                    "tournament step failed", extra=log_fields(tournament_id=tournament_id, error=str(err))
                )
            except Exception:  # one tournament's fault (a game this lobby lacks) stops no other
                log.exception("tournament step failed", extra=log_fields(tournament_id=tournament_id))
        return steps

    def step(self, tournament_id: str) -> int:
        t, steps = self.repo.get(tournament_id), 0
        if t.status is Status.REGISTERING:
            if self.clock() < t.start_ms:
                return 0
            seeds = {e.player_id: self.ratings.rating(t.game, e.player_id).mu for e in t.entrants}
            min_seats = self.catalog.manifest(t.game).min_seats
            t, opened = self._save(t, lambda cur: tm.start(cur, self.clock(), min_seats, seeds))
            steps += opened
            if opened:
                self._told(t)
        if t.status is not Status.RUNNING or t.current is None:
            return steps
        for table in t.current.tables:
            if table.state is TableState.PENDING:
                self._create(t, table)
                t, saved = self._save(t, _playing(table.match_id))
                steps += saved
            elif table.state is TableState.PLAYING:
                t, saved = self._follow_table(t, table)
                steps += saved
        number = t.current.number if t.current else 0
        t, opened = self._save(
            t,
            lambda cur: (
                tm.advance(cur, self.clock()) if cur.current and cur.current.number == number else cur
            ),
        )
        if opened:
            self._told(t)
        return steps + opened

    def _save(self, t: Tournament, change: Callable[[Tournament], Tournament]) -> tuple[Tournament, int]:
        """Save ``change`` of the tournament; 1 when this lobby's save made it (0: nothing to do, or
        another lobby made it first)."""

        def apply(cur: Tournament) -> tuple[Tournament, int]:
            new = change(cur)
            return new, int(new != cur)

        return self.repo.update(t.tournament_id, apply)

    def _create(self, t: Tournament, table: Table) -> None:
        """The table's match, unless it exists (created by another lobby, or before a restart)."""
        if MatchMeta.of(wait(self.store.get_meta(table.match_id))).exists:
            return
        bots = {seat: t.bot_level for seat, player in enumerate(table.seats) if not player}
        names = {e.player_id: e.name for e in t.entrants}
        request = MatchRequest(
            t.game,
            table.match_id,
            len(table.seats),
            dict(t.options),
            bots,
            table.seats,
            t.turn_seconds,
            names=tuple(names.get(p, "") for p in table.seats),
        )
        try:
            self.catalog.create_match(request)
        except Conflict:
            if not MatchMeta.of(wait(self.store.get_meta(table.match_id))).exists:
                raise  # refused for a reason of its own: logged, retried next tick
        log.info("tournament match created", extra=log_fields(match_id=table.match_id, game=t.game))

    def _follow_table(self, t: Tournament, table: Table) -> tuple[Tournament, int]:
        meta = MatchMeta.of(wait(self.store.get_meta(table.match_id)))
        progress, steps = meta.progress, 0
        if meta.finished and progress is not None and progress.outcome is not None:
            outcome = progress.outcome
            return self._save(t, lambda cur: tm.record(cur, table.match_id, outcome.placings, outcome.scores))
        resigned = set(progress.resigned) if progress is not None else set()
        for seat, player in enumerate(table.seats):
            if not player or (seat not in meta.away_seats and seat not in table.forfeited):
                continue
            if seat not in table.forfeited:  # recorded before the resignation, never after
                t, saved = self._save(t, _forfeit(table.match_id, seat))
                steps += saved
            if seat not in resigned:
                self.catalog.resign(t.game, table.match_id, seat, player, f"forfeit:{table.match_id}:{seat}")
                log.info("tournament forfeit", extra=log_fields(match_id=table.match_id, seat=seat))
        return t, steps

    def _told(self, t: Tournament) -> None:
        """The notices of the step this lobby saved: a round started, or the tournament ended."""
        if t.status is Status.RUNNING and t.current is not None:
            for table in t.current.tables:
                for seat, player in enumerate(table.seats):
                    if player:
                        self.notices.add(
                            player,
                            Notice(
                                NoticeKind.TOURNAMENT_ROUND_STARTED,
                                t.game,
                                table.match_id,
                                seat,
                                tournament_id=t.tournament_id,
                            ),
                        )
        elif t.status in ENDED:
            tell_ended(self.notices, t)
        log.info(
            "tournament step",
            extra=log_fields(tournament_id=t.tournament_id, status=t.status.value, round=len(t.played)),
        )

    def run(self, stopping: threading.Event, interval_s: float = 0.5) -> None:
        while not stopping.wait(interval_s):
            try:
                self.tick()
            except Exception:  # a bad tick (Redis blip) must not stop the tournaments; the next one retries
                log.exception("tournament tick failed")


def _playing(match_id: str) -> Callable[[Tournament], Tournament]:
    return lambda t: tm.mark_playing(t, match_id)


def _forfeit(match_id: str, seat: int) -> Callable[[Tournament], Tournament]:
    return lambda t: tm.forfeit(t, match_id, seat)


def tell_ended(notices: NoticeRepository, t: Tournament) -> None:
    """A TOURNAMENT_ENDED notice to every entrant, with their rank when it finished."""
    rank = {s.player_id: s.rank for s in tm.standings(t)} if t.status is Status.FINISHED else {}
    for e in t.entrants:
        notice = Notice(
            NoticeKind.TOURNAMENT_ENDED,
            t.game,
            placing=rank.get(e.player_id, 0),
            tournament_id=t.tournament_id,
        )
        notices.add(e.player_id, notice)
