"""Players' notices: written from the outbox by :class:`NoticeProjector`, read by ``WatchMyNotices``.

The projector is the ``lobby-notices`` consumer group on every outbox shard, read by the shared
follower (``shared.store.outbox``), like the ratings projector. For each append with recorded progress
it reads who plays which seat from the match meta and decides the notices (``domain/notices.py``):
match started, your turn, match ended. No game code is loaded. They are written with what was seen
of the match in one compare-and-set script, then handed to the push hook (``adapters/push.py``).

Seat tokens are never stored: a reader gets a fresh one with each match notice (read time).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from prometheus_client import Counter

from services.lobby.adapters import keys
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.adapters.push import PushSender
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.adapters.rooms_repo import RoomRepository
from services.lobby.domain import validation
from services.lobby.domain.notices import Acting, Append, Notice, NoticeKind, match_notices
from services.lobby.domain.rooms import RoomStatus
from services.lobby.service_layer.identity import Identity
from services.lobby.service_layer.outbox_group import OutboxGroup
from shared.core.lru import keep
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.serving.errors import Conflict, InvalidArgument, NotFound, PermissionDenied
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta, MatchStatus, OutboxNotice

log = logging.getLogger("tabula.lobby.notices")
PUSHED = Counter("tabula_push_total", "Notices handed to the push hook, by result", ["result"])
PUBLISH_RETRIES = 50
# matches remembered: their players (set once at CreateMatch), and the acting value last written here
PLAYERS_CACHED = 4096


class NoticeProjector(OutboxGroup):
    def __init__(
        self,
        store: EventStore,
        repo: NoticeRepository,
        push: PushSender,
        consumer: str,
        group: str = keys.NOTICES_GROUP,
        block_ms: int = 500,
        linger_ms: int = 0,
        told: Callable[[str, Notice], None] | None = None,
    ) -> None:
        """``told(player, notice)``: called after each match notice is written (presence follows
        matches started and ended)."""
        self.store, self.repo, self.push = store, repo, push
        self.told = told
        self.follow(store, group, consumer, self.queue, block_ms, linger_ms, after_page=self.flush)
        self._players: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._written: OrderedDict[str, str] = OrderedDict()  # match -> the acting value last written here
        self._page: list[Append] = []  # queued by queue(), written by flush()

    def handle(self, notice: OutboxNotice) -> None:
        """One notice, written at once (the follower queues a page and flushes it after the page)."""
        self.queue(notice)
        self.flush()

    def queue(self, notice: OutboxNotice) -> None:
        progress = notice.progress
        if progress is None:
            return  # written before progress was recorded: nothing to decide from
        players = self.players(notice.match_id)
        if not any(players):
            return  # bots only: nobody to tell
        finished = progress.status is MatchStatus.FINISHED
        placings = tuple(progress.outcome.placings) if progress.outcome is not None else ()
        append = Append(
            notice.game,
            notice.match_id,
            players,
            notice.first_version,
            notice.last_version,
            tuple(seat for seat in progress.to_act if seat not in progress.resigned),  # a bot plays those
            finished,
            placings,
            notice.was,
        )
        self._page.append(append)

    def flush(self) -> None:
        """Decide the queued appends in order and write them in one round trip (``publish_many``).

        Each match's acting value comes from what this projector wrote last, else from one read of
        all the unknown ones together. Every append is written, even one that tells nobody anything:
        the compare-and-set is what finds out that another writer came in between (this memory
        then being stale). Such a write is decided again alone, reading what Redis holds
        (:meth:`_publish`); the writes of the same match after it then fail the same way and are
        decided again too, in order."""
        page, self._page = self._page, []
        unknown = list(dict.fromkeys(a.match_id for a in page if a.match_id not in self._written))
        expected = dict(zip(unknown, self.repo.acting_many(unknown), strict=True)) if unknown else {}
        writes: list[tuple[Append, str, str, list[tuple[str, Notice]]]] = []
        for append in page:
            seen = expected.get(append.match_id, self._written.get(append.match_id, ""))
            before = Acting.decode(seen) if seen else None
            notices = match_notices(append, before)
            if notices is None:
                continue  # this append or a newer one was handled already
            now = Acting(append.last_version, append.to_act).encode()
            writes.append((append, seen, now, notices))
            expected[append.match_id] = now
        if not writes:
            return
        done = self.repo.publish_many([(a.match_id, seen, now, n) for a, seen, now, n in writes])
        for (append, _, now, notices), ids in zip(writes, done, strict=True):
            if ids is None:
                self._written.pop(append.match_id, None)
                self._publish(append)
                continue
            self._remember(append.match_id, now)
            self._sent(ids, notices)

    def players(self, match_id: str) -> tuple[str, ...]:
        """Who plays each seat ('' for a bot): the meta's players, written once by CreateMatch, so they
        are read once per match, not once per notice (a Redis round trip saved on every command)."""
        found = self._players.get(match_id)
        if found is not None:
            self._players.move_to_end(match_id)
            return found
        found = tuple(seat.player_id for seat in MatchMeta.of(wait(self.store.get_meta(match_id))).seat_infos)
        if found:  # a meta not written yet is read again next time
            keep(self._players, match_id, found, PLAYERS_CACHED)
        return found

    def _publish(self, append: Append) -> None:
        now = Acting(append.last_version, append.to_act).encode()
        # What this projector last wrote for the match stands in for reading it: the script compares it,
        # and if another writer came since (or it expired) the loop reads the real value and decides
        # again. The value in Redis is never older than what was written here, so "handled already"
        # from the remembered one holds too.
        seen = self._written.pop(append.match_id, None)
        for _ in range(PUBLISH_RETRIES):
            if seen is None:
                seen = self.repo.acting(append.match_id)
            notices = match_notices(append, Acting.decode(seen) if seen else None)
            if notices is None:
                return  # this append or a newer one was handled already
            ids = self.repo.publish(append.match_id, seen, now, notices)
            if ids is not None:
                self._remember(append.match_id, now)
                self._sent(ids, notices)
                return
            seen = None
        raise Conflict("busy_notices", "match {match_id} kept changing; will retry", match_id=append.match_id)

    def _sent(self, ids: list[str], notices: list[tuple[str, Notice]]) -> None:
        for notice_id, (player, notice) in zip(ids, notices, strict=True):
            send(self.push, player, notice_id, notice)
            if self.told is not None:
                try:
                    self.told(player, notice)
                except Exception:  # presence is second to the notices, which are stored already
                    log.exception("presence after a notice failed", extra=log_fields(player_id=player))

    def _remember(self, match_id: str, acting: str) -> None:
        keep(self._written, match_id, acting, PLAYERS_CACHED)  # the least recently written goes first


def send(push: PushSender, player_id: str, notice_id: str, notice: Notice) -> None:
    """Hand one stored notice to the push hook; a provider's failure is logged, never retried."""
    try:
        push.send(player_id, notice_id, notice)
    except Exception:  # a provider outage must not stop the notices (they are stored already)
        PUSHED.labels("failed").inc()
        log.exception("push failed", extra=log_fields(player_id=player_id, notice_id=notice_id))
        return
    PUSHED.labels("sent").inc()


