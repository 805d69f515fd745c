"""Profiles and privacy: avatars, renaming, who sees a player's ratings and matches, deleting an account.

``GetProfile`` shows anyone a player's name and avatar, and their ratings and recent matches only
as their visibility allows (``domain/profiles.py``). Deleting an account (its password given) shows
"deleted player" for its seats everywhere a name is read: the match metas (``names``, kept beside
the events: GetView, Replay, ExportLog and WatchMatch read them), an archived match's log header,
and the rooms kept; no event is rewritten. Then one script deletes the account's personal data
(``adapters/profiles_repo.py``). Refusals change nothing (but the password tries' counts).
Docs: docs/accounts.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace

from services.lobby.adapters import keys
from services.lobby.adapters.passwords import check_password
from services.lobby.adapters.profiles_repo import ProfileRepository
from services.lobby.adapters.ratings_repo import HistoryItem, RatingsRepository, Standing
from services.lobby.adapters.rooms_repo import RoomRepository
from services.lobby.domain import validation
from services.lobby.domain.profiles import (
    AVATARS,
    DEFAULT_AVATAR,
    DEFAULT_VISIBILITY,
    DELETED_NAME,
    HIDDEN_NAME,
    Avatar,
    Visibility,
    avatar_id,
    may_see,
    scrubbed_names,
)
from services.lobby.domain.ratings import SkillRating
from services.lobby.domain.rooms import Room
from services.lobby.domain.sessions import ACCESS_TTL_S
from services.lobby.service_layer.accounts import RETRIES, Accounts
from shared.matches.archive import ArchiveStorage, archive_name, archived_lines, pack
from shared.runtime.edge import wait
from shared.serving.errors import Conflict, NotFound
from shared.serving.tokens import Claims
from shared.store import EventStore, MatchMeta

RECENT = 10  # matches shown on a profile


@dataclass(frozen=True, slots=True)
class Profile:
    player_id: str
    name: str
    avatar: str
    account: bool
    visible: bool  # whether the caller sees the ratings and matches
    visibility: Visibility | None  # the owner's setting: only in the caller's own profile
    ratings: tuple[tuple[str, SkillRating], ...] = ()  # (game, rating), by game
    recent: tuple[HistoryItem, ...] = ()


class Profiles:
    def __init__(
        self,
        accounts: Accounts,
        repo: ProfileRepository,
        ratings: RatingsRepository,
        rooms: RoomRepository,
        store: EventStore,
        games: Callable[[], Sequence[str]],
        archive: ArchiveStorage | None = None,
        are_friends: Callable[[str, str], bool] = lambda owner, viewer: False,
    ) -> None:
        """``games``: the games' names (their ratings and leaderboards); ``archive``: where finished
        matches go when they leave Redis (their names are replaced there too); ``are_friends``: the
        friends list (``FriendRepository.are_friends``), read for a ``friends`` visibility only."""
        self.accounts, self.repo, self.ratings, self.rooms = accounts, repo, ratings, rooms
        self.store, self.games, self.archive = store, games, archive
        self.are_friends = are_friends

    def _sees(self, visibility: Visibility, owner: str, viewer: str) -> bool:
        friend = visibility is Visibility.FRIENDS and viewer != owner and self.are_friends(owner, viewer)
        return may_see(visibility, owner, viewer, {viewer} if friend else ())

    @staticmethod
    def avatars() -> tuple[Avatar, ...]:
        return AVATARS

    # ------------------------------------------------------------ reading
    def may_see(self, caller: Claims, player_id: str) -> bool:
        """Whether the caller sees the player's ratings and matches (a guest's: everyone)."""
        found = self.repo.settings([player_id])[0]
        return self._sees(found[1] if found else DEFAULT_VISIBILITY, player_id, caller.player_id)

    def shown(self, caller: Claims, player_ids: Sequence[str]) -> list[bool]:
        """For each player, whether the caller sees their ratings and name on a leaderboard."""
        return [
            self._sees(found[1] if found else DEFAULT_VISIBILITY, player, caller.player_id)
            for player, found in zip(player_ids, self.repo.settings(player_ids), strict=True)
        ]

    def settings(self, player_id: str) -> tuple[str, Visibility]:
        """An account's avatar and visibility (a guest's: the defaults)."""
        found = self.repo.settings([player_id])[0]
        return found if found else (DEFAULT_AVATAR, DEFAULT_VISIBILITY)

    def masked(self, caller: Claims, standings: Sequence[Standing]) -> list[Standing]:
        """A leaderboard as the caller may see it: a hidden player's rank and rating stay, their id
        and name do not."""
        shown = self.shown(caller, [s.player_id for s in standings])
        return [
            s if ok else Standing("", HIDDEN_NAME, s.rating) for s, ok in zip(standings, shown, strict=True)
        ]

    def check_history(self, caller: Claims, player_id: str) -> None:
        """Refused (``profile_private``) when the caller may not see the player's matches."""
        if not player_id or player_id == caller.player_id:
            return
        if not self.may_see(caller, validation.identifier(player_id, "player_id")):
            raise Conflict("profile_private", "this player shows their matches only to themselves")

    def get(self, caller: Claims, player_id: str) -> Profile:
        who = validation.identifier(player_id, "player_id") if player_id else caller.player_id
        found = self.repo.settings([who])[0]
        name = self.ratings.names([who])[0]
        if not name:
            raise NotFound("no player {who!r} (a guest who left, or a deleted account)", who=who)
        avatar, visibility = found if found else (DEFAULT_AVATAR, DEFAULT_VISIBILITY)
        visible = self._sees(visibility, who, caller.player_id)
        own = visibility if who == caller.player_id and found else None
        if not visible:
            return Profile(who, name, avatar, found is not None, False, own)
        games = sorted(self.games())
        rated = tuple((g, r) for g in games if (r := self.ratings.rating(g, who)).matches > 0)
        recent = tuple(self.ratings.history(who, RECENT))
        return Profile(who, name, avatar, found is not None, True, own, rated, recent)

    # ------------------------------------------------------------ changing
    def update(
        self, caller: Claims, display_name: str, avatar: str, visibility: Visibility | None
    ) -> tuple[Profile, str, int]:
        """The profile after the change, and an access token with its name (and its expiry)."""
        account = self.accounts.get(caller)
        name = validation.display_name(display_name) if display_name else ""
        chosen = avatar_id(avatar) if avatar else ""
        for _ in range(RETRIES):
            if not name or name == account.name or self.repo.rename(account.player_id, account.name, name):
                break
            found = self.accounts.repo.get(account.player_id)  # renamed meanwhile: read it again
            if found is None:
                raise Conflict("not_an_account", "this account no longer exists")
            account = found
        else:
            raise Conflict("account_changed", "the profile kept changing while this call was tried: retry")
        self.repo.set_settings(account.player_id, chosen, visibility)
        profile = self.get(caller, "")
        token = self.accounts.signer.player(account.player_id, profile.name, ttl_s=ACCESS_TTL_S, account=True)
        return profile, token, int(self.accounts.clock()) + ACCESS_TTL_S

    # ------------------------------------------------------------ deleting
    def delete(self, caller: Claims, password: str, address: str) -> None:
        account = self.accounts.get(caller)
        if not account.password:  # made by a provider: a sign-in with it just now stands for one
            if not self.repo.signed_in_again(account.player_id):
                raise Conflict("sign_in_again", "sign in with your provider again, then delete at once")
        else:
            validation.given_password(password)
            self.accounts.tries.attempt(account.email, address)
            if not check_password(account.password, password):
                raise Conflict("wrong_credentials", "wrong password")
            self.accounts.tries.succeeded(account.email, address)
        player_id = account.player_id
        if self.repo.is_busy(player_id):
            raise _busy()
        for _ in range(RETRIES):
            matches = self.repo.match_ids(player_id)
            for match_id in matches:
                self._scrub_match(match_id, player_id)
            for room_id in self.repo.room_ids():
                self._scrub_room(room_id, player_id)
            done = self.repo.delete(
                player_id, account.name, account.email, len(matches), self.games(), keys.GUEST_TTL_S
            )
            if done == "ok":
                break
            if done == "busy":
                raise _busy()
            found = self.accounts.repo.get(player_id)  # renamed, or a match started meanwhile
            if found is None:
                return  # deleted by another call meanwhile
            account = found
        else:
            raise Conflict("account_changed", "the account kept changing while it was deleted: retry")
        self.accounts.tries.forget(account.email)
        self.repo.forget_mail(account.email)

    def _scrub_match(self, match_id: str, player_id: str) -> None:
        """The player's seats named "deleted player" in the match's meta, or in its archived log's
        header (the events stay as they are)."""
        meta = MatchMeta.of(wait(self.store.get_meta(match_id)))
        if meta.exists:
            names = scrubbed_names(meta.players, meta.names, player_id)
            if names is None or wait(self.store.update_meta(match_id, {"names": json.dumps(names)})):
                return
        if self.archive is None:
            return
        lines = archived_lines(self.archive, match_id)
        if not lines:
            return
        header = json.loads(lines[0])
        kept = MatchMeta.of(header["meta"])
        names = scrubbed_names(kept.players, kept.names, player_id)
        if names is not None:
            header["meta"] = {**header["meta"], "names": json.dumps(names)}
            self.archive.put(archive_name(match_id), pack([json.dumps(header, sort_keys=True), *lines[1:]]))

    def _scrub_room(self, room_id: str, player_id: str) -> None:
        def scrub(room: Room) -> tuple[Room, None]:
            seats = tuple(
                replace(s, name=DELETED_NAME) if s.player_id == player_id else s for s in room.seats
            )
            return replace(room, seats=seats), None

        with suppress(NotFound):  # expired meanwhile
            self.rooms.update(room_id, scrub)


def _busy() -> Conflict:
    return Conflict(
        "in_room_or_queue", "leave your room or the matchmaking queue before deleting the account"
    )
