"""Signed bearer tokens (JWT, HS256, PyJWT): who the caller is, which service it may call, what for.

Every token names its **audience**, the one service that accepts it (:data:`LOBBY`, or
``game:<name>`` for a game's rule service, :func:`game_audience`), and its **scope**:

============  ==================  ===========================================================
scope         audience            allows
============  ==================  ===========================================================
``player``    the lobby           the player's own lobby calls (a guest's, or an account's: ``acct``)
``seat``      game G              acting for seat N of match M (and seeing what that seat sees)
``spectator`` game G              the public view, watch and replay of match M
``service``   game G              the lobby creating matches (acts as the system)
============  ==================  ===========================================================

A token for another audience, or one whose scope does not cover the call, is a genuine token that
is not allowed here: :class:`TokenRefused` (PERMISSION_DENIED); a forged, malformed or expired one
is a :class:`TokenError` (UNAUTHENTICATED). Each service checks the scope itself
(``shared/serving/game_service.py``, ``services/lobby``).

Keys have ids (the JWT header's ``kid``) so the secret can be rotated without logging anyone out:
tokens are signed with the current secret (``TABULA_SECRET``) and verified with it or any previous
one (``TABULA_SECRET_PREVIOUS``, comma-separated), picked by ``kid``. A serving process refuses to
start without ``TABULA_SECRET`` (:func:`keyring_from_env`); only ``tabula run`` and tests generate a
development secret (:func:`dev_secret`, into ``.tabula/secret``). Secrets and whole tokens are never
logged or shown in a ``repr``.
"""

from __future__ import annotations

import enum
import hashlib
import os
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jwt

from shared.core.lru import keep
from shared.core.worded import Worded

ALGORITHM = "HS256"
ISSUER = "tabula"
LOBBY = "lobby"
MIN_SECRET_BYTES = 32  # RFC 7518, 3.2: an HS256 key is at least as long as the hash (256 bits)
SECRET_VAR, PREVIOUS_VAR = "TABULA_SECRET", "TABULA_SECRET_PREVIOUS"
REQUIRED = ["iss", "sub", "aud", "scope", "exp", "iat", "jti"]
HOUR = 3600  # the default lifetime; the lobby names its own (a guest's week, a seat's week ...)
VERIFIED_KEPT = 4096  # tokens verified lately whose claims are kept (a player's every call sends the same)


class TokenError(Worded):
    """A token that is missing, malformed, forged, signed with an unknown key, or expired."""


class TokenRefused(Worded):
    """A genuine token that does not allow this call: another service's, match's, seat's or scope."""


class SecretMissing(RuntimeError):
    """A serving process started without ``TABULA_SECRET``."""


class Scope(enum.StrEnum):
    PLAYER = "player"  # a signed-in player (a guest or an account), in the lobby
    SEAT = "seat"  # seat N of match M
    SPECTATOR = "spectator"  # the public view of match M
    SERVICE = "service"  # the lobby calling a rule service: create matches, act as the system


def game_audience(game: str) -> str:
    """The audience of a game's rule service (``game:<name>``)."""
    return f"game:{game}"


@dataclass(frozen=True, slots=True)
class Claims:
    """A verified token. ``player_id`` is the subject (``lobby`` for a service token); ``token_id``
    (the JWT ``jti``) names this one token, e.g. for its concurrent-watch quota."""

    player_id: str
    scope: Scope
    audience: str
    expires_at: int
    token_id: str
    match_id: str = ""
    seat: int = -1
    name: str = ""
    account: bool = False  # a player token of an account (the ``acct`` claim), not of a guest


@dataclass(frozen=True, slots=True)
class Key:
    """One signing secret and its id; the secret stays out of ``repr`` (and so out of logs)."""

    kid: str
    secret: bytes = field(repr=False)

    @staticmethod
    def of(secret: bytes) -> Key:
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"a token secret must be at least {MIN_SECRET_BYTES} bytes")
        return Key(key_id(secret), secret)


def key_id(secret: bytes) -> str:
    """A short id derived from the secret (a one-way hash: it tells which key, never the key)."""
    return hashlib.sha256(b"tabula-token-key:" + secret).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Keyring:
    """The current key (signs and verifies) and previous ones (verify only, during a rotation)."""

    current: Key
    previous: tuple[Key, ...] = ()

    @staticmethod
    def of(current: bytes, *previous: bytes) -> Keyring:
        return Keyring(Key.of(current), tuple(Key.of(p) for p in previous))

    def find(self, kid: str) -> Key | None:
        return next((k for k in (self.current, *self.previous) if k.kid == kid), None)


