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

The follower reads through the store's consumer groups (``EventStore.outbox_groups``): Redis Streams
groups (on a single Redis one ``XREADGROUP BLOCK`` covers all shards; on Redis Cluster, whose shards
live in different slots, it reads shard by shard and sleeps when idle), or the in-memory store's.

**Trimming** (:func:`trim_outbox`, run periodically by the reactor): a shard's stream keeps only
what some group still needs (``OutboxGroups.lowest_needed``). Per stream, each group needs its
oldest pending entry and everything after its last-delivered id; the stream is trimmed exactly
below the lowest of those (on Redis ``XTRIM MINID``, not ``~``). On Redis the group's summary
(XINFO GROUPS) and its oldest pending entry (XPENDING) are two reads, not one: what a group
acknowledges in between is no longer needed (all of it: no pending entry left), and what it reads
in between lies after the last-delivered id read first, so a race only keeps more. A group that
does not exist yet cannot say what it needs, so a stream is left alone while any of the
``required`` groups is missing on it (and while it has no group at all): every group is created
when its process starts, before traffic (``ensure_groups``, at ``0``: a group created on a trimmed
stream starts at its oldest entry kept). Every command names one key, so it works per shard on
Redis Cluster.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import redis
from prometheus_client import Counter

from shared.runtime.observability import log_fields
from shared.store import Delivered, EventStore, OutboxGroups, OutboxNotice
from shared.store.redis_store import dead_letter_key

log = logging.getLogger(__name__)
NOTICES = Counter("tabula_outbox_notices_total", "Outbox entries by group and result", ["group", "result"])
TRIMMED = Counter("tabula_outbox_trimmed_total", "Outbox entries trimmed once every group acknowledged them")

Handler = Callable[[OutboxNotice], None]


@dataclass(frozen=True, slots=True)
class FollowerSettings:
    group: str
    consumer: str
    claim_idle_ms: int = 30_000  # an entry pending this long is taken over (crashed consumer, failure)
    max_deliveries: int = 5  # then it goes to the dead-letter stream
    block_ms: int = 1000  # how long one read waits for new entries
    count: int = 100  # entries per shard per read
    linger_ms: int = 0  # after a read that found entries, wait this long before the next (bigger pages)


__all__ = [
    "FollowerSettings",
    "OutboxFollower",
    "dead_letter_key",
    "owned_shards",
    "trim_outbox",
]


def owned_shards(shards: int, index: int, count: int) -> list[int]:
    """The shards instance ``index`` of ``count`` reads: a fixed split, no coordination needed."""
    return [shard for shard in range(shards) if shard % count == index]


def trim_outbox(groups: OutboxGroups, shard: int, required: Sequence[str] = ()) -> int:
    """Drop the shard's entries that every group has read and acknowledged; returns how many."""
    needed = groups.lowest_needed(shard, required)
    if needed is None:
        return 0
    removed = groups.trim(shard, needed)
    TRIMMED.inc(removed)
    return removed


class OutboxFollower:
    def __init__(
        self,
        store: EventStore,
        shards: Sequence[int],
        handle: Handler,
        settings: FollowerSettings,
        after_page: Callable[[], None] | None = None,
    ) -> None:
        """``after_page`` (if given) runs after a page's entries are handled and before they are
        acknowledged (the reactor sends a page's jobs together there); if it fails, none is."""
        self.groups: OutboxGroups = store.outbox_groups()
        self.handle, self.settings, self.after_page = handle, settings, after_page
        self.shards = list(shards)
        self.keys = [store.outbox_key(shard) for shard in self.shards]
        self._next_claim = 0.0

    # ------------------------------------------------------------ lifecycle
    def ensure_groups(self) -> None:
        for shard in self.shards:
            self.groups.create_group(shard, self.settings.group)

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
        acknowledgements go together (one round trip, not one per shard)."""
        s = self.settings
        block = s.block_ms if start == ">" else None
        found = self.groups.read_group(s.group, s.consumer, dict.fromkeys(self.shards, start), s.count, block)
        acks: list[tuple[int, list[str]]] = []
        handled = sum(self._handle_page(shard, entries, acks) for shard, entries in found)
        if acks:
            self.groups.ack(s.group, acks)
        return handled

    def recover_pending(self) -> int:
        """Handle every entry this consumer read before a crash or restart and never acknowledged."""
        s, handled = self.settings, 0
        for shard in self.shards:
            after = "0"
            while found := self.groups.read_group(s.group, s.consumer, {shard: after}, s.count, None):
                entries = found[0][1]
                if not entries:
                    break
                handled += self._handle_page(shard, entries)
                after = entries[-1].entry_id
        return handled

    def reclaim(self) -> int:
        """Take over entries pending too long; dead-letter the ones delivered too often."""
        s = self.settings
        handled = 0
        for shard in self.shards:
            page = []
            for entry in self.groups.claim_idle(shard, s.group, s.consumer, s.claim_idle_ms, s.count):
                if entry.deliveries > s.max_deliveries:
                    self._dead_letter(shard, entry)
                    handled += 1
                else:
                    page.append(entry)
            handled += self._handle_page(shard, page)
        return handled

    def _dead_letter(self, shard: int, entry: Delivered) -> None:
        s = self.settings
        self.groups.dead_letter(shard, s.group, s.consumer, entry)
        NOTICES.labels(s.group, "dead_letter").inc()
        log.error("notice dead-lettered", extra=log_fields(shard=shard, entry=entry.entry_id, group=s.group))

    # ------------------------------------------------------------ handling
    def _handle_page(
        self, shard: int, entries: Sequence[Delivered], acks: list[tuple[int, list[str]]] | None = None
    ) -> int:
        """Handle a page of entries in order, then acknowledge the handled ones together, or add them
        to ``acks`` for the caller's (a crash before it leaves the whole page pending, to be handled
        again: handlers are idempotent, as they must be for a crash between a handler and its
        acknowledgement anyway)."""
        done = [entry.entry_id for entry in entries if self._process(shard, entry)]
        if self.after_page is not None:
            try:
                self.after_page()
            except Exception:  # left pending, every entry: a claim hands them out again
                NOTICES.labels(self.settings.group, "failed").inc(len(done))
                log.exception("page failed", extra=log_fields(shard=shard, group=self.settings.group))
                return len(entries)
        if done and acks is not None:
            acks.append((shard, done))
        elif done:
            self.groups.ack(self.settings.group, [(shard, done)])
        return len(entries)

    def _process(self, shard: int, entry: Delivered) -> bool:
        """Hand one entry to the handler; True: it is done with (to acknowledge)."""
        group = self.settings.group
        if entry.notice is None:  # trimmed from the stream while pending: nothing left to do
            return True
        try:
            self.handle(entry.notice)
        except Exception:  # left pending: a claim retries it, then dead-letters it
            NOTICES.labels(group, "failed").inc()
            log.exception("notice failed", extra=log_fields(shard=shard, entry=entry.entry_id, group=group))
            return False
        NOTICES.labels(group, "handled").inc()
        return True
