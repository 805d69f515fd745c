"""Accounts, refresh-token families and mailed codes in Redis (every key ``{lobby}``: one slot).

An account is a hash under its player id with two unique indexes, its email (by digest) and its
display name (case aside), claimed together by one script or not at all. Its ``epoch`` counts
revocations: bumping it ends every refresh-token family started before (sign out everywhere, a
password changed or reset). A family is one hash (version + JSON) saved by a compare-and-set script
that also checks the account's epoch, so a rotation never outlives a revocation racing it. A mailed
code is a hash under its digest, used (deleted) by one script that also applies what it proves. An
account made by an external sign-in has no password (``""``); each external identity linked to an
account is a key under the digest of its issuer and subject, claimed by the script that links it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from services.lobby.adapters import keys
from services.lobby.domain import validation
from services.lobby.domain.codes import KEPT_EXPIRED_S, Code, Purpose
from services.lobby.domain.sessions import Family, digest
from shared.serving.errors import Conflict
from shared.store.redis_store import RedisClient

# KEYS: account, email index, name index, display name, match list, history, then the four friends
# keys (friends, requests in and out, blocked). ARGV: player id, email, name, password hash, created ms.
# Claims both indexes and writes the account, or returns what was in the way; an upgraded guest's
# name, match list, history and friends are kept from now on (a guest's expire).
CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 'already_account' end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'email_taken' end
if redis.call('EXISTS', KEYS[3]) == 1 then return 'name_taken' end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[1], 'email', ARGV[2], 'name', ARGV[3], 'password', ARGV[4],
  'verified', '0', 'epoch', '0', 'created', ARGV[5])
redis.call('SET', KEYS[4], ARGV[3])
for k = 5, #KEYS do redis.call('PERSIST', KEYS[k]) end
return 'ok'
"""

# KEYS: account, external link, name index, email index, display name, match list, history.
# ARGV: player id, email ('': none, then the email index is not claimed), name, verified ('1'/'0'),
# created ms, issuer, subject. An account without a password (its hash is ''), linked to the
# external identity; or what was in the way ('linked': another call linked it first).
CREATE_EXTERNAL_LUA = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 'linked' end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'already_account' end
if ARGV[2] ~= '' and redis.call('EXISTS', KEYS[4]) == 1 then return 'email_taken' end
if redis.call('EXISTS', KEYS[3]) == 1 then return 'name_taken' end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[1])
if ARGV[2] ~= '' then redis.call('SET', KEYS[4], ARGV[1]) end
redis.call('HSET', KEYS[1], 'email', ARGV[2], 'name', ARGV[3], 'password', '',
  'verified', ARGV[4], 'epoch', '0', 'created', ARGV[5], 'external:' .. ARGV[6], ARGV[7])
redis.call('SET', KEYS[5], ARGV[3])
redis.call('PERSIST', KEYS[6])
redis.call('PERSIST', KEYS[7])
return 'ok'
"""

# KEYS: external link, account. ARGV: player id, issuer, subject. Links an account to an external
# identity, or says why not: linked to another account, no such account, or the account has
# another identity of that issuer.
LINK_LUA = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 'external_linked' end
if redis.call('EXISTS', KEYS[2]) == 0 then return 'not_an_account' end
local had = redis.call('HGET', KEYS[2], 'external:' .. ARGV[2])
if had and had ~= ARGV[3] then return 'already_linked' end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'external:' .. ARGV[2], ARGV[3])
return 'ok'
"""

# KEYS: account. ARGV: the hash the caller checked, the new hash. Returns the new epoch (every
# family ended), or -1 when the password changed meanwhile (or there is no account).
SET_PASSWORD_LUA = """
if redis.call('HGET', KEYS[1], 'password') ~= ARGV[1] then return -1 end
redis.call('HSET', KEYS[1], 'password', ARGV[2])
return redis.call('HINCRBY', KEYS[1], 'epoch', 1)
"""

# KEYS: account. ARGV: the hash the caller checked, a stronger hash of the same password.
REHASH_LUA = """
if redis.call('HGET', KEYS[1], 'password') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'password', ARGV[2])
end
return 0
"""

# KEYS: family, account, the account's families. ARGV: expected version ('0': a new family), expected
# epoch, JSON, expiry ms, family id. Returns 1 saved, 0 the family or the account's epoch changed
# since they were read. The set of families lives as long as its latest family.
FAMILY_CAS_LUA = """
if tonumber(redis.call('HGET', KEYS[1], 'version') or '0') ~= tonumber(ARGV[1]) then return 0 end
if redis.call('HGET', KEYS[2], 'epoch') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'version', tonumber(ARGV[1]) + 1, 'data', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[5])
if redis.call('PTTL', KEYS[3]) == -1 then redis.call('PEXPIREAT', KEYS[3], ARGV[4])
else redis.call('PEXPIREAT', KEYS[3], ARGV[4], 'GT') end
return 1
"""

