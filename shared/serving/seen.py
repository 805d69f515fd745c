"""Which seats' players watch their match live here: the marks a rule service keeps in the match meta.

While a ``WatchMatch`` stream with a seat's token is open, the meta says until when that seat's player
is known to be watching (``seen:<seat>``, :meth:`MatchMeta.seen_mark`); the runner then counts the
player's turn as seen, so an append that only hands them the turn wakes no follower
(``shared.store.quiet``). A mark lasts :data:`SEEN_FOR_S` past its last renewal, renewed every
:data:`RENEW_S` while a stream is open and cleared when the last one here closes, so a service that
dies leaves marks that run out by themselves (the player is then told their turns again).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)
SEEN_FOR_S = 90.0
RENEW_S = 30.0

Mark = Callable[[str, int, int], Awaitable[None]]  # (match id, seat, until ms; 0: no longer)


class SeenMarks:
    """The open streams of each (match, seat) here, and when each mark was last written. Used from the
    serving loop only."""

    def __init__(self, mark: Mark, now: Callable[[], float] = time.time) -> None:
        self.mark, self.now = mark, now
        self._open: dict[tuple[str, int], int] = {}
        self._written: dict[tuple[str, int], float] = {}
        self._clearing: set[asyncio.Task[None]] = set()

    async def open(self, match_id: str, seat: int) -> None:
        key = (match_id, seat)
        self._open[key] = self._open.get(key, 0) + 1
        try:
            await self.renew(match_id, seat)
        except BaseException:
            self.close(match_id, seat)
            raise

    async def renew(self, match_id: str, seat: int) -> None:
        """Write the mark anew if it is due (at once for the first stream)."""
        key, now = (match_id, seat), self.now()
        if now - self._written.get(key, -RENEW_S) >= RENEW_S:
            self._written[key] = now
            await self.mark(match_id, seat, int((now + SEEN_FOR_S) * 1000))

    def close(self, match_id: str, seat: int) -> None:
        """One stream fewer; the last one clears the mark (without waiting: a cancelled stream's end)."""
        key = (match_id, seat)
        self._open[key] -= 1
        if self._open[key] > 0:
            return
        del self._open[key]
        self._written.pop(key, None)
        task = asyncio.ensure_future(self._clear(match_id, seat))
        self._clearing.add(task)
        task.add_done_callback(self._clearing.discard)

    async def _clear(self, match_id: str, seat: int) -> None:
        try:
            await self.mark(match_id, seat, 0)
        except Exception:  # the mark runs out by itself
            log.warning("could not clear a watch mark", extra={"match_id": match_id, "seat": seat})
