"""Real Lorenzo views and legal commands as protobuf messages, from a random playout."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from services.games import LoadedGame, load_game
from shared.core.codec import wrap_union
from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MemoryEventStore


@dataclass(frozen=True)
class Step:
    version: int
    state: Any
    actor: Actor
    commands: list[Any]  # Command wrappers (what GetView's legal_commands carries)


def lorenzo() -> LoadedGame:
    return load_game("lorenzo")


def playout(seats: int = 4, seed: int = 5, advanced: bool = True) -> Iterator[Step]:
    """Every decision point of a random match (the actor, its legal commands), then the end."""
    return iter(_steps(seats, seed, advanced))


@functools.cache
def _steps(seats: int, seed: int, advanced: bool) -> tuple[Step, ...]:
    """The match the one playout driver plays through a runner (so each step has its version)."""
    game = lorenzo()
    runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, MemoryEventStore())
    wait(runner.create("m", seats, {"advanced": "true" if advanced else "false"}, seed, {}))
    steps: list[Step] = []
    version = [wait(runner.load("m")).version]

    def on_step(state: Any, actor: Actor, command: Any, legal: Sequence[Any], events: Sequence[Any]) -> None:
        wrapped = [wrap_union(game.modules.pb2.Command(), game.codec.to_message(c)) for c in legal]
        steps.append(Step(version[0], state, actor, wrapped))
        version[0] += len(events)

    result = wait(play_match(runner, "m", seed, on_step=on_step))
    assert result.violations == [] and result.outcome is not None, result.violations
    return (*steps, Step(result.events, result.state, Actor.of_seat(0), []))


def view_message(state: Any, seat: int) -> Any:
    game = lorenzo()
    return game.codec.to_message(game.rules.view(state, Actor.of_seat(seat)))


def text_of(renderable: Any, width: int = 220) -> str:
    console = Console(width=width, record=True, no_color=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()
