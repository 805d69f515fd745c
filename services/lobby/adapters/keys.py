"""Every Redis key the lobby writes. All share the hash tag ``{lobby}``, so each Lua script
touches one slot and runs unchanged on Redis Cluster (the lobby's state is small)."""

from __future__ import annotations

P = "{lobby}"
GROUP = "lobby-projections"  # consumer group on every {sNN}:outbox stream
NOTICES_GROUP = "lobby-notices"  # the players' notices, a second group on every outbox stream
TTL_S = 24 * 3600  # rooms, tickets and their feeds expire a day after their last change
GUEST_TTL_S = 7 * 24 * 3600  # a guest's name, matches and history: a week after their last lobby call


def busy(player_id: str) -> str:
    """ "room:<id>" or "ticket:<id>": what the player is waiting in (at most one thing)."""
    return f"{P}:busy:{player_id}"


def guest(player_id: str) -> str:
    """The player's display name: a guest's expires with the guest (GUEST_TTL_S after their last
    call); an account's is kept."""
    return f"{P}:guest:{player_id}"


def account(player_id: str) -> str:
    """An account (hash: email, name, password hash, verified, epoch, created); the player id is the
    guest's it was upgraded from, or a new one."""
    return f"{P}:account:{player_id}"


def email(digest: str) -> str:
    """The player id of the account with this address (by its digest: no address in a key name)."""
    return f"{P}:email:{digest}"


def account_name(name_key: str) -> str:
    """The player id of the account with this display name (``validation.name_key``: case aside)."""
    return f"{P}:name:{name_key}"


def external(digest: str) -> str:
    """The player id of the account linked to an external identity (by the digest of its issuer and
    subject: ``sessions.digest(issuer + " " + sub)``)."""
    return f"{P}:external:{digest}"


def signed_in_again(player_id: str) -> str:
    """Set for a few minutes when an account signs in with a provider (``DeleteAccount`` of an account
    without a password takes it instead of the password)."""
    return f"{P}:signed-in-again:{player_id}"


def external_state(digest: str) -> str:
    """A started external sign-in by the digest of its ``state`` (JSON; ``adapters/oidc.py``)."""
    return f"{P}:external-state:{digest}"


def session(family_id: str) -> str:
    """A refresh-token family (hash: version, data JSON; ``domain/sessions.py``)."""
    return f"{P}:session:{family_id}"


def sessions(player_id: str) -> str:
    """The refresh-token families an account started (a set of family ids; DeleteAccount ends them)."""
    return f"{P}:sessions:{player_id}"


def deleted(player_id: str) -> str:
    """A deleted account's mark (no data but its id): its guest token, if it was upgraded from one,
    is refused until that token has expired."""
    return f"{P}:deleted:{player_id}"


def code(digest: str) -> str:
    """A mailed code by its digest (hash: purpose, player, email, expires)."""
    return f"{P}:code:{digest}"


def latest_code(player_id: str, purpose: str) -> str:
    """The digest of the player's latest code for ``purpose``: a new code replaces the older one."""
    return f"{P}:codes:{player_id}:{purpose}"


def invited(room_id: str) -> str:
    """Players invited to a room (InviteToRoom): they may watch its match if it is private."""
    return f"{P}:room:{room_id}:invited"


def private(match_id: str) -> str:
    """Who may watch a private room's match (its players and the room's invitees); no key: public."""
    return f"{P}:private:{match_id}"


def room(room_id: str) -> str:
    return f"{P}:room:{room_id}"


def room_feed(room_id: str) -> str:
    return f"{P}:room:{room_id}:feed"


def open_rooms(game: str) -> str:
    return f"{P}:open:{game}"


def invite(code: str) -> str:
    return f"{P}:invite:{code}"


def queue(game: str) -> str:
    return f"{P}:mm:{game}:queue"


def claimed(game: str) -> str:
    """Claimed tickets by claim time: a matcher that died mid-start is recovered from here."""
    return f"{P}:mm:{game}:claimed"


def queue_lock(game: str) -> str:
    return f"{P}:mm:{game}:lock"


def ticket(ticket_id: str) -> str:
    return f"{P}:mm:ticket:{ticket_id}"


def ticket_feed(ticket_id: str) -> str:
    return f"{P}:mm:ticket:{ticket_id}:feed"


def ratings(game: str) -> str:
    return f"{P}:rating:{game}"


def leaderboard(game: str) -> str:
    return f"{P}:leaderboard:{game}"


