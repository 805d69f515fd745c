"""A pure random-playout driver: uniform over the legal commands of the actors in ``to_act``.

Reused by tests, the simulate command and benchmarks.
"""

from __future__ import annotations

from collections.abc import Callable

from services.trajan.rules.commands import Command
from services.trajan.rules.events import Event
from services.trajan.rules.model import Config, State
from services.trajan.rules.rules import TrajanRules
from shared.decider import Actor
from shared.rng import Rng

MAX_STEPS = 20000

StepHook = Callable[[State, Actor, Command, list[Command]], None]


def random_playout(
    rules: TrajanRules, config: Config, seed: int, on_step: StepHook | None = None
) -> tuple[list[Event], State]:
    """Play a whole match choosing uniformly among legal commands; returns (events, final state).

    ``on_step(state, actor, command, legal)`` is called before each command is decided.
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
        if on_step is not None:
            on_step(state, actor, command, legal)
        new = rules.decide(state, actor, command, rng.fork(f"decide{step}"))
        for e in new:
            state = rules.evolve(state, e)
        events.extend(new)
    raise RuntimeError("playout did not finish")
