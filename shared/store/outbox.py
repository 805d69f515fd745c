"""One follower of the outbox shards, for every consumer group (the reactor, the lobby's projections).

Each append XADDs one notice to its shard's ``{sNN}:outbox`` stream. A follower reads a set of
shards as consumer ``consumer`` of group ``group`` and calls ``handle(notice)`` for each entry:

* **New and own pending entries.** ``poll(">")`` reads new entries; on start,
  ``recover_pending()`` first re-reads the entries this consumer read before a crash or restart
  and never acknowledged (id ``0``), so nothing read is lost.
* **Acknowledged only after the handler returns**, a page at a time (one ``XACK`` for the
  entries of one read). A handler that raises leaves the entry pending; handlers must therefore
  be idempotent (a crash between the work and the ack repeats the work, up to a page of it).
* **Stale entries.** Every ``claim_idle_ms / 2`` the follower takes over, with XAUTOCLAIM,
  entries pending longer than ``claim_idle_ms``: those of a crashed consumer and those whose
  handling failed.
* **Dead letters.** A claimed entry delivered more than ``max_deliveries`` times is copied to
  the shard's ``{sNN}:outbox:dead`` stream (same hash tag, so the same cluster slot) with the
  entry id, group and consumer, and acknowledged.
* **Shard ownership.** :func:`owned_shards` splits the shards between instances (instance ``i``
  of ``n`` owns ``shard % n == i``); a follower reads only the shards it is given.

On a single Redis one ``XREADGROUP BLOCK`` covers all shards; on Redis Cluster the shards live
in different slots, so it reads shard by shard and sleeps when idle.

**Trimming** (:func:`trim_outbox`, run periodically by the reactor): a shard's stream keeps only
what some group still needs. Per stream, each group needs its oldest pending entry and everything
after its last-delivered id; the stream is trimmed exactly (``XTRIM MINID``, not ``~``) below the
lowest of those. The group's summary (XINFO GROUPS) and its oldest pending entry (XPENDING) are
two reads, not one: what a group acknowledges in between is no longer needed (all of it: no
pending entry left), and what it reads in between lies after the last-delivered id read first, so
a race only keeps more. A group that does not exist yet cannot say what it needs, so a stream is
left alone while any of the ``required`` groups is missing on it (and while it has no group at
all): every group is created when its process starts, before traffic (``ensure_groups``, at
``0``: a group created on a trimmed stream starts at its oldest entry kept). Every command names
one key, so it works per shard on Redis Cluster.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import redis
import redis.cluster
from prometheus_client import Counter

from shared.runtime.observability import log_fields
from shared.store import OutboxNotice
from shared.store.redis_store import RedisEventStore, notice_from_entry

log = logging.getLogger(__name__)
NOTICES = Counter("tabula_outbox_notices_total", "Outbox entries by group and result", ["group", "result"])
TRIMMED = Counter("tabula_outbox_trimmed_total", "Outbox entries trimmed once every group acknowledged them")

Handler = Callable[[OutboxNotice], None]
Entry = tuple[bytes, dict[bytes, bytes] | None]


@dataclass(frozen=True, slots=True)
class FollowerSettings:
    group: str
    consumer: str
    claim_idle_ms: int = 30_000  # an entry pending this long is taken over (crashed consumer, failure)
    max_deliveries: int = 5  # then it goes to the dead-letter stream
    block_ms: int = 1000  # how long one read waits for new entries
    count: int = 100  # entries per shard per read
    linger_ms: int = 0  # after a read that found entries, wait this long before the next (bigger pages)


def owned_shards(shards: int, index: int, count: int) -> list[int]:
    """The shards instance ``index`` of ``count`` reads: a fixed split, no coordination needed."""
    return [shard for shard in range(shards) if shard % count == index]


def dead_letter_key(outbox_key: str) -> str:
    return f"{outbox_key}:dead"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _id_key(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _after(entry_id: str) -> str:
    """The smallest entry id greater than ``entry_id``."""
    ms, seq = _id_key(entry_id)
    return f"{ms}-{seq + 1}"


def lowest_needed(client: Any, key: str, required: Sequence[str] = ()) -> str | None:
    """The lowest entry id any consumer group of the stream ``key`` still needs.

    Per group: its oldest pending entry (read, not yet acknowledged) and the first id after its
    last-delivered one (not read yet); the lowest over all groups. None when nothing may be
    trimmed: the stream has no group, or one of the ``required`` groups is missing.
    """
    groups = client.xinfo_groups(key) if client.exists(key) else []
    names = {_text(group["name"]) for group in groups}
    if not groups or not set(required) <= names:
        return None
    needed = []
    for group in groups:
        needed.append(_after(_text(group["last-delivered-id"] or "0-0")))  # none known: it needs all
        oldest = client.xpending(key, group["name"])["min"] if group["pending"] else None
        if oldest is not None:  # None: every pending entry was acknowledged since XINFO GROUPS
            needed.append(_text(oldest))
    return min(needed, key=_id_key)


def trim_outbox(client: Any, key: str, required: Sequence[str] = ()) -> int:
    """Drop the entries of ``key`` that every group has read and acknowledged; returns how many."""
    needed = lowest_needed(client, key, required)
    if needed is None:
        return 0
    removed = int(client.xtrim(key, minid=needed, approximate=False))
    TRIMMED.inc(removed)
    return removed


class OutboxFollower:
    def __init__(
        self,
        store: RedisEventStore,
        shards: Sequence[int],
        handle: Handler,
        settings: FollowerSettings,
        after_page: Callable[[], None] | None = None,
    ) -> None:
        """``after_page`` (if given) runs after a page's entries are handled and before they are
        acknowledged (the reactor sends a page's jobs together there); if it fails, none is."""
        self.client: Any = store.client
        self.handle, self.settings, self.after_page = handle, settings, after_page
        self.keys = [store.outbox_key(shard) for shard in shards]
        self._next_claim = 0.0

    # ------------------------------------------------------------ lifecycle
    def ensure_groups(self) -> None:
        for key in self.keys:
            try:
                self.client.xgroup_create(key, self.settings.group, id="0", mkstream=True)
            except redis.ResponseError as err:
                if "BUSYGROUP" not in str(err):
                    raise

    def run(self, stop: threading.Event, tick: Callable[[], None] | None = None) -> None:
        """Until ``stop`` is set: recover own pending entries, then poll; survive Redis outages.

        ``tick`` (if given) is called after every poll, so at least every ``block_ms`` when idle:
        the reactor fires its due turn clocks and sweeps for stalled matches there.
        """
        recovered = False
        while not stop.is_set():
            try:
                if not recovered:
                    self.ensure_groups()
                    self.recover_pending()
                    recovered = True
                found = self.poll_once()
                if tick is not None:
                    tick()
                if found and self.settings.linger_ms:
                    stop.wait(self.settings.linger_ms / 1000)
            except redis.RedisError:
                log.exception("outbox read failed; retrying", extra=log_fields(group=self.settings.group))
                stop.wait(1.0)

    def poll_once(self) -> int:
        """Claim stale entries when due, then read new ones; returns entries handled."""
        handled = 0
        if time.monotonic() >= self._next_claim:
            handled += self.reclaim()
            self._next_claim = time.monotonic() + self.settings.claim_idle_ms / 2000
        return handled + self.poll(">")

    # ------------------------------------------------------------ reading
    def poll(self, start: str = ">") -> int:
        """Read new (``>``) or this consumer's pending (``0``) entries, one page per shard; the pages'
        acknowledgements go together, in one pipeline (one round trip, not one per shard)."""
        acks: list[tuple[str, list[bytes]]] = []
        handled = sum(self._handle_page(key, entries, acks) for key, entries in self._read(start))
        if len(acks) == 1:
            self.client.xack(acks[0][0], self.settings.group, *acks[0][1])
        elif acks:
            pipe = self.client.pipeline(transaction=False)  # on a cluster, grouped by node
            for key, done in acks:
                pipe.xack(key, self.settings.group, *done)
            pipe.execute()
        return handled

    def recover_pending(self) -> int:
        """Handle every entry this consumer read before a crash or restart and never acknowledged."""
        handled = 0
        for key in self.keys:
            after = "0"
            while entries := self._read_pending(key, after):
                handled += self._handle_page(key, entries)
                after = _text(entries[-1][0])
        return handled

    def _read_pending(self, key: str, after: str) -> list[Entry]:
        s = self.settings
        reply = self.client.xreadgroup(s.group, s.consumer, {key: after}, count=s.count)
        return reply[0][1] if reply else []

    def _read(self, start: str) -> list[tuple[str, list[Entry]]]:
        s = self.settings
        block = s.block_ms if start == ">" else None
        found: list[Any] = []
        if isinstance(self.client, redis.cluster.RedisCluster):  # one slot per call on a cluster
            for key in self.keys:
                found += self.client.xreadgroup(s.group, s.consumer, {key: start}, count=s.count) or []
            if not any(entries for _, entries in found) and block:
                time.sleep(block / 1000)
        else:
            streams = dict.fromkeys(self.keys, start)
            found = self.client.xreadgroup(s.group, s.consumer, streams, count=s.count, block=block) or []
        return [(_text(key), entries) for key, entries in found]

    def reclaim(self) -> int:
        """Take over entries pending too long; dead-letter the ones delivered too often."""
        s = self.settings
        handled = 0
        for key in self.keys:
            reply = self.client.xautoclaim(key, s.group, s.consumer, s.claim_idle_ms, count=s.count)
            page = []
            for entry_id, fields in reply[1]:
                if self._deliveries(key, entry_id) > s.max_deliveries:
                    self._dead_letter(key, entry_id, fields)
                    handled += 1
                else:
                    page.append((entry_id, fields))
            handled += self._handle_page(key, page)
        return handled

    def _deliveries(self, key: str, entry_id: bytes) -> int:
        pending = self.client.xpending_range(key, self.settings.group, min=entry_id, max=entry_id, count=1)
        return int(pending[0]["times_delivered"]) if pending else 0

    def _dead_letter(self, key: str, entry_id: bytes, fields: dict[bytes, bytes] | None) -> None:
        s = self.settings
        record = {**(fields or {}), b"entry": entry_id, b"group": s.group, b"consumer": s.consumer}
        self.client.xadd(dead_letter_key(key), record)
        self.client.xack(key, s.group, entry_id)
        NOTICES.labels(s.group, "dead_letter").inc()
        log.error("notice dead-lettered", extra=log_fields(stream=key, entry=_text(entry_id), group=s.group))

    # ------------------------------------------------------------ handling
    def _handle_page(
        self, key: str, entries: Sequence[Entry], acks: list[tuple[str, list[bytes]]] | None = None
    ) -> int:
        """Handle a page of entries in order, then acknowledge the handled ones in one ``XACK``, or
        add them to ``acks`` for the caller's (a crash before it leaves the whole page pending, to be
        handled again: handlers are idempotent, as they must be for a crash between a handler and its
        acknowledgement anyway)."""
        done = [entry_id for entry_id, fields in entries if self._process(key, entry_id, fields)]
        if self.after_page is not None:
            try:
                self.after_page()
            except Exception:  # left pending, every entry: XAUTOCLAIM hands them out again
                NOTICES.labels(self.settings.group, "failed").inc(len(done))
                log.exception("page failed", extra=log_fields(stream=key, group=self.settings.group))
                return len(entries)
        if done and acks is not None:
            acks.append((key, done))
        elif done:
            self.client.xack(key, self.settings.group, *done)
        return len(entries)

    def _process(self, key: str, entry_id: bytes, fields: dict[bytes, bytes] | None) -> bool:
        """Hand one entry to the handler; True: it is done with (to acknowledge)."""
        group = self.settings.group
        if fields is None:  # trimmed from the stream while pending: nothing left to do
            return True
        try:
            self.handle(notice_from_entry(entry_id, fields))
        except Exception:  # left pending: XAUTOCLAIM retries it, then dead-letters it
            NOTICES.labels(group, "failed").inc()
            log.exception("notice failed", extra=log_fields(stream=key, entry=_text(entry_id), group=group))
            return False
        NOTICES.labels(group, "handled").inc()
        return True
