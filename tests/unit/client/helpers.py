"""Real Lorenzo views and legal commands as protobuf messages, from a random playout."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from services.games import LoadedGame, load_game
from shared.codec import wrap_union
from shared.decider import Actor
from shared.rng import Rng
from shared.runner import MatchRunner
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
    """Every decision point of a random match (the actor, its legal commands), to the end."""
    game = lorenzo()
    rules, pb2 = game.rules, game.modules.pb2
    runner: MatchRunner[Any] = MatchRunner(rules, game.codec, MemoryEventStore())
    runner.create("m", seats, {"advanced": "true" if advanced else "false"}, seed, {})
    rng = Rng(seed)
    loaded = runner.load("m")
    n = 0
    while rules.outcome(loaded.state) is None:
        actor = rng.choice(rules.to_act(loaded.state))
        legal = rules.legal_commands(loaded.state, actor)
        wrapped = [wrap_union(pb2.Command(), game.codec.to_message(c)) for c in legal]
        yield Step(loaded.version, loaded.state, actor, wrapped)
        n += 1
        runner.submit("m", actor, rng.choice(legal), loaded.version, f"c{n}")
        loaded = runner.load("m")
    yield Step(loaded.version, loaded.state, Actor.of_seat(0), [])


def view_message(state: Any, seat: int) -> Any:
    game = lorenzo()
    return game.codec.to_message(game.rules.view(state, Actor.of_seat(seat)))


def text_of(renderable: Any, width: int = 220) -> str:
    console = Console(width=width, record=True, no_color=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()
