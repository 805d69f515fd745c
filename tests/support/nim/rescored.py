"""A deliberate rules change to Nim, registered under the same name (``TABULA_EXTRA_GAMES=
tests.support.nim.rescored:MANIFEST``) to re-score matches played with the rules of ``rules.py``.

The change: a take of three stones is credited to the other seat (``last`` records the opponent),
so a match whose last take was three stones now has the other winner, and the state after any take
of three differs from the one stored then.
"""

from __future__ import annotations

from dataclasses import replace

from shared.core.game_package import lazy
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.nim.rules import Event, NimRules, NimState, Taken


class CreditedNim(NimRules):
    def evolve(self, state: NimState, event: Event) -> NimState:
        after = super().evolve(state, event)
        if isinstance(event, Taken) and event.count == 3:
            return replace(after, last=1 - event.seat)
        return after


MANIFEST = replace(NIM, rules=lazy("tests.support.nim.rescored", "CreditedNim"))
