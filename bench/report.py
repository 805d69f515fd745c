"""Platform benchmarks: raw XADD against the scripted append, reads of a 200-event match, and any
game's random full games and folds per second (the caller picks the game and its config).

Numbers, not assertions: ``make bench`` records them in ``bench/results/latest.json``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import redis

from shared.matches.simulate import play_game
from shared.runtime.edge import wait
from shared.store import MatchStatus, NewEvent, Progress
from shared.store.redis_store import RedisEventStore


@dataclass(frozen=True)
class Result:
    name: str
    value: float
    unit: str
    goal: str = ""
    meets_goal: bool | None = None


def rate(fn: Callable[[int], object], n: int) -> float:
    """Calls per second of ``fn(i)`` for i in range(n)."""
    started = time.perf_counter()
    for i in range(n):
        fn(i)
    return n / (time.perf_counter() - started)


def awaited_rate(fn: Callable[[int], Awaitable[object]], n: int) -> float:
    """Calls per second of ``await fn(i)`` for i in range(n), one after another on the edge loop."""

    async def calls() -> float:
        started = time.perf_counter()
        for i in range(n):
            await fn(i)
        return n / (time.perf_counter() - started)

    return wait(calls())


def _reference_steps(n: int) -> int:
    """The reference loop: small-integer arithmetic and a dict, as rules code does. Fixed forever."""
    table: dict[int, int] = {}
    x = 1
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        key = x >> 55
        table[key] = table.get(key, 0) + (i & 7)
    return x + len(table)


def reference_speed(runs: int = 5, steps: int = 200_000) -> float:
    """Millions of steps a second of a fixed pure-Python loop (the median of ``runs``): the machine's
    speed when a bench ran, to read its other figures by. On the 2-core machines of this workplace
    the same code ran two to three times faster or slower from one hour to the next; this loop is
    not the project's code and never changes, so it moves with the machine only."""
    rates = []
    for _ in range(runs):
        started = time.process_time()
        _reference_steps(steps)
        rates.append(steps / max(time.process_time() - started, 1e-9) / 1e6)
    return sorted(rates)[runs // 2]


def store_benchmarks(client: redis.Redis, n: int = 5000) -> list[Result]:
    client.flushall()
    store = RedisEventStore(client)
    payload = b"x" * 200
    raw = rate(lambda i: client.xadd("bench:raw", {"type": "E", "payload": payload}), n)
    event = [NewEvent("E", payload, "public", "seat:0")]
    progress = Progress((1,), False, MatchStatus.ACTIVE)  # the runner records it with every append
    scripted = awaited_rate(lambda i: store.append("bench-append", i, event, f"c{i}", progress=progress), n)
    wait(store.append("bench-read", 0, [NewEvent("E", payload)] * 200, "fill"))
    reads = awaited_rate(lambda i: store.read("bench-read"), max(n // 10, 50))
    ratio = scripted / raw
    return [
        Result("store.raw_xadd_per_s", raw, "ops/s"),
        Result("store.scripted_append_per_s", scripted, "ops/s"),
        Result("store.append_vs_raw_ratio", ratio, "ratio", ">= 0.5", ratio >= 0.5),
        Result("store.read_200_event_match_per_s", reads, "reads/s"),
    ]


# Random full games per second: issue 14's goal for the default game (the rules' own speed bounds
# simulation and bot search), held to for every game.
GAMES_GOAL = 40


def game_benchmarks(game: str, rules: Any, config: Any, games: int = 40) -> list[Result]:
    """Random full games per second (legal-command enumeration included) and events folded per second."""
    started = time.perf_counter()
    results = [play_game(rules, config, seed, {}, check=False) for seed in range(games)]
    games_per_s = games / (time.perf_counter() - started)
    started = time.perf_counter()
    for result in results:
        state = rules.initial_state()
        for event in result.log:
            state = rules.evolve(state, event)
    fold_per_s = sum(len(r.log) for r in results) / (time.perf_counter() - started)
    return [
        Result(
            f"{game}.random_games_per_s",
            games_per_s,
            "games/s",
            f">= {GAMES_GOAL}",
            games_per_s >= GAMES_GOAL,
        ),
        Result(f"{game}.events_folded_per_s", fold_per_s, "events/s", ">= 50000", fold_per_s >= 50_000),
    ]
