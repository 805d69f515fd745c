"""The dice race's rules, rule by rule (given events / when command / then events), its views and
determinization, and seeded playouts checked after every step: the tests a new game starts with
(docs/adding-a-game.md, "Tests")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from shared.core.decider import SPECTATOR, SYSTEM, Actor, RuleViolation
from shared.core.rng import Rng
from shared.matches.simulate import play_game
from tests.support.race.manifest import race_rules
from tests.support.race.rules import (
    DieRolled,
    EndRound,
    Phase,
    RaceStarted,
    RaceState,
    Roll,
    RoundEnded,
    SecretDealt,
)

RULES = race_rules()
SEAT0, SEAT1, SEAT2 = (Actor.of_seat(s) for s in range(3))


def given(*events: Any) -> RaceState:
    state = RULES.initial_state()
    for event in events:
        state = RULES.evolve(state, event)
    return state


def when(state: RaceState, actor: Actor, command: Any, seed: int = 1) -> Sequence[Any]:
    return RULES.decide(state, actor, command, Rng(seed))


STARTED = (RaceStarted(3, 10), SecretDealt(0, 2), SecretDealt(1, 1), SecretDealt(2, 3))


def test_setup_puts_every_seat_on_space_zero_with_a_secret_bonus_of_one_to_three() -> None:
    started, *dealt = RULES.setup(RULES.make_config(4, {}), Rng(9))
    assert started == RaceStarted(4, 20) and all(isinstance(e, SecretDealt) for e in dealt)
    secrets = [(e.seat, e.secret) for e in dealt if isinstance(e, SecretDealt)]
    assert [seat for seat, _ in secrets] == [0, 1, 2, 3] and all(1 <= s <= 3 for _, s in secrets)
    events = [started, *dealt]
    state = given(*events)
    assert state.positions == (0, 0, 0, 0) and RULES.to_act(state) == (SEAT0,)
    assert [RULES.visibility(e).encode() for e in events] == [
        "public",
        "seat:0",
        "seat:1",
        "seat:2",
        "seat:3",
    ]


def test_the_seat_to_move_rolls_one_die_and_moves_that_many_spaces() -> None:
    (rolled,) = when(given(*STARTED), SEAT0, Roll())
    assert isinstance(rolled, DieRolled) and rolled.seat == 0 and 1 <= rolled.value <= 6
    assert given(*STARTED, rolled).positions == (rolled.value, 0, 0)
    assert {when(given(*STARTED), SEAT0, Roll(), seed)[0].value for seed in range(200)} == {1, 2, 3, 4, 5, 6}


def test_only_the_seat_to_move_may_roll() -> None:
    with pytest.raises(RuleViolation) as err:
        when(given(*STARTED), SEAT1, Roll())
    assert err.value.code == "not_your_turn"
    with pytest.raises(RuleViolation):
        when(given(*STARTED), SYSTEM, EndRound())  # the round is not over


def test_once_every_seat_rolled_the_system_ends_the_round_and_seat_zero_starts_the_next() -> None:
    state = given(*STARTED, DieRolled(0, 2), DieRolled(1, 3), DieRolled(2, 1))
    assert state.phase is Phase.ROUND_END and RULES.to_act(state) == (SYSTEM,)
    assert RULES.legal_commands(state, SEAT0) == []
    assert when(state, SYSTEM, EndRound()) == [RoundEnded(1)]
    after = given(*STARTED, DieRolled(0, 2), DieRolled(1, 3), DieRolled(2, 1), RoundEnded(1))
    assert (after.round, after.rolled, RULES.to_act(after)) == (2, 0, (SEAT0,))


def test_reaching_the_goal_ends_the_race_at_once_and_a_roll_past_it_counts_in_full() -> None:
    state = given(*STARTED, DieRolled(0, 6), DieRolled(1, 5), DieRolled(2, 6), RoundEnded(1), DieRolled(0, 6))
    assert state.phase is Phase.OVER and RULES.to_act(state) == () and state.positions == (12, 5, 6)
    assert RULES.legal_commands(state, SEAT1) == []  # seats after it in the round do not roll


def test_scores_are_space_plus_bonus_and_the_bonus_can_beat_the_first_to_arrive() -> None:
    start = (RaceStarted(3, 10), SecretDealt(0, 1), SecretDealt(1, 2), SecretDealt(2, 3))
    rounds = [DieRolled(0, 4), DieRolled(1, 1), DieRolled(2, 4), RoundEnded(1)]
    rounds += [DieRolled(0, 5), DieRolled(1, 6), DieRolled(2, 5), RoundEnded(2)]
    assert RULES.outcome(given(*start, *rounds)) is None  # (9, 7, 9): nobody on the goal yet
    final = given(*start, *rounds, DieRolled(0, 1))  # seat 0 arrives first, on 10
    outcome = RULES.outcome(final)
    assert final.positions == (10, 7, 9) and outcome is not None
    assert outcome.scores == (11, 9, 12) and outcome.placings == (2, 3, 1)


def test_equal_scores_share_the_better_placing() -> None:
    start = (RaceStarted(2, 6), SecretDealt(0, 1), SecretDealt(1, 3))
    final = given(*start, DieRolled(0, 3), DieRolled(1, 1), RoundEnded(1), DieRolled(0, 3))
    outcome = RULES.outcome(final)
    assert outcome is not None and outcome.scores == (7, 4) and outcome.placings == (1, 2)
    tied = given(*start, DieRolled(0, 2), DieRolled(1, 4), RoundEnded(1), DieRolled(0, 4))
    outcome = RULES.outcome(tied)
    assert outcome is not None and outcome.scores == (7, 7) and outcome.placings == (1, 1)


@pytest.mark.parametrize("goal", ["0", "101", "x", "-3"])
def test_the_goal_option_is_a_number_from_one_to_one_hundred(goal: str) -> None:
    with pytest.raises(RuleViolation) as err:
        RULES.make_config(2, {"goal": goal})
    assert err.value.code == "bad_option"
    assert RULES.make_config(2, {"goal": "100"}).goal == 100 and RULES.make_config(2, {}).goal == 20


def test_a_seat_sees_its_own_bonus_only_and_a_spectator_none() -> None:
    state = given(*STARTED, DieRolled(0, 3))
    mine = RULES.view(state, SEAT2)
    assert (mine.positions, mine.my_secret, mine.turn, mine.round, mine.goal) == ((3, 0, 0), 3, 1, 1, 10)
    assert RULES.view(state, SPECTATOR).my_secret is None


def test_determinize_keeps_the_seats_own_bonus_and_resamples_the_others() -> None:
    state = given(*STARTED)
    samples = [RULES.determinize(state, 1, Rng(seed)).secrets for seed in range(100)]
    assert all(s[1] == 1 for s in samples)
    assert {s[0] for s in samples} == {1, 2, 3} and {s[2] for s in samples} == {1, 2, 3}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seeded_playouts_end_with_every_step_folded_and_the_invariants_holding(seats: int) -> None:
    for seed in range(20):
        result = play_game(RULES, RULES.make_config(seats, {"goal": "25"}), seed, check_every_step=True)
        assert result.violations == [] and result.outcome is not None, (seed, result.violations)


def test_the_invariants_catch_a_broken_state() -> None:
    over_but_short = RaceState(2, 10, (3, 4), (1, 2), 0, 1, 1, Phase.OVER)
    assert RULES.invariant_violations(over_but_short) == ["phase OVER with positions (3, 4) and goal 10"]
    assert RULES.invariant_violations(RaceState(2, 10, (-1, 4), (1, 5), 0, 3, 1, Phase.PLAYING)) == [
        "seat 0: position -1 < 0",
        "seat 1: secret 5 not in 0..3",
        "3 rolls in a round of 2 seats",
    ]
