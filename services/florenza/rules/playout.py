"""A pure random-playout driver: uniform over the legal commands of the actors in ``to_act``.

Reused by tests, the simulate command and benchmarks.
"""

from __future__ import annotations

from collections.abc import Callable

from services.florenza.rules.commands import Command
from services.florenza.rules.events import Event
from services.florenza.rules.model import Config, State
from services.florenza.rules.rules import FlorenzaRules
from shared.decider import Actor
from shared.rng import Rng

MAX_STEPS = 5000

StepHook = Callable[[State, Actor, Command, list[Command], list[Event]], None]


def random_playout(
    rules: FlorenzaRules, config: Config, seed: int, on_step: StepHook | None = None
) -> tuple[list[Event], State]:
    """Play a whole match choosing uniformly among legal commands; returns (events, final state).

    ``on_step(state, actor, command, legal, events)`` is called after each command with the state it was
    decided on and the events it produced.
    """
    rng = Rng(seed)
    events = list(rules.setup(config, rng.fork("setup")))
    state = rules.initial_state()
    for e in events:
        state = rules.evolve(state, e)
    for step in range(MAX_STEPS):
        actors = rules.to_act(state)
        if not actors:
            return events, state
        actor = rng.choice(actors)
        legal = list(rules.legal_commands(state, actor))
        if not legal:
            raise RuntimeError(f"no legal command for {actor} at step {step} (phase {state.phase.name})")
        command = rng.choice(legal)
        new = list(rules.decide(state, actor, command, rng.fork(f"decide{step}")))
        if on_step is not None:
            on_step(state, actor, command, legal, new)
        for e in new:
            state = rules.evolve(state, e)
        events.extend(new)
    raise RuntimeError("playout did not finish")
