"""The one playout driver: a whole match of any game, from setup to the end, seeded, a policy per seat.

Used by ``tabula simulate``, the benches (games and folds per second, the bot bench) and tests.
A move is applied one of two ways, with the same loop around it:

* :func:`play_game`: in memory, the rules' ``decide`` + ``evolve`` with RNGs forked from the
  seed (what the benches time);
* :func:`play_match` (a coroutine): through a :class:`MatchRunner`, each command appended to its
  event store with a command id, as the services do; the match must have been created.

Each step the driver picks one of the actors to act (seeded), asks the seat's policy (random by
default; the system's step is drawn like a random seat's, so the RNG stream is the same whatever
acts) and applies the command, deciding it with ``rng.fork(f"decide{step}")``: in memory, the seeded
random playouts of the tests and the golden playthroughs (tests/playthroughs/) are exactly the games
the games' own drivers played before this one replaced them. It records a
violation, instead of raising, when an actor to act has no legal command or a listed command
is refused. At the end (``check``) it checks the generic invariants: the fold of the log equals
the live state and the match ended with an outcome, plus the game's own
``invariant_violations(state)`` when the rules offer one. ``check_every_step`` also folds
each step's events into a second state (through the store's codec on the runner path) and
checks it and the game's invariants after every step; ``time_moves`` records each policy
call's seconds per seat; ``on_step`` is told of every step applied (the tests' sweeps of legal
commands). The result keeps the final state.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, Unpack

from shared.core.decider import Actor, Outcome, Rules, RuleViolation
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner

# (state, actor, legal commands, rng) -> the chosen command
Policy = Callable[[Any, Actor, Sequence[Any], Rng], Any]
# (the state the command was decided on, actor, command, the actor's legal commands, its events)
StepHook = Callable[[Any, Actor, Any, Sequence[Any], Sequence[Any]], None]
AnyRules = Rules[Any, Any, Any, Any, Any]
MAX_STEPS = 20_000


def random_policy(state: Any, actor: Actor, legal: Sequence[Any], rng: Rng) -> Any:
    return rng.choice(legal)


@dataclass
class GameResult:
    seed: int
    events: int  # length of the log, so also the last version on the runner path
    steps: int
    outcome: Outcome | None
    violations: list[str] = field(default_factory=list)
    log: list[Any] = field(default_factory=list, repr=False)
    move_seconds: dict[int, list[float]] = field(default_factory=dict, repr=False)  # per seat
    state: Any = field(default=None, repr=False)  # the final state


@dataclass(frozen=True, slots=True)
class Options:
    check: bool = True
    check_every_step: bool = False
    time_moves: bool = False
    max_steps: int = MAX_STEPS
    on_step: StepHook | None = None


class _Table(Protocol):
    """Where the moves are applied; ``state`` is the live state after the last one (a table's
    ``apply`` applies one command and returns its events, or raises RuleViolation)."""

    state: Any

    async def apply(self, actor: Actor, command: Any, step: int) -> Sequence[Any]: ...


# The playout loop: it yields each (actor, command, step) to apply and is sent the command's events
# (or thrown its RuleViolation); it returns the result. Driven by _drive, for both.
Playout = Generator[tuple[Actor, Any, int], Sequence[Any], GameResult]


class _InMemory:
    def __init__(self, rules: AnyRules, state: Any, rng: Rng) -> None:
        self.rules, self.state, self.rng = rules, state, rng

    async def apply(self, actor: Actor, command: Any, step: int) -> Sequence[Any]:
        events = self.rules.decide(self.state, actor, command, self.rng.fork(f"decide{step}"))
        for event in events:
            self.state = self.rules.evolve(self.state, event)
        return events


class _ThroughRunner:
    def __init__(self, runner: MatchRunner[Any], match_id: str, state: Any, version: int) -> None:
        self.runner, self.match_id, self.state, self.version = runner, match_id, state, version

    async def stored_events(self, first: int, last: int | None = None) -> list[Any]:
        """Events as stored, decoded again: the fold checks see what a replay would."""
        return [self.runner.decode(e) for e in await self.runner.store.read(self.match_id, first, last)]

    async def apply(self, actor: Actor, command: Any, step: int) -> Sequence[Any]:
        command_id = f"{self.match_id}-c{step}"
        done = await self.runner.submit(self.match_id, actor, command, self.version, command_id)
        self.state, self.version = done.state, done.last_version
        return await self.stored_events(done.first_version, done.last_version)


class PlayOptions(TypedDict, total=False):
    """The keyword options of :func:`play_game` and :func:`play_match` (:class:`Options`' fields)."""

    check: bool
    check_every_step: bool
    time_moves: bool
    max_steps: int
    on_step: StepHook | None


def play_game(
    rules: AnyRules,
    config: Any,
    seed: int,
    policies: Mapping[int, Policy] | None = None,
    **options: Unpack[PlayOptions],
) -> GameResult:
    """Set up and play one match in memory; seats use ``policies[seat]`` (default random)."""
    rng = Rng(seed)
    events = list(rules.setup(config, rng.fork("setup")))
    table = _InMemory(rules, _fold(rules, events), rng)
    play = _play(rules, table, events, seed, rng, policies or {}, Options(**options))
    driving = _drive(play, table)
    try:
        driving.send(None)  # nothing in memory waits: the driver ends in this one step
    except StopIteration as done:
        result: GameResult = done.value
        return result
    raise AssertionError("the in-memory playout waited")


async def play_match(
    runner: MatchRunner[Any],
    match_id: str,
    seed: int,
    policies: Mapping[int, Policy] | None = None,
    **options: Unpack[PlayOptions],
) -> GameResult:
    """Play a created match to its end through ``runner`` (command ids ``<match>-c<step>``)."""
    loaded = await runner.load(match_id)
    table = _ThroughRunner(runner, match_id, loaded.state, loaded.version)
    events = await table.stored_events(1)
    play = _play(runner.rules, table, events, seed, Rng(seed), policies or {}, Options(**options))
    return await _drive(play, table)


async def _drive(play: Playout, table: _Table) -> GameResult:
    """Apply each move the playout asks for on ``table``, sending it the events (or the refusal)."""
    try:
        asked = next(play)
        while True:
            try:
                new = await table.apply(*asked)
            except RuleViolation as err:
                asked = play.throw(err)
            else:
                asked = play.send(new)
    except StopIteration as done:
        result: GameResult = done.value
        return result


def _play(
    rules: AnyRules,
    table: _Table,
    events: list[Any],
    seed: int,
    rng: Rng,
    policies: Mapping[int, Policy],
    options: Options,
) -> Playout:
    violations: list[str] = []
    seconds: dict[int, list[float]] = defaultdict(list)
    folded = _fold(rules, events) if options.check_every_step else None
    steps = 0
    while (actors := rules.to_act(table.state)) and steps < options.max_steps:
        actor = rng.choice(actors)
        legal = rules.legal_commands(table.state, actor)
        if not legal:
            violations.append(f"step {steps}: {actor} is to act but has no legal command")
            break
        policy = policies.get(actor.seat, random_policy) if actor.is_seat else random_policy
        started = time.perf_counter()
        command = policy(table.state, actor, legal, rng)
        if options.time_moves and actor.is_seat:
            seconds[actor.seat].append(time.perf_counter() - started)
        decided_on = table.state
        try:
            new = yield actor, command, steps
        except RuleViolation as err:
            violations.append(f"step {steps}: legal command {command!r} rejected: {err}")
            break
        if options.on_step is not None:
            options.on_step(decided_on, actor, command, legal, new)
        events.extend(new)
        steps += 1
        if options.check_every_step:
            folded = _fold(rules, new, folded)
            violations += [f"step {steps}: {v}" for v in _state_violations(rules, folded, table.state)]
    if options.check:
        violations += _check(rules, events, table.state)
    outcome = rules.outcome(table.state)
    return GameResult(seed, len(events), steps, outcome, violations, events, dict(seconds), table.state)


def _fold(rules: AnyRules, events: Sequence[Any], state: Any = None) -> Any:
    state = rules.initial_state() if state is None else state
    for event in events:
        state = rules.evolve(state, event)
    return state


def _state_violations(rules: AnyRules, folded: Any, live: Any) -> list[str]:
    out = [] if folded == live else ["the fold of the event log differs from the live state"]
    return out + list(rules.invariant_violations(live))


def _check(rules: AnyRules, events: Sequence[Any], state: Any) -> list[str]:
    out = _state_violations(rules, _fold(rules, events), state)
    if rules.outcome(state) is None:
        out.append("the match did not end")
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
    rules: AnyRules,
    config: Any,
    seats: int,
    games: int,
    seed: int,
    policies: Mapping[int, Policy],
) -> Summary:
    started = time.perf_counter()
    results = [play_game(rules, config, seed + i, policies) for i in range(games)]
    for r in results:
        r.log, r.state = [], None  # a summary keeps no event lists or states
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