@dataclass(frozen=True, slots=True)
class NoticeSeen:
    """A stored notice as its player reads it, with a fresh seat token when it is about a match."""

    notice_id: str
    notice: Notice
    seat_token: str

    @property
    def created_ms(self) -> int:
        head = self.notice_id.partition("-")[0]
        return int(head) if head.isdigit() else 0


class Notices:
    """Reading one's notices, and inviting a player to a room."""

    def __init__(
        self,
        repo: NoticeRepository,
        rooms: RoomRepository,
        ratings: RatingsRepository,
        identity: Identity,
        push: PushSender,
        blocks: Callable[[str, str], bool] | None = None,
    ) -> None:
        """``blocks(a, b)``: whether ``a`` blocked ``b`` (``FriendRepository.has_blocked``)."""
        self.repo, self.rooms, self.ratings, self.identity, self.push = repo, rooms, ratings, identity, push
        self.blocks = blocks

    def head(self, player_id: str) -> str:
        return self.repo.head(player_id)

    def watch(self, caller: Claims, after: str, block_ms: int) -> Iterator[list[NoticeSeen] | None]:
        """Notices after ``after`` (or, if empty, after the newest now) as they come; None: a quiet
        ``block_ms``. Runs until the client goes away."""
        start = validation.notice_id(after, "after") or self.repo.head(caller.player_id)
        return self._follow(caller.player_id, start, block_ms)

    def _follow(self, player_id: str, after: str, block_ms: int) -> Iterator[list[NoticeSeen] | None]:
        while True:
            found = self.repo.read(player_id, after, block_ms)
            if not found:
                yield None
                continue
            after = found[-1][0]
            yield [NoticeSeen(notice_id, n, self._token(player_id, n)) for notice_id, n in found]

    def _token(self, player_id: str, notice: Notice) -> str:
        if not notice.is_about_a_match:
            return ""
        return self.identity.seat_token(notice.game, player_id, notice.match_id, notice.seat)

    def invite(self, caller: Claims, room_id: str, player_id: str) -> None:
        """A seated player asks another to their open room; the invitee gets an INVITED notice."""
        validation.identifier(room_id, "room_id")
        invitee = validation.identifier(player_id, "player_id")
        room = self.rooms.get(room_id)
        if room.seat_of(caller.player_id) is None:
            raise PermissionDenied("only a player seated in the room may invite to it")
        if invitee == caller.player_id:
            raise InvalidArgument("you cannot invite yourself", "player_id")
        if room.status is not RoomStatus.OPEN:
            raise Conflict(f"room_{room.status.value}", "the room is {status}", status=room.status.value)
        if room.seat_of(invitee) is not None:
            raise Conflict("already_in_room", "that player already sits in the room")
        if not self.ratings.names([invitee])[0]:
            raise NotFound("no player {invitee!r}", invitee=invitee)
        if self.blocks is not None and self.blocks(invitee, caller.player_id):
            raise Conflict("blocked", "this player does not take requests or invitations from you")
        if self.blocks is not None and self.blocks(caller.player_id, invitee):
            raise Conflict("you_blocked", "you blocked this player: unblock them first")
        self.identity.private.invite(room.room_id, invitee)  # a private room's invitee may watch its match
        notice = Notice(
            NoticeKind.INVITED,
            room.game,
            room_id=room.room_id,
            invite_code=room.invite_code,
            from_player_id=caller.player_id,
            from_name=caller.name,
        )
        send(self.push, invitee, self.repo.add(invitee, notice), notice)
