"""Settings from the environment (the Redis clients they describe are built by ``shared.store.clients``)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# The platform's own processes. A game's rule service takes its default port from its manifest
# (``services.games.game_port``): shared never learns which games exist.
PORTS = {"lobby": 50051, "gateway": 8080}
# matches whose state a runner keeps folded (``TABULA_STATE_CACHE``; about 10 KB each): a command at
# the cached version is decided without a read (docs/operations.md, "The state cache")
STATE_CACHE = 1024


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str
    redis_cluster: bool
    shards: int
    host: str
    metrics_port: int
    log_level: str
    state_cache: int = STATE_CACHE  # rule services' and workers' runners
    away_seconds: int = 5  # the turn clock of a seat marked away (the reactor plans it, GetView shows it)

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> Settings:
        e = env if env is not None else dict(os.environ)
        return Settings(
            redis_url=e.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            redis_cluster=e.get("TABULA_REDIS_CLUSTER", "0") == "1",
            shards=int(e.get("TABULA_SHARDS", "16")),
            host=e.get("TABULA_HOST", "127.0.0.1"),
            metrics_port=int(e.get("TABULA_METRICS_PORT", "-1")),
            log_level=e.get("TABULA_LOG_LEVEL", "INFO"),
            state_cache=int(e.get("TABULA_STATE_CACHE", str(STATE_CACHE))),
            away_seconds=int(e.get("TABULA_AWAY_SECONDS", "5")),
        )


CPU_MAX = Path("/sys/fs/cgroup/cpu.max")  # cgroup v2: "<quota> <period>" or "max <period>"


def available_cpus(cpu_max: Path = CPU_MAX) -> int:
    """The CPUs this process may use: its CPU affinity, capped by its cgroup's CPU quota where there is
    one (a container's CPU limit: 1500m is 2, rounded up), at least 1. ``os.cpu_count`` counts the
    host's, which in a pod limited to 2 of a 64-core node is 64."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        quota, period = cpu_max.read_text().split()
        if quota != "max":
            cpus = min(cpus, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota readable here: the affinity alone
    return max(cpus, 1)


def port_for(service: str, env: Mapping[str, str] | None = None, default: int | None = None) -> int:
    """``TABULA_<SERVICE>_PORT``, else ``default``, else the platform's port for ``service``."""
    e = env if env is not None else os.environ
    fallback = default if default is not None else PORTS[service]
    return int(e.get(f"TABULA_{service.upper()}_PORT", fallback))
