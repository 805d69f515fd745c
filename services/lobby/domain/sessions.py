"""Refresh-token families, pure: what a presented refresh token is, and the family after its use.

A sign-in starts a **family**: one chain of refresh tokens, each used once. A refresh token is
``<family id>.<secret>``; the family keeps only digests (SHA-256) of secrets: the current one
(``head``) and the last :data:`KEEP_SPENT` spent ones. Using the head rotates it (a new head, the
old one spent); presenting a spent one again means the token was copied, so the whole family is
revoked. A family is also revoked when its account's ``epoch`` moves on (sign out everywhere, a
password changed or reset): each family records the epoch it was started in.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import re
from dataclasses import dataclass, replace

ACCESS_TTL_S = 15 * 60  # an account's player token: short, since it cannot be revoked
REFRESH_TTL_S = 30 * 24 * 3600  # a refresh token, from its issue: a session used monthly stays signed in
KEEP_SPENT = 64  # spent digests kept per family: reuse of an older one reads as an unknown token
_TOKEN = re.compile(r"([0-9a-f]{32})\.([A-Za-z0-9_-]{43})")


class Presented(enum.StrEnum):
    """What a presented refresh token turned out to be."""

    CURRENT = "current"  # the family's head, not expired: it may be used (once)
    REUSED = "reused"  # a spent token of the family: copied; the family is to be revoked
    REVOKED = "revoked"  # the family was signed out, or its account's epoch moved on
    EXPIRED = "expired"  # no such family (never, or expired), an expired head, or an unknown secret


@dataclass(frozen=True, slots=True)
class Family:
    """One chain of refresh tokens of one player."""

    family_id: str
    player_id: str
    head: str  # digest of the current token's secret
    expires_at: int  # unix seconds: the head's expiry (and the family's, unless used before)
    epoch: int  # the account's epoch when the family started
    spent: tuple[str, ...] = ()  # digests of spent secrets, oldest first, at most KEEP_SPENT
    revoked: bool = False

    def judge(self, digest: str, now: int, epoch: int | None) -> Presented:
        """What ``digest`` is in this family at ``now``, its account at ``epoch`` (None: no account)."""
        if self.revoked or epoch != self.epoch:
            return Presented.REVOKED
        if hmac.compare_digest(digest, self.head):
            return Presented.CURRENT if now < self.expires_at else Presented.EXPIRED
        if any(hmac.compare_digest(digest, old) for old in self.spent):
            return Presented.REUSED
        return Presented.EXPIRED

    def rotated(self, digest: str, now: int, ttl_s: int = REFRESH_TTL_S) -> Family:
        """The family after its head was used: ``digest`` is the new head, the old one spent."""
        spent = (*self.spent, self.head)[-KEEP_SPENT:]
        return replace(self, head=digest, expires_at=now + ttl_s, spent=spent)

    def revoke(self) -> Family:
        return replace(self, revoked=True)


@dataclass(frozen=True, slots=True)
class RefreshToken:
    """A refresh token as the client holds it (the secret is never stored)."""

    family_id: str
    secret: str

    @property
    def text(self) -> str:
        return f"{self.family_id}.{self.secret}"

    @property
    def digest(self) -> str:
        return digest(self.secret)

    @staticmethod
    def of(family_id: str, secret: str) -> RefreshToken:
        """A token of the family with ``secret`` (43 URL-safe characters: 256 random bits)."""
        token = RefreshToken(family_id, secret)
        assert RefreshToken.parse(token.text) == token, "a family id is 32 hex digits, a secret 43 characters"
        return token

    @staticmethod
    def parse(text: str) -> RefreshToken | None:
        """The token of ``text``, or None when it is not shaped like one."""
        found = _TOKEN.fullmatch(text)
        return RefreshToken(found.group(1), found.group(2)) if found else None


def digest(secret: str) -> str:
    """What is stored of a secret (a refresh token's, a mailed code's): its SHA-256, in hex. The
    secrets are 256 random bits, so a fast hash suffices: nobody can guess one from its digest."""
    return hashlib.sha256(secret.encode()).hexdigest()


def start(player_id: str, epoch: int, now: int, token: RefreshToken, ttl_s: int = REFRESH_TTL_S) -> Family:
    """A new family of ``player_id`` whose first refresh token is ``token`` (a new family id, a
    fresh secret: made by the caller, this module draws no randomness)."""
    return Family(token.family_id, player_id, token.digest, now + ttl_s, epoch)