def season_ratings(game: str, season: str) -> str:
    """A game's ratings in one season (hash: player id -> rating), as ``ratings`` is all-time."""
    return f"{P}:season-rating:{game}:{season}"


def season_leaderboard(game: str, season: str) -> str:
    """A game's leaderboard in one season (zset: player id by ordinal)."""
    return f"{P}:season-leaderboard:{game}:{season}"


def seasons() -> str:
    """The ids of the seasons any match was rated in (a set)."""
    return f"{P}:seasons"


def rated() -> str:
    return f"{P}:rated"


def matches() -> str:
    """Match ids of public rooms and matchmaking by creation time (ListMatches)."""
    return f"{P}:matches"


def mine(player_id: str) -> str:
    """The player's match ids by creation time, private ones included (ListMyMatches)."""
    return f"{P}:mine:{player_id}"


def notices(player_id: str) -> str:
    """The player's notices (WatchMyNotices): a capped stream."""
    return f"{P}:notices:{player_id}"


def acting(match_id: str) -> str:
    """``"<version>:<seats to act>"`` as the notice projector last saw the match (turns announced once)."""
    return f"{P}:acting:{match_id}"


def friends(player_id: str) -> str:
    """The player's friends (zset: friend id by the friendship's start, ms)."""
    return f"{P}:friends:{player_id}"


def requests_in(player_id: str) -> str:
    """Friend requests waiting for the player's answer (zset: sender by the request's time, ms)."""
    return f"{P}:friends:{player_id}:in"


def requests_out(player_id: str) -> str:
    """Friend requests the player sent that wait (zset: addressee by the request's time, ms)."""
    return f"{P}:friends:{player_id}:out"


def blocked(player_id: str) -> str:
    """Players the player blocked (zset: blocked id by the block's time, ms)."""
    return f"{P}:blocked:{player_id}"


def friend_keys(player_id: str) -> list[str]:
    """Every friends key of one player (kept for an account; a guest's expire)."""
    return [friends(player_id), requests_in(player_id), requests_out(player_id), blocked(player_id)]


def online() -> str:
    """Players online (zset: player by their last renewal, ms); the sweeper takes out those gone quiet."""
    return f"{P}:online"


def presence(player_id: str) -> str:
    """A player's presence (hash: ``seen`` ms of the last renewal, ``game`` and ``match`` they started
    last while it goes on)."""
    return f"{P}:presence:{player_id}"


def chat(channel: str) -> str:
    """A chat channel's messages (``domain/chat.py`` names channels): a capped stream."""
    return f"{P}:chat:{channel}"


def chat_sent(channel: str, player_id: str, client_id: str) -> str:
    """The message id a player's ``client_message_id`` was stored as in a channel (sent once)."""
    return f"{P}:chatsent:{channel}:{player_id}:{client_id}"


def chat_muted(channel: str, player_id: str) -> str:
    """The players whose messages in a channel are hidden from ``player_id``."""
    return f"{P}:chatmute:{channel}:{player_id}"


def chat_silenced(channel: str) -> str:
    """The players a room's host has silenced in the room's channel."""
    return f"{P}:chatsilenced:{channel}"


def chat_open(match_id: str) -> str:
    """Set when a match's spectators may read its players' channel (a room option)."""
    return f"{P}:chatopen:{match_id}"


def chat_reports() -> str:
    """Reported chat messages with their context, for moderators: a capped stream."""
    return f"{P}:chatreports"


def history(player_id: str) -> str:
    return f"{P}:history:{player_id}"


def tournament(tournament_id: str) -> str:
    """A tournament (hash: version, data JSON; ``adapters/tournaments_repo.py``); kept while it runs,
    then for ``TOURNAMENT_TTL_S``."""
    return f"{P}:tournament:{tournament_id}"


def tournament_feed(tournament_id: str) -> str:
    """A tournament's change feed (its watchers wake on every change)."""
    return f"{P}:tournament:{tournament_id}:feed"


def tournaments() -> str:
    """Every tournament kept, by start time (a sorted set of ids)."""
    return f"{P}:tournaments"


def live_tournaments() -> str:
    """The tournaments not ended yet (a set of ids): the tournament director's work list."""
    return f"{P}:tournaments:live"


def text(raw: object) -> str:
    """A Redis reply as text (clients here return bytes; tests may decode)."""
    return raw.decode() if isinstance(raw, bytes) else str(raw)
