"""Matchmaking use cases (enqueue, cancel, watch) and the matcher that ticks in every lobby.

Each tick, per game: take the game's queue lock (so instances do not do the same work),
group the waiting tickets (pure), claim each group with one script (which is what keeps a
player out of two matches even if the lock expires mid-tick), create the match on the rule
service, then mark the tickets matched, or put them back in the queue if that failed.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from services.lobby.adapters.games import GameCatalog, MatchRequest
from services.lobby.adapters.queue_repo import QueueRepository
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.domain import validation
from services.lobby.domain.matchmaking import Group, Policy, Ticket, TicketStatus, form_groups
from services.lobby.domain.rooms import BotLevel
from services.lobby.service_layer.identity import Identity
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.serving.errors import Conflict, InvalidArgument, PermissionDenied, Unavailable
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta

log = logging.getLogger("tabula.lobby.matcher")
Clock = Callable[[], int]  # milliseconds
MAX_BOT_FILL_S = 3600
STALE_CLAIM_MS = 60_000  # far beyond a CreateMatch deadline: the claiming matcher has died


@dataclass(frozen=True, slots=True)
class TicketSeen:
    ticket: Ticket
    waited_s: float
    seat_token: str


@dataclass(frozen=True, slots=True)
class QueueRequest:
    game: str
    counts: Sequence[int]
    bot_fill_after_s: int
    bot_level: BotLevel
    options: Mapping[str, str]
    turn_seconds: int


class QueueService:
    def __init__(
        self,
        repo: QueueRepository,
        ratings: RatingsRepository,
        catalog: GameCatalog,
        identity: Identity,
        clock: Clock,
    ) -> None:
        self.repo, self.ratings, self.catalog, self.identity, self.clock = (
            repo,
            ratings,
            catalog,
            identity,
            clock,
        )

    def enqueue(self, caller: Claims, request: QueueRequest) -> Ticket:
        info, rules = self.catalog.manifest(request.game), self.catalog.rules(request.game)
        counts = validation.seat_counts(request.counts, info)
        checked = [validation.game_options(request.options, count, info, rules) for count in counts]
        validation.turn_seconds(request.turn_seconds)
        if not 0 <= request.bot_fill_after_s <= MAX_BOT_FILL_S:
            raise InvalidArgument(
                "bot_fill_after_seconds is 0 (never) to {most}", "bot_fill_after_seconds", most=MAX_BOT_FILL_S
            )
        rating = self.ratings.rating(request.game, caller.player_id).mu
        ticket = Ticket(
            uuid.uuid4().hex,
            caller.player_id,
            request.game,
            rating,
            counts,
            self.clock(),
            request.bot_fill_after_s,
            request.bot_level,
            tuple(sorted(checked[0].items())),  # parsed (canonical, defaults in): equal choices match
            request.turn_seconds,
        )
        self.repo.add(ticket)
        return ticket

    def cancel(self, caller: Claims, ticket_id: str) -> None:
        self.repo.cancel(validation.identifier(ticket_id, "ticket_id"), caller.player_id)

    def watch(self, caller: Claims, ticket_id: str, block_ms: int) -> Iterator[TicketSeen | None]:
        """The ticket now and after each change (None: a quiet ``block_ms``); ends matched or cancelled."""
        ticket = self.repo.get(validation.identifier(ticket_id, "ticket_id"))
        if ticket.player_id != caller.player_id:
            raise PermissionDenied("this ticket belongs to another player")
        return self._follow(ticket_id, block_ms)

    def _follow(self, ticket_id: str, block_ms: int) -> Iterator[TicketSeen | None]:
        changes, sent = self.repo.watch(ticket_id, block_ms), None
        while True:
            ticket = self.repo.get(ticket_id)
            if ticket.status != sent:
                sent = ticket.status
                yield self.seen(ticket)
            if ticket.status in (TicketStatus.MATCHED, TicketStatus.CANCELLED):
                return
            if not next(changes):
                yield None

    def seen(self, ticket: Ticket) -> TicketSeen:
        token = ""
        if ticket.status is TicketStatus.MATCHED:
            token = self.identity.seat_token(ticket.game, ticket.player_id, ticket.match_id, ticket.seat)
        return TicketSeen(ticket, ticket.waited_s(self.clock()), token)


class Matcher:
    """Groups and starts matches; also finishes the work of a matcher that died mid-start."""

    def __init__(
        self,
        repo: QueueRepository,
        catalog: GameCatalog,
        clock: Clock,
        store: EventStore,
        policy: Policy | None = None,
        lock_ms: int = 30_000,
        ratings: RatingsRepository | None = None,
    ) -> None:
        self.repo, self.catalog, self.clock, self.store = repo, catalog, clock, store
        self.policy = policy or Policy()
        self.lock_ms = lock_ms
        self.ratings = ratings  # display names for the match (None: seats shown by number)

    def tick(self) -> int:
        """One pass over every game's queue; returns the number of matches created."""
        return sum(self.tick_game(game) for game in self.catalog.names())

    def tick_game(self, game: str) -> int:
        token = self.repo.lock(game, self.lock_ms)
        if token is None:
            return 0  # another lobby instance is matching this game right now
        try:
            self._recover(game)
            tickets = self.repo.waiting(game)
            groups = form_groups(tickets, self.clock(), self.policy) if tickets else []
            return sum(self._start(group) for group in groups)
        finally:
            self.repo.unlock(game, token)

    def _start(self, group: Group) -> int:
        match_id = uuid.uuid4().hex
        if not self.repo.claim(group.tickets, match_id, self.clock()):
            return 0  # a ticket was cancelled or taken since it was read
        humans = [t.player_id for t in group.tickets]
        names = self.ratings.names(humans) if self.ratings is not None else []
        try:
            self.catalog.create_match(_match_request(group, match_id, names))
        except (Conflict, Unavailable):
            self.repo.release(group.tickets, match_id)
            return 0
        self.repo.complete(group.tickets, match_id)
        log.info(
            "matched",
            extra=log_fields(
                match_id=match_id, game=group.tickets[0].game, seats=group.seats, bots=group.bots
            ),
        )
        return 1

    def _recover(self, game: str) -> None:
        """Claims older than STALE_CLAIM_MS: seat them if their match exists, else queue them again."""
        for match_id, tickets in self.repo.stale_claims(game, self.clock() - STALE_CLAIM_MS).items():
            players = MatchMeta.of(wait(self.store.get_meta(match_id))).players
            if not all(t.player_id in players for t in tickets):
                self.repo.release(tickets, match_id)
                continue
            self.repo.complete(tickets, match_id, [players.index(t.player_id) for t in tickets])
            log.warning("recovered a stale claim", extra=log_fields(match_id=match_id, game=game))

    def run(self, stopping: threading.Event, interval_s: float = 0.5) -> None:
        while not stopping.wait(interval_s):
            try:
                self.tick()
            except Exception:  # a bad tick (Redis blip) must not stop matchmaking; the next one retries
                log.exception("matcher tick failed")


def _match_request(group: Group, match_id: str, names: Sequence[str]) -> MatchRequest:
    first = group.tickets[0]
    humans = tuple(t.player_id for t in group.tickets)
    bots = {seat: group.bot_level.value for seat in range(len(humans), group.seats)}
    return MatchRequest(
        first.game,
        match_id,
        group.seats,
        dict(first.options),
        bots,
        humans + ("",) * group.bots,
        first.turn_seconds,
        names=(*names, *("",) * (group.seats - len(names))),
    )
