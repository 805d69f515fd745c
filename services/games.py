"""The registry of games: name -> where its pure rules and generated protobuf code live.

Everything game-specific that a generic process (rule service, lobby, workers, CLI) needs is
reached through :func:`load_game`, so adding a game is one entry here. Tests may add a game
for one process with ``TABULA_EXTRA_GAMES=name=module:factory[,...]``.
"""

from __future__ import annotations

import functools
import importlib
import os
from dataclasses import dataclass
from typing import Any

from shared.codec import MessageCodec
from shared.protogen import GameModules


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    rules_factory: str  # "package.module:function" returning the game's Rules
    source: str  # where the rules live, for the generated .proto header
    counts: str = ""  # "module:function" taking rules.content -> component counts per family


GAMES: dict[str, GameSpec] = {
    "lorenzo": GameSpec(
        name="lorenzo",
        title="Lorenzo il Magnifico",
        rules_factory="services.lorenzo.content:load_rules",
        source="services/lorenzo/rules",
        counts="services.lorenzo.rules.content_types:content_counts",
    ),
}


def _extra() -> dict[str, GameSpec]:
    out = {}
    for item in filter(None, os.environ.get("TABULA_EXTRA_GAMES", "").split(",")):
        name, _, factory = item.partition("=")
        out[name] = GameSpec(name, name, factory, factory.partition(":")[0])
    return out


def game_names() -> list[str]:
    return sorted({**GAMES, **_extra()})


@dataclass(frozen=True)
class LoadedGame:
    spec: GameSpec
    rules: Any
    modules: GameModules
    codec: MessageCodec


def content_counts(name: str) -> dict[str, int]:
    """Component counts of a game's content, validated on load."""
    spec = GAMES[name]
    module, _, attr = spec.counts.partition(":")
    counts: dict[str, int] = getattr(importlib.import_module(module), attr)(load_rules(name).content)
    return counts


def load_rules(name: str) -> Any:
    specs = {**GAMES, **_extra()}
    if name not in specs:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(specs))}")
    module, _, attr = specs[name].rules_factory.partition(":")
    return getattr(importlib.import_module(module), attr)()


@functools.cache
def load_game(name: str) -> LoadedGame:
    """Rules, generated modules and codec of one game (generated code from ``make proto``)."""
    rules = load_rules(name)
    pb2 = importlib.import_module(f"tabula.{name}.v1.{name}_pb2")
    pb2_grpc = importlib.import_module(f"tabula.{name}.v1.{name}_pb2_grpc")
    codec = MessageCodec(pb2, [*rules.command_types, *rules.event_types, rules.view_type])
    return LoadedGame(
        {**GAMES, **_extra()}[name], rules, GameModules(pb2, pb2_grpc, name.capitalize()), codec
    )