# KEYS: code, the player's latest code of its purpose, account. ARGV: code digest, the address it was
# mailed to, a new password hash ('': none). Uses the code once: deletes it, marks the address
# verified, sets the password and ends every family if one is given. Returns the account's epoch,
# or -1 when the code is gone (used meanwhile) or the account's address is no longer that one.
USE_CODE_LUA = """
if redis.call('HGET', KEYS[3], 'email') ~= ARGV[2] then return -1 end
if redis.call('DEL', KEYS[1]) == 0 then return -1 end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('HSET', KEYS[3], 'verified', '1')
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], 'password', ARGV[3])
  return redis.call('HINCRBY', KEYS[3], 'epoch', 1)
end
return tonumber(redis.call('HGET', KEYS[3], 'epoch'))
"""


# What the accounts scripts answer for a refusal, by operation: reason code -> English (the lobby's
# texts key their translations on them, services/lobby/texts.py).
REFUSALS: dict[str, dict[str, str]] = {
    "create": {
        "already_account": "this player already has an account: sign in",
        "email_taken": "an account with this email address exists: sign in, or reset its password",
        "name_taken": "an account already has this display name: choose another",
    },
    "create_external": {
        "already_account": "this player already has an account",
        "email_taken": "an account has this email address: sign in to it, then link the provider",
        "name_taken": "an account already has this display name",
    },
    "link": {
        "external_linked": "this identity of the provider is linked to another account",
        "not_an_account": "this player has no account",
        "already_linked": "this account is linked to another identity of this provider",
    },
}


def _refuse(answer: str, refusals: dict[str, str]) -> None:
    """A script's answer that is a refusal of ``refusals``, raised."""
    if answer in refusals:
        raise Conflict(answer, refusals[answer])


@dataclass(frozen=True, slots=True)
class Account:
    player_id: str
    email: str
    name: str
    password: str  # the argon2id hash (PHC string); "": none (an account made by an external sign-in)
    verified: bool
    epoch: int
    issuers: tuple[str, ...] = ()  # the external identities' issuers linked to the account

    def __repr__(self) -> str:  # the hash stays out of logs too
        return f"Account({self.player_id!r}, verified={self.verified})"


def external_digest(issuer: str, subject: str) -> str:
    """What names an external identity in a key: a digest of its issuer and subject."""
    return digest(f"{issuer} {subject}")


def _text(raw: Any) -> str:
    return keys.text(raw) if raw is not None else ""


