"""Friends (requests, blocks, the lists) and presence, told live through the players' notices.

Guests and accounts alike have friends, by player id; an account is also found by its exact display
name (accounts' names are unique, guests' are not). Every operation is one script that checks and
writes both players' sets (``adapters/friends_repo.py``): a refusal raises with its reason code and
writes nothing. The other player is told by a notice (``domain/notices.py``): FRIEND_REQUEST,
FRIEND_ACCEPTED, or FRIENDS_CHANGED when a request or a friendship ended (a block reads as that too).

**Presence.** A player is online while they hold a WatchMyNotices stream or call the lobby: each call
and each quiet spell of a stream renews them, at most every ``ttl_s / 3`` per lobby process (one
small script); :meth:`Presence.sweep` (a lobby thread) takes offline those not renewed for
``ttl_s``. Coming online, going offline, starting a match and ending it are told to the player's
friends who are online now (FRIEND_PRESENCE; the others read presence with ListFriends), so presence
never crowds the match notices out of an offline player's capped stream. The match id is shown only
to a friend who may watch it (``PrivateMatches.may_watch``). Docs: docs/accounts.md, "Friends".

The chat and anything else that must respect blocks call :func:`is_blocked`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.lobby.adapters.friends_repo import FriendRepository
from services.lobby.adapters.match_index import PrivateMatches
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.adapters.push import PushSender
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.adapters.rooms_repo import RoomRepository
from services.lobby.domain import validation
from services.lobby.domain.friends import ONLINE_TTL_S, REFUSALS, Presence, Seen
from services.lobby.domain.notices import Notice, NoticeKind
from services.lobby.service_layer.notices import send
from shared.core.lru import keep
from shared.runtime.observability import log_fields
from shared.serving.errors import Conflict, NotFound, PermissionDenied
from shared.serving.tokens import Claims

log = logging.getLogger("tabula.lobby.friends")
Clock = Callable[[], int]  # milliseconds
RENEWALS_REMEMBERED = 100_000  # players whose last renewal a lobby process remembers (then it renews again)


def is_blocked(repo: FriendRepository, a: str, b: str) -> bool:
    """Whether either of the two players blocked the other: then neither may message the other,
    send requests or invitations, or join the other's private rooms (``FriendRepository(client)``
    is cheap to make)."""
    return repo.is_blocked(a, b)


@dataclass(frozen=True, slots=True)
class FriendSeen:
    """One entry of a player's lists: presence for friends only."""

    player_id: str
    name: str
    since_ms: int
    presence: Presence | None = None


def now_ms() -> int:
    return int(time.time() * 1000)


