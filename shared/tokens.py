"""Signed bearer tokens (HMAC-SHA256): who the caller is and what it may do.

A token names a player, a role, optionally a match and a seat, and an expiry. The secret
comes from ``TABULA_SECRET``; without it a development secret is generated once into
``.tabula/secret`` (git-ignored), so a fresh checkout works and no secret is committed.
"""

from __future__ import annotations

import base64
import binascii
import enum
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path


class TokenError(Exception):
    """A token that is missing, malformed, forged or expired."""


class Role(enum.StrEnum):
    GUEST = "guest"  # signed in to the lobby, no match
    PLAYER = "player"  # may act for one seat of one match
    SPECTATOR = "spectator"  # may watch one match's public view
    SERVICE = "service"  # lobby and workers: create matches, act as the system


@dataclass(frozen=True, slots=True)
class Claims:
    player_id: str
    role: Role
    expires_at: int
    match_id: str = ""
    seat: int = -1
    name: str = ""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret

    def issue(
        self,
        player_id: str,
        role: Role,
        ttl_s: int = 24 * 3600,
        match_id: str = "",
        seat: int = -1,
        name: str = "",
    ) -> str:
        claims = {
            "sub": player_id,
            "role": role.value,
            "exp": int(time.time()) + ttl_s,
            "mid": match_id,
            "seat": seat,
            "name": name,
        }
        body = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
        return f"{body}.{self._sign(body)}"

    def verify(self, token: str, now: float | None = None) -> Claims:
        body, dot, signature = token.partition(".")
        if not dot or not hmac.compare_digest(signature, self._sign(body)):
            raise TokenError("token signature is not valid")
        try:
            raw = json.loads(_unb64(body))
            claims = Claims(
                str(raw["sub"]),
                Role(raw["role"]),
                int(raw["exp"]),
                str(raw["mid"]),
                int(raw["seat"]),
                str(raw.get("name", "")),
            )
        except (ValueError, KeyError, TypeError, binascii.Error) as err:
            raise TokenError("token is malformed") from err
        if claims.expires_at < (time.time() if now is None else now):
            raise TokenError("token has expired")
        return claims

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode(), hashlib.sha256).digest())


def load_secret(env: dict[str, str] | None = None, dev_file: Path = Path(".tabula/secret")) -> bytes:
    """``TABULA_SECRET`` if set, else a development secret generated once into ``dev_file``."""
    value = (env if env is not None else os.environ).get("TABULA_SECRET")
    if value:
        return value.encode()
    if not dev_file.exists():
        dev_file.parent.mkdir(parents=True, exist_ok=True)
        dev_file.write_text(secrets.token_hex(32))
        dev_file.chmod(0o600)
    return dev_file.read_text().strip().encode()
