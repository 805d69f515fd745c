"""One seeded match recorded as a stored-events fixture (``tests/fixtures/<game>/make_match_v1.py``).

The match is played through the real runner into the in-memory store, which keeps exactly the entry
fields the Redis store keeps (type, payload bytes, visibility, command id, actor, server time, schema
version). Each game's script names its seats, options, seed and how it picks among the legal
commands (a :data:`Choose`); this module plays, writes and searches.
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.games import load_game
from shared.core.decider import Actor
from shared.core.rng import Rng
from shared.matches.archive import state_hash
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MemoryEventStore, StoredEvent

MATCH_ID = "fixture-v1"

# (state, actor, its legal commands, the match's rng) -> the command the actor submits
Choose = Callable[[Any, Actor, list[Any], Rng], Any]


@dataclass(frozen=True, slots=True)
class Recipe:
    """How one game's fixture match is made."""

    game: str
    seats: int
    options: Mapping[str, str]
    seed: int
    choose: Choose


def play(runner: MatchRunner[Any], seed: int, choose: Choose) -> None:
    """Random actors among those to act, each submitting what ``choose`` picks, to the end."""
    rules, rng = runner.rules, Rng(seed)
    loaded = wait(runner.load(MATCH_ID))
    n = 0
    while rules.outcome(loaded.state) is None:
        actor = rng.choice(rules.to_act(loaded.state))
        command = choose(loaded.state, actor, list(rules.legal_commands(loaded.state, actor)), rng)
        wait(runner.submit(MATCH_ID, actor, command, loaded.version, f"{MATCH_ID}-c{n}"))
        loaded, n = wait(runner.load(MATCH_ID)), n + 1


def record(recipe: Recipe, seed: int) -> tuple[Any, list[StoredEvent]]:
    """The final state and the stored events of the recipe's match played from ``seed``."""
    game = load_game(recipe.game)
    store = MemoryEventStore()
    runner = MatchRunner(game.rules, game.codec, store)
    wait(runner.create(MATCH_ID, recipe.seats, dict(recipe.options), seed))
    play(runner, seed, recipe.choose)
    return wait(runner.load(MATCH_ID)).state, wait(store.read(MATCH_ID))


def entry(e: StoredEvent) -> dict[str, Any]:
    return {
        "version": e.version,
        "type": e.type,
        "payload": base64.b64encode(e.payload).decode(),
        "visibility": e.visibility,
        "command_id": e.command_id,
        "actor": e.actor,
        "server_time_ms": e.server_time_ms,
        "schema_version": e.schema_version,
    }


def header(recipe: Recipe, state: Any, events: Sequence[StoredEvent]) -> dict[str, Any]:
    outcome = load_game(recipe.game).rules.outcome(state)
    return {
        "fixture": f"stored events of one {recipe.game.capitalize()} match, kept forever",
        "game": recipe.game,
        "seats": recipe.seats,
        "options": dict(recipe.options),
        "seed": recipe.seed,
        "events": len(events),
        "final_state_sha256": state_hash(state),
        "scores": list(outcome.scores),
        "placings": list(outcome.placings),
    }


def write(recipe: Recipe, out: str) -> None:
    """The header line, then one line per stored event, into ``out``."""
    state, events = record(recipe, recipe.seed)
    with open(out, "w") as f:
        f.write(json.dumps(header(recipe, state, events), sort_keys=True) + "\n")
        f.writelines(json.dumps(entry(e), sort_keys=True) + "\n" for e in events)


def search(recipe: Recipe, first: int) -> int:
    """The first seed from ``first`` whose log holds every event type of the game."""
    wanted = {t.__name__ for t in load_game(recipe.game).rules.event_types}
    seed = first
    while {e.type for e in record(recipe, seed)[1]} != wanted:
        seed += 1
    return seed


def main(recipe: Recipe) -> None:
    """The script's command line: ``OUT.jsonl`` writes the fixture there; ``--search`` prints the first
    seed from the recipe's whose log holds every event type."""
    if "--search" in sys.argv:
        print(search(recipe, recipe.seed))
    else:
        write(recipe, sys.argv[1])