class PresenceService:
    """Renewing, sweeping and telling presence (see the module's docstring)."""

    def __init__(
        self,
        repo: FriendRepository,
        notices: NoticeRepository,
        ratings: RatingsRepository,
        private: PrivateMatches,
        clock: Clock = now_ms,
        ttl_s: int = ONLINE_TTL_S,
    ) -> None:
        self.repo, self.notices, self.ratings, self.private = repo, notices, ratings, private
        self.clock, self.ttl_s = clock, ttl_s
        self._renewed: OrderedDict[str, float] = OrderedDict()  # player -> monotonic time of the last renewal
        self._lock = threading.Lock()

    def cutoff(self) -> int:
        return self.clock() - self.ttl_s * 1000

    def touch(self, player_id: str) -> None:
        """The player is here: renewed unless this process renewed them less than ``ttl_s / 3`` ago."""
        now = time.monotonic()
        with self._lock:
            last = self._renewed.get(player_id)
            if last is not None and now - last < self.ttl_s / 3:
                return
            keep(self._renewed, player_id, now, RENEWALS_REMEMBERED)
        try:
            if self.repo.touch(player_id, self.clock(), self.ttl_s):
                [seen] = self.repo.seen([player_id])
                self.tell(player_id, seen)
        except Exception:  # presence must not fail the call it rides on (which finds a Redis outage itself)
            log.exception("presence renewal failed", extra=log_fields(player_id=player_id))

    def sweep(self) -> int:
        """Take offline every player not renewed for ``ttl_s``, telling their friends: how many."""
        cutoff, gone = self.cutoff(), 0
        for player in self.repo.quiet(cutoff):
            last = self.repo.sweep(player, cutoff)
            if last:
                with self._lock:
                    self._renewed.pop(player, None)  # a call now renews at once (and comes online)
                gone += 1
                self.tell(player, Seen(last))
        return gone

    def run(self, stopping: threading.Event) -> None:
        while not stopping.wait(self.ttl_s / 4):
            try:
                while self.sweep():
                    pass
            except Exception:  # a Redis blip must not stop the sweeps; the next one retries
                log.exception("presence sweep failed")

    def playing(self, player_id: str, notice: Notice) -> None:
        """A match notice was written for the player: a started or ended match changes their presence."""
        if notice.kind is NoticeKind.MATCH_STARTED:
            self.repo.playing(player_id, notice.game, notice.match_id)
        elif notice.kind is NoticeKind.MATCH_ENDED:
            self.repo.playing(player_id, "", notice.match_id)
        else:
            return
        if self.repo.online_now([player_id], self.cutoff()):
            [seen] = self.repo.seen([player_id])
            self.tell(player_id, seen)

    def shown(self, viewer: str, seen: Seen) -> Presence:
        may_watch = bool(seen.match_id) and self.private.may_watch(seen.match_id, viewer)
        return seen.shown(self.clock(), may_watch, self.ttl_s)

    def tell(self, player_id: str, seen: Seen) -> None:
        """A FRIEND_PRESENCE notice to each of the player's friends online now (not pushed)."""
        online = self.repo.online_now(self.repo.friends(player_id), self.cutoff())
        if not online:
            return
        [name] = self.ratings.names([player_id])
        for friend in online:
            p = self.shown(friend, seen)
            notice = Notice(
                NoticeKind.FRIEND_PRESENCE,
                from_player_id=player_id,
                from_name=name,
                online=int(p.online),
                playing_game=p.playing_game,
                playing_match=p.playing_match,
                last_seen_ms=p.last_seen_ms,
            )
            self.notices.add(friend, notice)


