"""The gRPC LobbyService: authenticate, limit, translate, call one use case, translate back.

Limits (``shared/serving/ratelimit.py``): sign-ins per client address (the guest's, and every account
call that stands for one: SignUp, SignIn, RefreshSession, SignOut, UpgradeGuest, VerifyEmail,
RequestPasswordReset, ResetPassword, StartExternalSignIn, CompleteExternalSignIn); room and
tournament creations, joins (JoinRoom, Enqueue, RegisterForTournament), friends changes, chat
messages and reports, and watch streams per address and per player; open watch streams per token.
Password tries and mail have their own (``service_layer/accounts.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

import grpc
from tabula.common.v1 import common_pb2
from tabula.lobby.v1 import analysis_pb2 as apb
from tabula.lobby.v1 import chat_pb2, seasons_pb2
from tabula.lobby.v1 import lobby_pb2 as pb

from services.lobby.domain.rooms import BotLevel
from services.lobby.entrypoints import analysis, convert
from services.lobby.entrypoints.tournaments import TournamentRpcs
from services.lobby.service_layer.accounts import Accounts, Session
from services.lobby.service_layer.analysis import Analyses
from services.lobby.service_layer.chat import Chat
from services.lobby.service_layer.external import ExternalSignIn
from services.lobby.service_layer.friends import Friends
from services.lobby.service_layer.identity import Identity
from services.lobby.service_layer.matches import MatchList
from services.lobby.service_layer.matchmaking import QueueRequest, QueueService
from services.lobby.service_layer.mine import MyMatches
from services.lobby.service_layer.notices import Notices
from services.lobby.service_layer.profiles import Profiles
from services.lobby.service_layer.projections import Standings
from services.lobby.service_layer.rooms import RoomService
from services.lobby.service_layer.tournaments import TournamentService
from services.lobby.texts import TEXTS
from shared.core.i18n import locale_of
from shared.runtime.edge import wait
from shared.serving import bounds
from shared.serving.errors import Conflict, InvalidArgument, Unavailable
from shared.serving.game_service import bearer
from shared.serving.grpc_server import Registration, rpc, stream_rpc
from shared.serving.ratelimit import Limiter, client_address
from shared.serving.refusals import game_words
from shared.serving.tokens import Claims

Ctx: TypeAlias = grpc.ServicerContext
T = TypeVar("T")


@dataclass
class LobbyServicer(TournamentRpcs):
    identity: Identity
    rooms: RoomService
    queue: QueueService
    standings: Standings
    keepalive_ms: int
    matches: MatchList
    mine: MyMatches
    notices: Notices
    accounts: Accounts
    friends: Friends
    chat: Chat
    profiles: Profiles
    limiter: Limiter | None = None  # None: no limits (tests of other things)
    external: ExternalSignIn | None = None  # None: no sign-in providers
    analyses: Analyses | None = None  # None: no analysis queue
    tournaments: TournamentService | None = None  # None: no tournaments (tests of other things)

    def _caller(self, context: Ctx) -> Claims:
        """The caller's player token checked; the caller counts as online (presence)."""
        caller = self.identity.guest(bearer(context))
        self.friends.presence.touch(caller.player_id)
        return caller

    def _limit(self, action: str, context: Ctx, caller: Claims | None = None) -> None:
        if self.limiter is not None:
            wait(self.limiter.check(action, context, caller.player_id if caller is not None else ""))

    def _address(self, context: Ctx) -> str:
        """The caller's address, for the password tries' limit (``ratelimit.client_address``)."""
        keys = self.limiter.keys if self.limiter is not None else None
        return client_address(context.peer(), context.invocation_metadata(), keys)

    def _watch(self, caller: Claims, context: Ctx, stream: Iterator[T]) -> Iterator[T]:
        """A watch stream: the watch rate limits, then the token's open-stream quota; it ends when
        the caller has gone."""
        if self.limiter is not None:
            self._limit("watch", context, caller)
            stream = self.limiter.watching(caller.token_id, stream, context.add_callback)
        return itertools.takewhile(lambda _: context.is_active(), stream)

    # ------------------------------------------------------------ identity
    @rpc("lobby")
    def SignInGuest(self, request: pb.SignInGuestRequest, context: Ctx) -> pb.SignInGuestResponse:
        self._limit("sign_in", context)
        player_id, token, expires_at = self.identity.sign_in(request.display_name)
        return pb.SignInGuestResponse(player_id=player_id, token=token, expires_at=expires_at)

    # ------------------------------------------------------------ accounts
    @rpc("lobby")
    def SignUp(self, request: pb.SignUpRequest, context: Ctx) -> pb.SignUpResponse:
        self._limit("sign_in", context)
        session = self.accounts.sign_up(request.email, request.password, request.display_name)
        return pb.SignUpResponse(session=_session(session))

    @rpc("lobby")
    def SignIn(self, request: pb.SignInRequest, context: Ctx) -> pb.SignInResponse:
        self._limit("sign_in", context)
        session = self.accounts.sign_in(request.email, request.password, self._address(context))
        return pb.SignInResponse(session=_session(session))

    @rpc("lobby")
    def RefreshSession(self, request: pb.RefreshSessionRequest, context: Ctx) -> pb.RefreshSessionResponse:
        self._limit("sign_in", context)
        return pb.RefreshSessionResponse(session=_session(self.accounts.refresh(request.refresh_token)))

    @rpc("lobby")
    def SignOut(self, request: pb.SignOutRequest, context: Ctx) -> pb.SignOutResponse:
        self._limit("sign_in", context)
        self.accounts.sign_out(request.refresh_token, request.everywhere)
        return pb.SignOutResponse()

    @rpc("lobby")
    def ChangePassword(self, request: pb.ChangePasswordRequest, context: Ctx) -> pb.ChangePasswordResponse:
        caller = self._caller(context)
        session = self.accounts.change_password(
            caller, request.current_password, request.new_password, self._address(context)
        )
        return pb.ChangePasswordResponse(session=_session(session))

    @rpc("lobby")
    def UpgradeGuest(self, request: pb.UpgradeGuestRequest, context: Ctx) -> pb.UpgradeGuestResponse:
        caller = self._caller(context)
        self._limit("sign_in", context)
        session = self.accounts.upgrade(caller, request.email, request.password, request.display_name)
        return pb.UpgradeGuestResponse(session=_session(session))

    @rpc("lobby")
    def GetAccount(self, request: pb.GetAccountRequest, context: Ctx) -> pb.GetAccountResponse:
        account = self.accounts.get(self._caller(context))
        avatar, visibility = self.profiles.settings(account.player_id)
        by_issuer = {p.issuer: p.name for p in self.external.listed()} if self.external else {}
        return pb.GetAccountResponse(
            player_id=account.player_id,
            email=account.email,
            email_verified=account.verified,
            display_name=account.name,
            avatar_id=avatar,
            visibility=convert.visibility_pb(visibility),
            external_providers=[by_issuer[i] for i in account.issuers if i in by_issuer],
            has_password=bool(account.password),
        )

    @rpc("lobby")
    def VerifyEmail(self, request: pb.VerifyEmailRequest, context: Ctx) -> pb.VerifyEmailResponse:
        self._limit("sign_in", context)
        player_id, email = self.accounts.verify_email(request.code)
        return pb.VerifyEmailResponse(player_id=player_id, email=email)

    @rpc("lobby")
    def RequestEmailVerification(
        self, request: pb.RequestEmailVerificationRequest, context: Ctx
    ) -> pb.RequestEmailVerificationResponse:
        self.accounts.request_verification(self._caller(context))
        return pb.RequestEmailVerificationResponse()

    @rpc("lobby")
    def RequestPasswordReset(
        self, request: pb.RequestPasswordResetRequest, context: Ctx
    ) -> pb.RequestPasswordResetResponse:
        self._limit("sign_in", context)
        self.accounts.request_reset(request.email)
        return pb.RequestPasswordResetResponse()

    @rpc("lobby")
    def ResetPassword(self, request: pb.ResetPasswordRequest, context: Ctx) -> pb.ResetPasswordResponse:
        self._limit("sign_in", context)
        session = self.accounts.reset_password(request.code, request.new_password)
        return pb.ResetPasswordResponse(session=_session(session))

    @rpc("lobby")
    def ListGames(self, request: pb.ListGamesRequest, context: Ctx) -> pb.ListGamesResponse:
        """Titles and descriptions in the call's language (metadata ``accept-language``)."""
        locale = locale_of(context.invocation_metadata())
        games = self.rooms.catalog.available()
        return pb.ListGamesResponse(games=[convert.game(m, game_words(m, locale)) for m in games])

    @rpc("lobby")
    def GetSpectatorToken(
        self, request: pb.GetSpectatorTokenRequest, context: Ctx
    ) -> pb.GetSpectatorTokenResponse:
        caller = self._caller(context)
        token, game = self.identity.spectator_token(caller, bounds.match_id(request.match_id))
        return pb.GetSpectatorTokenResponse(token=token, game=game)

    # ------------------------------------------------------------ rooms
    @rpc("lobby")
    def CreateRoom(self, request: pb.CreateRoomRequest, context: Ctx) -> pb.CreateRoomResponse:
        caller = self._caller(context)
        self._limit("create_room", context, caller)
        seen = self.rooms.create(
            caller,
            request.game,
            request.seats,
            dict(request.options),
            request.turn_seconds,
            convert.visibility(request.visibility),
            request.spectators_read_chat,
        )
        return pb.CreateRoomResponse(room=convert.room(seen.room))

    @rpc("lobby")
    def ListRooms(self, request: pb.ListRoomsRequest, context: Ctx) -> pb.ListRoomsResponse:
        self._caller(context)
        return pb.ListRoomsResponse(
            rooms=[convert.room(r) for r in self.rooms.list_open(request.game, request.limit)]
        )

    @rpc("lobby")
    def GetRoom(self, request: pb.GetRoomRequest, context: Ctx) -> pb.GetRoomResponse:
        return convert.room_seen(self.rooms.get(self._caller(context), request.room_id))

    @rpc("lobby")
    def JoinRoom(self, request: pb.JoinRoomRequest, context: Ctx) -> pb.JoinRoomResponse:
        caller = self._caller(context)
        self._limit("join", context, caller)
        match request.WhichOneof("target"):
            case "invite_code":
                seen = self.rooms.join_by_code(caller, request.invite_code)
            case "room_id":
                seen = self.rooms.join_by_id(caller, request.room_id)
            case _:
                raise InvalidArgument("room_id or invite_code is required", "room_id")
        return pb.JoinRoomResponse(
            room=convert.room(seen.room), seat=seen.seat if seen.seat is not None else -1
        )

    @rpc("lobby")
    def LeaveRoom(self, request: pb.LeaveRoomRequest, context: Ctx) -> pb.LeaveRoomResponse:
        seen = self.rooms.leave(self._caller(context), request.room_id)
        return pb.LeaveRoomResponse(room=convert.room(seen.room))

    @rpc("lobby")
    def AddBot(self, request: pb.AddBotRequest, context: Ctx) -> pb.AddBotResponse:
        caller, level = self._caller(context), convert.bot_level(request.level, "level")
        seen, seat = self.rooms.add_bot(caller, request.room_id, level)
        return pb.AddBotResponse(room=convert.room(seen.room), seat=seat)

    @rpc("lobby")
    def RemoveBot(self, request: pb.RemoveBotRequest, context: Ctx) -> pb.RemoveBotResponse:
        seen = self.rooms.remove_bot(self._caller(context), request.room_id, request.seat)
        return pb.RemoveBotResponse(room=convert.room(seen.room))

    @rpc("lobby")
    def SetReady(self, request: pb.SetReadyRequest, context: Ctx) -> pb.SetReadyResponse:
        seen = self.rooms.set_ready(self._caller(context), request.room_id, request.ready)
        return pb.SetReadyResponse(room=convert.room(seen.room))

    @rpc("lobby")
    def StartRoom(self, request: pb.StartRoomRequest, context: Ctx) -> pb.StartRoomResponse:
        seen = self.rooms.start(self._caller(context), request.room_id)
        return pb.StartRoomResponse(
            room=convert.room(seen.room),
            match_id=seen.room.match_id,
            seat_token=seen.seat_token,
            seat=seen.seat if seen.seat is not None else -1,
        )

    @stream_rpc("lobby")
    def WatchRoom(self, request: pb.WatchRoomRequest, context: Ctx) -> Iterator[pb.WatchRoomResponse]:
        caller, version = self._caller(context), 0
        for seen in self._watch(
            caller, context, self.rooms.watch(caller, request.room_id, self.keepalive_ms)
        ):
            if seen is None:
                yield pb.WatchRoomResponse(keepalive=common_pb2.Keepalive(head_version=version))
            else:
                version = seen.room.version
                yield pb.WatchRoomResponse(room=convert.room_seen(seen))

    # ------------------------------------------------------------ matchmaking
    @rpc("lobby")
    def Enqueue(self, request: pb.EnqueueRequest, context: Ctx) -> pb.EnqueueResponse:
        caller = self._caller(context)
        self._limit("join", context, caller)
        wanted = QueueRequest(
            request.game,
            list(request.seat_counts),
            request.bot_fill_after_seconds,
            convert.bot_level(request.bot_level, "bot_level", BotLevel.GREEDY),
            dict(request.options),
            request.turn_seconds,
        )
        ticket = self.queue.enqueue(caller, wanted)
        return pb.EnqueueResponse(ticket_id=ticket.ticket_id, rating=ticket.rating)

    @rpc("lobby")
    def CancelQueue(self, request: pb.CancelQueueRequest, context: Ctx) -> pb.CancelQueueResponse:
        self.queue.cancel(self._caller(context), request.ticket_id)
        return pb.CancelQueueResponse()

    @stream_rpc("lobby")
    def WatchQueue(self, request: pb.WatchQueueRequest, context: Ctx) -> Iterator[pb.WatchQueueResponse]:
        caller = self._caller(context)
        for seen in self._watch(
            caller, context, self.queue.watch(caller, request.ticket_id, self.keepalive_ms)
        ):
            if seen is None:
                yield pb.WatchQueueResponse(keepalive=common_pb2.Keepalive())
            else:
                yield pb.WatchQueueResponse(ticket=convert.ticket(seen))

    # ------------------------------------------------------------ ratings and history
    @rpc("lobby")
    def GetLeaderboard(self, request: pb.GetLeaderboardRequest, context: Ctx) -> pb.GetLeaderboardResponse:
        caller = self._caller(context)
        season, board = self.standings.leaderboard(request.game, request.season, request.limit)
        standings = self.profiles.masked(caller, board)
        return pb.GetLeaderboardResponse(
            entries=[convert.standing(i + 1, s) for i, s in enumerate(standings)],
            season=convert.season(season, self.standings.current_id()),
        )

    @rpc("lobby")
    def GetMatchHistory(self, request: pb.GetMatchHistoryRequest, context: Ctx) -> pb.GetMatchHistoryResponse:
        caller = self._caller(context)
        self.profiles.check_history(caller, request.player_id)
        items = self.standings.history(caller, request.player_id, request.limit)
        return pb.GetMatchHistoryResponse(entries=[convert.history(h) for h in items])

    # ------------------------------------------------------------ spectating
    @rpc("lobby")
    def ListMatches(self, request: pb.ListMatchesRequest, context: Ctx) -> pb.ListMatchesResponse:
        self._caller(context)
        found, next_page = self.matches.newest(request.game, request.limit, request.page_token)
        return pb.ListMatchesResponse(
            matches=[convert.match_summary(m) for m in found], next_page_token=next_page
        )

    # ------------------------------------------------------------ coming back and notices
    @rpc("lobby")
    def ListMyMatches(self, request: pb.ListMyMatchesRequest, context: Ctx) -> pb.ListMyMatchesResponse:
        return convert.whereabouts(self.mine.list(self._caller(context), request.game, request.limit))

    @stream_rpc("lobby")
    def WatchMyNotices(
        self, request: pb.WatchMyNoticesRequest, context: Ctx
    ) -> Iterator[pb.WatchMyNoticesResponse]:
        caller = self._caller(context)
        for found in self._watch(
            caller, context, self.notices.watch(caller, request.after, self.keepalive_ms)
        ):
            self.friends.presence.touch(caller.player_id)  # a player holding the stream is online
            if found is None:
                yield pb.WatchMyNoticesResponse(keepalive=common_pb2.Keepalive())
            else:
                yield from (pb.WatchMyNoticesResponse(notice=convert.notice(seen)) for seen in found)

    @rpc("lobby")
    def InviteToRoom(self, request: pb.InviteToRoomRequest, context: Ctx) -> pb.InviteToRoomResponse:
        self.notices.invite(self._caller(context), request.room_id, request.player_id)
        return pb.InviteToRoomResponse()

    # ------------------------------------------------------------ friends
    def _friends_caller(self, context: Ctx) -> Claims:
        """The caller of a friends change, which takes from the ``friend`` limits (each may tell
        another player something)."""
        caller = self._caller(context)
        self._limit("friend", context, caller)
        return caller

    @rpc("lobby")
    def SendFriendRequest(
        self, request: pb.SendFriendRequestRequest, context: Ctx
    ) -> pb.SendFriendRequestResponse:
        caller = self._friends_caller(context)
        match request.WhichOneof("target"):
            case "player_id":
                seen, friends = self.friends.request(caller, request.player_id, "")
            case "display_name":
                seen, friends = self.friends.request(caller, "", request.display_name)
            case _:
                raise InvalidArgument("player_id or display_name is required", "player_id")
        return pb.SendFriendRequestResponse(friend=convert.friend(seen), friends=friends)

    @rpc("lobby")
    def AcceptFriendRequest(
        self, request: pb.AcceptFriendRequestRequest, context: Ctx
    ) -> pb.AcceptFriendRequestResponse:
        seen = self.friends.accept(self._friends_caller(context), request.player_id)
        return pb.AcceptFriendRequestResponse(friend=convert.friend(seen))

    @rpc("lobby")
    def DeclineFriendRequest(
        self, request: pb.DeclineFriendRequestRequest, context: Ctx
    ) -> pb.DeclineFriendRequestResponse:
        self.friends.decline(self._friends_caller(context), request.player_id)
        return pb.DeclineFriendRequestResponse()

    @rpc("lobby")
    def CancelFriendRequest(
        self, request: pb.CancelFriendRequestRequest, context: Ctx
    ) -> pb.CancelFriendRequestResponse:
        self.friends.cancel(self._friends_caller(context), request.player_id)
        return pb.CancelFriendRequestResponse()

    @rpc("lobby")
    def RemoveFriend(self, request: pb.RemoveFriendRequest, context: Ctx) -> pb.RemoveFriendResponse:
        self.friends.remove(self._friends_caller(context), request.player_id)
        return pb.RemoveFriendResponse()

    @rpc("lobby")
    def BlockPlayer(self, request: pb.BlockPlayerRequest, context: Ctx) -> pb.BlockPlayerResponse:
        self.friends.block(self._friends_caller(context), request.player_id)
        return pb.BlockPlayerResponse()

    @rpc("lobby")
    def UnblockPlayer(self, request: pb.UnblockPlayerRequest, context: Ctx) -> pb.UnblockPlayerResponse:
        self.friends.unblock(self._friends_caller(context), request.player_id)
        return pb.UnblockPlayerResponse()

    @rpc("lobby")
    def ListFriends(self, request: pb.ListFriendsRequest, context: Ctx) -> pb.ListFriendsResponse:
        friends, incoming, outgoing, blocked = self.friends.lists(self._caller(context))
        return pb.ListFriendsResponse(
            friends=[convert.friend(f) for f in friends],
            incoming=[convert.friend(f) for f in incoming],
            outgoing=[convert.friend(f) for f in outgoing],
            blocked=[convert.friend(f) for f in blocked],
        )

    @rpc("lobby")
    def ListRoomInvitees(
        self, request: pb.ListRoomInviteesRequest, context: Ctx
    ) -> pb.ListRoomInviteesResponse:
        found = self.friends.invitees(self._caller(context), request.room_id)
        return pb.ListRoomInviteesResponse(friends=[convert.friend(f) for f in found])

    # ------------------------------------------------------------ chat
    @rpc("lobby")
    def SendChatMessage(
        self, request: chat_pb2.SendChatMessageRequest, context: Ctx
    ) -> chat_pb2.SendChatMessageResponse:
        caller = self._caller(context)
        channel, message = self.chat.send(
            caller,
            request.channel,
            request.text,
            request.client_message_id,
            lambda: self._limit("chat", context, caller),
        )
        return chat_pb2.SendChatMessageResponse(
            message=convert.chat_message(message, channel.name, caller.player_id)
        )

    @rpc("lobby")
    def ListChatMessages(
        self, request: chat_pb2.ListChatMessagesRequest, context: Ctx
    ) -> chat_pb2.ListChatMessagesResponse:
        caller = self._caller(context)
        channel, found, head = self.chat.page(
            caller, request.channel, request.before, request.after, request.limit
        )
        return chat_pb2.ListChatMessagesResponse(
            messages=[convert.chat_message(m, channel.name, caller.player_id) for m in found], head=head
        )

    @stream_rpc("lobby")
    def WatchChat(
        self, request: chat_pb2.WatchChatRequest, context: Ctx
    ) -> Iterator[chat_pb2.WatchChatResponse]:
        caller = self._caller(context)
        channel, messages = self.chat.watch(caller, request.channel, request.after, self.keepalive_ms)
        for found in self._watch(caller, context, messages):
            if found is None:
                yield chat_pb2.WatchChatResponse(keepalive=common_pb2.Keepalive())
            else:
                for message in found:
                    yield chat_pb2.WatchChatResponse(
                        message=convert.chat_message(message, channel.name, caller.player_id)
                    )

    @rpc("lobby")
    def MuteChatMember(
        self, request: chat_pb2.MuteChatMemberRequest, context: Ctx
    ) -> chat_pb2.MuteChatMemberResponse:
        self.chat.mute(
            self._caller(context), request.channel, request.player_id, request.muted, request.for_everyone
        )
        return chat_pb2.MuteChatMemberResponse()

    @rpc("lobby")
    def ReportChatMessage(
        self, request: chat_pb2.ReportChatMessageRequest, context: Ctx
    ) -> chat_pb2.ReportChatMessageResponse:
        caller = self._caller(context)
        report_id = self.chat.report(
            caller,
            request.channel,
            request.message_id,
            request.reason,
            lambda: self._limit("chat", context, caller),
        )
        return chat_pb2.ReportChatMessageResponse(report_id=report_id)

    # ------------------------------------------------------------ profiles and privacy
    @rpc("lobby")
    def ListAvatars(self, request: pb.ListAvatarsRequest, context: Ctx) -> pb.ListAvatarsResponse:
        return pb.ListAvatarsResponse(avatars=[convert.avatar(a) for a in self.profiles.avatars()])

    @rpc("lobby")
    def UpdateProfile(self, request: pb.UpdateProfileRequest, context: Ctx) -> pb.UpdateProfileResponse:
        caller = self._caller(context)
        visibility = convert.profile_visibility(request.visibility)
        profile, token, expires_at = self.profiles.update(
            caller, request.display_name, request.avatar_id, visibility
        )
        return pb.UpdateProfileResponse(
            profile=convert.profile(profile), access_token=token, access_expires_at=expires_at
        )

    @rpc("lobby")
    def GetProfile(self, request: pb.GetProfileRequest, context: Ctx) -> pb.GetProfileResponse:
        return convert.profile(self.profiles.get(self._caller(context), request.player_id))

    @rpc("lobby")
    def DeleteAccount(self, request: pb.DeleteAccountRequest, context: Ctx) -> pb.DeleteAccountResponse:
        self.profiles.delete(self._caller(context), request.password, self._address(context))
        return pb.DeleteAccountResponse()

    # ------------------------------------------------------------ external sign-in
    @rpc("lobby")
    def ListSignInProviders(
        self, request: pb.ListSignInProvidersRequest, context: Ctx
    ) -> pb.ListSignInProvidersResponse:
        listed = self.external.listed() if self.external is not None else []
        return pb.ListSignInProvidersResponse(
            providers=[pb.SignInProvider(name=p.name, label=p.label) for p in listed]
        )

    @rpc("lobby")
    def StartExternalSignIn(
        self, request: pb.StartExternalSignInRequest, context: Ctx
    ) -> pb.StartExternalSignInResponse:
        signed_in = any(key == "authorization" for key, _ in context.invocation_metadata())
        caller = self._caller(context) if signed_in else None  # a player token: link the provider
        self._limit("sign_in", context)
        if self.external is None:
            raise Conflict("provider_unknown", "this lobby has no sign-in provider")
        started = self.external.start(request.provider, request.redirect_uri, caller)
        return pb.StartExternalSignInResponse(
            authorization_url=started.authorization_url, state=started.state, expires_at=started.expires_at
        )

    @rpc("lobby")
    def CompleteExternalSignIn(
        self, request: pb.CompleteExternalSignInRequest, context: Ctx
    ) -> pb.CompleteExternalSignInResponse:
        self._limit("sign_in", context)
        if self.external is None:
            raise Conflict("state_invalid", "this lobby has no sign-in provider")
        done = self.external.complete(request.state, request.code)
        return pb.CompleteExternalSignInResponse(session=_session(done.session), created=done.created)

    @rpc("lobby")
    def ListSeasons(
        self, request: seasons_pb2.ListSeasonsRequest, context: Ctx
    ) -> seasons_pb2.ListSeasonsResponse:
        self._caller(context)
        found, current = self.standings.seasons(request.limit)
        return seasons_pb2.ListSeasonsResponse(
            seasons=[convert.season(s, current) for s in found], current=current
        )

    # ------------------------------------------------------------ analysis (service_layer/analysis.py)
    @rpc("lobby")
    def AnalyzeMatch(self, request: apb.AnalyzeMatchRequest, context: Ctx) -> apb.AnalyzeMatchResponse:
        caller = self._caller(context)
        asked = self._analyses().analyze(caller, bounds.match_id(request.match_id), request.seat)
        return apb.AnalyzeMatchResponse(
            analysis=analysis.analysis(asked, locale_of(context.invocation_metadata()))
        )

    @rpc("lobby")
    def GetAnalysis(self, request: apb.GetAnalysisRequest, context: Ctx) -> apb.GetAnalysisResponse:
        asked = self._analyses().get(self._caller(context), bounds.match_id(request.match_id), request.seat)
        return apb.GetAnalysisResponse(
            analysis=analysis.analysis(asked, locale_of(context.invocation_metadata()))
        )

    @rpc("lobby")
    def CancelAnalysis(self, request: apb.CancelAnalysisRequest, context: Ctx) -> apb.CancelAnalysisResponse:
        caller = self._caller(context)
        asked, done = self._analyses().cancel(caller, bounds.match_id(request.match_id), request.seat)
        locale = locale_of(context.invocation_metadata())
        return apb.CancelAnalysisResponse(analysis=analysis.analysis(asked, locale), cancelled=done)

    def _analyses(self) -> Analyses:
        if self.analyses is None:
            raise Unavailable("analysis_unavailable", "this lobby has no analysis queue", 60.0)
        return self.analyses

    # ------------------------------------------------------------ wiring
    def registration(self) -> Registration:
        return Registration(self, pb.DESCRIPTOR.services_by_name["LobbyService"], "lobby", (TEXTS,))


def _session(session: Session) -> pb.Session:
    return pb.Session(
        player_id=session.player_id,
        display_name=session.name,
        access_token=session.access_token,
        access_expires_at=session.access_expires_at,
        refresh_token=session.refresh_token,
        refresh_expires_at=session.refresh_expires_at,
    )
