"""OpenID Connect providers: their settings, discovery, the code exchange, the ID token's checks,
and the pending sign-ins in Redis.

A provider is configured by ``TABULA_OIDC_PROVIDERS`` (names) and, for each name,
``TABULA_OIDC_<NAME>_ISSUER`` and ``_CLIENT_ID`` (``_CLIENT_SECRET``, ``_LABEL``, ``_SCOPES`` and
``_REDIRECT_URIS`` optional; docs/accounts.md). Its endpoints come from
``<issuer>/.well-known/openid-configuration`` (kept an hour); its keys from its ``jwks_uri`` (PyJWT's
key client, fetched again for an unknown key id). HTTP is the standard library's, with a timeout.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import jwt

from services.lobby.adapters import keys
from shared.serving.errors import Conflict, Unavailable
from shared.store.redis_store import RedisClient

TIMEOUT_S = 10.0  # each request to a provider
METADATA_TTL_S = 3600.0  # a provider's discovery document is read again after this
LEEWAY_S = 60  # clock skew allowed on an ID token's exp / iat / nbf
PENDING_TTL_S = 600  # a started sign-in must complete within 10 minutes
# Asymmetric signatures only: never "none", never a MAC keyed with the client secret.
ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    name: str  # in the RPCs, and in the settings' names
    label: str  # what the sign-in button shows: "Sign in with <label>"
    issuer: str
    client_id: str
    client_secret: str = ""  # "": a public client (PKCE alone)
    scopes: str = "openid email profile"
    redirect_uris: tuple[str, ...] = ()  # the redirect URIs allowed; (): any http(s) URI

    def __repr__(self) -> str:  # the secret stays out of logs
        return f"ProviderConfig({self.name!r}, {self.issuer!r})"


def providers_from_env(env: Mapping[str, str]) -> dict[str, ProviderConfig]:
    """The providers of ``TABULA_OIDC_PROVIDERS`` (comma-separated names), by name."""
    found: dict[str, ProviderConfig] = {}
    for name in (n.strip() for n in env.get("TABULA_OIDC_PROVIDERS", "").split(",")):
        if not name:
            continue
        if not _NAME.fullmatch(name):
            raise ValueError(f"TABULA_OIDC_PROVIDERS: {name!r} is not a name (a-z, 0-9, -; 32 at most)")
        prefix = f"TABULA_OIDC_{name.upper().replace('-', '_')}_"
        issuer, client_id = env.get(prefix + "ISSUER", ""), env.get(prefix + "CLIENT_ID", "")
        if not issuer or not client_id:
            raise ValueError(f"provider {name!r} needs {prefix}ISSUER and {prefix}CLIENT_ID")
        found[name] = ProviderConfig(
            name,
            env.get(prefix + "LABEL", name),
            issuer,
            client_id,
            env.get(prefix + "CLIENT_SECRET", ""),
            env.get(prefix + "SCOPES", "openid email profile"),
            tuple(u for u in env.get(prefix + "REDIRECT_URIS", "").split(",") if u),
        )
    return found


@dataclass(frozen=True, slots=True)
class ExternalIdentity:
    """What a verified ID token says."""

    issuer: str
    subject: str
    email: str  # "" when the token has none
    email_verified: bool
    name: str  # "" when the token has none


def code_challenge(verifier: str) -> str:
    """PKCE S256 (RFC 7636): the verifier's SHA-256, base64url without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def _unavailable(config: ProviderConfig, what: str) -> Unavailable:
    return Unavailable(
        "external_unavailable",
        "the sign-in provider {label} cannot be reached ({what})",
        label=config.label,
        what=what,
    )


