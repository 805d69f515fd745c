"""The race test game with a ``determinize`` that a test can slow down, for worker tests.

Subprocess workers load it with ``TABULA_EXTRA_GAMES=tests.integration.workers.race_game:MANIFEST``.
``RACE_BOT_SLEEP`` (seconds) slows every bot move down, so a test can kill a worker mid-task;
``RACE_BOT_SLEEP_ONCE=<path>`` sleeps 30 s in the first bot move only (the path marks it done).
"""

from __future__ import annotations

import os
import time
from dataclasses import replace

from shared.core.rng import Rng
from tests.support.race.manifest import MANIFEST as RACE
from tests.support.race.rules import RaceRules, RaceState


class RaceWithSecrets(RaceRules):
    def determinize(self, state: RaceState, seat: int, rng: Rng) -> RaceState:
        time.sleep(float(os.environ.get("RACE_BOT_SLEEP", "0")))
        once = os.environ.get("RACE_BOT_SLEEP_ONCE")
        if once and not os.path.exists(once):
            open(once, "w").close()
            time.sleep(30)
        return super().determinize(state, seat, rng)


MANIFEST = replace(RACE, rules=RaceWithSecrets, source="tests/integration/workers/race_game.py")
