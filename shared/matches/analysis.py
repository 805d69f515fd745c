"""Analysis of a finished match: the record kept beside the match, and the decisions it rates.

One analysis is one seat of one match (docs/workers.md, "Analysis"). The lobby asks for it
(``AnalyzeMatch``), an ``analysis`` worker rates the seat's decisions one after the other with the
search bot and writes each rating here as soon as it has it; the lobby and ``tabula analyze`` read it
(``GetAnalysis``). The record is one Redis hash in the match's slot (``{sNN}:match:<id>:analysis:<seat>``):

- ``status`` (:class:`Status`), ``by`` (who asked), ``seed`` and ``iterations`` (the search's);
- ``owner`` and ``lease`` (unix ms): the worker holding the job, and until when. A worker renews the
  lease after every move; a job whose lease ran out (its worker died, its message was lost) is sent
  again by the reactor's sweep of the shard's index of jobs under way (``{sNN}:analysis:active``,
  :meth:`AnalysisStore.resume`) or by the next request or read (:meth:`AnalysisStore.stalled`), and
  the new task goes on from the first decision not rated yet;
- ``decisions``: how many decisions the seat made (known once a worker has read the log);
- ``r:<version>``: a rating (:class:`Rating`, JSON), written once (``HSETNX``; ``dup`` counts writes
  that found one there already, which a correct run never makes).

Every change is one Lua script on the record and its shard's index (one slot), so it runs unchanged
on Redis Cluster.

:func:`decisions` reads the seat's decisions back from the log (the state before each and the
command played, found by deciding each legal command again with the match's dice): the log stores
events, not commands. Pure: no I/O.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from shared.core.decider import Actor, RuleViolation
from shared.core.manifest import BotHooks
from shared.core.resign import SEAT_RESIGNED
from shared.core.rng import Rng
from shared.core.undo import COMMANDS_UNDONE, SETUP, undone_to
from shared.store import StoredEvent, shard_of

QUEUE = "analysis"  # the Celery queue of analysis jobs
TASK = "tabula.analyse_match"  # the task: (match id, seat)
DEFAULT_LEASE_S = 60.0


def has_search(hooks: BotHooks) -> bool:
    """Whether a game's search bot can rate a decision (its manifest's ``bots()``): it needs the
    game's evaluation (without one the search judges nothing but final outcomes)."""
    return hooks.evaluate is not None


class Status(enum.StrEnum):
    QUEUED = "queued"  # asked for; no worker has it yet
    RUNNING = "running"  # a worker rates its decisions
    DONE = "done"  # every decision is rated
    CANCELLED = "cancelled"  # stopped on request between two moves (ask again to go on)
    FAILED = "failed"  # the log could not be read back (``error`` says why)


@dataclass(frozen=True, slots=True)
class Rating:
    """One decision of the seat: the command played against the best one the search found.

    ``played_value`` and ``best_value`` are the search's mean reward of each (0 to 1: the seat's
    chance of finishing ahead, as the bot's evaluation judges it). A forced decision (one legal
    command) is not searched: both values are 0 and ``forced`` is set."""

    version: int  # the match's version before the command
    played: str  # the command played, in words
    best: str  # the best command found, in words
    played_value: float
    best_value: float
    same: bool  # the command played is the best one found
    forced: bool = False
    choices: int = 1  # legal commands at the decision
    # the two in each other locale (shared/core/i18n.py LOCALES): locale -> [played, best]; a
    # rating stored before analyses were worded in several languages has none (English is shown)
    words: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def in_locale(self, locale: str) -> tuple[str, str]:
        """The command played and the best one, in words of ``locale`` (English if not stored)."""
        found = self.words.get(locale)
        return (found[0], found[1]) if found and len(found) == 2 else (self.played, self.best)

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_json(raw: str | bytes) -> Rating:
        return Rating(**json.loads(raw))


