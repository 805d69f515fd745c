"""Seeded random full games (uniform over ``legal_commands``) with invariants checked after every step.

Invariants (``FlorenzaRules.invariant_violations``, shown below to catch broken states): no negative
count; every family's eight workers accounted for; cubes, workshop tiles and character tiles conserved.
Also: the log, round-tripped through JSON and folded again, equals the live state;
every event public but a Captain's hidden certificates (his seat's only); every seat's view the whole
table but, with certificates hidden, the others' certificates until the end, and a bot's determinized
state shows it just that; exactly eight rounds, then the final scores. Even seeds play with hidden
certificates, odd ones with open ones. Longer runs sit behind the ``soak`` marker (``TABULA_SOAK=1``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from services.florenza.rules import FlorenzaRules, Phase, State
from services.florenza.rules.events import (
    CertificatesTaken,
    Event,
    GameScored,
    PrestigeBanked,
    PrestigeBankedHidden,
    RoundStarted,
)
from shared.core.codec import from_plain, to_plain
from shared.core.decider import PUBLIC, SPECTATOR, SYSTEM, Actor, RuleViolation, Visibility
from shared.core.rng import Rng

from .helpers import RULES, fold
from .test_legal_sweep import near_misses

MAX_STEPS = 5000


def check_views(rules: FlorenzaRules, s: State) -> None:
    """Each seat sees everything but other families' hidden certificates (0) before the end."""
    assert s.config is not None
    hidden = s.config.hidden_certificates and s.phase is not Phase.FINISHED
    assert rules.view(s, SYSTEM).game == s
    for seat in (-1, *range(len(s.players))):
        viewer = Actor.of_seat(seat) if seat >= 0 else SPECTATOR
        v = rules.view(s, viewer)
        shown = [p.certificates if p.seat == seat or not hidden else 0 for p in s.players]
        assert [p.certificates for p in v.game.players] == shown
        assert [replace(p, certificates=0) for p in v.game.players] == [
            replace(p, certificates=0) for p in s.players
        ]
        assert replace(v.game, players=s.players) == s
        if seat >= 0:
            assert rules.view(rules.determinize(s, seat, Rng(1)), viewer) == v


def check_visibility(e: Event) -> None:
    expected = Visibility.to_seat(e.seat) if isinstance(e, CertificatesTaken) else PUBLIC
    assert RULES.visibility(e) == expected


def _round_trip(events: list[Event]) -> list[Event]:
    return [from_plain(type(e), to_plain(e)) for e in events]


def play(
    seats: int, seed: int, mutants: bool = False, hidden: bool | None = None
) -> tuple[list[Event], State]:
    """One game: the live state evolves the decided events; the replayed one folds their JSON copies.
    Certificates hidden if ``hidden``, by default in even seeds' games."""
    rng = Rng(seed * 7919 + seats)
    hidden = seed % 2 == 0 if hidden is None else hidden
    options = {"hidden_certificates": "true" if hidden else "false"}
    events = list(RULES.setup(RULES.make_config(seats, options), rng.fork("setup")))
    live = replayed = fold(events)
    for step in range(MAX_STEPS):
        actors = RULES.to_act(live)
        if not actors:
            check_game(events, live, seats)
            return events, live
        actor = rng.choice(actors)
        legal = list(RULES.legal_commands(live, actor))
        new = list(RULES.decide(live, actor, rng.choice(legal), rng.fork(f"decide{step}")))
        for e in new:
            check_visibility(e)
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
            check_views(RULES, live)
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
    check_views(RULES, final)
    banked = {type(e) for e in events} & {PrestigeBanked, CertificatesTaken, PrestigeBankedHidden}
    assert final.config is not None
    assert banked <= (
        {CertificatesTaken, PrestigeBankedHidden} if final.config.hidden_certificates else {PrestigeBanked}
    )


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
    events, _ = play(3, 505, hidden=True)  # 505 elects a Captain: now he banks in secret
    seen.update(type(e).__name__ for e in events)
    assert {t.__name__ for t in RULES.event_types} - set(seen) == set()


def test_the_rules_own_invariants_catch_a_broken_state() -> None:
    from services.florenza.rules.goods import Goods

    from .helpers import game, with_player

    s = game(seats=3)
    assert RULES.invariant_violations(s) == []
    assert RULES.invariant_violations(with_player(s, 0, goods=Goods(marble=-1)))
    assert RULES.invariant_violations(with_player(s, 1, reserve=5))  # a ninth worker
    assert RULES.invariant_violations(replace(s, supply=replace(s.supply, gold=13)))  # a cube from nowhere
    assert RULES.invariant_violations(replace(s, bag=s.bag[1:]))  # a character lost
    assert RULES.invariant_violations(replace(s, workshop_supply=(*s.workshop_supply, 3)))
