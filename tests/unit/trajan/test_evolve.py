"""``evolve``'s table of event functions, and the reuse of ``decide``'s own fold by ``TrajanRules.evolve``."""

from __future__ import annotations

from dataclasses import replace

from services.trajan.rules.commands import ChooseBowl
from services.trajan.rules.ctx import FOLDS
from services.trajan.rules.events import EVENT_TYPES
from services.trajan.rules.evolve import APPLY, evolve
from shared.core.decider import Actor
from shared.core.rng import Rng

from .helpers import RULES, game


def test_every_event_type_has_its_evolve_function() -> None:
    assert set(APPLY) == set(EVENT_TYPES)


def test_folding_decided_events_gives_the_states_decide_made() -> None:
    s = game(2)
    events = RULES.decide(s, Actor.of_seat(0), ChooseBowl(1), Rng(1))
    assert len(events) > 1
    state, plain = s, s
    for event in events:
        state, plain = FOLDS.fold(state, event), evolve(plain, event)
        assert state == plain


def test_an_event_folded_onto_another_state_is_evolved_there() -> None:
    s = game(2)
    other = replace(s, time=s.time + 5)  # equal but for the time track: not the state decide saw
    events = RULES.decide(s, Actor.of_seat(0), ChooseBowl(1), Rng(1))
    folded = FOLDS.fold(other, events[0])
    assert folded == evolve(other, events[0]) != evolve(s, events[0])
