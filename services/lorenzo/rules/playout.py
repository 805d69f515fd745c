"""A pure random-playout driver: uniform over the legal commands of the actors in ``to_act``.

Used by Lorenzo's own tests only: the golden playthrough's transcript depends on exactly how it
draws. ``tabula simulate``, the benches and the platform's tests use the one playout driver,
``shared.simulate`` (which the rules, being pure, may not import).
"""

from __future__ import annotations

from collections.abc import Callable

from services.lorenzo.rules.commands import Command
from services.lorenzo.rules.events import Event
from services.lorenzo.rules.model import Config, State
from services.lorenzo.rules.rules import LorenzoRules
from shared.decider import Actor
from shared.rng import Rng

MAX_STEPS = 5000

StepHook = Callable[[State, Actor, Command, list[Command]], None]


def random_playout(
    rules: LorenzoRules, config: Config, seed: int, on_step: StepHook | None = None
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
