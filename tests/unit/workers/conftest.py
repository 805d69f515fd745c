"""Race matches on the in-memory store, run by the same runner the workers use.

The race game is registered (``TABULA_EXTRA_GAMES``) so that bots find its hooks in the registry.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MemoryEventStore
from tests.integration.workers.race_game import RaceWithSecrets
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules


def make_runner() -> MatchRunner[Any]:
    rules = race_rules(RaceWithSecrets)
    return MatchRunner(rules, JsonCodec([*rules.command_types, *rules.event_types]), MemoryEventStore())


def create(
    runner: MatchRunner[Any], match_id: str = "m1", seats: int = 2, goal: str = "20", **extra: Any
) -> int:
    meta = {"bots": json.dumps(extra.get("bots", {})), "turn_seconds": str(extra.get("turn_seconds", 0))}
    if "players" in extra:
        meta["players"] = json.dumps(extra["players"])
    return wait(runner.create(match_id, seats, {"goal": goal}, seed=7, extra_meta=meta)).version


@pytest.fixture(autouse=True)
def race_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", "tests.integration.workers.race_game:MANIFEST")


@pytest.fixture
def runner() -> MatchRunner[Any]:
    return make_runner()
