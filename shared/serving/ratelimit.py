"""Abuse limits shared by every instance: token buckets and lease quotas kept in Redis.

**Rates.** Each limit is a token bucket per subject (a client address or an identity): it holds at
most ``count`` tokens and refills ``count`` every ``per_s`` seconds, continuously; a call takes one
token or is refused with ``RESOURCE_EXHAUSTED`` (reason ``rate_limited``, the limit named in the
ErrorInfo metadata ``limit``, a ``RetryInfo`` saying when a token will be there). One Lua script
reads, refills and takes atomically, on Redis's own clock (``TIME``), so every instance of every
service shares one bucket per subject and no instance's clock matters. A bucket is one small hash
that expires once it would be full again. Limits are set by ``TABULA_LIMIT_<NAME>`` as
``count/seconds`` (``30/60``: 30 at once, then one every 2 s), or ``off``; defaults in :data:`RATES`.

**Quotas.** Concurrent watch streams per token are leases in a sorted set per token: a stream takes
a lease (refused with reason ``quota_exceeded`` when the token holds ``most`` live ones), renews it
while it runs, and gives it back when the call ends (``context.add_callback``, which also fires
when the client cancels). A lease of an instance that died runs out after :data:`LEASE_S`.

**Who is calling.** :func:`client_address` is the gRPC peer's address, or the client address the
gateway forwards, when the gateway signed it with the token secret (``shared/serving/forwarded.py``): a
client calling a service directly cannot choose its address. Keys are single-key (no hash tag), so
every script is single-slot on Redis Cluster and the buckets spread over the slots.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from shared.serving import forwarded
from shared.serving.errors import ResourceExhausted
from shared.serving.tokens import Keyring
from shared.store.redis_store import async_twin
from shared.store.resp import script_on

T = TypeVar("T")
PREFIX = "tabula:limit"
LEASE_S = 30.0


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` calls at once, refilled at ``count`` per ``per_s`` seconds."""

    count: int
    per_s: float

    @staticmethod
    def parse(text: str) -> Rate | None:
        """``"30/60"``: 30 per 60 s; ``"off"`` (or ``"0"``): no limit."""
        text = text.strip().lower()
        if text in ("off", "0"):
            return None
        count, slash, seconds = text.partition("/")
        rate = Rate(int(count), float(seconds)) if slash else None
        if rate is None or rate.count < 1 or not rate.per_s > 0:
            raise ValueError(f"a limit is COUNT/SECONDS (30/60) or off, not {text!r}")
        return rate


# Defaults: generous for people (a table of friends behind one address, a client following a
# match), small against a script. Per address ("_ip") and per identity ("_player": the token's
# subject). Joins are JoinRoom and Enqueue; watches are every server stream of the lobby and
# the rule services; reads are a rule service's GetView, Replay and ExportLog (a page following a
# match reads the view after each event, however fast bots play: the most generous limit); chat is
# the lobby's SendChatMessage and ReportChatMessage (10 at once, then one a second per player).
RATES: dict[str, str] = {
    "sign_in_ip": "30/60",
    "create_room_ip": "30/60",
    "create_room_player": "10/60",
    "join_ip": "60/60",
    "join_player": "20/60",
    "command_ip": "1200/60",
    "command_player": "120/10",
    "watch_ip": "600/60",
    "watch_player": "120/60",
    "read_ip": "6000/60",
    "read_player": "1200/60",
    "friend_ip": "120/60",
    "friend_player": "30/60",
    "chat_ip": "600/60",
    "chat_player": "10/10",
}
QUOTAS: dict[str, int] = {"watches_per_token": 8}


# KEYS: the bucket (hash: tokens, ts in ms). ARGV: count (capacity), refill per ms.
# Returns {1, 0} taken, or {0, ms until one token is there}.
BUCKET_LUA = """
local capacity, per_ms = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens, ts = tonumber(state[1]), tonumber(state[2])
if tokens == nil or ts == nil then tokens, ts = capacity, now end
if now > ts then tokens = math.min(capacity, tokens + (now - ts) * per_ms) end
local taken = tokens >= 1
if taken then tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / per_ms) + 1000)
if taken then return {1, 0} end
return {0, math.ceil((1 - tokens) / per_ms)}
"""

# KEYS: the token's leases (zset: lease id -> expiry ms). ARGV: lease id, most, lease ms.
# Takes or renews the lease; returns 1, or 0 when ``most`` other live leases are held.
LEASE_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""


def rates_from_env(env: Mapping[str, str] | None = None) -> dict[str, Rate | None]:
    e = env if env is not None else os.environ
    return {name: Rate.parse(e.get(f"TABULA_LIMIT_{name.upper()}", text)) for name, text in RATES.items()}


def quotas_from_env(env: Mapping[str, str] | None = None) -> dict[str, int]:
    """``TABULA_LIMIT_WATCHES_PER_TOKEN`` (0: no quota)."""
    e = env if env is not None else os.environ
    return {name: int(e.get(f"TABULA_LIMIT_{name.upper()}", str(most))) for name, most in QUOTAS.items()}