@dataclass(frozen=True, slots=True)
class Record:
    """An analysis as stored; ``exists`` False when nobody asked for it."""

    status: Status | None
    by: str = ""
    game: str = ""
    seed: int = 0
    iterations: int = 0
    decisions: int = -1  # -1: not known yet
    lease_ms: int = 0
    error: str = ""
    duplicates: int = 0
    ratings: tuple[Rating, ...] = ()

    @property
    def exists(self) -> bool:
        return self.status is not None

    @property
    def active(self) -> bool:
        return self.status in (Status.QUEUED, Status.RUNNING)


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def record_of(fields: Mapping[Any, Any]) -> Record:
    plain = {_text(k): _text(v) for k, v in fields.items()}
    if "status" not in plain:
        return Record(None)
    ratings = sorted(
        (Rating.from_json(v) for k, v in plain.items() if k.startswith("r:")), key=lambda r: r.version
    )
    return Record(
        Status(plain["status"]),
        by=plain.get("by", ""),
        game=plain.get("game", ""),
        seed=int(plain.get("seed", "0")),
        iterations=int(plain.get("iterations", "0")),
        decisions=int(plain.get("decisions", "-1")),
        lease_ms=int(plain.get("lease", "0")),
        error=plain.get("error", ""),
        duplicates=int(plain.get("dup", "0")),
        ratings=tuple(ratings),
    )


# Every script: KEYS[1] the record, KEYS[2] its shard's index of jobs under way (member ARGV[1] of the
# script's own, "<match>|<seat>", scored by the lease), both in the match's slot.
# ARGV: member, by, seed, iterations, now ms, lease ms, game. Returns 1 when a task is to be sent.
REQUEST_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
local lease = tonumber(redis.call('HGET', KEYS[1], 'lease') or '0')
local now = tonumber(ARGV[5])
if status == 'done' then return 0 end
if (status == 'queued' or status == 'running') and lease > now then return 0 end
if status == false or status == 'failed' then
  redis.call('HSET', KEYS[1], 'by', ARGV[2], 'seed', ARGV[3], 'iterations', ARGV[4], 'game', ARGV[7])