class Friends:
    """The friends calls of one player."""

    def __init__(
        self,
        repo: FriendRepository,
        presence: PresenceService,
        ratings: RatingsRepository,
        rooms: RoomRepository,
        notices: NoticeRepository,
        push: PushSender,
        clock: Clock = now_ms,
    ) -> None:
        self.repo, self.presence, self.ratings, self.rooms = repo, presence, ratings, rooms
        self.notices, self.push, self.clock = notices, push, clock

    def is_blocked(self, a: str, b: str) -> bool:
        return is_blocked(self.repo, a, b)

    # ------------------------------------------------------------ changes
    def request(self, caller: Claims, player_id: str, display_name: str) -> tuple[FriendSeen, bool]:
        """Ask a player (by id, or an account by name): (them, whether the two are friends now)."""
        if display_name:
            name = validation.display_name(display_name)
            target = self.repo.account_id(validation.name_key(name))
            if not target:
                raise NotFound("no account is named {name!r} (guests are found by player id)", name=name)
        else:
            target = self._other(caller, player_id)
        if target == caller.player_id:
            raise Conflict("yourself", "you cannot be your own friend")
        [name] = self._existing(target)
        answer = self._apply("request", caller, target)
        friends = answer == "friends"
        kind = NoticeKind.FRIEND_ACCEPTED if friends else NoticeKind.FRIEND_REQUEST
        self._tell(target, kind, caller, pushed=True)
        since = self.clock()
        presence = self._presence(caller.player_id, [target])[0] if friends else None
        return FriendSeen(target, name, since, presence), friends

    def accept(self, caller: Claims, player_id: str) -> FriendSeen:
        target = self._other(caller, player_id)
        self._apply("accept", caller, target)
        self._tell(target, NoticeKind.FRIEND_ACCEPTED, caller, pushed=True)
        [name] = self.ratings.names([target])
        return FriendSeen(target, name, self.clock(), self._presence(caller.player_id, [target])[0])

    def decline(self, caller: Claims, player_id: str) -> None:
        self._ended("decline", caller, player_id)

    def cancel(self, caller: Claims, player_id: str) -> None:
        self._ended("cancel", caller, player_id)

    def remove(self, caller: Claims, player_id: str) -> None:
        self._ended("remove", caller, player_id)

    def block(self, caller: Claims, player_id: str) -> None:
        target = self._other(caller, player_id)
        self._existing(target)
        if self._apply("block", caller, target) == "ended":
            self._tell(target, NoticeKind.FRIENDS_CHANGED, caller)

    def unblock(self, caller: Claims, player_id: str) -> None:
        self._apply("unblock", caller, self._other(caller, player_id))

    def _ended(self, operation: str, caller: Claims, player_id: str) -> None:
        target = self._other(caller, player_id)
        self._apply(operation, caller, target)
        self._tell(target, NoticeKind.FRIENDS_CHANGED, caller)

    def _other(self, caller: Claims, player_id: str) -> str:
        target = validation.identifier(player_id, "player_id")
        if target == caller.player_id:
            raise Conflict("yourself", "you cannot do that to yourself")
        return target

    def _existing(self, player_id: str) -> list[str]:
        names = self.ratings.names([player_id])
        if not names[0]:
            raise NotFound("no player {player_id!r}", player_id=player_id)
        return names

    def _apply(self, operation: str, caller: Claims, target: str) -> str:
        answer = self.repo.apply(operation, caller.player_id, target, self.clock())
        if answer in REFUSALS:
            code, template, values = REFUSALS[answer]
            raise Conflict(code, template, **values)
        return answer

    def _tell(self, player_id: str, kind: NoticeKind, caller: Claims, pushed: bool = False) -> None:
        notice = Notice(kind, from_player_id=caller.player_id, from_name=caller.name)
        notice_id = self.notices.add(player_id, notice)
        if pushed:
            send(self.push, player_id, notice_id, notice)

    # ------------------------------------------------------------ reads
    def lists(self, caller: Claims) -> tuple[list[FriendSeen], ...]:
        """(friends online first then by name, incoming, outgoing, blocked newest first); players
        whose name is gone (expired guests) are left out."""
        lists = self.repo.lists(caller.player_id)
        everyone = [p for entries in lists for p, _ in entries]
        names = dict(zip(everyone, self.ratings.names(everyone), strict=True))
        friends, incoming, outgoing, blocked = (
            [FriendSeen(p, names[p], since) for p, since in entries if names[p]] for entries in lists
        )
        presences = self._presence(caller.player_id, [f.player_id for f in friends])
        friends = _ordered(
            [FriendSeen(f.player_id, f.name, f.since_ms, p) for f, p in zip(friends, presences, strict=True)]
        )
        return friends, incoming, outgoing, blocked[::-1]

    def invitees(self, caller: Claims, room_id: str) -> list[FriendSeen]:
        """The caller's friends not seated in a room the caller sits in, online first."""
        room = self.rooms.get(validation.identifier(room_id, "room_id"))
        if room.seat_of(caller.player_id) is None:
            raise PermissionDenied("only a player seated in the room may invite to it")
        friends = self.lists(caller)[0]
        return [f for f in friends if room.seat_of(f.player_id) is None]

    def _presence(self, viewer: str, player_ids: Sequence[str]) -> list[Presence]:
        return [self.presence.shown(viewer, seen) for seen in self.repo.seen(player_ids)]


def _ordered(friends: list[FriendSeen]) -> list[FriendSeen]:
    return sorted(friends, key=lambda f: (not (f.presence and f.presence.online), f.name.casefold()))
