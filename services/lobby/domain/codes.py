"""Mailed codes, pure: an email-verification or password-reset code and whether it may be used.

A code is 256 random bits mailed to the account's address; only its digest is stored
(``domain/sessions.py``, :func:`~services.lobby.domain.sessions.digest`), with what it is for,
whose it is, the address it was sent to and when it expires. It is used once: the store deletes
it as it is used, and a newer code of the same purpose replaces it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Purpose(enum.StrEnum):
    VERIFY = "verify"  # proves the address: VerifyEmail
    RESET = "reset"  # sets a new password: ResetPassword


LIFETIME_S = {Purpose.VERIFY: 48 * 3600, Purpose.RESET: 3600}
KEPT_EXPIRED_S = 24 * 3600  # an expired code is still recognised (code_expired) this long, then forgotten


class Judged(enum.StrEnum):
    VALID = "valid"
    EXPIRED = "expired"
    UNKNOWN = "unknown"  # never issued, used, replaced by a newer one, long expired, or another purpose


@dataclass(frozen=True, slots=True)
class Code:
    """A code as stored (without the code itself)."""

    purpose: Purpose
    player_id: str
    email: str  # the address it was mailed to
    expires_at: int  # unix seconds

    @staticmethod
    def issue(purpose: Purpose, player_id: str, email: str, now: int) -> Code:
        return Code(purpose, player_id, email, now + LIFETIME_S[purpose])


def judge(code: Code | None, purpose: Purpose, now: int) -> Judged:
    """Whether a presented code (as found in the store, None: not found) may be used for ``purpose``."""
    if code is None or code.purpose is not purpose:
        return Judged.UNKNOWN
    return Judged.VALID if now < code.expires_at else Judged.EXPIRED
