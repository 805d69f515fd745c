"""TABULA_STATE_CACHE sizes the state cache of every runner a worker builds (docs/operations.md)."""

from __future__ import annotations

import redis

from services.workers.context import WorkerContext
from services.workers.settings import WorkerSettings
from shared.runtime.config import Settings


def test_the_state_cache_follows_the_environment_and_defaults_to_1024() -> None:
    assert Settings.from_env({}).state_cache == 1024
    settings = WorkerSettings.from_env({"TABULA_STATE_CACHE": "9000"})
    assert settings.base.state_cache == 9000
    client = redis.Redis(port=1)  # never connected: building a runner reads nothing
    try:
        runner = WorkerContext(settings, client).runner("lorenzo")
        assert runner._cache_size == 9000
    finally:
        client.close()
