"""Translation between lobby protobuf messages and domain objects (no logic beyond the mapping)."""

from __future__ import annotations

from tabula.common.v1 import common_pb2
from tabula.lobby.v1 import chat_pb2, seasons_pb2
from tabula.lobby.v1 import lobby_pb2 as pb

from services.lobby.adapters.ratings_repo import HistoryItem, Standing
from services.lobby.domain.chat import Message
from services.lobby.domain.friends import Presence
from services.lobby.domain.matchmaking import TicketStatus
from services.lobby.domain.notices import NoticeKind
from services.lobby.domain.profiles import Avatar, Visibility
from services.lobby.domain.rooms import BotLevel, Room, RoomStatus, RoomVisibility
from services.lobby.domain.seasons import Season
from services.lobby.service_layer.friends import FriendSeen
from services.lobby.service_layer.matches import MatchSummary
from services.lobby.service_layer.matchmaking import TicketSeen
from services.lobby.service_layer.mine import MyMatch, Whereabouts
from services.lobby.service_layer.notices import NoticeSeen
from services.lobby.service_layer.profiles import Profile
from services.lobby.service_layer.rooms import RoomSeen
from shared.core.manifest import GameManifest, GameOption, ManifestWords, OptionType, manifest_words
from shared.core.seats import SeatInfo
from shared.serving.errors import InvalidArgument

BOT_LEVELS = {
    pb.BOT_LEVEL_RANDOM: BotLevel.RANDOM,
    pb.BOT_LEVEL_GREEDY: BotLevel.GREEDY,
    pb.BOT_LEVEL_MCTS: BotLevel.MCTS,
}
BOT_LEVEL_PB = {level: value for value, level in BOT_LEVELS.items()}
VISIBILITY = {
    pb.ROOM_VISIBILITY_PUBLIC: RoomVisibility.PUBLIC,
    pb.ROOM_VISIBILITY_PRIVATE: RoomVisibility.PRIVATE,
}
VISIBILITY_PB = {v: k for k, v in VISIBILITY.items()}
ROOM_STATUS_PB = {
    RoomStatus.OPEN: pb.ROOM_STATUS_OPEN,
    RoomStatus.STARTING: pb.ROOM_STATUS_STARTING,
    RoomStatus.STARTED: pb.ROOM_STATUS_STARTED,
    RoomStatus.CLOSED: pb.ROOM_STATUS_CLOSED,
}
OPTION_TYPE_PB = {
    OptionType.BOOL: pb.GAME_OPTION_TYPE_BOOL,
    OptionType.INT: pb.GAME_OPTION_TYPE_INT,
    OptionType.CHOICE: pb.GAME_OPTION_TYPE_CHOICE,
}
NOTICE_KIND_PB = {
    NoticeKind.YOUR_TURN: pb.NOTICE_KIND_YOUR_TURN,
    NoticeKind.MATCH_STARTED: pb.NOTICE_KIND_MATCH_STARTED,
    NoticeKind.MATCH_ENDED: pb.NOTICE_KIND_MATCH_ENDED,
    NoticeKind.INVITED: pb.NOTICE_KIND_INVITED,
    NoticeKind.FRIEND_REQUEST: pb.NOTICE_KIND_FRIEND_REQUEST,
    NoticeKind.FRIEND_ACCEPTED: pb.NOTICE_KIND_FRIEND_ACCEPTED,
    NoticeKind.FRIEND_PRESENCE: pb.NOTICE_KIND_FRIEND_PRESENCE,
    NoticeKind.FRIENDS_CHANGED: pb.NOTICE_KIND_FRIENDS_CHANGED,
    NoticeKind.TOURNAMENT_ROUND_STARTED: pb.NOTICE_KIND_TOURNAMENT_ROUND_STARTED,
    NoticeKind.TOURNAMENT_ENDED: pb.NOTICE_KIND_TOURNAMENT_ENDED,
}
TICKET_STATUS_PB = {
    TicketStatus.WAITING: pb.TICKET_STATUS_WAITING,
    TicketStatus.CLAIMED: pb.TICKET_STATUS_CLAIMED,
    TicketStatus.MATCHED: pb.TICKET_STATUS_MATCHED,
    TicketStatus.CANCELLED: pb.TICKET_STATUS_CANCELLED,
}


def bot_level(value: int, field: str, default: BotLevel | None = None) -> BotLevel:
    if value in BOT_LEVELS:
        return BOT_LEVELS[value]
    if value == pb.BOT_LEVEL_UNSPECIFIED and default is not None:
        return default
    raise InvalidArgument(
        "{field_name} must be BOT_LEVEL_RANDOM, BOT_LEVEL_GREEDY or BOT_LEVEL_MCTS", field, field_name=field
    )