class OidcClient:
    """Talks to the providers (thread-safe: the caches are behind a lock)."""

    def __init__(self, clock: Callable[[], float] = time.time, timeout_s: float = TIMEOUT_S) -> None:
        self.clock, self.timeout_s = clock, timeout_s
        self._lock = threading.Lock()
        self._metadata: dict[str, tuple[float, dict[str, Any]]] = {}
        self._keys: dict[str, jwt.PyJWKClient] = {}

    def metadata(self, config: ProviderConfig) -> dict[str, Any]:
        """The provider's discovery document (its ``issuer`` must be the configured one)."""
        with self._lock:
            cached = self._metadata.get(config.issuer)
        if cached is not None and cached[0] > self.clock():
            return cached[1]
        url = config.issuer.rstrip("/") + "/.well-known/openid-configuration"  # OIDC Discovery, 4
        try:
            with urllib.request.urlopen(url, timeout=self.timeout_s) as answer:
                document = json.loads(answer.read())
        except (OSError, ValueError) as err:
            raise _unavailable(config, "discovery") from err
        needed = ("authorization_endpoint", "token_endpoint", "jwks_uri")
        if document.get("issuer") != config.issuer or not all(
            isinstance(document.get(k), str) for k in needed
        ):
            raise _unavailable(config, "its discovery document is not for this issuer")
        with self._lock:
            self._metadata[config.issuer] = (self.clock() + METADATA_TTL_S, document)
        return dict(document)

    def authorization_url(
        self, config: ProviderConfig, redirect_uri: str, state: str, nonce: str, challenge: str
    ) -> str:
        query = {
            "response_type": "code",
            "client_id": config.client_id,
            "redirect_uri": redirect_uri,
            "scope": config.scopes,
            "state": state,
            "nonce": nonce,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        endpoint = str(self.metadata(config)["authorization_endpoint"])
        joiner = "&" if "?" in endpoint else "?"
        return endpoint + joiner + urllib.parse.urlencode(query)

    def exchange(self, config: ProviderConfig, code: str, redirect_uri: str, verifier: str) -> str:
        """The ID token the provider gives for ``code`` (client_secret_basic with a secret, else the
        client id in the form: a public client)."""
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier,
        }
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
        if config.client_secret:
            pair = f"{_form(config.client_id)}:{_form(config.client_secret)}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
        else:
            form["client_id"] = config.client_id
        request = urllib.request.Request(
            str(self.metadata(config)["token_endpoint"]),
            data=urllib.parse.urlencode(form).encode(),
            headers=headers,
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as answer:
                tokens = json.loads(answer.read())
        except urllib.error.HTTPError as err:
            if err.code >= 500:
                raise _unavailable(config, f"token endpoint: HTTP {err.code}") from err
            error = _error_code(err)
            if error == "invalid_grant":
                raise Conflict(
                    "external_code_invalid",
                    "the provider refused this code (used, expired, altered, or not for this sign-in): "
                    "sign in again",
                ) from err
            raise Conflict(
                "external_refused", "the provider refused the sign-in ({error})", error=error
            ) from err
        except (OSError, ValueError) as err:
            raise _unavailable(config, "token endpoint") from err
        id_token = tokens.get("id_token") if isinstance(tokens, dict) else None
        if not isinstance(id_token, str):
            raise Conflict("external_token_invalid", "the provider answered without an ID token")
        return id_token

    def verify(self, config: ProviderConfig, id_token: str, nonce: str) -> ExternalIdentity:
        """The ID token's claims once its signature (the provider's keys), issuer, audience,
        authorized party, expiry and nonce are checked."""
        try:
            algorithm = jwt.get_unverified_header(id_token).get("alg")
        except jwt.PyJWTError as err:
            raise Conflict("external_token_invalid", "the ID token is not a JWT") from err
        if algorithm not in ALGORITHMS:
            raise Conflict(
                "external_token_invalid",
                "the ID token's algorithm {algorithm!r} is not accepted",
                algorithm=algorithm,
            )
        try:
            key = self._key_client(config).get_signing_key_from_jwt(id_token)
        except jwt.PyJWKClientConnectionError as err:
            raise _unavailable(config, "keys") from err
        except jwt.PyJWTError as err:
            raise Conflict("external_token_invalid", "the ID token's key is not the provider's") from err
        try:
            claims = jwt.decode(
                id_token,
                key,
                algorithms=[algorithm],
                audience=config.client_id,
                issuer=config.issuer,
                leeway=LEEWAY_S,
                options={"require": ["iss", "sub", "aud", "exp", "iat"]},
            )
        except jwt.PyJWTError as err:
            raise Conflict("external_token_invalid", "the ID token is refused: {err}", err=err) from err
        audience = claims["aud"]
        if isinstance(audience, list) and len(audience) > 1 and claims.get("azp") != config.client_id:
            raise Conflict("external_token_invalid", "the ID token is for another party (azp)")
        if not hmac.compare_digest(str(claims.get("nonce", "")).encode(), nonce.encode()):
            raise Conflict("external_nonce_mismatch", "the ID token was not issued for this sign-in (nonce)")
        subject = claims["sub"]
        if not isinstance(subject, str) or not subject or len(subject) > 255:
            raise Conflict("external_token_invalid", "the ID token's subject is not a string of 1 to 255")
        email = claims.get("email")
        name = claims.get("name") or claims.get("preferred_username")
        return ExternalIdentity(
            config.issuer,
            subject,
            email if isinstance(email, str) else "",
            claims.get("email_verified") is True,
            name if isinstance(name, str) else "",
        )

    def _key_client(self, config: ProviderConfig) -> jwt.PyJWKClient:
        uri = str(self.metadata(config)["jwks_uri"])
        with self._lock:
            found = self._keys.get(uri)
            if found is None:
                found = self._keys[uri] = jwt.PyJWKClient(uri, lifespan=3600, timeout=int(self.timeout_s))
            return found


def _form(text: str) -> str:
    """client_secret_basic encodes the id and secret as form values first (RFC 6749, 2.3.1)."""
    return urllib.parse.quote_plus(text)


def _error_code(err: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(err.read())
    except (OSError, ValueError):
        return f"HTTP {err.code}"
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, str) and error.isascii() and len(error) <= 64 else f"HTTP {err.code}"


@dataclass(frozen=True, slots=True)
class Pending:
    """A started sign-in, kept under its state's digest until it completes (or 10 minutes)."""

    provider: str
    redirect_uri: str
    nonce: str
    verifier: str  # PKCE: never leaves the lobby
    player_id: str  # "": a sign-in; else the signed-in player linking the provider
    account: bool  # whether that player is an account (else a guest, upgraded by the link)
    expires_at: int

    def __repr__(self) -> str:  # the secrets stay out of logs
        return f"Pending({self.provider!r}, player={self.player_id!r})"


class PendingSignIns:
    """``{lobby}:external-state:<digest>``: the pending sign-in as JSON, with its TTL."""

    def __init__(self, client: RedisClient) -> None:
        self.client = client

    def put(self, state_digest: str, pending: Pending) -> None:
        self.client.set(
            keys.external_state(state_digest), json.dumps(asdict(pending)), exat=pending.expires_at
        )

    def get(self, state_digest: str) -> Pending | None:
        raw = self.client.get(keys.external_state(state_digest))
        return Pending(**json.loads(raw)) if raw is not None else None

    def take(self, state_digest: str) -> bool:
        """Spend the state: True for the one call that deleted it."""
        return bool(self.client.delete(keys.external_state(state_digest)))