end
redis.call('HSET', KEYS[1], 'status', 'queued', 'lease', now + tonumber(ARGV[6]))
redis.call('HDEL', KEYS[1], 'error', 'owner')
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[6]), ARGV[1])
return 1
"""
# ARGV: member, owner, now ms, lease ms. Returns 1 when the caller holds the job now.
CLAIM_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
local owner = redis.call('HGET', KEYS[1], 'owner')
local lease = tonumber(redis.call('HGET', KEYS[1], 'lease') or '0')
local now = tonumber(ARGV[3])
local mine = owner == ARGV[2]
if status == 'queued' or (status == 'running' and (mine or lease <= now)) then
  local until_ms = now + tonumber(ARGV[4])
  redis.call('HSET', KEYS[1], 'status', 'running', 'owner', ARGV[2], 'lease', until_ms)
  redis.call('ZADD', KEYS[2], until_ms, ARGV[1])
  return 1
end
return 0
"""
# ARGV: member, owner, now ms, lease ms, version, rating JSON ("": renew only). Returns 1 while the
# owner may go on.
RENEW_LUA = """
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] or redis.call('HGET', KEYS[1], 'status') ~= 'running' then
  return 0
end
if ARGV[6] ~= '' then
  if redis.call('HSETNX', KEYS[1], 'r:' .. ARGV[5], ARGV[6]) == 0 then
    redis.call('HINCRBY', KEYS[1], 'dup', 1)
  end
end
local until_ms = tonumber(ARGV[3]) + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'lease', until_ms)
redis.call('ZADD', KEYS[2], until_ms, ARGV[1])
return 1
"""
# ARGV: member, owner, status, now ms, lease ms. The owner's last word: done, failed (with ARGV[6],
# the error) or queued again (the rest sent as a new task: under way, with a new lease).
END_LUA = """
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] or redis.call('HGET', KEYS[1], 'status') ~= 'running' then
  return 0
end
redis.call('HSET', KEYS[1], 'status', ARGV[3])
redis.call('HDEL', KEYS[1], 'owner')
if ARGV[3] == 'queued' then
  local until_ms = tonumber(ARGV[4]) + tonumber(ARGV[5])
  redis.call('HSET', KEYS[1], 'lease', until_ms)
  redis.call('ZADD', KEYS[2], until_ms, ARGV[1])
else
  redis.call('HSET', KEYS[1], 'ended_ms', ARGV[4])
  if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[6]) end
  redis.call('ZREM', KEYS[2], ARGV[1])
end
return 1
"""
# ARGV: member.
CANCEL_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'queued' or status == 'running' then
  redis.call('HSET', KEYS[1], 'status', 'cancelled')
  redis.call('HDEL', KEYS[1], 'owner')
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
return 0
"""
# ARGV: member. An index entry whose record is no longer under way (its key gone) leaves the index.
PRUNE_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'queued' or status == 'running' then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""
HEAD = ("status", "by", "game", "seed", "iterations", "lease")  # a record's fields but its ratings
SWEEP_LIMIT = 100  # stalled jobs a sweep sends again per shard (the rest at the next sweep)


@dataclass(frozen=True, slots=True)
class Stalled:
    """A job under way whose lease ran out, sent again (:meth:`AnalysisStore.resume`)."""

    match_id: str
    game: str
    seat: int


class AnalysisStore:
    """The analysis records of every match (sync Redis client, bytes in and out)."""

    def __init__(
        self,
        client: Any,
        shards: int,
        lease_s: float = DEFAULT_LEASE_S,
        now_ms: Callable[[], int] | None = None,
    ) -> None:
        import time

        self.client, self.shards, self.lease_ms = client, shards, int(lease_s * 1000)
        self.now_ms = now_ms or (lambda: time.time_ns() // 1_000_000)
        self._request = client.register_script(REQUEST_LUA)
        self._claim = client.register_script(CLAIM_LUA)
        self._renew = client.register_script(RENEW_LUA)
        self._end = client.register_script(END_LUA)
        self._cancel = client.register_script(CANCEL_LUA)
        self._prune = client.register_script(PRUNE_LUA)

    def key(self, match_id: str, seat: int) -> str:
        return f"{{s{shard_of(match_id, self.shards):02d}}}:match:{match_id}:analysis:{seat}"

    def index(self, shard: int) -> str:
        """The shard's jobs under way (queued or running), scored by their lease."""
        return f"{{s{shard:02d}}}:analysis:active"

    def _keys(self, match_id: str, seat: int) -> list[str]:
        return [self.key(match_id, seat), self.index(shard_of(match_id, self.shards))]

    def read(self, match_id: str, seat: int) -> Record:
        return record_of(self.client.hgetall(self.key(match_id, seat)))

    def request(self, match_id: str, seat: int, by: str, seed: int, iterations: int, game: str) -> bool:
        """Ask for the analysis: True when a task is to be sent (new, cancelled, failed, or its
        worker's lease ran out); False while it is under way or done."""
        member = f"{match_id}|{seat}"
        args = [member, by, seed, iterations, self.now_ms(), self.lease_ms, game]
        return bool(self._request(keys=self._keys(match_id, seat), args=args))

    def stalled(self, match_id: str, seat: int) -> bool:
        """Under way with its lease run out (a lost message or a dead worker): True when the caller
        is to send it again (its lease is renewed, so one caller does)."""
        found = self.head(match_id, seat)
        if not found.active or found.lease_ms > self.now_ms():
            return False
        return self.request(match_id, seat, found.by, found.seed, found.iterations, found.game)

    def head(self, match_id: str, seat: int) -> Record:
        """The record without its ratings (status, lease, who asked, the search's settings)."""
        values = self.client.hmget(self.key(match_id, seat), HEAD)
        return record_of({k: v for k, v in zip(HEAD, values, strict=True) if v is not None})

    def resume(self, shard: int, limit: int = SWEEP_LIMIT) -> list[Stalled]:
        """The shard's jobs under way whose lease ran out (the ``limit`` longest overdue), each renewed:
        the caller sends them again."""
        out = []
        for raw in self.client.zrangebyscore(self.index(shard), "-inf", self.now_ms(), start=0, num=limit):
            match_id, _, seat = _text(raw).rpartition("|")
            keys = self._keys(match_id, int(seat))
            if self._prune(keys=keys, args=[raw]):  # the index's entry outlived its record
                continue
            if self.stalled(match_id, int(seat)):
                out.append(Stalled(match_id, self.head(match_id, int(seat)).game, int(seat)))
        return out

    def claim(self, match_id: str, seat: int, owner: str) -> bool:
        args = [f"{match_id}|{seat}", owner, self.now_ms(), self.lease_ms]
        return bool(self._claim(keys=self._keys(match_id, seat), args=args))

    def renew(self, match_id: str, seat: int, owner: str, rating: Rating | None = None) -> bool:
        """Store ``rating`` (once) and renew the lease; False when the job is no longer the owner's
        (cancelled, or taken over after its lease ran out): the owner stops."""
        version, body = (rating.version, rating.to_json()) if rating is not None else (0, "")
        args = [f"{match_id}|{seat}", owner, self.now_ms(), self.lease_ms, version, body]
        return bool(self._renew(keys=self._keys(match_id, seat), args=args))

    def set_decisions(self, match_id: str, seat: int, count: int) -> None:
        self.client.hset(self.key(match_id, seat), "decisions", count)

    def _ending(self, match_id: str, seat: int, owner: str, status: Status, error: str = "") -> bool:
        args = [f"{match_id}|{seat}", owner, status.value, self.now_ms(), self.lease_ms, error[:500]]
        return bool(self._end(keys=self._keys(match_id, seat), args=args))

    def finish(self, match_id: str, seat: int, owner: str) -> bool:
        return self._ending(match_id, seat, owner, Status.DONE)

    def fail(self, match_id: str, seat: int, owner: str, error: str) -> bool:
        return self._ending(match_id, seat, owner, Status.FAILED, error)

    def release(self, match_id: str, seat: int, owner: str) -> bool:
        """Back to queued (the owner sent the rest as a new task); sent again if that one is lost."""
        return self._ending(match_id, seat, owner, Status.QUEUED)

    def cancel(self, match_id: str, seat: int) -> bool:
        """Stop a queued or running analysis (its worker stops before its next move); False if none was."""
        return bool(self._cancel(keys=self._keys(match_id, seat), args=[f"{match_id}|{seat}"]))


