"""The lobby's own reason codes (``google.rpc.ErrorInfo.reason``), declared for docs/reason-codes.md.

Declared rather than collected because some are built from a status (``room_<status>``) or chosen
at run time (``already_matched`` / ``already_cancelled``); a test collects every literal code the
lobby raises and fails if one is missing here (``shared/core/reasons.py``). Keep docs/lobby.md in step.
"""

from __future__ import annotations

from shared.core.reasons import Reason

F = "FAILED_PRECONDITION"

LOBBY: tuple[Reason, ...] = (
    Reason(
        "busy", F, "The player already waits in a room or a queue (one at a time: leave or cancel first)."
    ),
    Reason("room_full", F, "The room has no free seat."),
    Reason("room_starting", F, "The room is starting its match: no joins, leaves or invitations."),
    Reason("room_started", F, "The room has started its match (ListMyMatches has it)."),
    Reason("room_closed", F, "Every human left the room."),
    Reason("not_in_room", F, "The caller has no seat in the room."),
    Reason("not_a_bot", F, "RemoveBot on a seat that holds no bot."),
    Reason("seats_not_full", F, "StartRoom with an empty seat (add a bot or wait for a player)."),
    Reason("players_not_ready", F, "StartRoom before every other human is ready (the message names them)."),
    Reason(
        "room_not_starting", F, "A start finished for a room no longer starting that match (a retry lost)."
    ),
    Reason("already_in_room", F, "InviteToRoom for a player already seated in the room."),
    Reason(
        "already_matched", F, "CancelQueue after the ticket was grouped into a match (ListMyMatches has it)."
    ),
    Reason("already_cancelled", F, "CancelQueue on a ticket cancelled before."),
    Reason(
        "match_create_failed",
        F,
        "The game service refused the match (it was reached): the room reopens, the tickets wait again.",
    ),
    Reason("game_unavailable", F, "The game's rules or generated code do not load in this lobby."),
    Reason(
        "game_service_unavailable",
        "UNAVAILABLE",
        "StartRoom could not reach the game's rule service: nothing changed (the room is open as it "
        "was); retry the same request after the `google.rpc.RetryInfo` delay.",
    ),
    Reason("busy_room", F, "The room changed 100 times while this change was tried: retry."),
    Reason("busy_ratings", F, "Internal (the ratings projector retries); never reaches a client."),
    Reason("busy_notices", F, "Internal (the notice projector retries); never reaches a client."),
    Reason("no_outcome", F, "Internal: a match finished before outcomes were recorded cannot be rated."),
    Reason(
        "room_exists", F, "A new room's id is taken (never in practice: ids are random); create it again."
    ),
    Reason(
        "invite_taken", F, "A new private room's invite code is an open room's (very rare): create it again."
    ),
    # accounts (docs/accounts.md)
    Reason("email_taken", F, "SignUp or UpgradeGuest with an address an account has (case aside)."),
    Reason(
        "name_taken",
        F,
        "SignUp, UpgradeGuest, UpdateProfile or SignInGuest with a display name an account has (case aside).",
    ),
    Reason(
        "wrong_credentials",
        F,
        "SignIn with an email or a password that is wrong (which one is not said), or ChangePassword "
        "with a wrong current password, or DeleteAccount with a wrong password. Tries are limited per "
        "account and per address (`rate_limited`).",
    ),
    Reason("already_account", F, "UpgradeGuest by a player who has an account already."),
    Reason(
        "not_an_account",
        F,
        "An account's call (ChangePassword, GetAccount, UpdateProfile, DeleteAccount ...) with a "
        "guest's token.",
    ),
    Reason("already_verified", F, "RequestEmailVerification for an address that is verified already."),
    Reason(
        "account_changed",
        F,
        "ChangePassword while another change of the password won: sign in again; UpdateProfile or "
        "DeleteAccount while the account kept changing: retry.",
    ),
    Reason(
        "refresh_expired",
        F,
        "RefreshSession or SignOut with a refresh token that is unknown or expired: sign in.",
    ),
    Reason(
        "refresh_reused",
        F,
        "A refresh token used a second time (copied?): its session has ended on every device; sign in.",
    ),
    Reason(
        "refresh_revoked",
        F,
        "A refresh token of a session that has ended (signed out, signed out everywhere, the password "
        "changed or reset, or a reuse): sign in.",
    ),
    Reason("busy_session", F, "A session or account changed 10 times while this call was tried: retry."),
    Reason("code_invalid", F, "VerifyEmail or ResetPassword with a code that is unknown, used or replaced."),
    Reason("code_expired", F, "VerifyEmail or ResetPassword with an expired code: ask for a new one."),
    # friends (docs/accounts.md, "Friends")
    Reason("yourself", F, "A friends call (a request, a block ...) naming the caller."),
    Reason("already_friends", F, "SendFriendRequest to a friend."),
    Reason("already_requested", F, "SendFriendRequest to a player who has not answered the last one yet."),
    Reason("friends_full", F, "SendFriendRequest or AcceptFriendRequest when either player has 200 friends."),
    Reason(
        "requests_full",
        F,
        "SendFriendRequest when the caller has 50 requests waiting, or the player asked has 100.",
    ),
    Reason("no_request", F, "Accept, decline or cancel a friend request that is not there (any more)."),
    Reason("not_friends", F, "RemoveFriend for a player who is not a friend."),
    Reason("already_blocked", F, "BlockPlayer for a player blocked already."),
    Reason("not_blocked", F, "UnblockPlayer for a player not blocked."),
    Reason("blocked_full", F, "BlockPlayer when the caller has blocked 500 players."),
    Reason(
        "blocked",
        F,
        "The player blocked the caller: no friend request, no invitation, no joining their private "
        "rooms by code, no messages.",
    ),
    Reason("you_blocked", F, "A friend request or invitation to a player the caller blocked: unblock first."),
    # chat (docs/chat.md)
    Reason("chat_empty", F, "SendChatMessage with no text once trimmed."),
    Reason("chat_too_long", F, "SendChatMessage with more than 200 characters once trimmed."),
    Reason(
        "chat_not_member",
        F,
        "A chat call on a channel the caller may not read, or SendChatMessage where they may only read "
        "(a match's players in its spectators' channel; a direct channel they may not write to now).",
    ),
    Reason("chat_unknown_channel", F, "A chat call on a room's or a match's channel that does not exist."),
    Reason("chat_muted", F, "SendChatMessage in a room's channel whose host muted the caller."),
    Reason(
        "chat_unknown_message",
        F,
        "ReportChatMessage on a message the channel does not hold (or no longer keeps).",
    ),
    Reason(
        "profile_private",
        F,
        "GetMatchHistory of a player who shows their matches to nobody but themselves (their visibility).",
    ),
    Reason(
        "sign_in_again",
        F,
        "DeleteAccount of an account without a password: sign in with its provider, then delete within "
        "5 minutes.",
    ),
    Reason(
        "in_room_or_queue",
        F,
        "DeleteAccount while the account waits in a room or the matchmaking queue: leave it first.",
    ),
    # external sign-in (OpenID Connect, docs/accounts.md)
    Reason("provider_unknown", F, "StartExternalSignIn with a provider this lobby is not configured with."),
    Reason(
        "redirect_uri_not_allowed",
        F,
        "StartExternalSignIn with a redirect URI that is not among the provider's configured ones.",
    ),
    Reason(
        "state_invalid",
        F,
        "CompleteExternalSignIn with a state that is unknown, used or expired (10 minutes): start again.",
    ),
    Reason(
        "external_code_invalid",
        F,
        "The provider refused the code (used, expired, altered, or not for this sign-in's PKCE "
        "verifier or redirect URI): start again.",
    ),
    Reason(
        "external_token_invalid",
        F,
        "The provider's ID token failed a check (signature against its keys, issuer, audience, "
        "authorized party, expiry, algorithm).",
    ),
    Reason("external_nonce_mismatch", F, "The ID token's nonce is not this sign-in's."),
    Reason(
        "external_refused",
        F,
        "The provider refused the code exchange for another reason (its error code in the message: "
        "the client's settings?).",
    ),
    Reason(
        "external_unavailable",
        "UNAVAILABLE",
        "The provider's discovery, token or key endpoint could not be reached: retry later.",
    ),
    Reason("external_linked", F, "The provider's identity is linked to another account."),
    Reason("already_linked", F, "The account is linked to another identity of the same provider."),
    Reason("no_email", F, "RequestEmailVerification for an account without an email address."),
    # seasons (docs/lobby.md, "Seasons")
    Reason(
        "season_unknown",
        "NOT_FOUND",
        "GetLeaderboard with a season the lobby's schedule has not begun, or does not have "
        "(ListSeasons names the seasons there are).",
    ),
    # analysis of a finished match (docs/lobby.md, "Analysis")
    Reason("match_not_finished", F, "AnalyzeMatch on a match that is not finished yet."),
    Reason("unknown_seat", "INVALID_ARGUMENT", "An analysis RPC naming a seat the match does not have."),
    Reason(
        "no_search_bot",
        F,
        "AnalyzeMatch on a match of a game without a search bot (its bot hooks have no evaluation).",
    ),
    Reason("analysis_unavailable", "UNAVAILABLE", "This lobby was started without an analysis queue."),
    # tournaments (docs/tournaments.md)
    Reason(
        "tournament_format",
        "INVALID_ARGUMENT",
        "CreateTournament without a format (SWISS, ROUND_ROBIN or SINGLE_ELIMINATION).",
    ),
    Reason(
        "tournament_seats",
        "INVALID_ARGUMENT",
        "CreateTournament of round robin or single elimination with seats_per_table other than 2 "
        "(a seat count outside the game's range is `invalid_argument` on seats_per_table).",
    ),
    Reason(
        "tournament_rounds",
        "INVALID_ARGUMENT",
        "CreateTournament of Swiss with round_count outside 1 to 20, or of another format with a "
        "round_count (they set their own: 0).",
    ),
    Reason("already_registered", F, "RegisterForTournament by a player registered already."),
    Reason("not_registered", F, "WithdrawFromTournament by a player not registered (or withdrawn already)."),
    Reason("tournament_full", F, "RegisterForTournament when max_players are registered."),
    Reason(
        "tournament_running",
        F,
        "RegisterForTournament once the tournament has started (registration closes at start_at_ms).",
    ),
    Reason(
        "registration_closed",
        F,
        "RegisterForTournament at or after the start time, before the lobby has started the tournament.",
    ),
    Reason("tournament_finished", F, "A change to a tournament that has finished."),
    Reason("tournament_cancelled", F, "A change to a tournament that was cancelled."),
    Reason("not_creator", F, "CancelTournament by a player who did not create the tournament."),
    Reason("busy_tournament", F, "The tournament changed 100 times while this change was tried: retry."),
    Reason("tournament_exists", F, "A new tournament's id is taken (never in practice: ids are random)."),
    Reason(
        "forfeit_refused",
        F,
        "Internal (the tournament director retries): the rule service refused to resign a seat whose "
        "clock ran out; never reaches a client.",
    ),
)
