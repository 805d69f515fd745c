"""Seeded random full games (uniform over ``legal_commands``) with invariants checked after every step.

Invariants (``FlorenzaRules.invariant_violations``, shown below to catch broken states): no negative
count; every family's eight workers accounted for; cubes, workshop tiles and character tiles conserved.
Also: the log, round-tripped through JSON and folded again, equals the live state;
nothing is hidden from anybody (every event public, every seat's view the same); exactly eight rounds,
then the final scores. Longer runs sit behind the ``soak`` marker (``TABULA_SOAK=1``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from services.florenza.rules import FlorenzaRules, Phase, State
from services.florenza.rules.events import Event, GameScored, RoundStarted
from shared.core.codec import from_plain, to_plain
from shared.core.decider import SPECTATOR, Actor, RuleViolation, VisibilityKind
from shared.core.rng import Rng

from .helpers import RULES, fold
from .test_legal_sweep import near_misses

MAX_STEPS = 5000


def check_nothing_hidden(rules: FlorenzaRules, s: State) -> None:
    public = rules.view(s, SPECTATOR).game
    assert all(rules.view(s, Actor.of_seat(seat)).game == public for seat in range(len(s.players)))
    assert rules.determinize(s, 0, Rng(1)) == s


def _round_trip(events: list[Event]) -> list[Event]:
    return [from_plain(type(e), to_plain(e)) for e in events]


def play(seats: int, seed: int, mutants: bool = False) -> tuple[list[Event], State]:
    """One game: the live state evolves the decided events; the replayed one folds their JSON copies."""
    rng = Rng(seed * 7919 + seats)
    events = list(RULES.setup(RULES.make_config(seats, {}), rng.fork("setup")))
    live = replayed = fold(events)
    for step in range(MAX_STEPS):
        actors = RULES.to_act(live)
        if not actors:
            check_game(events, live, seats)
            return events, live
        actor = rng.choice(actors)
        legal = list(RULES.legal_commands(live, actor))
        new = list(RULES.decide(live, actor, rng.choice(legal), rng.fork(f"decide{step}")))
        assert all(RULES.visibility(e).kind is VisibilityKind.PUBLIC for e in new)
        if mutants:
            listed = set(legal)
            for cmd in near_misses(live, actor, rng):
                if cmd not in listed:
                    with pytest.raises(RuleViolation):
                        RULES.decide(live, actor, cmd, Rng(1))
        live = fold(new, live)
        replayed = fold(_round_trip(new), replayed)
        assert replayed == live
        assert RULES.invariant_violations(live) == []
        if step % 10 == 0:
            check_nothing_hidden(RULES, live)
        events += new
    raise AssertionError("the game did not end")


def check_game(events: list[Event], final: State, seats: int) -> None:
    assert final.phase is Phase.FINISHED
    assert [e.round for e in events if isinstance(e, RoundStarted)] == list(range(1, 9))
    scored = [e for e in events if isinstance(e, GameScored)]
    assert len(scored) == 1 and len(scored[0].scores) == seats
    outcome = RULES.outcome(final)
    assert outcome is not None and min(outcome.placings) == 1
    assert outcome.scores == tuple(f.total for f in final.final)
    assert fold(events) == final


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_seventy_five_random_games_per_player_count_keep_every_invariant(seats: int) -> None:
    for seed in range(75):
        play(seats, seed, mutants=seed % 15 == 0)


@pytest.mark.soak
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_soak_one_thousand_random_games_per_player_count(seats: int) -> None:
    for seed in range(1000, 2000):
        play(seats, seed, mutants=seed % 10 == 0)


def test_random_games_visit_the_rare_steps_too() -> None:
    """The random games are worth their time only if they reach every kind of event."""
    seen: Counter[str] = Counter()
    for seed in range(12):
        events, _ = play(2 + seed % 4, 500 + seed)
        seen.update(type(e).__name__ for e in events)
    assert {t.__name__ for t in RULES.event_types} - set(seen) == set()


def test_the_rules_own_invariants_catch_a_broken_state() -> None:
    from dataclasses import replace

    from services.florenza.rules.goods import Goods

    from .helpers import game, with_player

    s = game(seats=3)
    assert RULES.invariant_violations(s) == []
    assert RULES.invariant_violations(with_player(s, 0, goods=Goods(marble=-1)))
    assert RULES.invariant_violations(with_player(s, 1, reserve=5))  # a ninth worker
    assert RULES.invariant_violations(replace(s, supply=replace(s.supply, gold=13)))  # a cube from nowhere
    assert RULES.invariant_violations(replace(s, bag=s.bag[1:]))  # a character lost
    assert RULES.invariant_violations(replace(s, workshop_supply=(*s.workshop_supply, 3)))