# ---------------------------------------------------------------- the decisions, read from the log


@dataclass(frozen=True, slots=True)
class Decision:
    version: int  # the match's version before the command
    state: Any  # the state the seat decided in
    command: Any  # the command it played
    choices: int  # its legal commands there


def label_seat(label: str) -> int | None:
    """The seat an append's actor label names: ``seat:N`` (a person), ``bot:N:level`` (a bot),
    ``timeout:N:level`` (a stand-in when the clock ran out); None for the system or the platform."""
    kind, _, rest = label.partition(":")
    number = rest.split(":", 1)[0]
    if kind in ("seat", "bot", "timeout") and number.isdigit():
        return int(number)
    return None


def _groups(events: Sequence[StoredEvent]) -> list[list[StoredEvent]]:
    """The log cut into appends: consecutive events of one command id."""
    out: list[list[StoredEvent]] = []
    for event in events:
        if out and out[-1][0].command_id == event.command_id and event.command_id != SETUP:
            out[-1].append(event)
        else:
            out.append([event])
    return out


def decisions(
    rules: Any, decode: Callable[[StoredEvent], Any], events: Sequence[StoredEvent], seed: int, seat: int
) -> list[Decision]:
    """The seat's decisions that stand at the end of the log (undone ones dropped), in order.

    ``decode``: a stored event to the rules' event (the runner's ``decode``). The command of an
    append is the legal command whose ``decide`` (with the dice the runner used: the match seed and
    the version) gives exactly its events. Raises ``ValueError`` when none does (a log the rules of
    today do not replay)."""
    actor = Actor.of_seat(seat)
    state, version = rules.initial_state(), 0
    states: dict[int, Any] = {0: state}
    found: list[Decision] = []
    for group in _groups(events):
        first = group[0]
        if first.type == COMMANDS_UNDONE:
            to = undone_to(first.payload)
            state, version = states[to], first.version
            found = [d for d in found if d.version < to]
            states[version] = state
            continue
        if first.type == SEAT_RESIGNED:
            version = first.version
            states[version] = state
            continue
        played = [decode(e) for e in group]
        if label_seat(first.actor) == seat and actor in rules.to_act(state):
            legal = rules.legal_commands(state, actor)
            command = _played(rules, state, actor, legal, played, seed, version)
            if command is None:
                raise ValueError(
                    f"no legal command of seat {seat} gives the events at version {first.version}"
                )
            found.append(Decision(version, state, command, len(legal)))
        for event in played:
            state = rules.evolve(state, event)
        version = group[-1].version
        states[version] = state
    return found


def _played(
    rules: Any, state: Any, actor: Actor, legal: Sequence[Any], played: list[Any], seed: int, version: int
) -> Any:
    for command in legal:
        try:
            if list(rules.decide(state, actor, command, Rng.derive(seed, version))) == played:
                return command
        except RuleViolation:
            continue
    return None
