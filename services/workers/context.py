"""Per-process resources of workers and reactors: the Redis client, the store, one runner per game.

Built on first use in the process that uses them (after the prefork pool forks, and again if
the pid changes), never at import: a Redis connection must not be shared across a fork.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from services.games import load_game
from services.workers.analysis import AnalysisSettings
from services.workers.settings import WorkerSettings
from shared.matches.analysis import AnalysisStore
from shared.matches.runner import MatchRunner
from shared.store.clients import redis_client, store_from_settings
from shared.store.redis_store import RedisClient


class WorkerContext:
    def __init__(self, settings: WorkerSettings, client: RedisClient) -> None:
        self.settings = settings
        self.client = client
        self.store = store_from_settings(settings.base, client)
        self._runners: dict[str, MatchRunner[Any]] = {}
        self.analysis = AnalysisSettings.from_env()
        self.records = AnalysisStore(client, settings.base.shards, self.analysis.lease_s)
        self._lock = threading.Lock()

    def runner(self, game: str) -> MatchRunner[Any]:
        with self._lock:
            if game not in self._runners:
                loaded = load_game(game)
                runner = MatchRunner(
                    loaded.rules, loaded.codec, self.store, cache_size=self.settings.base.state_cache
                )
                self._runners[game] = runner
            return self._runners[game]

    def close(self) -> None:
        self.client.close()


_current: tuple[int, WorkerContext] | None = None
_guard = threading.Lock()


def current() -> WorkerContext:
    """This process's context, built on first use (and rebuilt in a forked child)."""
    global _current
    with _guard:
        if _current is None or _current[0] != os.getpid():
            settings = WorkerSettings.from_env()
            _current = (os.getpid(), WorkerContext(settings, redis_client(settings.base)))
        return _current[1]


def reset() -> None:
    """Forget the context (called in each pool child right after the fork)."""
    global _current
    with _guard:
        _current = None
