"""Chat use cases: who reads and writes which channel, sending once, pages, live reads, mutes and
reports (docs/chat.md).

| channel | reads | writes |
|---|---|---|
| ``room:<room>`` | the humans seated in the room | the same, unless the host silenced them |
| ``match:<match>`` | the match's players; its spectators too if its room allowed it | the players |
| ``spectators:<match>`` | whoever may watch the match, and its players | the same but its players |
| ``dm:<a>:<b>`` | the two players | the two, while :meth:`Chat.may_message` allows it |

A match's players are its meta's (written by CreateMatch), its spectators whoever may get a spectator
token for it (``match_index.PrivateMatches``). Messages are never written into a match's stream, and
nothing a channel holds comes from a match's hidden information.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from services.lobby.adapters.chat_repo import ChatRepository, context_json
from services.lobby.adapters.friends_repo import FriendRepository
from services.lobby.adapters.match_index import PrivateMatches
from services.lobby.adapters.rooms_repo import RoomRepository
from services.lobby.domain import chat, validation
from services.lobby.domain.chat import Channel, ChannelKind, Message
from shared.runtime.edge import wait
from shared.serving.errors import Conflict, InvalidArgument, NotFound, PermissionDenied
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta

Limit = Callable[[], None]  # takes one from the caller's chat rate limit, or raises ResourceExhausted


@dataclass(frozen=True, slots=True)
class Access:
    read: bool
    write: bool
    host: str = ""  # a room channel's host


def not_member(channel: Channel, why: str = "") -> Conflict:
    return Conflict("chat_not_member", why or f"you are not a member of {channel.name}")


class Chat:
    def __init__(
        self,
        repo: ChatRepository,
        rooms: RoomRepository,
        store: EventStore,
        private: PrivateMatches,
        friends: FriendRepository,
    ) -> None:
        self.repo, self.rooms, self.store, self.private = repo, rooms, store, private
        self.friends = friends

    # ------------------------------------------------------------ who may
    def may_message(self, sender: str, recipient: str) -> bool:
        """Whether ``sender`` may write to ``recipient`` in their direct channel: while they are
        friends and neither blocked the other (a block ends a friendship, and is checked anyway). The
        one place direct messages are allowed."""
        return self.friends.are_friends(sender, recipient) and not self.friends.is_blocked(sender, recipient)

    def access(self, player_id: str, channel: Channel) -> Access:
        """What ``player_id`` may do in ``channel``; ``chat_unknown_channel`` when its room or match
        does not exist."""
        match channel.kind:
            case ChannelKind.ROOM:
                try:
                    room = self.rooms.get(channel.target)
                except NotFound:
                    raise unknown(channel) from None
                seated = room.seat_of(player_id) is not None
                return Access(seated, seated, room.host)
            case ChannelKind.MATCH | ChannelKind.SPECTATORS:
                meta = MatchMeta.of(wait(self.store.get_meta(channel.target)))
                if not meta.game:
                    raise unknown(channel)
                player = player_id in meta.players
                watcher = not player and self.private.may_watch(channel.target, player_id)
                if channel.kind is ChannelKind.SPECTATORS:
                    return Access(player or watcher, watcher)
                return Access(player or (watcher and self.repo.is_open(channel.target)), player)
            case ChannelKind.DM:
                if player_id not in channel.pair:
                    return Access(False, False)
                other = channel.other if player_id == channel.target else channel.target
                return Access(True, self.may_message(player_id, other))

    def _reader(self, caller: Claims, raw: str) -> tuple[Channel, Access]:
        channel = chat.channel(raw)
        access = self.access(caller.player_id, channel)
        if not access.read:
            raise not_member(channel)
        return channel, access

    # ------------------------------------------------------------ writing
    def send(
        self, caller: Claims, raw: str, text: str, client_id: str, limit: Limit
    ) -> tuple[Channel, Message]:
        """Store one message (once per client id); refused ones store nothing."""
        channel, cleaned = chat.channel(raw), chat.text(text)
        client_id = chat.client_message_id(client_id)
        access = self.access(caller.player_id, channel)
        if not access.write:
            if access.read:
                raise not_member(channel, f"you read {channel.name} but may not write there")
            raise not_member(channel)
        if self.repo.silenced(channel.name, caller.player_id):
            raise Conflict("chat_muted", "the host has muted you in {name}", name=channel.name)
        limit()
        stored, _ = self.repo.add(
            channel.name, Message("", caller.player_id, caller.name, cleaned, client_id)
        )
        return channel, stored

    # ------------------------------------------------------------ reading
    def page(
        self, caller: Claims, raw: str, before: str, after: str, limit: int
    ) -> tuple[Channel, list[Message], str]:
        """A page, oldest first, without the caller's muted players' messages; and the channel's head."""
        channel, _ = self._reader(caller, raw)
        before, after = chat.message_id(before, "before"), chat.message_id(after, "after")
        most = validation.limit(limit, 50, 200)
        hidden = self.repo.muted_by(channel.name, caller.player_id)
        head = self.repo.head(channel.name)
        out: list[Message] = []
        if after:  # forwards from `after`
            while len(out) < most:
                found = self.repo.after(channel.name, after, before, most)
                out += [m for m in found if m.player_id not in hidden][: most - len(out)]
                if len(found) < most:
                    break
                after = found[-1].message_id
            return channel, out, head
        while len(out) < most:  # backwards from `before` (or the newest)
            found = self.repo.newest(channel.name, before, most)
            out += [m for m in found if m.player_id not in hidden][: most - len(out)]
            if len(found) < most:
                break
            before = found[-1].message_id
        return channel, out[::-1], head

    def watch(
        self, caller: Claims, raw: str, after: str, block_ms: int
    ) -> tuple[Channel, Iterator[list[Message] | None]]:
        """Messages after ``after`` ("": after the newest now) as they come; None: a quiet ``block_ms``,
        after which the caller's access is checked again (a player who left a room stops reading it)."""
        channel, _ = self._reader(caller, raw)
        start = chat.message_id(after, "after") or self.repo.head(channel.name)
        return channel, self._follow(caller, channel, start, block_ms)

    def _follow(
        self, caller: Claims, channel: Channel, after: str, block_ms: int
    ) -> Iterator[list[Message] | None]:
        while True:
            found = self.repo.read(channel.name, after, block_ms)
            if not found:
                if not self.access(caller.player_id, channel).read:
                    raise not_member(channel)
                yield None
                continue
            after = found[-1].message_id
            hidden = self.repo.muted_by(channel.name, caller.player_id)
            yield [m for m in found if m.player_id not in hidden]

    # ------------------------------------------------------------ mutes and reports
    def mute(self, caller: Claims, raw: str, player_id: str, muted: bool, for_everyone: bool) -> None:
        channel, access = self._reader(caller, raw)
        target = validation.identifier(player_id, "player_id")
        if target == caller.player_id:
            raise InvalidArgument("you cannot mute yourself", "player_id")
        if not for_everyone:
            self.repo.mute(channel.name, caller.player_id, target, muted)
            return
        if channel.kind is not ChannelKind.ROOM or access.host != caller.player_id:
            raise PermissionDenied("only a room's host mutes a player for everyone, in the room's channel")
        self.repo.silence(channel.name, target, muted)

    def report(self, caller: Claims, raw: str, message_id: str, reason: str, limit: Limit) -> str:
        """Record a message with the ``chat.CONTEXT`` messages before it for moderators; the report id."""
        channel, _ = self._reader(caller, raw)
        wanted = chat.message_id(message_id, "message_id")
        why = chat.clean(reason)
        if not wanted:
            raise InvalidArgument("message_id is required", "message_id")
        if len(why) > chat.MAX_TEXT:
            raise InvalidArgument("reason is at most {most} characters", "reason", most=chat.MAX_TEXT)
        message = self.repo.get(channel.name, wanted)
        if message is None:
            raise Conflict(
                "chat_unknown_message",
                "no message {wanted} in {name} (or no longer kept)",
                wanted=wanted,
                name=channel.name,
            )
        limit()
        before = self.repo.newest(channel.name, wanted, chat.CONTEXT)[::-1]
        return self.repo.report(
            {
                "channel": channel.name,
                "message_id": message.message_id,
                "reporter": caller.player_id,
                "reporter_name": caller.name,
                "reason": why,
                "message": context_json([message]),
                "context": context_json(before),
            }
        )


def unknown(channel: Channel) -> Conflict:
    return Conflict(
        "chat_unknown_channel", "no {kind} {target!r}", kind=channel.kind.value, target=channel.target
    )
