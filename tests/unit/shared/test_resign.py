"""The platform's resignation rule (shared/core/resign.py): placings, the early end, who acts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.core.decider import SYSTEM, Actor, Outcome, RuleViolation
from shared.core.resign import SEAT_RESIGNED, Seating, placings_with
from shared.matches.archive import archived_runner, export_lines, import_lines, verify_lines
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MemoryEventStore
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules


def test_resigned_seats_place_last_the_later_resigner_above_the_earlier_whatever_the_scores() -> None:
    # seat 2 won on points, seat 0 resigned first, then seat 2: 1 and 3 keep their order above them
    assert placings_with((3, 4, 1, 2), (0, 2)) == (4, 2, 3, 1)
    assert placings_with((1, 1, 3), (2,)) == (1, 1, 3)  # ties among those who stayed are kept
    assert placings_with((1, 1, 3), (0,)) == (3, 1, 2)
    assert placings_with((2, 1), ()) == (2, 1)


def test_the_rules_outcome_keeps_its_scores_with_resigned_seats_placed_last() -> None:
    rules = Outcome((50, 40, 30), (1, 2, 3))
    seating = Seating(3, frozenset(), (0,))
    assert seating.outcome(rules) == Outcome((50, 40, 30), (3, 1, 2))
    assert Seating(3).outcome(rules) is rules and Seating(3).outcome(None) is None


def test_a_match_ends_once_at_most_one_human_has_not_resigned_bots_never_resign() -> None:
    assert not Seating(3, frozenset(), (0,)).ended  # two people play on
    two = Seating(2, frozenset(), (1,))
    assert two.ended and two.outcome(None) == Outcome((0, 0), (1, 2))
    with_bot = Seating(3, frozenset({2}), (0,))  # one human left and a bot: the human first
    assert with_bot.ended and with_bot.outcome(None) == Outcome((0, 0, 0), (3, 1, 2))
    alone = Seating(2, frozenset({1}), (0,))  # the only human resigned: the bot wins
    assert alone.ended and alone.outcome(None) == Outcome((0, 0), (2, 1))
    assert alone.to_act((Actor.of_seat(1), SYSTEM)) == ()
    assert Seating(3, frozenset(), (0,)).to_act((SYSTEM,)) == (SYSTEM,)
    assert not Seating(2, frozenset({1})).ended  # nobody resigned: the rules decide


def test_resigning_twice_changes_nothing() -> None:
    once = Seating(3).resign(1)
    assert once.resign(1) == once and once.resign(0).resigned == (1, 0)


# ---------------------------------------------------------------- the runner's fold, snapshots, logs

RULES = race_rules()
CODEC = JsonCodec([*RULES.event_types, *RULES.command_types])


def _runner(store: MemoryEventStore, snapshot_every: int = 64) -> MatchRunner[Any]:
    return MatchRunner(RULES, CODEC, store, snapshot_every=snapshot_every)


def _step(runner: MatchRunner[Any], match_id: str, n: int, resigned: tuple[int, ...] = ()) -> None:
    """One move by whoever is to act (a resigned seat's by its bot, which carries a label)."""
    loaded = wait(runner.load(match_id))
    (actor,) = RULES.to_act(loaded.state)
    command = RULES.legal_commands(loaded.state, actor)[0]
    label = f"bot:{actor.seat}:greedy" if actor.is_seat and actor.seat in resigned else None
    wait(runner.submit(match_id, actor, command, loaded.version, f"c{n}", label))


def test_a_match_with_a_resignation_folds_the_same_from_a_cold_start_its_snapshots_unused() -> None:
    store = MemoryEventStore()
    runner = _runner(store, snapshot_every=2)
    wait(runner.create("m", 3, {"goal": "30"}, seed=4))
    for n in range(5):
        _step(runner, "m", n)
    resigned_at = wait(runner.resign("m", 1, "quit")).first_version
    for n in range(5, 12):
        _step(runner, "m", n, resigned=(1,))
    warm = wait(runner.load("m"))
    assert warm.seating.resigned == (1,) and wait(store.load_snapshot("m")) is not None
    cold = wait(_runner(store, snapshot_every=2).load("m"))  # nothing cached: a snapshot is there
    assert (cold.state, cold.version, cold.seating.resigned) == (warm.state, warm.version, (1,))
    before = wait(_runner(store).load("m", at_version=resigned_at - 1))
    at = wait(_runner(store).load("m", at_version=resigned_at))
    assert before.seating.resigned == () and at.seating.resigned == (1,) and at.state == before.state
    while Actor.of_seat(1) not in RULES.to_act(wait(runner.load("m")).state):
        _step(runner, "m", wait(runner.load("m")).version, resigned=(1,))
    loaded = wait(runner.load("m"))
    own = RULES.legal_commands(loaded.state, Actor.of_seat(1))[0]
    with pytest.raises(RuleViolation) as refused:  # the seat's own command (no label): refused
        wait(runner.submit("m", Actor.of_seat(1), own, loaded.version, "own"))
    assert refused.value.code == "seat_resigned" and wait(store.command_result("m", "own")) is None


def test_an_exported_log_with_a_resignation_verifies_imports_and_replays() -> None:
    store = MemoryEventStore()
    runner = _runner(store)
    wait(runner.create("m", 2, {"goal": "30"}, seed=4))
    _step(runner, "m", 0)
    wait(runner.resign("m", 0, "quit"))
    lines = wait(export_lines(store, "m", CODEC))
    assert json.loads(lines[-1])["type"] == SEAT_RESIGNED and json.loads(lines[-1])["event"] == {"seat": 0}
    checked = verify_lines(RULES, CODEC, lines)
    assert checked.ok and checked.finished, checked.problems
    other = MemoryEventStore()
    wait(import_lines(other, lines, "copy"))
    copied = wait(_runner(other).load("copy"))
    assert copied.seating.resigned == (0,) and copied.state == wait(runner.load("m")).state
    archived = wait(archived_runner(RULES, CODEC, lines).load("m"))
    assert archived.seating.resigned == (0,)
    assert wait(runner.load("m")).meta.finished
