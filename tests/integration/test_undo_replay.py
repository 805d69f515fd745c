"""Undo (shared/core/undo.py, docs/workers.md "Undo") folded exactly, in every registered game and the
test games: seeded random matches through a :class:`MatchRunner` over a private Redis, with undos
mixed in (some right after a seat's command, some by a seat whose command is not the latest, some
twice in a row). A model of the history kept here says what each undo may take back: after an
accepted one the state is the one recorded before the undone command, a refused one writes nothing,
and a fresh runner's fold of the log (from the start, and at every version) gives the live states.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from services.games import GAMES, LoadedGame, load_game
from shared.core.codec import to_plain
from shared.core.decider import SYSTEM, Actor, RuleViolation
from shared.matches.archive import export_lines, verify_lines
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.support.game_protos import compile_game
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.race.manifest import MANIFEST as RACE

GAME_NAMES = (*(m.name for m in GAMES), NIM.name, RACE.name)
LATER_GAMES = "tests.support.nim.manifest:MANIFEST,tests.support.race.manifest:MANIFEST"
STEPS = 160  # commands a match is played for (or to its end)


@pytest.fixture(scope="module")
def later_games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return [compile_game(tmp_path_factory.mktemp(m.name), m) for m in (NIM, RACE)]


@pytest.fixture
def game(
    request: pytest.FixtureRequest, later_games: list[Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[LoadedGame]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", LATER_GAMES)
    load_game.cache_clear()
    yield load_game(request.param)
    load_game.cache_clear()


def plain(state: Any) -> str:
    return json.dumps(to_plain(state), sort_keys=True)


@dataclass(frozen=True)
class Done:
    """One command of the history as this test saw it appended."""

    before: int  # the version it was decided at
    actor: Actor
    revealed: bool


def reason(call: Any) -> str:
    with pytest.raises(RuleViolation) as err:
        wait(call())
    return err.value.code


def seats_of(game: LoadedGame) -> int:
    return min(game.manifest.max_seats, max(game.manifest.min_seats, 3))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", GAME_NAMES, indirect=True)
def test_an_undo_returns_the_state_before_the_command_and_the_log_folds_to_it(
    game: LoadedGame, seed: int, redis_client: redis.Redis
) -> None:
    rules, store = game.rules, RedisEventStore(redis_client)
    runner: MatchRunner[Any] = MatchRunner(rules, game.codec, store, snapshot_every=8)
    # another instance, its cache kept at the head it last read: an undo reaches it in a tail
    follower: MatchRunner[Any] = MatchRunner(rules, game.codec, store, snapshot_every=8)
    revealing = {t.__name__ for t in rules.revealing}
    pick = random.Random(seed)
    loaded = wait(runner.create("m", seats_of(game), {}, seed))
    states = {loaded.version: plain(loaded.state)}  # the live state at each version
    history: list[Done] = []  # the commands the state is made of, the last on top
    accepted = 0
    refused: set[str] = set()

    def expected_refusal(seat: int) -> str | None:
        if not history:
            return "nothing_to_undo"
        top = history[-1]
        if top.actor != Actor.of_seat(seat):
            return "undo_not_yours"
        return "undo_revealed" if top.revealed else None

    def undo(seat: int, n: int) -> None:
        nonlocal loaded, accepted
        over = runner.outcome(loaded.state, loaded.seating) is not None
        want = "match_over" if over else expected_refusal(seat)
        if want is not None:
            before = wait(store.read("m")), dict(wait(store.get_meta("m")))
            got = reason(lambda: runner.undo("m", seat, f"undo-{n}", loaded.version))
            assert got == want
            assert (wait(store.read("m")), dict(wait(store.get_meta("m")))) == before  # nothing written
            refused.add(got)
            return
        top = history.pop()
        done = wait(runner.undo("m", seat, f"undo-{n}", loaded.version))
        assert done.first_version == done.last_version == loaded.version + 1
        assert plain(done.state) == states[top.before]
        loaded = wait(runner.load("m"))
        assert loaded.version == done.last_version and plain(loaded.state) == states[top.before]
        progress = loaded.meta.progress
        assert progress is not None and progress.to_act == tuple(  # who acts is who acted then
            a.seat for a in rules.to_act(loaded.state) if a.is_seat
        )
        states[loaded.version] = plain(loaded.state)
        followed = wait(follower.load("m"))
        assert followed.version == loaded.version and plain(followed.state) == states[loaded.version]
        again = wait(runner.undo("m", seat, f"undo-{n}", top.before))  # a retry: its first result
        assert again.duplicate and again.last_version == done.last_version
        accepted += 1

    for n in range(STEPS):
        if runner.outcome(loaded.state, loaded.seating) is not None:
            break
        actors = rules.to_act(loaded.state)
        actor = pick.choice(actors)
        legal = rules.legal_commands(loaded.state, actor)
        command = pick.choice(legal)
        try:
            done = wait(runner.submit("m", actor, command, loaded.version, f"c-{n}"))
        except RuleViolation as err:
            assert err.code == "no_effect"
            continue
        appended = wait(store.read("m", done.first_version, done.last_version))
        shown = any(e.type in revealing or e.visibility != "public" for e in appended)
        history.append(Done(loaded.version, actor, shown))
        loaded = wait(runner.load("m"))
        states[loaded.version] = plain(loaded.state)
        if pick.random() < 0.5:  # the follower reads at the head only now and then
            assert plain(wait(follower.load("m")).state) == states[loaded.version]
        roll = pick.random()
        if actor is not SYSTEM and actor.is_seat and roll < 0.35:
            undo(actor.seat, n)
            if roll < 0.1:
                undo(actor.seat, 10_000 + n)  # the command before it, if the seat's too
        elif roll < 0.45:
            undo(pick.randrange(seats_of(game)), 20_000 + n)
    seats_revealed = all(d.revealed for d in history if d.actor.is_seat)
    assert accepted > 0 or seats_revealed  # the race's every seat command rolls a die
    assert refused or loaded.version < 100  # a long match meets refusals too (a short Nim may not)

    fresh: MatchRunner[Any] = MatchRunner(rules, game.codec, store, snapshot_every=8)
    head = wait(fresh.load("m"))
    assert head.version == loaded.version and plain(head.state) == plain(loaded.state)
    for version in sorted(states):
        again: MatchRunner[Any] = MatchRunner(rules, game.codec, store, snapshot_every=8)
        assert plain(wait(again.load("m", at_version=version)).state) == states[version], version

    verified = verify_lines(rules, game.codec, wait(export_lines(store, "m", game.codec)))
    assert verified.ok, verified.problems