class AccountRepository:
    def __init__(self, client: RedisClient) -> None:
        self.client = client
        self._create = client.register_script(CREATE_LUA)
        self._set_password = client.register_script(SET_PASSWORD_LUA)
        self._rehash = client.register_script(REHASH_LUA)
        self._family_cas = client.register_script(FAMILY_CAS_LUA)
        self._use_code = client.register_script(USE_CODE_LUA)
        self._create_external = client.register_script(CREATE_EXTERNAL_LUA)
        self._link = client.register_script(LINK_LUA)

    # ------------------------------------------------------------ accounts
    def create(self, player_id: str, email: str, name: str, password_hash: str, now_ms: int) -> None:
        """A new account (or a guest's, upgraded), or Conflict: ``already_account``, ``email_taken``,
        ``name_taken`` (then nothing was written)."""
        key_list = [
            keys.account(player_id),
            keys.email(digest(email)),
            keys.account_name(validation.name_key(name)),
            keys.guest(player_id),
            keys.mine(player_id),
            keys.history(player_id),
            *keys.friend_keys(player_id),
        ]
        answer = _text(self._create(keys=key_list, args=[player_id, email, name, password_hash, now_ms]))
        _refuse(answer, REFUSALS["create"])

    def create_external(
        self, player_id: str, email: str, verified: bool, name: str, issuer: str, subject: str, now_ms: int
    ) -> str:
        """A new account linked to an external identity: ``ok``, or ``linked`` (another call linked
        it first); Conflict ``already_account``, ``email_taken``, ``name_taken`` (nothing written)."""
        key_list = [
            keys.account(player_id),
            keys.external(external_digest(issuer, subject)),
            keys.account_name(validation.name_key(name)),
            keys.email(digest(email)),
            keys.guest(player_id),
            keys.mine(player_id),
            keys.history(player_id),
        ]
        args = [player_id, email, name, "1" if verified else "0", now_ms, issuer, subject]
        answer = _text(self._create_external(keys=key_list, args=args))
        _refuse(answer, REFUSALS["create_external"])
        return answer

    def signed_in_again(self, player_id: str, ttl_s: int) -> None:
        """The account just signed in with a provider (``keys.signed_in_again``)."""
        self.client.set(keys.signed_in_again(player_id), "1", ex=ttl_s)

    def linked(self, issuer: str, subject: str) -> str | None:
        """The player id of the account linked to the external identity, if any."""
        found = self.client.get(keys.external(external_digest(issuer, subject)))
        return _text(found) if found is not None else None

    def link(self, player_id: str, issuer: str, subject: str) -> None:
        """Link the account to the external identity (again: nothing changes), or Conflict
        ``external_linked``, ``not_an_account``, ``already_linked``."""
        key_list = [keys.external(external_digest(issuer, subject)), keys.account(player_id)]
        answer = _text(self._link(keys=key_list, args=[player_id, issuer, subject]))
        _refuse(answer, REFUSALS["link"])

    def get(self, player_id: str) -> Account | None:
        found = self.client.hgetall(keys.account(player_id))
        if not found:
            return None
        row = {_text(k): _text(v) for k, v in found.items()}
        issuers = tuple(sorted(k.removeprefix("external:") for k in row if k.startswith("external:")))
        return Account(
            player_id,
            row["email"],
            row["name"],
            row["password"],
            row["verified"] == "1",
            int(row["epoch"]),
            issuers,
        )

    def by_email(self, email: str) -> Account | None:
        player_id = self.client.get(keys.email(digest(email)))
        return self.get(_text(player_id)) if player_id is not None else None

    def is_account(self, player_id: str) -> bool:
        return bool(self.client.exists(keys.account(player_id)))

    def epoch(self, player_id: str) -> int | None:
        raw = self.client.hget(keys.account(player_id), "epoch")
        return int(raw) if raw is not None else None

    def set_password(self, account: Account, password_hash: str) -> int | None:
        """The new hash, every family ended: the new epoch (None: the password changed meanwhile)."""
        epoch = int(
            self._set_password(keys=[keys.account(account.player_id)], args=[account.password, password_hash])
        )
        return epoch if epoch >= 0 else None

    def rehash(self, account: Account, password_hash: str) -> None:
        self._rehash(keys=[keys.account(account.player_id)], args=[account.password, password_hash])

    def end_families(self, player_id: str) -> int:
        """Sign out everywhere: every family of the account started before now ends."""
        return int(self.client.hincrby(keys.account(player_id), "epoch", 1))

    # ------------------------------------------------------------ refresh-token families
    def family(self, family_id: str) -> tuple[Family | None, int, int | None]:
        """The family (None: none), its version, and its account's epoch (None: no account)."""
        found = self.client.hgetall(keys.session(family_id))
        if not found:
            return None, 0, None
        row = {_text(k): _text(v) for k, v in found.items()}
        data = json.loads(row["data"])
        family = Family(
            family_id,
            data["player"],
            data["head"],
            data["expires"],
            data["epoch"],
            tuple(data["spent"]),
            data["revoked"],
        )
        return family, int(row["version"]), self.epoch(family.player_id)

    def save_family(self, family: Family, version: int) -> bool:
        """Compare-and-set: False when the family or its account's epoch changed since read."""
        data = {
            "player": family.player_id,
            "head": family.head,
            "expires": family.expires_at,
            "epoch": family.epoch,
            "spent": list(family.spent),
            "revoked": family.revoked,
        }
        key_list = [
            keys.session(family.family_id),
            keys.account(family.player_id),
            keys.sessions(family.player_id),
        ]
        expiry_ms = family.expires_at * 1000
        args: list[str | int] = [version, family.epoch, json.dumps(data), expiry_ms, family.family_id]
        return bool(int(self._family_cas(keys=key_list, args=args)))

    # ------------------------------------------------------------ mailed codes
    def issue_code(self, code_digest: str, code: Code) -> None:
        """Store a new code; the player's previous one of the same purpose stops working."""
        latest = keys.latest_code(code.player_id, code.purpose.value)
        previous = self.client.get(latest)
        lifetime_s = code.expires_at + KEPT_EXPIRED_S
        pipe = self.client.pipeline(transaction=True)
        if previous is not None:
            pipe.delete(keys.code(_text(previous)))
        fields = ["purpose", code.purpose.value, "player", code.player_id, "email", code.email]
        pipe.hset(keys.code(code_digest), items=[*fields, "expires", code.expires_at])
        pipe.expireat(keys.code(code_digest), lifetime_s)
        pipe.set(latest, code_digest)
        pipe.expireat(latest, lifetime_s)
        pipe.execute()

    def code(self, code_digest: str) -> Code | None:
        found = self.client.hgetall(keys.code(code_digest))
        if not found:
            return None
        row = {_text(k): _text(v) for k, v in found.items()}
        return Code(Purpose(row["purpose"]), row["player"], row["email"], int(row["expires"]))

    def use_code(self, code_digest: str, code: Code, password_hash: str = "") -> int | None:
        """Use the code once (see USE_CODE_LUA): the account's epoch after it, or None when the code
        was used meanwhile or the account's address changed."""
        key_list = [
            keys.code(code_digest),
            keys.latest_code(code.player_id, code.purpose.value),
            keys.account(code.player_id),
        ]
        epoch = int(self._use_code(keys=key_list, args=[code_digest, code.email, password_hash]))
        return epoch if epoch >= 0 else None
