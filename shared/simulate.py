"""In-process simulation of whole matches for any game: policies choose among legal commands.

Used by ``tabula simulate``, benchmarks and playout tests. It checks the generic invariants on
the way (every command chosen from ``legal_commands`` is accepted, the fold of the log equals
the live state, the match ends with an outcome) plus the game's own
``invariant_violations(state)`` when the rules offer one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.decider import Actor, Outcome, Rules, RuleViolation
from shared.rng import Rng

# (state, actor, legal commands, rng) -> the chosen command
Policy = Callable[[Any, Actor, Sequence[Any], Rng], Any]
MAX_STEPS = 20_000


def random_policy(state: Any, actor: Actor, legal: Sequence[Any], rng: Rng) -> Any:
    return rng.choice(legal)


@dataclass
class GameResult:
    seed: int
    events: int
    steps: int
    outcome: Outcome | None
    violations: list[str] = field(default_factory=list)
    log: list[Any] = field(default_factory=list, repr=False)


def play_game(
    rules: Rules[Any, Any, Any, Any, Any],
    config: Any,
    seed: int,
    policies: Mapping[int, Policy],
    check: bool = True,
) -> GameResult:
    """Play one match; seats use ``policies[seat]`` (default random), the system its one step."""
    rng = Rng(seed)
    events = list(rules.setup(config, rng.fork("setup")))
    state = _fold(rules, events)
    violations: list[str] = []
    steps = 0
    while (actors := rules.to_act(state)) and steps < MAX_STEPS:
        actor = rng.choice(actors)
        legal = rules.legal_commands(state, actor)
        if not legal:
            violations.append(f"step {steps}: {actor} is to act but has no legal command")
            break
        command = (
            policies.get(actor.seat, random_policy)(state, actor, legal, rng) if actor.is_seat else legal[0]
        )
        try:
            new = rules.decide(state, actor, command, rng.fork(f"d{steps}"))
        except RuleViolation as err:
            violations.append(f"step {steps}: legal command {command!r} rejected: {err}")
            break
        for event in new:
            state = rules.evolve(state, event)
        events.extend(new)
        steps += 1
    if check:
        violations += _check(rules, events, state)
    return GameResult(seed, len(events), steps, rules.outcome(state), violations, events)


def _fold(rules: Rules[Any, Any, Any, Any, Any], events: Sequence[Any]) -> Any:
    state = rules.initial_state()
    for event in events:
        state = rules.evolve(state, event)
    return state


def _check(rules: Rules[Any, Any, Any, Any, Any], events: Sequence[Any], state: Any) -> list[str]:
    out = []
    if _fold(rules, events) != state:
        out.append("the fold of the event log differs from the live state")
    if rules.outcome(state) is None:
        out.append("the match did not end")
    game_check = getattr(rules, "invariant_violations", None)
    if game_check is not None:
        out += list(game_check(state))
    return out


@dataclass
class Summary:
    games: int
    games_finished: int
    events: int
    invariant_violations: list[str]
    seconds: float
    games_per_second: float
    mean_score_per_seat: list[float]
    wins_per_seat: list[float]


def simulate(
    rules: Rules[Any, Any, Any, Any, Any],
    config: Any,
    seats: int,
    games: int,
    seed: int,
    policies: Mapping[int, Policy],
) -> Summary:
    started = time.perf_counter()
    results = [play_game(rules, config, seed + i, policies) for i in range(games)]
    for r in results:
        r.log = []  # a summary keeps no event lists
    seconds = time.perf_counter() - started
    finished = [r for r in results if r.outcome is not None]
    scores = [[r.outcome.scores[s] for r in finished if r.outcome] for s in range(seats)]
    wins = [float(sum(1 for r in finished if r.outcome and r.outcome.placings[s] == 1)) for s in range(seats)]
    return Summary(
        games=games,
        games_finished=len(finished),
        events=sum(r.events for r in results),
        invariant_violations=[f"seed {r.seed}: {v}" for r in results for v in r.violations],
        seconds=seconds,
        games_per_second=games / seconds if seconds else 0.0,
        mean_score_per_seat=[sum(s) / len(s) if s else 0.0 for s in scores],
        wins_per_seat=wins,
    )
