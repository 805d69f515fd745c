"""Password tries with back-off, per account and per client address, kept beside the rate limits.

Every try of a password (SignIn, ChangePassword) counts against the account (by its email's
digest, whether or not an account has that address, so the limit tells nothing) and against the
caller's address, *before* the password is checked: parallel tries cannot slip past the count. From
the ``count``-th try on, each try locks its subject for ``per_s`` seconds, doubled with every
further try up to :data:`MOST_S`; a try while locked is refused (RESOURCE_EXHAUSTED, reason
``rate_limited``, the limit named, a RetryInfo saying when). A success clears the account's count
and gives the address its try back; counts are forgotten :data:`FORGET_S` after the last try.

The limits are ``TABULA_LIMIT_PASSWORD_TRIES_ACCOUNT`` and ``TABULA_LIMIT_PASSWORD_TRIES_IP``, written
like the rate limits (``shared/serving/ratelimit.py``: ``count/seconds``, or ``off``). Their keys share
the rate limits' prefix: like a bucket, a refused try still counts against its caller, and changes
nothing else. One single-key script per subject, on Redis's clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.lobby.domain.sessions import digest
from shared.serving.errors import ResourceExhausted
from shared.serving.ratelimit import PREFIX, Rate

MOST_S = 15 * 60
FORGET_S = 24 * 3600
ACCOUNT, ADDRESS = "password_tries_account", "password_tries_ip"
DEFAULTS = {ACCOUNT: "5/30", ADDRESS: "20/30"}

# KEYS: the subject's tries (hash: n, until ms). ARGV: mode, count, first lock ms, most ms, forget ms.
# 'try': refused while locked (returns the ms left), else counted (and the lock set from the count-th
# try on); returns 0. 'clear': forgets the subject. 'refund': one try back (with the lock it set, if
# it was the one that reached the count).
TRIES_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[1] == 'clear' then redis.call('DEL', KEYS[1]) return 0 end
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if ARGV[1] == 'refund' then
  if n > 0 then n = n - 1 end
  if n < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'n', n, 'until', 0)
  else redis.call('HSET', KEYS[1], 'n', n) end
  return 0
end
local locked = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if locked > now then return locked - now end
n = n + 1
local count, first, most = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if n >= count then
  locked = now + math.min(first * 2 ^ math.min(n - count, 30), most)
end
redis.call('HSET', KEYS[1], 'n', n, 'until', locked)
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[5]), locked - now))
return 0
"""


def tries_from_env(env: Mapping[str, str]) -> dict[str, Rate | None]:
    return {
        name: Rate.parse(env.get(f"TABULA_LIMIT_{name.upper()}", text)) for name, text in DEFAULTS.items()
    }


@dataclass(frozen=True, slots=True)
class Subject:
    limit: str  # ACCOUNT or ADDRESS
    key: str

    @staticmethod
    def account(email: str) -> Subject:
        return Subject(ACCOUNT, f"{PREFIX}:{ACCOUNT}:{digest(email)[:32]}")

    @staticmethod
    def address(address: str) -> Subject:
        return Subject(ADDRESS, f"{PREFIX}:{ADDRESS}:{address}")


class PasswordTries:
    def __init__(self, client: Any, limits: Mapping[str, Rate | None]) -> None:
        self.limits = dict(limits)
        self._script = client.register_script(TRIES_LUA)

    def attempt(self, email: str, address: str) -> None:
        """Count one try against the address, then the account; ResourceExhausted while either is
        locked (a try refused by the account's lock is given back to the address)."""
        by_address, by_account = Subject.address(address), Subject.account(email)
        self._try(by_address)
        try:
            self._try(by_account)
        except ResourceExhausted:
            self._run(by_address, "refund")
            raise

    def succeeded(self, email: str, address: str) -> None:
        self._run(Subject.account(email), "clear")
        self._run(Subject.address(address), "refund")

    def forget(self, email: str) -> None:
        """The account's count cleared (its password was reset through its address)."""
        self._run(Subject.account(email), "clear")

    def _try(self, subject: Subject) -> None:
        rate = self.limits[subject.limit]
        if rate is None or not subject.key:
            return
        args = ["try", rate.count, int(rate.per_s * 1000), MOST_S * 1000, FORGET_S * 1000]
        left_ms = int(self._script(keys=[subject.key], args=args))
        if left_ms > 0:
            raise ResourceExhausted(
                "rate_limited",
                subject.limit,
                left_ms / 1000,
                "too many password tries ({name}); retry after the delay, which doubles with every "
                "further try",
                name=subject.limit,
            )

    def _run(self, subject: Subject, mode: str) -> None:
        rate = self.limits[subject.limit]
        if rate is not None:
            self._script(keys=[subject.key], args=[mode, rate.count, 0, 0, 0])
