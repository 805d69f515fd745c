"""The fault suite: a soak of matches of every registered game (bots, and paced human clients over
gRPC) while each game's rule service, the Celery worker, one of its pool children, the reactor and
Redis (restarted on its port and AOF, ``appendfsync always``) are SIGKILLed at seeded random points.
The games come from the registry (services/games.py): a game added there is soaked and its rule
service killed without a test naming it.

Checks: every match finishes within a bound after the last kill, every exported log verifies (re-folded
by the pure rules), every command a client got acknowledged is in its match's log exactly once with the
versions it was told, no command id was applied twice anywhere, and no process exited by itself.
Short by default (one kill of each kind, per game one bot match and one with a human seat);
``TABULA_FAULTS=1`` runs three kills of each kind over three times the matches.
``TABULA_FAULTS_SEED`` repeats a run's plan (the seed is printed with the counts);
``TABULA_FAULTS_FSYNC=everysec`` runs Redis as it runs by default, where a crash may lose
acknowledged writes (docs/workers.md, "Fault suite"): the lost ones are then counted, not failed.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis

from services.games import LoadedGame, game_names, load_game
from shared.matches.archive import export_lines, verify_lines
from shared.runtime.edge import wait
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore
from tests.integration.faults.humans import TOKEN_TTL, Ack, Human, Ledger
from tests.integration.faults.stack import (
    KINDS,
    RULE_SERVICE,
    SECRET,
    FaultStack,
    all_finished,
    wait_progress,
)
from tests.support.timing import scaled, wait_until

LONG = os.environ.get("TABULA_FAULTS") == "1"
FSYNC = os.environ.get("TABULA_FAULTS_FSYNC", "always")


@dataclass(frozen=True)
class Plan:
    bot_matches: int  # per game; bots in every seat (as many as its benches play), random or greedy
    human_matches: int  # per game; one human client, bots in the other seats
    repetitions: int  # kills of each kind
    gap: tuple[int, int]  # events played in the soak between a recovery and the next kill
    finish_s: float  # every match finished this long after the last kill


PLAN = Plan(4, 2, 3, (40, 250), 300) if LONG else Plan(1, 1, 1, (40, 250), 180)

pytestmark = pytest.mark.timeout(int(scaled(1800 if LONG else 600)))


def test_matches_finish_and_no_command_is_lost_or_applied_twice_while_processes_are_killed(
    tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    seed = int(os.environ.get("TABULA_FAULTS_SEED") or random.randrange(1_000_000))
    rng = random.Random(seed)
    games = {name: load_game(name) for name in game_names()}
    stack = FaultStack(tmp_path, FSYNC, rng, tuple(games))
    stop, ledger = threading.Event(), Ledger()
    started = time.monotonic()
    try:
        stack.start()
        store = RedisEventStore(stack.client())
        matches, humans = _start_soak(stack, games, ledger, rng, stop)
        for kind in _kill_order(stack, rng):
            progress = wait_progress(store, list(matches), rng.randint(*PLAN.gap))
            _kill(stack, kind, progress, ledger, store, matches)
        wait_until(lambda: all_finished(store, list(matches)), PLAN.finish_s, "every match to finish", 0.5)
        for human in humans:  # each one ends once it has seen its match's outcome
            human.join(scaled(30))
        stop.set()
        counts = _check(store, games, matches, ledger, humans)
    except BaseException:
        stop.set()
        print(stack.logs())
        raise
    finally:
        stack.stop()
    assert stack.exits == [], f"exited by themselves: {stack.exits}"  # each process stopped only when killed
    assert {kill.kind for kill in stack.kills} == {RULE_SERVICE + g for g in game_names()} | set(KINDS)
    counts |= _log_counts(tmp_path) | {"seed": seed, "appendfsync": FSYNC}
    counts["kills"] = dict(Counter(kill.kind for kill in stack.kills))
    counts["exited_and_restarted"] = stack.exits
    counts["kills_on_their_mark"] = stack.aimed
    counts["slowest_recovery_s"] = max(kill.down_s for kill in stack.kills)
    counts["seconds"] = round(time.monotonic() - started)
    record_property("counts", json.dumps(counts, sort_keys=True))  # printed in the summary (conftest)


def _kill(
    stack: FaultStack,
    kind: str,
    progress: int,
    ledger: Ledger,
    store: RedisEventStore,
    matches: dict[str, str],
) -> None:
    """A game's rule service is killed once a client's command to it is appended but not answered
    (frozen, so the answer cannot leave: the client's retry must get the first result,
    ``duplicate``); Redis while a command is in flight (and up to 20 ms later: before, during or after
    its append). The other processes are always busy: they are killed at once."""
    if kind.startswith(RULE_SERVICE):
        game = kind.removeprefix(RULE_SERVICE)
        ours = {m for m, g in matches.items() if g == game}
        stack.kill(
            kind,
            progress,
            lambda: any(m in ours for m, _ in list(ledger.in_flight)),
            confirm=lambda: _appended(ledger, store, ours),
        )
    elif kind == "redis":
        stack.kill(kind, progress, lambda: bool(ledger.in_flight), jitter=0.02)
    else:
        stack.kill(kind, progress)


def _appended(ledger: Ledger, store: RedisEventStore, ours: set[str]) -> bool:
    """A command still in flight to one of ``ours`` is in its match's log."""
    with ledger.lock:
        flying = [(m, c) for m, c in ledger.in_flight if m in ours]
    try:
        return any(wait(store.command_result(m, c)) is not None for m, c in flying)
    except redis.RedisError:
        return False