class Limiter:
    """Takes from the buckets and holds the leases of one process; every instance shares Redis."""

    def __init__(
        self,
        client: Any,
        rates: Mapping[str, Rate | None] | None = None,
        quotas: Mapping[str, int] | None = None,
        keys: Keyring | None = None,
        lease_s: float = LEASE_S,
        async_client: Any = None,
    ) -> None:
        """``None``: the defaults (:data:`RATES`, :data:`QUOTAS`). ``keys``: the token keys, with which
        the gateway signs the client address it forwards (without them no forwarded address is
        believed). ``async_client``: a ``redis.asyncio`` client of the same Redis, where the buckets are
        taken from (default: one made like ``client``, which holds the leases)."""
        self.rates = dict(rates_from_env({}) if rates is None else rates)
        self.quotas = dict(quotas_from_env({}) if quotas is None else quotas)
        self.keys = keys
        self.lease_ms = int(lease_s * 1000)
        self._bucket = script_on(async_client if async_client is not None else async_twin(client), BUCKET_LUA)
        self._lease = client.register_script(LEASE_LUA)
        self.client = client

    @staticmethod
    def from_env(
        client: Any, keys: Keyring, env: Mapping[str, str] | None = None, async_client: Any = None
    ) -> Limiter:
        return Limiter(client, rates_from_env(env), quotas_from_env(env), keys, async_client=async_client)

    def _off(self, action: str) -> bool:
        """Whether every limit of ``action`` is off (``TABULA_LIMIT_<NAME>=off``): then its call takes
        from no bucket and the caller's address is not worked out either."""
        return self.rates[f"{action}_ip"] is None and self.rates.get(f"{action}_player") is None

    async def check(self, action: str, context: Any, identity: str = "") -> None:
        """One ``action`` call (``sign_in``, ``command`` ...): its per-address limit, then its
        per-identity one if it has one. ``context`` is the call's gRPC context."""
        if self._off(action):
            return
        address = client_address(context.peer(), context.invocation_metadata(), self.keys)
        for limit, subject in self._takes(action, address, identity):
            await self.take(limit, subject)

    def _takes(self, action: str, address: str, identity: str) -> list[tuple[str, str]]:
        """The limits one ``action`` call takes from: per address, then per identity if it has one."""
        takes = [(f"{action}_ip", address)]
        if identity and f"{action}_player" in self.rates:
            takes.append((f"{action}_player", identity))
        return takes

    async def take(self, limit: str, subject: str) -> None:
        """One call of ``subject`` (an address or an identity) under ``limit``, or ResourceExhausted."""
        rate = self.rates[limit]
        if rate is None or not subject:
            return
        _taken(limit, rate, await self._bucket(keys=[_bucket_key(limit, subject)], args=_bucket_args(rate)))

    def lease(self, token_id: str) -> WatchLease | None:
        """A watch lease of the token (quota ``watches_per_token``), or ResourceExhausted when it
        holds ``most`` live ones; None when there is no quota (or no token id)."""
        most = self.quotas["watches_per_token"]
        if most <= 0 or not token_id:
            return None
        lease = WatchLease(self, f"{PREFIX}:watches:{token_id}", uuid.uuid4().hex, most)
        if not int(self._lease(keys=[lease.key], args=[lease.lease_id, most, self.lease_ms])):
            raise ResourceExhausted(
                "quota_exceeded",
                "watches_per_token",
                self.lease_ms / 1000,
                "this token already has {most} open watch streams; close one first",
                most=most,
            )
        return lease

    def watching(
        self, token_id: str, stream: Iterator[T], on_end: Callable[[Callable[[], None]], object]
    ) -> Iterator[T]:
        """``stream`` while the token holds a watch lease (:meth:`lease`).

        ``on_end`` registers the release for when the call ends however it ends (the gRPC
        context's ``add_callback``); the lease is renewed as the stream yields (it yields at least
        at every keepalive) and given back when the stream is closed.
        """
        lease = self.lease(token_id)
        if lease is None:
            yield from stream
            return
        on_end(lease.release)
        try:
            for item in stream:
                if lease.due():
                    lease.renew()
                yield item
        finally:
            lease.release()


def _bucket_key(limit: str, subject: str) -> str:
    return f"{PREFIX}:{limit}:{subject}"


def _bucket_args(rate: Rate) -> list[Any]:
    """BUCKET_LUA's ARGV: the capacity and the refill per ms."""
    return [rate.count, repr(rate.count / (rate.per_s * 1000))]


def _taken(limit: str, rate: Rate, reply: Sequence[Any]) -> None:
    """The bucket script's reply: a token taken, or ResourceExhausted saying when one will be there."""
    taken, wait_ms = reply
    if not int(taken):
        raise ResourceExhausted(
            "rate_limited",
            limit,
            max(int(wait_ms), 1) / 1000,
            "too many calls ({name}: {count} per {per_s:g} s); retry later",
            name=limit,
            count=rate.count,
            per_s=rate.per_s,
        )


@dataclass
class WatchLease:
    """One open watch stream's lease: renewed while it runs, given back when it ends."""

    limiter: Limiter
    key: str
    lease_id: str
    most: int
    renewed: float = field(default_factory=time.monotonic)

    def due(self) -> bool:
        """A third of the lease has passed since it was taken or renewed."""
        return time.monotonic() - self.renewed > self.limiter.lease_ms / 3000

    def renew(self) -> None:
        self.limiter._lease(keys=[self.key], args=[self.lease_id, self.most, self.limiter.lease_ms])
        self.renewed = time.monotonic()

    def release(self) -> None:
        """Idempotent: the call's end and the stream's close may both give it back."""
        self.limiter.client.zrem(self.key, self.lease_id)


# ---------------------------------------------------------------- who is calling


def peer_address(peer: str) -> str:
    """The address of a gRPC peer string (``ipv4:1.2.3.4:5``, ``ipv6:[::1]:5``; else as given)."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rpartition(":")[0]
    if kind == "ipv6":
        return rest.rpartition(":")[0].strip("[]")
    return peer


def client_address(peer: str, metadata: Sequence[tuple[str, Any]], keys: Keyring | None) -> str:
    """The caller's address: the one the gateway forwarded and signed, else the peer's."""
    signed = forwarded.verified(keys, metadata) if keys is not None else None
    return signed if signed is not None else peer_address(peer)
