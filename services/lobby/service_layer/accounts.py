"""Accounts: sign up, sign in, sessions (access and refresh tokens), passwords, mailed codes.

An account's **access token** is the lobby's usual player token (``shared/serving/tokens.py``, scope
``player``, the ``acct`` claim set), valid :data:`~services.lobby.domain.sessions.ACCESS_TTL_S`, so
every service takes it as it takes a guest's. A **session** is a refresh-token family
(``domain/sessions.py``): each refresh spends its token and returns the next; a spent one used
again ends the session. Signing out everywhere, a password change and a reset end every session.

Refusals change nothing (but the counts of the limits): the checks come first, then one script
writes. A wrong email and a wrong password are the same refusal, ``wrong_credentials``, after the
same work (a throwaway hash is checked for an unknown address). Docs: docs/accounts.md.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from services.lobby.adapters.accounts_repo import Account, AccountRepository
from services.lobby.adapters.attempts import PasswordTries
from services.lobby.adapters.mail import Mail, Mailer
from services.lobby.adapters.passwords import check_password, hash_password, needs_rehash
from services.lobby.domain import codes, sessions, validation
from services.lobby.domain.codes import Judged, Purpose
from services.lobby.domain.sessions import Family, Presented, RefreshToken
from shared.serving.errors import Conflict, InvalidArgument
from shared.serving.tokens import Claims, TokenSigner

log = logging.getLogger("tabula.lobby.accounts")
T = TypeVar("T")
RETRIES = 10  # compare-and-set rounds of a session before `busy_session` (another call won each)
_CODE = re.compile(r"[A-Za-z0-9_-]{43}")
MAIL_TEXTS = {
    Purpose.VERIFY: (
        "Verify your email address for Tabula",
        "Hello {name},\n\nyour code to verify this address is:\n\n    {code}\n\nIt is valid for 48 hours, "
        "once. If you did not make a Tabula account, ignore this message.\n",
    ),
    Purpose.RESET: (
        "Reset your Tabula password",
        "Hello {name},\n\nyour code to set a new password is:\n\n    {code}\n\nIt is valid for 1 hour, "
        "once. If you did not ask for it, ignore this message: your password stays as it is.\n",
    ),
}
CHANGED = (
    "Your Tabula password was changed",
    "Hello {name},\n\nthe password of your Tabula account was just changed, and every other session "
    "signed out. If that was not you, reset your password now.\n",
)


@dataclass(frozen=True, slots=True)
class Session:
    player_id: str
    name: str
    access_token: str
    access_expires_at: int
    refresh_token: str
    refresh_expires_at: int


class Accounts:
    def __init__(
        self,
        repo: AccountRepository,
        signer: TokenSigner,
        tries: PasswordTries,
        mailer: Mailer,
        mail_limit: Callable[[str], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``mail_limit(subject)``: raises ResourceExhausted when ``subject`` (an account's address
        digest) was mailed too often (the ``mail_account`` limit)."""
        self.repo, self.signer, self.tries, self.mailer = repo, signer, tries, mailer
        self.mail_limit, self.clock = mail_limit, clock

    def _now(self) -> int:
        return int(self.clock())

    # ------------------------------------------------------------ new accounts
    def sign_up(self, email: str, password: str, display_name: str) -> Session:
        address = validation.email(email)
        validation.new_password(password)
        name = validation.display_name(display_name)
        return self._create(f"a-{uuid.uuid4().hex}", address, password, name)

    def upgrade(self, caller: Claims, email: str, password: str, display_name: str) -> Session:
        """The calling guest becomes an account with the same player id."""
        if caller.account:
            raise Conflict("already_account", "this player already has an account")
        address = validation.email(email)
        validation.new_password(password)
        name = validation.display_name(display_name or caller.name)
        return self._create(caller.player_id, address, password, name)

    def _create(self, player_id: str, email: str, password: str, name: str) -> Session:
        self.repo.create(player_id, email, name, hash_password(password), self._now() * 1000)
        account = self.repo.get(player_id)
        assert account is not None  # just created
        self._mail_code(account, Purpose.VERIFY, limited=False)  # a new account: its sign-up was limited
        return self._start(account)

    # ------------------------------------------------------------ signing in and out
    def sign_in(self, email: str, password: str, address: str) -> Session:
        given = validation.email(email)
        validation.given_password(password)
        self.tries.attempt(given, address)
        account = self.repo.by_email(given)
        if not check_password(account.password if account else None, password) or account is None:
            raise Conflict("wrong_credentials", "wrong email or password")
        self.tries.succeeded(given, address)
        if needs_rehash(account.password):
            self.repo.rehash(account, hash_password(password))
        return self._start(account)

    def refresh(self, refresh_token: str) -> Session:
        token = _refresh_token(refresh_token)

        def rotate(family: Family, version: int) -> Session | None:
            account = self.repo.get(family.player_id)  # there: its epoch was read with the family
            following = RefreshToken.of(family.family_id, new_secret())
            rotated = family.rotated(following.digest, self._now())
            if account is None or not self.repo.save_family(rotated, version):
                return None  # judged again: an account gone meanwhile has ended the family
            return self._session(account, rotated, following)

        return self._with_current(token, rotate)

    def sign_out(self, refresh_token: str, everywhere: bool) -> None:
        token = _refresh_token(refresh_token)

        def end(family: Family, version: int) -> bool | None:
            if everywhere:
                self.repo.end_families(family.player_id)
                return True
            return True if self.repo.save_family(family.revoke(), version) else None

        self._with_current(token, end)

    def _with_current(self, token: RefreshToken, action: Callable[[Family, int], T | None]) -> T:
        """``action`` on the token's family when the token is its head; refused otherwise (a spent
        one ends its family). ``action`` answers None when it lost a race: read and judge again."""
        for _ in range(RETRIES):
            family, version, epoch = self.repo.family(token.family_id)
            verdict = family.judge(token.digest, self._now(), epoch) if family else Presented.EXPIRED
            if family is not None and verdict is Presented.CURRENT:
                done = action(family, version)
                if done is not None:
                    return done
            elif family is not None and verdict is Presented.REUSED:
                if self.repo.save_family(family.revoke(), version):
                    raise Conflict(
                        "refresh_reused",
                        "this refresh token was used before: its session has ended everywhere; sign in",
                    )
            elif verdict is Presented.REVOKED:
                raise Conflict("refresh_revoked", "this session has ended (signed out): sign in")
            else:
                raise Conflict("refresh_expired", "this refresh token is unknown or expired: sign in")
        raise Conflict("busy_session", "the session changed while this call was tried: retry")

    def start(self, account: Account) -> Session:
        """A new session of ``account`` (an external sign-in's)."""
        return self._start(account)

    def _start(self, account: Account) -> Session:
        """A new session of ``account`` (a new family at the account's epoch)."""
        for _ in range(RETRIES):
            token = RefreshToken.of(uuid.uuid4().hex, new_secret())
            family = sessions.start(account.player_id, account.epoch, self._now(), token)
            if self.repo.save_family(family, 0):
                return self._session(account, family, token)
            found = self.repo.get(account.player_id)  # signed out everywhere meanwhile: a new epoch
            if found is None:
                break
            account = found
        raise Conflict("busy_session", "the account changed while signing in: retry")

    def _session(self, account: Account, family: Family, token: RefreshToken) -> Session:
        ttl_s = sessions.ACCESS_TTL_S
        access = self.signer.player(account.player_id, account.name, ttl_s=ttl_s, account=True)
        return Session(
            account.player_id,
            account.name,
            access,
            self._now() + ttl_s,
            token.text,
            family.expires_at,
        )

    # ------------------------------------------------------------ the account and its password
    def get(self, caller: Claims) -> Account:
        return self._account(caller)

    def _account(self, caller: Claims) -> Account:
        account = self.repo.get(caller.player_id) if caller.account else None
        if account is None:
            raise Conflict("not_an_account", "this is a guest's token: sign up or upgrade the guest first")
        return account

    def change_password(self, caller: Claims, current: str, new: str, address: str) -> Session:
        account = self._account(caller)
        validation.given_password(current, "current_password")
        validation.new_password(new, "new_password")
        self.tries.attempt(account.email, address)
        if not check_password(account.password, current):
            raise Conflict("wrong_credentials", "wrong password")
        self.tries.succeeded(account.email, address)
        new_hash = hash_password(new)
        epoch = self.repo.set_password(account, new_hash)
        if epoch is None:
            raise Conflict("account_changed", "the password changed meanwhile: sign in again")
        account = replace(account, password=new_hash, epoch=epoch)
        self._mail(account, "changed", *CHANGED)
        return self._start(account)

    # ------------------------------------------------------------ mailed codes
    def request_verification(self, caller: Claims) -> None:
        account = self._account(caller)
        if not account.email:
            raise Conflict("no_email", "this account has no email address")
        if account.verified:
            raise Conflict("already_verified", "this account's address is verified already")
        self._mail_code(account, Purpose.VERIFY)

    def verify_email(self, code: str) -> tuple[str, str]:
        """The player and the address the code proved."""
        code_digest, found = self._code(code, Purpose.VERIFY)
        if self.repo.use_code(code_digest, found) is None:
            raise Conflict("code_invalid", "this code is unknown, used or replaced by a newer one")
        return found.player_id, found.email

    def request_reset(self, email: str) -> None:
        """A reset code mailed if an account has the address; the same answer either way."""
        address = validation.email(email)
        self.mail_limit(sessions.digest(address))
        account = self.repo.by_email(address)
        if account is not None:
            self._mail_code(account, Purpose.RESET, limited=False)

    def reset_password(self, code: str, new: str) -> Session:
        validation.new_password(new, "new_password")
        code_digest, found = self._code(code, Purpose.RESET)
        if self.repo.use_code(code_digest, found, hash_password(new)) is None:
            raise Conflict("code_invalid", "this code is unknown, used or replaced by a newer one")
        account = self.repo.get(found.player_id)
        if account is None:
            raise Conflict("code_invalid", "this code's account no longer exists")
        self.tries.forget(account.email)
        return self._start(account)

    def _code(self, code: str, purpose: Purpose) -> tuple[str, codes.Code]:
        """A presented code's digest and record, if it may be used for ``purpose``."""
        if not _CODE.fullmatch(code):
            raise InvalidArgument("code must be the 43-character code from the mail", "code")
        code_digest = sessions.digest(code)
        found = self.repo.code(code_digest)
        judged = codes.judge(found, purpose, self._now())
        if judged is Judged.EXPIRED:
            raise Conflict("code_expired", "this code has expired: ask for a new one")
        if judged is not Judged.VALID or found is None:
            raise Conflict("code_invalid", "this code is unknown, used or replaced by a newer one")
        return code_digest, found

    def _mail_code(self, account: Account, purpose: Purpose, limited: bool = True) -> None:
        if limited:
            self.mail_limit(sessions.digest(account.email))
        secret = new_secret()
        self.repo.issue_code(
            sessions.digest(secret), codes.Code.issue(purpose, account.player_id, account.email, self._now())
        )
        subject, body = MAIL_TEXTS[purpose]
        self._mail(account, purpose.value, subject, body, code=secret)

    def _mail(self, account: Account, kind: str, subject: str, body: str, code: str = "") -> None:
        """One message; a mailer's failure is logged (never the message) and the call goes on."""
        mail = Mail(
            account.email, subject, body.format(name=account.name, code=code), kind, account.player_id
        )
        try:
            self.mailer.send(mail)
        except Exception:  # a provider's outage must not undo a sign-up; the player can ask again
            log.warning("mail failed", extra={"fields": {"kind": kind, "player_id": account.player_id}})


def new_secret() -> str:
    """A refresh token's or a mailed code's secret: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def _refresh_token(text: str) -> RefreshToken:
    token = RefreshToken.parse(text)
    if token is None:
        raise InvalidArgument("refresh_token is not a refresh token (as a Session gives it)", "refresh_token")
    return token