def _kill_order(stack: FaultStack, rng: random.Random) -> list[str]:
    order = [kind for kind in stack.kinds() for _ in range(PLAN.repetitions)]
    rng.shuffle(order)
    return order


def _start_soak(
    stack: FaultStack, games: dict[str, LoadedGame], ledger: Ledger, rng: random.Random, stop: threading.Event
) -> tuple[dict[str, str], list[Human]]:
    """Create each game's matches through its rule service (a service token, as the lobby does) and
    start one client per human seat; returns every match's game, and the clients."""
    signer = TokenSigner(SECRET.encode())
    matches: dict[str, str] = {}
    humans: list[Human] = []
    for name, game in games.items():
        service = [("authorization", "Bearer " + signer.service(name, TOKEN_TTL))]
        seats = game.manifest.bench_seats or game.manifest.max_seats
        port = stack.ports[name]
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = getattr(game.modules.pb2_grpc, f"{game.modules.name}ServiceStub")(channel)
            for n in range(PLAN.bot_matches + PLAN.human_matches):
                human = rng.randrange(seats) if n >= PLAN.bot_matches else None
                bots = {seat: rng.choice(("random", "greedy")) for seat in range(seats) if seat != human}
                request = game.modules.pb2.CreateMatchRequest(
                    match_id=f"soak-{name}-{n}", seats=seats, seed=rng.randrange(1, 2**31), bots=bots
                )
                match_id = stub.CreateMatch(request, metadata=service, timeout=scaled(30)).match_id
                matches[match_id] = name
                if human is not None:
                    seed = rng.randrange(2**31)
                    humans.append(
                        Human(port, name, game.modules, signer, match_id, human, ledger, seed, stop)
                    )
    for client in humans:
        client.start()
    return matches, humans


def _check(
    store: RedisEventStore,
    games: dict[str, LoadedGame],
    matches: dict[str, str],
    ledger: Ledger,
    humans: list[Human],
) -> dict[str, Any]:
    assert ledger.errors == []
    assert all(h.finished for h in humans), [h.name for h in humans if not h.finished]
    events = appends = 0
    for match_id, name in matches.items():
        game = games[name]
        lines = list(wait(export_lines(store, match_id, game.codec)))
        verified = verify_lines(game.rules, game.codec, lines)
        assert verified.ok and verified.finished, (match_id, verified.problems)
        events += verified.events
        appends += _check_applied_once(store, match_id)
    lost = _check_acknowledged(store, ledger.acks)
    assert FSYNC != "always" or lost == [], lost
    return {
        "games": sorted(games),
        "matches_finished": len(matches),
        "events": events,
        "appends": appends,
        "human_commands_acknowledged": len(ledger.acks),
        "acknowledged_as_duplicate": sum(a.duplicate for a in ledger.acks),
        "acknowledged_lost": len(lost),
        "client_retries": ledger.retries,
        "client_aborted": ledger.aborted,
        "client_limited": ledger.limited,
    }


def _check_applied_once(store: RedisEventStore, match_id: str) -> int:
    """Every command id's events are exactly the one range its first append recorded."""
    versions: dict[str, list[int]] = {}
    for event in wait(store.read(match_id)):
        versions.setdefault(event.command_id, []).append(event.version)
    for command_id, seen in versions.items():
        first = wait(store.command_result(match_id, command_id))
        assert first is not None, (match_id, command_id)
        assert seen == list(range(first.first_version, first.last_version + 1)), (match_id, command_id, seen)
    return len(versions)


def _check_acknowledged(store: RedisEventStore, acks: list[Ack]) -> list[Ack]:
    """Every acknowledged command is in its log once, at the versions its answer named; returns the
    acknowledged commands missing from the logs (only ``everysec`` may lose some)."""
    lost: list[Ack] = []
    for ack in acks:
        events = [e.version for e in wait(store.read(ack.match_id)) if e.command_id == ack.command_id]
        if not events:
            lost.append(ack)
            continue
        assert events == list(range(ack.first_version, ack.last_version + 1)), (ack, events)
    return lost


def _log_counts(folder: Path) -> dict[str, Any]:
    """From the processes' JSON logs: what the tasks found, and how often the sweeper stepped in."""
    results: Counter[str] = Counter()
    replans = 0
    for log in folder.glob("*.log"):
        for line in log.read_text(errors="replace").splitlines():
            if '"task done"' in line and (found := re.search(r'"result": "(\w+)"', line)):
                results[found.group(1)] += 1
            replans += '"stalled match planned again"' in line
    return {"tasks": dict(results), "sweeper_replans": replans}