def visibility(value: int) -> RoomVisibility:
    if value == pb.ROOM_VISIBILITY_UNSPECIFIED:
        return RoomVisibility.PUBLIC
    if value not in VISIBILITY:
        raise InvalidArgument(
            "visibility must be ROOM_VISIBILITY_PUBLIC or ROOM_VISIBILITY_PRIVATE", "visibility"
        )
    return VISIBILITY[value]


def room(r: Room) -> pb.Room:
    seats = [
        pb.Seat(
            index=i,
            player_id=s.player_id,
            display_name=s.name,
            bot=BOT_LEVEL_PB[s.bot] if s.bot else pb.BOT_LEVEL_UNSPECIFIED,
            ready=s.ready,
            empty=s.is_empty,
        )
        for i, s in enumerate(r.seats)
    ]
    return pb.Room(
        room_id=r.room_id,
        game=r.game,
        host_player_id=r.host,
        seats=seats,
        options=dict(r.options),
        turn_seconds=r.turn_seconds,
        visibility=VISIBILITY_PB[r.visibility],
        invite_code=r.invite_code,
        status=ROOM_STATUS_PB[r.status],
        match_id=r.match_id,
        version=r.version,
        spectators_read_chat=r.spectators_read_chat,
    )


def room_seen(seen: RoomSeen) -> pb.GetRoomResponse:
    return pb.GetRoomResponse(room=room(seen.room), seat_token=seen.seat_token)


def ticket(seen: TicketSeen) -> pb.Ticket:
    t = seen.ticket
    return pb.Ticket(
        ticket_id=t.ticket_id,
        game=t.game,
        status=TICKET_STATUS_PB[t.status],
        waited_seconds=seen.waited_s,
        match_id=t.match_id,
        seat=t.seat,
        seat_token=seen.seat_token,
    )


def standing(rank: int, s: Standing) -> pb.LeaderboardEntry:
    r = s.rating
    return pb.LeaderboardEntry(
        rank=rank,
        player_id=s.player_id,
        display_name=s.name,
        rating=r.ordinal,
        mu=r.mu,
        sigma=r.sigma,
        matches=r.matches,
    )


def history(h: HistoryItem) -> pb.HistoryEntry:
    return pb.HistoryEntry(
        match_id=h.match_id,
        game=h.game,
        seat=h.seat,
        placing=h.placing,
        seats=len(h.placings),
        placings=list(h.placings),
        finished_at_ms=h.finished_ms,
        rating_after=h.rating_after,
        season=h.season,
    )


def season(s: Season, current: str) -> seasons_pb2.Season:
    """``current``: the current season's id."""
    return seasons_pb2.Season(
        id=s.id, starts_at_ms=s.starts_ms, ends_at_ms=s.ends_ms, current=bool(current) and s.id == current
    )


def game(m: GameManifest, words: ManifestWords | None = None) -> pb.GameInfo:
    """A game as ``ListGames`` describes it, its title and descriptions in ``words``' locale (the
    manifest's English without them)."""
    words = words or manifest_words(m)
    return pb.GameInfo(
        name=m.name,
        min_seats=m.min_seats,
        max_seats=m.max_seats,
        title=words.title,
        description=words.description,
        options=[
            game_option(o, words.options.get(o.name, o.description), words.labels.get(o.name, o.shown))
            for o in m.match_options
        ],
    )


def game_option(o: GameOption, description: str | None = None, label: str | None = None) -> pb.GameOption:
    """``o`` for ``ListGames``: its description and label as given (in the caller's locale), else the
    manifest's English."""
    return pb.GameOption(
        name=o.name,
        label=o.shown if label is None else label,
        type=OPTION_TYPE_PB[o.type],
        default_value=o.default,
        description=o.description if description is None else description,
        choices=list(o.choices),
        minimum=o.minimum,
        maximum=o.maximum,
    )


def match_summary(m: MatchSummary) -> pb.MatchSummary:
    seats = [
        pb.MatchSeat(seat=s.seat, player_id=s.player_id, display_name=s.name, bot=s.bot) for s in m.seats
    ]
    return pb.MatchSummary(
        match_id=m.match_id,
        game=m.game,
        seats=seats,
        finished=m.finished,
        version=m.version,
        created_at_ms=m.created_ms,
        placings=list(m.placings),
    )


def seat(s: SeatInfo) -> common_pb2.Seat:
    return common_pb2.Seat(seat=s.seat, display_name=s.display_name, bot_level=s.bot_level, label=s.label)


