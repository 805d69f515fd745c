"""The registry of games: one manifest per game (``shared/core/manifest.py``), one line each below.

This is the only module of the platform that imports game packages. Everything else (rule
service, lobby, workers, gateway, clients, CLI) asks it: :func:`manifest` for what a game is,
:func:`load_rules` and :func:`load_game` for its rules, generated protobuf code and codec.
Adding a game is one package ``services/<game>/`` and one import plus one entry in ``GAMES``.

Tests may register more games for one process with ``TABULA_EXTRA_GAMES=module:ATTR[,...]``,
each naming a :class:`GameManifest` object (``<package>.manifest:MANIFEST``, as a game's own line
would import it); docs/adding-a-game.md.
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.florenza.manifest import MANIFEST as FLORENZA
from services.lorenzo.manifest import MANIFEST as LORENZO
from services.trajan.manifest import MANIFEST as TRAJAN
from shared.core.codec import MessageCodec
from shared.core.decider import missing_members
from shared.core.manifest import GameManifest
from shared.runtime.config import PORTS, port_for
from shared.serving.protogen import GameModules

GAMES: tuple[GameManifest, ...] = (LORENZO, TRAJAN, FLORENZA)

EXTRA_GAMES = "TABULA_EXTRA_GAMES"


def _extra() -> tuple[GameManifest, ...]:
    out = []
    for item in filter(None, (part.strip() for part in os.environ.get(EXTRA_GAMES, "").split(","))):
        module, colon, attr = item.partition(":")
        if not colon:
            raise ValueError(f"{EXTRA_GAMES}: {item!r} is not module:ATTR")
        value = getattr(importlib.import_module(module), attr)
        if not isinstance(value, GameManifest):
            raise TypeError(f"{EXTRA_GAMES}: {item} is a {type(value).__name__}, not a GameManifest")
        out.append(value)
    return tuple(out)


def manifests() -> tuple[GameManifest, ...]:
    """Every game: the registered ones in order, then the extra ones of this process."""
    found = (*GAMES, *_extra())
    names = [m.name for m in found]
    if len(set(names)) != len(names):
        raise ValueError(f"a game is registered twice: {names}")
    return found


def game_names() -> list[str]:
    return [m.name for m in manifests()]


def manifest(name: str) -> GameManifest:
    for found in manifests():
        if found.name == name:
            return found
    raise KeyError(f"unknown game {name!r}; known: {', '.join(game_names())}")


def default_game() -> str:
    """The first registered game: what a command means when it names none."""
    return GAMES[0].name


def game_port(name: str, env: Mapping[str, str] | None = None) -> int:
    """Where a game's rule service listens: ``TABULA_<GAME>_PORT``, else its manifest's port."""
    return port_for(name, env, default=manifest(name).default_port)


def service_ports() -> dict[str, int]:
    """The default port of every process that has one: the platform's, then each game's."""
    return {**PORTS, **{m.name: m.default_port for m in manifests()}}


def load_rules(name: str) -> Any:
    """The game's rules, named and seated by its manifest, checked against the ``Rules`` protocol (and
    against the manifest, for rules that say their name and seats themselves)."""
    game = manifest(name)
    rules = game.load_rules()
    missing = missing_members(rules)
    if missing:
        raise TypeError(
            f"{name}: {type(rules).__name__} lacks {', '.join(missing)} of shared.core.decider.Rules"
        )
    declared = (rules.game, rules.min_seats, rules.max_seats)
    if declared != (game.name, game.min_seats, game.max_seats):
        raise ValueError(
            f"{name}: the rules say {declared}, the manifest {game.name, game.min_seats, game.max_seats}"
        )
    return rules


def content_counts(name: str) -> dict[str, int]:
    """Component counts per family of a game's content, validated on load ({} without content)."""
    counts = manifest(name).content_counts
    return {} if counts is None else dict(counts())


@dataclass(frozen=True)
class LoadedGame:
    manifest: GameManifest
    rules: Any
    modules: GameModules
    codec: MessageCodec


def game_modules(name: str) -> GameModules:
    """A game's generated ``_pb2`` and ``_pb2_grpc`` modules (``make proto``), without its rules."""
    game = manifest(name)
    pb2 = importlib.import_module(game.pb2_module)
    pb2_grpc = importlib.import_module(game.pb2_grpc_module)
    return GameModules(pb2, pb2_grpc, game.service_name.removesuffix("Service"))


@functools.cache
def load_game(name: str) -> LoadedGame:
    """Rules, generated modules and codec of one game."""
    rules = load_rules(name)
    modules = game_modules(name)
    classes = [*rules.command_types, *rules.event_types, rules.view_type]
    codec = MessageCodec(modules.pb2, classes, rules.upcasters)
    return LoadedGame(manifest(name), rules, modules, codec)
