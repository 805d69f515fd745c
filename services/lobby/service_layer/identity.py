"""Who is calling: guest sign-in, player-token checks, and the seat and spectator tokens we hand out.

A guest's identity lives in their player token (audience the lobby, scope ``player``) and in their
Redis keys (name, matches, history), which expire ``GUEST_TTL_S`` after the guest's last lobby call:
every call refreshes them, so an active guest keeps their name and a vanished one is forgotten.
An account's player token says so (``Claims.account``; ``service_layer/accounts.py`` signs it) and its
keys are kept; each call reads the account's current name (a rename counts at once) and refuses the
token of a deleted account. A guest token of a guest who has since become an account is refused
(sign in), and so is one whose account was deleted. A guest may not take an account's name.
Seat and spectator tokens are for one game's rule service and one match (``shared/serving/tokens.py``).
A private room's match is watched only by its players and the room's invitees.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import replace

from services.lobby.adapters import keys
from services.lobby.adapters.match_index import PrivateMatches
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.domain import validation
from shared.runtime.edge import wait
from shared.serving.errors import Conflict, InvalidArgument, NotFound, PermissionDenied
from shared.serving.tokens import LOBBY, Claims, Scope, TokenError, TokenSigner
from shared.store import EventStore, MatchMeta

GUEST_TTL_S = keys.GUEST_TTL_S  # the player token's lifetime, and the guest's keys' after each call
SEAT_TTL_S = 7 * 24 * 3600  # asynchronous matches may take days
SPECTATOR_TTL_S = 24 * 3600


class Identity:
    def __init__(
        self, signer: TokenSigner, ratings: RatingsRepository, store: EventStore, private: PrivateMatches
    ) -> None:
        self.signer, self.ratings, self.store, self.private = signer, ratings, store, private

    def sign_in(self, display_name: str) -> tuple[str, str, int]:
        """A new guest: (player id, token, expiry in unix seconds)."""
        name = validation.display_name(display_name)
        if self.ratings.is_account_name(validation.name_key(name)):
            raise Conflict("name_taken", "an account has this display name: choose another, or sign in")
        player_id = f"g-{uuid.uuid4().hex}"
        self.ratings.set_name(player_id, name, GUEST_TTL_S)
        token = self.signer.player(player_id, name, ttl_s=GUEST_TTL_S)
        return player_id, token, int(time.time()) + GUEST_TTL_S

    def guest(self, token: str) -> Claims:
        """A valid player token, a guest's keys refreshed (forged, expired, or a guest's since upgraded:
        UNAUTHENTICATED; another service's token or another scope: PERMISSION_DENIED)."""
        claims = self.signer.verify(token, LOBBY)
        if claims.scope is not Scope.PLAYER:
            raise PermissionDenied(
                "the lobby needs a player token (sign in), not a {scope} token", scope=claims.scope.value
            )
        if claims.account:
            name = self.ratings.account_name(claims.player_id)
            if name is None:
                raise TokenError("this account no longer exists (deleted)")
            return replace(claims, name=name)  # renamed since the token was signed: the name now
        touched = self.ratings.set_name(claims.player_id, claims.name, GUEST_TTL_S)
        if touched == 1:
            raise TokenError("this guest has become an account: sign in with its email and password")
        if touched == 2:
            raise TokenError("this guest's account was deleted")
        return claims

    def seat_token(self, game: str, player_id: str, match_id: str, seat: int) -> str:
        return self.signer.seat(game, match_id, seat, player_id, ttl_s=SEAT_TTL_S)

    def spectator_token(self, caller: Claims, match_id: str) -> tuple[str, str]:
        """A token that sees one match's public view on its game's service, and the game.
        A private room's match: only for its players and the room's invitees."""
        if not match_id:
            raise InvalidArgument("match_id is required")
        validation.identifier(match_id, "match_id")
        game = MatchMeta.of(wait(self.store.get_meta(match_id))).game
        if not game:
            raise NotFound("no match {match_id!r}", match_id=match_id)
        if not self.private.may_watch(match_id, caller.player_id):
            raise PermissionDenied("a private room's match is watched only by its players and invitees")
        token = self.signer.spectator(game, match_id, caller.player_id, SPECTATOR_TTL_S, name=caller.name)
        return token, game
