"""Given/when/then over one game's rules: what every game's ``tests/unit/<game>/helpers.py`` builds on.

``Given(RULES)`` folds events into a state (given), decides a command on it (when: the events) and
folds those too (then: the state after). A negative seat is the system; the rng is an ``Rng`` or the
seed of one. ``accepted`` is what the legal sweeps compare ``legal_commands`` with.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from shared.core.decider import SYSTEM, Actor, BaseRules, RuleViolation
from shared.core.rng import Rng

StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")


class Given(Generic[StateT, CommandT, EventT]):
    def __init__(self, rules: BaseRules[Any, StateT, CommandT, EventT, Any]) -> None:
        self.rules = rules

    def fold(self, events: Iterable[EventT], state: StateT | None = None) -> StateT:
        """``state`` (a new match's when None) after ``events``."""
        state = self.rules.initial_state() if state is None else state
        for e in events:
            state = self.rules.evolve(state, e)
        return state

    def when(self, state: StateT, seat: int, command: CommandT, rng: Rng | int = 0) -> list[EventT]:
        """The events ``seat`` (the system when negative) gets for ``command`` on ``state``."""
        actor = SYSTEM if seat < 0 else Actor.of_seat(seat)
        return list(self.rules.decide(state, actor, command, rng if isinstance(rng, Rng) else Rng(rng)))

    def then(self, state: StateT, seat: int, command: CommandT, rng: Rng | int = 0) -> StateT:
        """``state`` after the events of :meth:`when`."""
        return self.fold(self.when(state, seat, command, rng), state)

    def accepted(self, state: StateT, actor: Actor, commands: Iterable[CommandT]) -> set[CommandT]:
        """Those of ``commands`` that ``decide`` accepts from ``actor`` on ``state``; every refusal
        must be a ``RuleViolation`` with a code."""
        out = set()
        for command in commands:
            try:
                self.rules.decide(state, actor, command, Rng(1))
            except RuleViolation as e:
                assert e.code
                continue
            out.add(command)
        return out


def with_player(state: Any, seat: int, **fields: Any) -> Any:
    """``state`` with these fields of ``seat``'s player replaced."""
    players = list(state.players)
    players[seat] = replace(players[seat], **fields)
    return replace(state, players=tuple(players))


def of_type(events: Iterable[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
