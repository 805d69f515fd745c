"""A four-bot Lorenzo match played to the end by a real Celery worker and reactor, no client."""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.games import load_game
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Processes, command_ids, wait_for
from tests.support.timing import scaled

pytestmark = pytest.mark.timeout(int(scaled(300)))  # its wait below is scaled too


@pytest.fixture
def lorenzo(store: RedisEventStore) -> MatchRunner[Any]:
    try:
        game = load_game("lorenzo")
    except ImportError as err:  # generated code missing: `make proto`
        pytest.skip(f"lorenzo generated code unavailable: {err}")
    return MatchRunner(game.rules, game.codec, store)


def test_four_lorenzo_bots_play_a_match_to_the_end(
    procs: Processes, lorenzo: MatchRunner[Any], store: RedisEventStore
) -> None:
    bots = {"0": "random", "1": "greedy", "2": "random", "3": "mcts"}
    wait(lorenzo.create("lz", 4, {}, seed=11, extra_meta={"bots": json.dumps(bots), "turn_seconds": "0"}))
    procs.start("worker")
    procs.start("reactor")
    wait_for(
        lambda: wait(store.get_meta("lz")).get("status") == "finished", 150, "the Lorenzo match to finish"
    )
    events = wait(store.read("lz"))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    ids = command_ids(store, "lz")
    assert len(ids) == len(set(ids))
    outcome = lorenzo.rules.outcome(wait(lorenzo.load("lz")).state)
    assert outcome is not None and sorted(outcome.placings)[0] == 1
    assert {e.actor for e in events} >= {"bot:0:random", "bot:1:greedy", "bot:3:mcts", "system"}
