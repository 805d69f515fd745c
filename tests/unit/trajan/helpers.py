"""Given/when/then helpers for Trajan rules tests: build a state from events, decide, read the effects."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from services.trajan.content import load_content
from services.trajan.manifest import MANIFEST
from services.trajan.rules import TrajanRules
from services.trajan.rules.commands import (
    Command,
    DrawStartCommodity,
    PlaceStartMarkers,
    TakeStartTrajanTile,
)
from services.trajan.rules.content_types import Action, Colour
from services.trajan.rules.events import Event, PointsScored
from services.trajan.rules.model import Bowl, Origin, Phase, Pile, State, Step, StepKind
from shared.core.rng import Rng
from tests.support.given import Given
from tests.support.given import of_type as of_type
from tests.support.given import with_player as with_player

C = load_content()
RULES: TrajanRules = MANIFEST.load_rules()  # named and seated by the manifest
GIVEN: Given[State, Command, Event] = Given(RULES)
fold, when, then = GIVEN.fold, GIVEN.when, GIVEN.then
Y, OR, G, W, P, B = Colour  # yellow, orange, light green, white, pink, blue
START_MARKERS = ((Y, OR), (G, W), (P, B), (Y, OR), (G, W), (P, B))


def setup_events(seats: int = 2, seed: int = 0) -> list[Event]:
    """Setup events of a match set up the same way each time: the markers of START_MARKERS, every
    starting card from the draw pile, Trajan tiles from the first stacks onto II, IV, VI."""
    events = list(RULES.setup(RULES.make_config(seats, {}), Rng(seed)))
    state = fold(events)
    step = 0
    while state.phase is not Phase.TURNS:
        actor = RULES.to_act(state)[0]
        p = state.players[actor.seat]
        cmd: Command
        if state.phase is Phase.MARKERS:
            bowl = next(i for i, b in enumerate(p.bowls, start=1) if not b.markers)
            cmd = PlaceStartMarkers(bowl, *START_MARKERS[bowl - 1])
        elif state.phase is Phase.START_CARDS:
            cmd = DrawStartCommodity(Pile.DECK)
        else:
            taken = sum(1 for t in p.slots if t)
            held = {C.trajan_tile[t].stack for t in p.slots if t}
            stack = next(k for k in range(1, 7) if k not in held and state.trajan_stacks[k - 1].top)
            cmd = TakeStartTrajanTile(stack, (2, 4, 6)[taken])
        new = list(RULES.decide(state, actor, cmd, Rng(seed * 1000 + step)))
        events += new
        state = fold(new, state)
        step += 1
    return events


@functools.cache
def game(seats: int = 2, seed: int = 0) -> State:
    """A match at its first turn, with seat 0 to play (and seat 0 at the bottom of the senate stack)."""
    s = fold(setup_events(seats, seed))
    return replace(s, start_seat=0, active=0, senate_order=tuple(range(seats)))


def bowls(*markers: tuple[Colour, ...]) -> tuple[Bowl, ...]:
    return tuple(Bowl(tuple(sorted(m))) for m in markers)


def acting(state: State, seat: int, action: Action, origin: Origin = Origin.BOWL) -> State:
    """``seat`` owes the choice of ``action``'s option now."""
    step = Step(StepKind.ACTION, action=action, origin=origin)
    return replace(state, phase=Phase.TURNS, active=seat, pending=(step,))


def points(events: list[Any], seat: int) -> int:
    return sum(e.points for e in events if isinstance(e, PointsScored) and e.seat == seat)


def kinds(steps: tuple[Step, ...]) -> list[tuple[StepKind, Action | None]]:
    return [(x.kind, x.action) for x in steps]