class TokenSigner:
    """Issues and verifies tokens with a :class:`Keyring` (or one secret, for tests and tools)."""

    def __init__(self, keys: Keyring | bytes) -> None:
        self.keys = keys if isinstance(keys, Keyring) else Keyring.of(keys)
        self._verified: OrderedDict[tuple[str, str], Claims] = OrderedDict()
        self._verified_lock = threading.Lock()

    # ------------------------------------------------------------ issuing
    def player(self, player_id: str, name: str, ttl_s: int = HOUR, account: bool = False) -> str:
        """A signed-in player's lobby token: a guest's, or an account's (``account``: the ``acct`` claim)."""
        return self._issue(player_id, Scope.PLAYER, LOBBY, ttl_s, name=name, account=account)

    def seat(self, game: str, match_id: str, seat: int, player_id: str, ttl_s: int = HOUR) -> str:
        return self._issue(player_id, Scope.SEAT, game_audience(game), ttl_s, mid=match_id, seat=seat)

    def spectator(self, game: str, match_id: str, player_id: str, ttl_s: int = HOUR, name: str = "") -> str:
        return self._issue(player_id, Scope.SPECTATOR, game_audience(game), ttl_s, mid=match_id, name=name)

    def service(self, game: str, ttl_s: int = HOUR, caller: str = "lobby") -> str:
        return self._issue(caller, Scope.SERVICE, game_audience(game), ttl_s)

    def _issue(
        self,
        subject: str,
        scope: Scope,
        audience: str,
        ttl_s: int,
        mid: str = "",
        seat: int = -1,
        name: str = "",
        account: bool = False,
    ) -> str:
        now = int(time.time())
        extra = {"mid": mid, "seat": seat, "name": name, "acct": 1 if account else ""}
        claims = {
            "iss": ISSUER,
            "sub": subject,
            "aud": audience,
            "scope": scope.value,
            "iat": now,
            "exp": now + ttl_s,
            "jti": uuid.uuid4().hex,
            **{k: v for k, v in extra.items() if v not in ("", -1)},  # only what the scope names
        }
        key = self.keys.current
        return jwt.encode(claims, key.secret, algorithm=ALGORITHM, headers={"kid": key.kid})

    # ------------------------------------------------------------ verifying
    def verify(self, token: str, audience: str) -> Claims:
        """The claims of a token for ``audience``, signed by a key of the ring and not expired.

        A player sends the same token with every call, so the claims of the last
        :data:`VERIFIED_KEPT` tokens that passed are kept, keyed by the whole token (its signature
        included) and the audience: the signature of a kept token is not checked again, its expiry
        is. A token that failed is never kept.
        """
        with self._verified_lock:
            kept = self._verified.get((token, audience))
            if kept is not None:
                self._verified.move_to_end((token, audience))
        if kept is not None:
            if kept.expires_at <= time.time():  # PyJWT's rule (no leeway): expired at exp itself
                raise TokenError("token has expired")
            return kept
        claims = self._verify(token, audience)
        with self._verified_lock:
            keep(self._verified, (token, audience), claims, VERIFIED_KEPT)
        return claims

    def _verify(self, token: str, audience: str) -> Claims:
        try:
            kid = jwt.get_unverified_header(token).get("kid")
        except jwt.PyJWTError as err:
            raise TokenError("token is malformed") from err
        key = self.keys.find(kid) if isinstance(kid, str) else None
        if key is None:
            raise TokenError("token is signed with an unknown key (sign in again)")
        try:
            raw = jwt.decode(
                token,
                key.secret,
                algorithms=[ALGORITHM],
                audience=audience,
                issuer=ISSUER,
                options={"require": REQUIRED},
            )
        except jwt.InvalidAudienceError as err:
            raise TokenRefused("this token is not for the {audience} service", audience=audience) from err
        except jwt.ExpiredSignatureError as err:
            raise TokenError("token has expired") from err
        except jwt.InvalidSignatureError as err:
            raise TokenError("token signature is not valid") from err
        except jwt.PyJWTError as err:
            raise TokenError("token is malformed") from err
        return _claims(raw)


def _claims(raw: Mapping[str, Any]) -> Claims:
    try:
        return Claims(
            player_id=str(raw["sub"]),
            scope=Scope(raw["scope"]),
            audience=str(raw["aud"]),
            expires_at=int(raw["exp"]),
            token_id=str(raw["jti"]),
            match_id=str(raw.get("mid", "")),
            seat=int(raw.get("seat", -1)),
            name=str(raw.get("name", "")),
            account=raw.get("acct") == 1,
        )
    except (ValueError, TypeError) as err:
        raise TokenError("token is malformed") from err


# ---------------------------------------------------------------- where the secrets come from


def keyring_from_env(env: Mapping[str, str] | None = None) -> Keyring:
    """``TABULA_SECRET`` (signs) and ``TABULA_SECRET_PREVIOUS`` (comma-separated, verify only).

    No default: a serving process without a secret must not start (tokens signed with a known
    or throwaway secret would be forgeable, or void after every restart).
    """
    e = env if env is not None else os.environ
    current = e.get(SECRET_VAR, "")
    if not current:
        raise SecretMissing(
            f"{SECRET_VAR} is not set: give every service the same secret of at least "
            f"{MIN_SECRET_BYTES} bytes (`tabula run` generates a development one)"
        )
    previous = [p.strip() for p in e.get(PREVIOUS_VAR, "").split(",") if p.strip()]
    return Keyring.of(current.encode(), *(p.encode() for p in previous))


def dev_secret(path: Path = Path(".tabula/secret")) -> str:
    """A development secret, generated once into ``path`` (git-ignored, mode 0600): ``tabula run``
    passes it to its children as ``TABULA_SECRET`` when none is set, so a fresh checkout works."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
