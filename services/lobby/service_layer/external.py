"""Sign-in with an external OpenID Connect provider: authorization code with PKCE (S256).

``start`` keeps a pending sign-in under the digest of a fresh ``state`` (its nonce and PKCE verifier
stay in the lobby) and answers the provider's authorization URL; the browser comes back with the
``state`` and a ``code``; ``complete`` exchanges the code (with the verifier), verifies the ID token
(signature, issuer, audience, expiry, nonce), then spends the state and signs in to the account
linked to the identity (issuer, subject), making it at the first sign-in. A signed-in player who
starts a sign-in links the provider instead: an account gains the link, a guest becomes an account.

Refusals before the state is spent (an unknown or used state, a code the provider refuses, an ID
token that fails a check) change nothing. Docs: docs/accounts.md.
"""

from __future__ import annotations

import secrets
import time
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from services.lobby.adapters.accounts_repo import Account, AccountRepository
from services.lobby.adapters.oidc import (
    PENDING_TTL_S,
    ExternalIdentity,
    OidcClient,
    Pending,
    PendingSignIns,
    ProviderConfig,
    code_challenge,
)
from services.lobby.domain import sessions, validation
from services.lobby.service_layer.accounts import Accounts, Session
from shared.serving.errors import Conflict, InvalidArgument
from shared.serving.tokens import Claims

NAME_TRIES = 10  # display names tried for a new account before a random suffix
MAX_FIELD = 2048  # characters of a state, a code or a redirect URI
SIGNED_IN_AGAIN_S = 300  # how long a sign-in with a provider stands for a password (DeleteAccount)


@dataclass(frozen=True, slots=True)
class Started:
    authorization_url: str
    state: str
    expires_at: int


@dataclass(frozen=True, slots=True)
class Completed:
    session: Session
    created: bool  # the sign-in made the account (or upgraded the guest)


