"""The start every serving process shares: settings, logging, the token secret, the metrics endpoint."""

from __future__ import annotations

import sys

from shared.runtime.config import Settings
from shared.runtime.observability import setup_logging, start_metrics
from shared.serving.tokens import Keyring, SecretMissing, keyring_from_env


def boot(name: str) -> tuple[Settings, Keyring]:
    """Settings and logging from the environment, then the keys of ``TABULA_SECRET``: without a
    usable secret the process exits at once, saying ``<name>: <why>``. Then the metrics endpoint."""
    settings = Settings.from_env()
    setup_logging(settings.log_level)
    try:
        keys = keyring_from_env()
    except (SecretMissing, ValueError) as err:
        sys.exit(f"{name}: {err}")
    start_metrics(settings.metrics_port)
    return settings, keys
