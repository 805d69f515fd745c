"""Ratings, leaderboards, match history and display names in Redis.

A finished match is applied by one script: skip it if its id is in the rated set, check
that no player's rating changed since it was read (another instance rating another match),
then write ratings and leaderboard scores (all-time, and in the match's season: its own keys, so a
new season starts with empty ones and the older seasons stay as they were), history entries, and
remember the match id.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from services.lobby.adapters import keys
from services.lobby.domain.ratings import FinishedMatch, SkillRating
from shared.store.redis_store import RedisClient

# KEYS: rated set, ratings hash, leaderboard zset (all-time), the season's ratings hash and
#       leaderboard zset, the seasons set, one history zset per player, then one account key per
#       player (an account's history is kept; a guest's expires with the guest).
# ARGV: match id, player count, rated (1/0), season id ('': the match falls in no season), then per
#       player: id, old value, new value, ordinal (all-time), old value, new value, ordinal (the
#       season's), history JSON, finished ms; last, the history's lifetime (the guest's, in seconds).
# Returns 1 applied, 0 already applied, -1 a rating changed since it was read (retry).
APPLY_LUA = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 0 end
local n, rated, season = tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4] ~= ''
local S = 9
if rated then
  for k = 0, n - 1 do
    local at = 5 + k * S
    if (redis.call('HGET', KEYS[2], ARGV[at]) or '') ~= ARGV[at + 1] then return -1 end
    if season and (redis.call('HGET', KEYS[4], ARGV[at]) or '') ~= ARGV[at + 4] then return -1 end
  end
end
for k = 0, n - 1 do
  local at = 5 + k * S
  if rated then
    redis.call('HSET', KEYS[2], ARGV[at], ARGV[at + 2])
    redis.call('ZADD', KEYS[3], ARGV[at + 3], ARGV[at])
    if season then
      redis.call('HSET', KEYS[4], ARGV[at], ARGV[at + 5])
      redis.call('ZADD', KEYS[5], ARGV[at + 6], ARGV[at])
    end
  end
  redis.call('ZADD', KEYS[7 + k], ARGV[at + 8], ARGV[at + 7])
  if redis.call('EXISTS', KEYS[7 + n + k]) == 0 then redis.call('EXPIRE', KEYS[7 + k], ARGV[5 + n * S]) end
end
if rated and season then redis.call('SADD', KEYS[6], ARGV[4]) end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""


# KEYS: display name, match list, history, account, deleted mark. ARGV: name, lifetime (s).
# A guest's keys live ``lifetime`` from now: returns 0. A player with an account (an upgraded guest)
# keeps its own name and keys, and a deleted account's id stays gone: nothing is written, returns
# 1 (an account) or 2 (deleted).
TOUCH_LUA = """
if redis.call('EXISTS', KEYS[4]) == 1 then return 1 end
if redis.call('EXISTS', KEYS[5]) == 1 then return 2 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[2])
return 0
"""


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: str
    name: str
    rating: SkillRating


@dataclass(frozen=True, slots=True)
class HistoryItem:
    match_id: str
    game: str
    seat: int
    placing: int
    placings: tuple[int, ...]
    finished_ms: int
    rating_after: float
    season: str = ""  # the season the match was rated in ("": none, or rated before seasons)


@dataclass(frozen=True, slots=True)
class Rated:
    """What one match means for its humans' ratings, all-time and in the match's season (a season
    "" rates all-time only). ``old`` and ``old_season`` are the raw values read (compare-and-set)."""

    match: FinishedMatch
    season: str
    old: Sequence[str]
    new: Sequence[SkillRating]
    old_season: Sequence[str]
    new_season: Sequence[SkillRating]


def _encode(r: SkillRating) -> str:
    return f"{r.mu!r}:{r.sigma!r}:{r.matches}"


def _decode(raw: object) -> SkillRating:
    if raw is None:
        return SkillRating()
    mu, sigma, matches = keys.text(raw).split(":")
    return SkillRating(float(mu), float(sigma), int(matches))


class RatingsRepository:
    def __init__(self, client: RedisClient) -> None:
        self.client = client
        self._apply = client.register_script(APPLY_LUA)
        self._touch = client.register_script(TOUCH_LUA)

    # ------------------------------------------------------------ names
    def set_name(self, player_id: str, name: str, ttl_s: int = keys.GUEST_TTL_S) -> int:
        """The guest's name, kept ``ttl_s`` from now; their match list and history get the same
        lifetime (called at sign-in and on every guest's lobby call: a guest's keys expire together).
        0 done; nothing written and 1 when the player has an account (a guest upgraded since), 2 when
        that account was deleted."""
        key_list = [
            keys.guest(player_id),
            keys.mine(player_id),
            keys.history(player_id),
            keys.account(player_id),
            keys.deleted(player_id),
        ]
        return int(self._touch(keys=key_list, args=[name, ttl_s]))

    def account_name(self, player_id: str) -> str | None:
        """An account's display name now (None: no such account, or deleted)."""
        raw = self.client.hget(keys.account(player_id), "name")
        return keys.text(raw) if raw is not None else None

    def is_account_name(self, name_key: str) -> bool:
        """Whether an account has this display name (``validation.name_key``)."""
        return bool(self.client.exists(keys.account_name(name_key)))

    def names(self, player_ids: Sequence[str]) -> list[str]:
        """Display names ("" for a player whose identity expired or never existed)."""
        if not player_ids:
            return []
        return [keys.text(n or b"") for n in self.client.mget([keys.guest(p) for p in player_ids])]

    # ------------------------------------------------------------ ratings
    def ratings(
        self, game: str, player_ids: Sequence[str], season: str = ""
    ) -> tuple[list[SkillRating], list[str]]:
        """Ratings (all-time, or in ``season``) and their raw values (they guard the compare-and-set);
        a player not rated there yet has the starting rating."""
        key = keys.season_ratings(game, season) if season else keys.ratings(game)
        raws = self.client.hmget(key, list(player_ids)) if player_ids else []
        return [_decode(r) for r in raws], [keys.text(r or b"") for r in raws]

    def rating(self, game: str, player_id: str, season: str = "") -> SkillRating:
        key = keys.season_ratings(game, season) if season else keys.ratings(game)
        return _decode(self.client.hget(key, player_id))

    def seasons(self) -> list[str]:
        """The ids of the seasons any match was rated in."""
        return sorted(keys.text(s) for s in self.client.smembers(keys.seasons()))

    def is_rated(self, match_id: str) -> bool:
        return bool(self.client.sismember(keys.rated(), match_id))

    def apply(self, rated: Rated, finished_ms: int) -> int:
        """1 applied, 0 already applied, -1 lost a race with another update (re-read and retry)."""
        match = rated.match
        humans = match.humans
        args: list[str | int] = [match.match_id, len(humans), int(match.is_rated), rated.season]
        shown = rated.new_season if rated.season else rated.new
        for k, human in enumerate(humans):
            item = {
                "match": match.match_id,
                "game": match.game,
                "seat": human.seat,
                "placing": human.placing,
                "placings": list(match.placings),
                "finished": finished_ms,
                "rating": shown[k].ordinal if match.is_rated else 0.0,
                "season": rated.season,
            }
            season_old = rated.old_season[k] if rated.season else ""
            season_new = rated.new_season[k] if rated.season else SkillRating()
            args += [
                human.player_id,
                rated.old[k],
                _encode(rated.new[k]),
                repr(rated.new[k].ordinal),
                season_old,
                _encode(season_new),
                repr(season_new.ordinal),
                json.dumps(item),
                finished_ms,
            ]
        args.append(keys.GUEST_TTL_S)
        key_list = [
            keys.rated(),
            keys.ratings(match.game),
            keys.leaderboard(match.game),
            keys.season_ratings(match.game, rated.season),
            keys.season_leaderboard(match.game, rated.season),
            keys.seasons(),
            *(keys.history(h.player_id) for h in humans),
            *(keys.account(h.player_id) for h in humans),
        ]
        return int(self._apply(keys=key_list, args=args))

    # ------------------------------------------------------------ reads
    def leaderboard(self, game: str, limit: int, season: str = "") -> list[Standing]:
        """The best ``limit`` players, all-time or in ``season``."""
        board = keys.season_leaderboard(game, season) if season else keys.leaderboard(game)
        top = self.client.zrevrange(board, 0, limit - 1)
        ids = [keys.text(p) for p in top]
        ratings, _ = self.ratings(game, ids, season)
        return [Standing(p, n, r) for p, n, r in zip(ids, self.names(ids), ratings, strict=True)]

    def history(self, player_id: str, limit: int = -1) -> list[HistoryItem]:
        """The player's matches, newest first (``limit`` -1: all of them)."""
        items = []
        for raw in self.client.zrevrange(keys.history(player_id), 0, limit - 1 if limit > 0 else -1):
            h = json.loads(keys.text(raw))
            items.append(
                HistoryItem(
                    h["match"],
                    h["game"],
                    h["seat"],
                    h["placing"],
                    tuple(h["placings"]),
                    h["finished"],
                    h["rating"],
                    h.get("season", ""),
                )
            )
        return items
