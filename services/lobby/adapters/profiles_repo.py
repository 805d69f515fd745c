"""Profiles in Redis: an account's avatar and visibility (fields of its hash), renaming it, and
deleting it (every ``{lobby}`` key of its personal data, by one script).

A rename moves the account's claim on the display-name index (case aside) and its shown name in one
script, or is refused (``name_taken``) writing nothing. A deletion script checks that the account is
as the caller read it (its name and its match count: a match started meanwhile is scrubbed first)
and that the player waits in no room or queue, then deletes its keys and leaves a mark.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from services.lobby.adapters import keys
from services.lobby.adapters.accounts_repo import external_digest
from services.lobby.domain import validation
from services.lobby.domain.codes import Purpose
from services.lobby.domain.profiles import DEFAULT_AVATAR, DEFAULT_VISIBILITY, Visibility
from services.lobby.domain.sessions import digest
from shared.serving.errors import Conflict
from shared.serving.ratelimit import PREFIX
from shared.store.redis_store import RedisClient

MAIL_LIMIT = "mail_account"  # the mail limit's name (services/lobby/server.py)

# KEYS: account, its name index, the new name's index, shown name. ARGV: player id, name read, new name.
# Returns 'ok', 'changed' (the name changed since it was read, or no account), 'name_taken'.
RENAME_LUA = """
if redis.call('HGET', KEYS[1], 'name') ~= ARGV[2] then return 'changed' end
local holder = redis.call('GET', KEYS[3])
if holder and holder ~= ARGV[1] then return 'name_taken' end
if KEYS[2] ~= KEYS[3] and redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('SET', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[1], 'name', ARGV[3])
redis.call('SET', KEYS[4], ARGV[3])
return 'ok'
"""

# KEYS: account, name index, email index, busy, match list, deleted mark, then the keys deleted
# outright (shown name, history, notices, friends, blocks and presence, codes, families' set,
# families), then per game its ratings and leaderboard. ARGV: player id, name read, matches scrubbed,
# #deleted outright, mark lifetime (s).
# Returns 'ok', 'changed' (the account's name or match list changed since read: scrub again), 'busy'.
DELETE_LUA = """
if redis.call('HGET', KEYS[1], 'name') ~= ARGV[2] then return 'changed' end
if redis.call('EXISTS', KEYS[4]) == 1 then return 'busy' end
if redis.call('ZCARD', KEYS[5]) ~= tonumber(ARGV[3]) then return 'changed' end
for i = 2, 3 do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
local plain = tonumber(ARGV[4])
redis.call('DEL', KEYS[1], KEYS[5])
for i = 7, 6 + plain do redis.call('DEL', KEYS[i]) end
for i = 7 + plain, #KEYS, 2 do
  redis.call('HDEL', KEYS[i], ARGV[1])
  redis.call('ZREM', KEYS[i + 1], ARGV[1])