class ExternalSignIn:
    def __init__(
        self,
        providers: dict[str, ProviderConfig],
        client: OidcClient,
        pending: PendingSignIns,
        repo: AccountRepository,
        accounts: Accounts,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.providers, self.client, self.pending = providers, client, pending
        self.repo, self.accounts, self.clock = repo, accounts, clock

    def listed(self) -> list[ProviderConfig]:
        return [self.providers[name] for name in sorted(self.providers)]

    def start(self, provider: str, redirect_uri: str, caller: Claims | None) -> Started:
        config = self.providers.get(provider)
        if config is None:
            raise Conflict(
                "provider_unknown", "this lobby has no sign-in provider {provider!r}", provider=provider[:40]
            )
        _redirect_uri(config, redirect_uri)
        state, nonce, verifier = (
            secrets.token_urlsafe(32),
            secrets.token_urlsafe(32),
            secrets.token_urlsafe(48),
        )
        url = self.client.authorization_url(config, redirect_uri, state, nonce, code_challenge(verifier))
        expires_at = int(self.clock()) + PENDING_TTL_S
        player_id, account = (caller.player_id, caller.account) if caller is not None else ("", False)
        pending = Pending(config.name, redirect_uri, nonce, verifier, player_id, account, expires_at)
        self.pending.put(sessions.digest(state), pending)
        return Started(url, state, expires_at)

    def complete(self, state: str, code: str) -> Completed:
        if not state or len(state) > MAX_FIELD:
            raise InvalidArgument("state must be the state of StartExternalSignIn's answer", "state")
        if not code or len(code) > MAX_FIELD:
            raise InvalidArgument("code must be the code the provider sent back", "code")
        state_digest = sessions.digest(state)
        pending = self.pending.get(state_digest)
        config = self.providers.get(pending.provider) if pending is not None else None
        if pending is None or config is None or pending.expires_at <= self.clock():
            raise Conflict("state_invalid", "this sign-in is unknown, used or expired: start again")
        id_token = self.client.exchange(config, code, pending.redirect_uri, pending.verifier)
        identity = self.client.verify(config, id_token, pending.nonce)
        if not self.pending.take(state_digest):
            raise Conflict("state_invalid", "this sign-in was completed by another call")
        done = self._link(pending, identity) if pending.player_id else self._sign_in(identity)
        self.repo.signed_in_again(done.session.player_id, SIGNED_IN_AGAIN_S)
        return done

    def _sign_in(self, identity: ExternalIdentity) -> Completed:
        for _ in range(2):  # a first sign-in racing another of the same identity: sign in to the winner's
            player_id = self.repo.linked(identity.issuer, identity.subject)
            account = self.repo.get(player_id) if player_id is not None else None
            if account is not None:
                return Completed(self.accounts.start(account), False)
            if player_id is None and self._create(f"a-{uuid.uuid4().hex}", identity):
                return self._signed_in_new(identity)
        raise Conflict("busy_session", "the account changed while signing in: retry")

    def _link(self, pending: Pending, identity: ExternalIdentity) -> Completed:
        owner = self.repo.linked(identity.issuer, identity.subject)
        if owner is not None and owner != pending.player_id:
            raise Conflict("external_linked", "this identity of the provider is linked to another account")
        if not pending.account and owner is None:  # a guest: becomes an account, keeping its player id
            if not self._create(pending.player_id, identity):
                raise Conflict("external_linked", "this identity of the provider was linked meanwhile")
            return self._signed_in_new(identity)
        self.repo.link(pending.player_id, identity.issuer, identity.subject)
        account = self.repo.get(pending.player_id)
        if account is None:
            raise Conflict("not_an_account", "this player has no account")
        return Completed(self.accounts.start(account), False)

    def _create(self, player_id: str, identity: ExternalIdentity) -> bool:
        """A new account for the identity (the address only if the provider verified it); False when
        another call linked the identity first."""
        email = _address(identity.email) if identity.email_verified else ""
        now_ms = int(self.clock() * 1000)
        for name in _names(identity):
            try:
                made = self.repo.create_external(
                    player_id, email, bool(email), name, identity.issuer, identity.subject, now_ms
                )
            except Conflict as err:
                if err.reason == "name_taken":
                    continue
                raise
            return made == "ok"
        raise Conflict("name_taken", "no free display name was found for this account: retry")

    def _signed_in_new(self, identity: ExternalIdentity) -> Completed:
        player_id = self.repo.linked(identity.issuer, identity.subject)
        account: Account | None = self.repo.get(player_id) if player_id is not None else None
        if account is None:
            raise Conflict("busy_session", "the account changed while signing in: retry")
        return Completed(self.accounts.start(account), True)


def _redirect_uri(config: ProviderConfig, uri: str) -> None:
    parts = urllib.parse.urlsplit(uri)
    if len(uri) > MAX_FIELD or parts.scheme not in ("http", "https") or not parts.netloc or parts.fragment:
        raise InvalidArgument("redirect_uri must be an http(s) URI without a fragment", "redirect_uri")
    if config.redirect_uris and uri not in config.redirect_uris:
        raise Conflict("redirect_uri_not_allowed", "this redirect URI is not one configured for the provider")


def _address(email: str) -> str:
    """The token's address as the accounts keep one, or "" (none, or not one the lobby takes)."""
    try:
        return validation.email(email) if email else ""
    except InvalidArgument:
        return ""


def _names(identity: ExternalIdentity) -> list[str]:
    """Display names to try for a new account: the token's name (else the address's local part),
    then with a number, then with a random suffix."""
    given = identity.name or identity.email.partition("@")[0] or "Player"
    try:
        base = validation.display_name(given[:32])
    except InvalidArgument:
        base = "Player"
    numbered = [f"{base[:29]} {n}" for n in range(2, NAME_TRIES)]
    return [base, *numbered, f"{base[:25]} {secrets.token_hex(3)}"]
