"""Who is calling: guest sign-in, guest-token checks, and the seat and spectator tokens we hand out."""

from __future__ import annotations

import time
import uuid

from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.domain import validation
from shared.errors import InvalidArgument, NotFound, PermissionDenied
from shared.store import EventStore
from shared.tokens import Claims, Role, TokenSigner

GUEST_TTL_S = 7 * 24 * 3600
SEAT_TTL_S = 7 * 24 * 3600  # asynchronous matches may take days
SPECTATOR_TTL_S = 24 * 3600


class Identity:
    def __init__(self, signer: TokenSigner, ratings: RatingsRepository, store: EventStore) -> None:
        self.signer, self.ratings, self.store = signer, ratings, store

    def sign_in(self, display_name: str) -> tuple[str, str, int]:
        """A new guest: (player id, token, expiry in unix seconds)."""
        name = validation.display_name(display_name)
        player_id = f"g-{uuid.uuid4().hex}"
        self.ratings.set_name(player_id, name)
        token = self.signer.issue(player_id, Role.GUEST, ttl_s=GUEST_TTL_S, name=name)
        return player_id, token, int(time.time()) + GUEST_TTL_S

    def guest(self, token: str) -> Claims:
        """A valid guest token (forged or expired: UNAUTHENTICATED; other roles: PERMISSION_DENIED)."""
        claims = self.signer.verify(token)
        if claims.role is not Role.GUEST:
            raise PermissionDenied(
                f"the lobby needs a guest token (sign in), not a {claims.role.value} token"
            )
        return claims

    def seat_token(self, player_id: str, match_id: str, seat: int) -> str:
        return self.signer.issue(player_id, Role.PLAYER, ttl_s=SEAT_TTL_S, match_id=match_id, seat=seat)

    def spectator_token(self, caller: Claims, match_id: str) -> tuple[str, str]:
        """A token that sees one match's public view, and the match's game."""
        if not match_id:
            raise InvalidArgument("match_id is required")
        validation.identifier(match_id, "match_id")
        game = self.store.get_meta(match_id).get("game")
        if game is None:
            raise NotFound(f"no match {match_id!r}")
        token = self.signer.issue(
            caller.player_id, Role.SPECTATOR, ttl_s=SPECTATOR_TTL_S, match_id=match_id, name=caller.name
        )
        return token, game