def my_match(m: MyMatch) -> pb.MyMatch:
    return pb.MyMatch(
        match_id=m.match_id,
        game=m.game,
        seat=m.seat,
        seat_token=m.seat_token,
        finished=m.finished,
        my_turn=m.my_turn,
        version=m.version,
        seats=[seat(s) for s in m.seats],
        seats_to_act=list(m.to_act),
        created_at_ms=m.created_ms,
        placings=list(m.placings),
    )


def whereabouts(w: Whereabouts) -> pb.ListMyMatchesResponse:
    out = pb.ListMyMatchesResponse(matches=[my_match(m) for m in w.matches], notices_head=w.notices_head)
    if w.room is not None:
        out.room.CopyFrom(room_seen(w.room))
    if w.ticket is not None:
        out.ticket.CopyFrom(ticket(w.ticket))
    return out


def notice(seen: NoticeSeen) -> pb.Notice:
    n = seen.notice
    return pb.Notice(
        notice_id=seen.notice_id,
        kind=NOTICE_KIND_PB[n.kind],
        created_at_ms=seen.created_ms,
        game=n.game,
        match_id=n.match_id,
        seat=n.seat if n.is_about_a_match or n.kind is NoticeKind.TOURNAMENT_ROUND_STARTED else 0,
        version=n.version,
        placing=n.placing,
        seat_token=seen.seat_token,
        room_id=n.room_id,
        invite_code=n.invite_code,
        from_player_id=n.from_player_id,
        from_display_name=n.from_name,
        presence=(
            presence(Presence(bool(n.online), n.playing_game, n.playing_match, n.last_seen_ms))
            if n.kind is NoticeKind.FRIEND_PRESENCE
            else None
        ),
        tournament_id=n.tournament_id,
    )


def presence(p: Presence) -> pb.FriendPresence:
    return pb.FriendPresence(
        online=p.online,
        playing_game=p.playing_game,
        playing_match_id=p.playing_match,
        last_seen_ms=p.last_seen_ms,
    )


def friend(f: FriendSeen) -> pb.Friend:
    return pb.Friend(
        player_id=f.player_id,
        display_name=f.name,
        since_ms=f.since_ms,
        presence=presence(f.presence) if f.presence is not None else None,
    )


def chat_message(m: Message, channel: str, reader: str) -> chat_pb2.ChatMessage:
    """A stored message as ``reader`` gets it: the client message id only for its writer."""
    return chat_pb2.ChatMessage(
        message_id=m.message_id,
        channel=channel,
        player_id=m.player_id,
        display_name=m.name,
        text=m.text,
        sent_at_ms=m.sent_ms,
        client_message_id=m.client_id if m.player_id == reader else "",
    )


# ------------------------------------------------------------ profiles
PROFILE_VISIBILITY = {
    pb.PROFILE_VISIBILITY_EVERYONE: Visibility.EVERYONE,
    pb.PROFILE_VISIBILITY_FRIENDS: Visibility.FRIENDS,
    pb.PROFILE_VISIBILITY_NOBODY: Visibility.NOBODY,
}
PROFILE_VISIBILITY_PB = {v: k for k, v in PROFILE_VISIBILITY.items()}


def profile_visibility(value: int) -> Visibility | None:
    """UNSPECIFIED: unchanged (None)."""
    if value == pb.PROFILE_VISIBILITY_UNSPECIFIED:
        return None
    if value not in PROFILE_VISIBILITY:
        raise InvalidArgument("visibility must be a ProfileVisibility", "visibility")
    return PROFILE_VISIBILITY[value]


def visibility_pb(value: Visibility | None) -> pb.ProfileVisibility.ValueType:
    return PROFILE_VISIBILITY_PB[value] if value is not None else pb.PROFILE_VISIBILITY_UNSPECIFIED


def avatar(a: Avatar) -> pb.Avatar:
    return pb.Avatar(avatar_id=a.avatar_id, description=a.description, shape=a.shape, colour=a.colour)


def profile(p: Profile) -> pb.GetProfileResponse:
    return pb.GetProfileResponse(
        player_id=p.player_id,
        display_name=p.name,
        avatar_id=p.avatar,
        account=p.account,
        visible=p.visible,
        visibility=visibility_pb(p.visibility),
        ratings=[
            pb.ProfileRating(game=g, rating=r.ordinal, mu=r.mu, sigma=r.sigma, matches=r.matches)
            for g, r in p.ratings
        ],
        recent=[history(h) for h in p.recent],
    )
