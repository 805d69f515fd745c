"""The one playout driver, in memory and through a runner, on the race test game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from shared.core.decider import Actor, RuleViolation
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_game, play_match, simulate
from shared.runtime.edge import wait
from shared.store import MemoryEventStore
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import DieRolled, RaceRules, RaceState

RULES: Any = race_rules()


def _runner(codec: Any = None) -> MatchRunner[Any]:
    codec = codec or JsonCodec([*RULES.command_types, *RULES.event_types])
    return MatchRunner(RULES, codec, MemoryEventStore())


def test_a_seeded_game_plays_to_the_end_the_same_way_every_time() -> None:
    config = RULES.make_config(3, {"goal": "15"})
    first, again = play_game(RULES, config, 7), play_game(RULES, config, 7)
    assert first.violations == [] and first.outcome is not None and first.steps > 3
    assert first.log == again.log and first.events == len(first.log)
    assert play_game(RULES, config, 8).log != first.log


def test_each_seat_uses_its_own_policy_and_its_moves_are_timed() -> None:
    asked: list[int] = []

    def counting(state: Any, actor: Actor, legal: Sequence[Any], rng: Rng) -> Any:
        asked.append(actor.seat)
        return legal[0]

    result = play_game(RULES, RULES.make_config(2, {"goal": "12"}), 3, {1: counting}, time_moves=True)
    seat_moves = [e.seat for e in result.log if isinstance(e, DieRolled)]
    assert asked == [1] * seat_moves.count(1) and asked
    assert sorted(result.move_seconds) == [0, 1]
    assert [len(result.move_seconds[s]) for s in (0, 1)] == [seat_moves.count(0), seat_moves.count(1)]
    assert play_game(RULES, RULES.make_config(2, {"goal": "12"}), 3).move_seconds == {}


def test_each_step_is_reported_with_the_state_it_was_decided_on_and_the_final_state_is_kept() -> None:
    seen: list[tuple[Any, Sequence[Any]]] = []

    def on_step(state: Any, actor: Actor, command: Any, legal: Sequence[Any], events: Sequence[Any]) -> None:
        assert command in legal and actor in RULES.to_act(state)
        seen.append((state, events))

    result = play_game(RULES, RULES.make_config(2, {"goal": "12"}), 3, on_step=on_step)
    assert len(seen) == result.steps > 3
    state = _fold(result.log[: len(result.log) - sum(len(events) for _, events in seen)])  # the setup
    for decided_on, events in seen:
        assert decided_on == state
        state = _fold(events, state)
    assert state == result.state and RULES.outcome(result.state) is not None


def _fold(events: Sequence[Any], state: Any = None) -> Any:
    state = RULES.initial_state() if state is None else state
    for event in events:
        state = RULES.evolve(state, event)
    return state


class Refusing(RaceRules):
    """Lists a roll it then refuses once a seat has passed 5: a rules bug the driver must report."""

    def decide(self, state: RaceState, actor: Actor, command: Any, rng: Rng) -> Sequence[Any]:
        if actor.is_seat and state.positions[actor.seat] > 5:
            raise RuleViolation("refused", "a listed command refused")
        return super().decide(state, actor, command, rng)


def test_a_listed_command_that_is_refused_is_a_violation_not_a_crash() -> None:
    rules: Any = race_rules(Refusing)
    result = play_game(rules, rules.make_config(2, {"goal": "30"}), 1)
    assert result.outcome is None
    assert any("rejected" in v for v in result.violations)
    assert any("did not end" in v for v in result.violations)


class Watched(RaceRules):
    """Reports an invariant violation whenever a seat stands exactly on 4."""

    def invariant_violations(self, state: RaceState) -> list[str]:
        return [f"seat {s} on 4" for s, p in enumerate(state.positions) if p == 4]


def test_game_invariants_are_checked_at_the_end_or_after_every_step() -> None:
    rules: Any = race_rules(Watched)
    config = rules.make_config(2, {"goal": "40"})
    seed = next(s for s in range(100) if any(v.startswith("step") for v in _every_step(rules, config, s)))
    per_step = _every_step(rules, config, seed)
    assert all("seat" in v and "on 4" in v for v in per_step)
    at_end = play_game(rules, config, seed).violations
    assert len(at_end) < len(per_step)


def _every_step(rules: Any, config: Any, seed: int) -> list[str]:
    return play_game(rules, config, seed, check=False, check_every_step=True).violations


def test_through_a_runner_every_command_is_appended_with_its_own_id() -> None:
    runner = _runner()
    wait(runner.create("m1", 3, {"goal": "14"}, seed=5))
    result = wait(play_match(runner, "m1", seed=2, check_every_step=True))
    assert result.violations == [] and result.outcome is not None
    assert (
        result.events == wait(runner.store.version("m1"))
        and wait(runner.store.get_meta("m1"))["status"] == "finished"
    )
    ids = {e.command_id for e in wait(runner.store.read("m1"))}
    assert ids == {"create"} | {f"m1-c{n}" for n in range(result.steps)}


class LossyCodec(JsonCodec):
    """Decodes every die as a 1: stored events that do not replay to the live state."""

    def decode(self, type_name: str, payload: bytes, schema_version: int | None = None) -> Any:
        event = super().decode(type_name, payload, schema_version)
        return replace(event, value=1) if isinstance(event, DieRolled) else event


def test_a_log_that_does_not_replay_is_caught_per_step_through_the_runner() -> None:
    runner = _runner(LossyCodec([*RULES.command_types, *RULES.event_types]))
    wait(runner.create("m1", 2, {"goal": "30"}, seed=5))
    violations = wait(play_match(runner, "m1", seed=2, check_every_step=True)).violations
    assert violations and "the fold of the event log differs from the live state" in violations[0]
    assert violations[0].startswith("step ")  # found at the step, not only at the end


def test_simulate_summarises_many_games() -> None:
    config = RULES.make_config(2, {"goal": "10"})
    summary = simulate(RULES, config, 2, 6, 1, {})
    assert summary.games == summary.games_finished == 6 and summary.invariant_violations == []
    assert sum(summary.wins_per_seat) >= 6  # ties share first place
    assert summary.events == sum(play_game(RULES, config, 1 + i).events for i in range(6))
