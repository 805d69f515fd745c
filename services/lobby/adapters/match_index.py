"""The matches the lobby created for public rooms and matchmaking, by creation time: what
``ListMatches`` offers spectators. Private rooms' matches are never indexed (their ids are the
only thing that keeps strangers out). Only the newest ``KEEP`` are kept."""

from __future__ import annotations

from typing import Any

from services.lobby.adapters import keys

KEEP = 500


class MatchIndex:
    def __init__(self, client: Any, keep: int = KEEP) -> None:
        self.client, self.keep = client, keep

    def record(self, match_id: str, created_ms: int) -> None:
        pipe = self.client.pipeline()
        pipe.zadd(keys.matches(), {match_id: created_ms})
        pipe.zremrangebyrank(keys.matches(), 0, -self.keep - 1)
        pipe.execute()

    def newest(self) -> list[tuple[str, int]]:
        """Every indexed match id with its creation time, newest first."""
        found = self.client.zrevrange(keys.matches(), 0, -1, withscores=True)
        return [(keys.text(member), int(score)) for member, score in found]
