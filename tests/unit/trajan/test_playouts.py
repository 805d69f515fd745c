"""Seeded random full games (uniform over legal_commands, system steps when to_act says so): invariants
after every step, hidden information, exactly 16 rounds, final scores; listed commands are accepted and
unlisted ones rejected with a RuleViolation code."""

from __future__ import annotations

import os

import pytest

from services.trajan.rules.commands import Command
from services.trajan.rules.events import EVENT_TYPES, Event, QuarterEnded, RoundEnded, RoundStarted
from services.trajan.rules.model import Phase, State
from shared.core.decider import SPECTATOR, Actor, RuleViolation, VisibilityKind
from shared.core.rng import Rng

from .box import box
from .helpers import RULES, fold


def _views_hide_the_secrets(state: State) -> None:
    for seat in range(len(state.players)):
        v = RULES.view(state, Actor.of_seat(seat))
        assert v.deck == () and all(p.hand == () for p in v.players if p.seat != seat)
        assert [p.hand_size for p in v.players] == [len(p.hand) for p in state.players]
    assert all(p.hand == () for p in RULES.view(state, SPECTATOR).players)


def _view_depends_on_no_secret(state: State, seat: int, rng: Rng) -> None:
    """Dealing the unseen cards again changes nothing the seat's view shows."""
    assert RULES.view(RULES.determinize(state, seat, rng), Actor.of_seat(seat)) == RULES.view(
        state, Actor.of_seat(seat)
    )


def _rejects_unlisted(state: State, actor: Actor, legal: list[Command], rng: Rng, samples: int) -> None:
    candidates = box(state)
    listed = set(legal)
    for _ in range(samples):
        cmd = rng.choice(candidates)
        if cmd in listed:
            continue
        with pytest.raises(RuleViolation) as e:
            RULES.decide(state, actor, cmd, Rng(1))
        assert e.value.code


def _check_outcome(events: list[Event], final: State) -> None:
    assert final.phase is Phase.FINISHED and final.round == 16 and final.quarter == 4
    assert sum(isinstance(e, RoundStarted) for e in events) == 16
    assert sum(isinstance(e, RoundEnded) for e in events) == 16
    assert [e.quarter for e in events if isinstance(e, QuarterEnded)] == [1, 2, 3, 4]
    outcome = RULES.outcome(final)
    assert outcome is not None and sorted(outcome.placings) == list(range(1, len(final.players) + 1))
    for f, p in zip(final.final, final.players, strict=True):
        parts = f.hand + f.work_area + f.camp + f.trajan_tiles + f.construction_sets + f.bonus_tiles
        assert f.before == p.vp and f.total == f.before + parts and min(f.hand, f.bonus_tiles) >= 0
    assert fold(events) == final  # the log alone rebuilds the live state


def play(seats: int, seed: int, exhaustive: bool = False, mutants: int = 1) -> set[str]:
    """One seeded random game with every check; returns the names of the event types it produced."""
    rng = Rng(seed * 7919 + seats)
    events = list(RULES.setup(RULES.make_config(seats, {}), rng.fork("setup")))
    live = fold(events)
    step = 0
    while actors := RULES.to_act(live):
        assert not RULES.invariant_violations(live), RULES.invariant_violations(live)
        actor = rng.choice(actors)
        legal = list(RULES.legal_commands(live, actor))
        assert legal, f"no legal command for {actor} in {live.phase.name}"
        if step % 4 == 0:  # views are pure functions of the state: a sample of states covers them
            _views_hide_the_secrets(live)
        if step % 25 == 0 and live.players:
            _view_depends_on_no_secret(live, step % len(live.players), rng)
        for cmd in legal if exhaustive else ():
            RULES.decide(live, actor, cmd, Rng(step))
        _rejects_unlisted(live, actor, legal, rng, mutants)
        new = list(RULES.decide(live, actor, rng.choice(legal), rng.fork(f"decide{step}")))
        for e in new:
            vis = RULES.visibility(e)
            assert vis.kind is VisibilityKind.PUBLIC or vis == vis.to_seat(e.seat)  # type: ignore[union-attr]
        live = fold(new, live)
        events += new
        step += 1
    assert not RULES.invariant_violations(live)
    _check_outcome(events, live)
    return {type(e).__name__ for e in events}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_one_hundred_random_games_per_seat_count_keep_every_invariant(seats: int) -> None:
    produced: set[str] = set()
    for seed in range(100):
        produced |= play(seats, seed)
    # every rule path is exercised; the draw pile never runs out in random play (test_actions covers it)
    assert {t.__name__ for t in EVENT_TYPES} - produced == {"DiscardsReshuffled"}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_listed_command_is_accepted_all_game_long(seats: int) -> None:
    play(seats, 500 + seats, exhaustive=True, mutants=12)


@pytest.mark.soak
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_soak_many_more_random_games(seats: int) -> None:
    games = int(os.environ.get("TABULA_SOAK_GAMES", "1000"))
    for seed in range(1000, 1000 + games):
        play(seats, seed, exhaustive=seed % 10 == 0, mutants=8)