end
redis.call('SET', KEYS[6], '1', 'EX', ARGV[5])
return 'ok'
"""


def _text(raw: Any) -> str:
    return keys.text(raw) if raw is not None else ""


class ProfileRepository:
    def __init__(self, client: RedisClient) -> None:
        self.client = client
        self._rename = client.register_script(RENAME_LUA)
        self._delete = client.register_script(DELETE_LUA)

    def settings(self, player_ids: Sequence[str]) -> list[tuple[str, Visibility] | None]:
        """Each player's avatar and visibility; None for a player without an account."""
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(keys.account(player_id), ["name", "avatar", "visibility"])
        out: list[tuple[str, Visibility] | None] = []
        for name, avatar, visibility in pipe.execute() if player_ids else []:
            if name is None:
                out.append(None)
            else:
                seen = _text(visibility)
                out.append(
                    (_text(avatar) or DEFAULT_AVATAR, Visibility(seen) if seen else DEFAULT_VISIBILITY)
                )
        return out

    def set_settings(self, player_id: str, avatar: str, visibility: Visibility | None) -> None:
        """The account's avatar ("": unchanged) and visibility (None: unchanged)."""
        fields = ["avatar", avatar] if avatar else []
        if visibility is not None:
            fields += ["visibility", visibility.value]
        if fields:
            self.client.hset(keys.account(player_id), items=fields)

    def rename(self, player_id: str, old: str, new: str) -> bool:
        """False when the name changed since ``old`` was read; Conflict ``name_taken`` (nothing written)."""
        key_list = [
            keys.account(player_id),
            keys.account_name(validation.name_key(old)),
            keys.account_name(validation.name_key(new)),
            keys.guest(player_id),
        ]
        answer = _text(self._rename(keys=key_list, args=[player_id, old, new]))
        if answer == "name_taken":
            raise Conflict("name_taken", "an account already has this display name: choose another")
        return answer == "ok"

    def match_ids(self, player_id: str) -> list[str]:
        """Every match of the player's match list."""
        return [keys.text(m) for m in self.client.zrange(keys.mine(player_id), 0, -1)]

    def is_busy(self, player_id: str) -> bool:
        return bool(self.client.exists(keys.busy(player_id)))

    def room_ids(self) -> list[str]:
        """Every room kept (rooms expire a day after their last change)."""
        found = (keys.text(k) for k in self.client.scan_iter(match=keys.room("*"), count=1000))
        prefix = keys.room("")
        return [k[len(prefix) :] for k in found if ":" not in k[len(prefix) :]]

    def forget_mail(self, email: str) -> None:
        """The address's mail limit (``mail_account``, the lobby's server) forgotten with the account."""
        self.client.delete(f"{PREFIX}:{MAIL_LIMIT}:{digest(email)}")

    def delete(
        self, player_id: str, name: str, email: str, matches: int, games: Sequence[str], mark_ttl_s: int
    ) -> str:
        """Delete the account's keys (see DELETE_LUA): 'ok', 'changed' or 'busy'. Then, on 'ok', the
        player leaves the other players' friends and requests and the online set, and the notices it
        sent them (requests, answers, presence, invitations: they carry its name) are deleted; a lost
        step there leaves an id the friends lists skip, as a vanished guest's."""
        families = [keys.session(keys.text(f)) for f in self.client.smembers(keys.sessions(player_id))]
        row = {keys.text(k): keys.text(v) for k, v in self.client.hgetall(keys.account(player_id)).items()}
        links = [
            keys.external(external_digest(k.removeprefix("external:"), subject))
            for k, subject in row.items()
            if k.startswith("external:")
        ]
        pipe = self.client.pipeline(transaction=False)
        for key in (keys.friends(player_id), keys.requests_in(player_id), keys.requests_out(player_id)):
            pipe.zrange(key, 0, -1)
        friends, asked_by, asked = ([keys.text(p) for p in found] for found in pipe.execute())
        theirs = [
            *(keys.friends(p) for p in friends),
            *(keys.requests_out(p) for p in asked_by),
            *(keys.requests_in(p) for p in asked),
            keys.online(),
        ]
        latest = [keys.latest_code(player_id, purpose.value) for purpose in Purpose]
        codes = [keys.code(keys.text(d)) for d in self.client.mget(latest) if d is not None]
        plain = [
            keys.guest(player_id),
            keys.history(player_id),
            keys.notices(player_id),
            keys.sessions(player_id),
            *keys.friend_keys(player_id),
            keys.presence(player_id),
            keys.signed_in_again(player_id),
            *links,
            *latest,
            *codes,
            *families,
        ]
        key_list = [
            keys.account(player_id),
            keys.account_name(validation.name_key(name)),
            keys.email(digest(email)),
            keys.busy(player_id),
            keys.mine(player_id),
            keys.deleted(player_id),
            *plain,
        ]
        for game in games:
            key_list += [keys.ratings(game), keys.leaderboard(game)]
        for game, season in self._seasons_played(player_id):
            key_list += [keys.season_ratings(game, season), keys.season_leaderboard(game, season)]
        args: list[str | int] = [player_id, name, matches, len(plain), mark_ttl_s]
        done = _text(self._delete(keys=key_list, args=args))
        if done == "ok":
            pipe = self.client.pipeline(transaction=False)
            for key in theirs:
                pipe.zrem(key, player_id)
            pipe.execute()
            self._unsend(player_id, {*friends, *asked_by, *asked})
        return done

    def _seasons_played(self, player_id: str) -> set[tuple[str, str]]:
        """(game, season) of every season the player's history says they were rated in."""
        found = set()
        for raw in self.client.zrange(keys.history(player_id), 0, -1):
            entry = json.loads(keys.text(raw))
            if entry.get("season"):
                found.add((str(entry["game"]), str(entry["season"])))
        return found

    def signed_in_again(self, player_id: str) -> bool:
        """Whether the account signed in with a provider in the last minutes (the mark is spent)."""
        return bool(self.client.delete(keys.signed_in_again(player_id)))

    def _unsend(self, player_id: str, others: set[str]) -> None:
        """Delete the notices ``player_id`` sent to ``others`` (each stream is capped: a few hundred)."""
        pipe = self.client.pipeline(transaction=False)
        for other in sorted(others):
            pipe.xrange(keys.notices(other))
        found: Any = pipe.execute()
        pipe = self.client.pipeline(transaction=False)
        for other, entries in zip(sorted(others), found, strict=True):
            sent = [
                entry
                for entry, fields in entries
                if any(_text(k) == "from_player_id" and _text(v) == player_id for k, v in fields.items())
            ]
            if sent:
                pipe.xdel(keys.notices(other), *sent)
        pipe.execute()
