"""A resigned seat played by the real processes: a `serve worker` and a `serve reactor` on the private
Redis, as a deployment runs them. Three people race; one resigns before moving; the other two play
their turns here, and the processes alone play the resigned seat's turns (greedy bot jobs the reactor
plans from the notices) and the round ends, to the match's end, where the resigned seat places last."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest

from shared.core.decider import SYSTEM
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MatchMeta, VersionConflict
from shared.store.redis_store import RedisEventStore
from tests.integration.workers.conftest import Processes, create_match, wait_for
from tests.support.timing import scaled

pytestmark = pytest.mark.timeout(int(scaled(150)))


def test_the_processes_play_a_resigned_seat_to_the_end_where_it_places_last(
    procs: Processes, race_runner: MatchRunner[Any], store: RedisEventStore
) -> None:
    procs.start("worker")
    procs.start("reactor")
    create_match(race_runner, "quit", 3, {}, goal=10)
    resigned = wait(race_runner.resign("quit", 0, "quit-0")).first_version

    def people_play() -> bool:
        """The people's turns (seats 1 and 2), here; True once the match is over."""
        loaded = wait(race_runner.load("quit"))
        if race_runner.outcome(loaded.state, loaded.seating) is not None:
            return True
        for actor in race_runner.rules.to_act(loaded.state):
            if actor is not SYSTEM and actor.seat != 0:
                command = race_runner.rules.legal_commands(loaded.state, actor)[0]
                with suppress(VersionConflict):  # a process moved first: look again
                    wait(race_runner.submit("quit", actor, command, loaded.version, f"p:{loaded.version}"))
        return False

    wait_for(people_play, 90, "the match played to its end, the resigned seat by the processes")
    events = wait(store.read("quit"))
    seat0 = [e.actor for e in events if e.version > resigned and e.actor.split(":")[1:2] == ["0"]]
    assert seat0 and set(seat0) == {"bot:0:greedy"}
    meta = MatchMeta.of(wait(store.get_meta("quit")))
    assert meta.finished and meta.progress is not None and meta.progress.outcome is not None
    assert meta.progress.outcome.placings[0] == 3 and meta.progress.resigned == (0,)
