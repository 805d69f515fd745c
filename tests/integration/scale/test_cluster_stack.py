"""The whole stack across instances on a Redis Cluster: bot matches played to the end while a master
is failed over and one instance of every service is SIGKILLed (issue 14, point 5).

Two instances of every process (``stack.py``) on a 3-master cluster with a replica per master. The
matches (four random bots each) are created through the gateways, which pass them to the rule
services over one round_robin channel; the test's client keeps calling the rule services (GetView)
and the lobbies (ListGames) through the gateways during play. After some progress, the replica of
one master takes over (``CLUSTER FAILOVER``), then one instance of each service is SIGKILLed (rule
service, lobby, gateway, worker with its pool children, reactor; seeded order, each after more
progress) and not started again.

Checks: before the faults, both rule services and both lobbies answered calls (round_robin over the
address lists); every match finishes within a bound after the last fault; every match's log
verifies (re-folded by the rules); the surviving instances serve its last version through the
surviving gateway; no instance that was not killed exited; every client call got its answer (a call
that met a killed instance is sent again, and counted). Default: 50 Lorenzo matches, about 2.5
minutes on the loaded 2-core machine; ``TABULA_SOAK=1`` adds the long variant (100 matches, two
masters failed over); ``TABULA_SCALE_SEED`` repeats a run's fault order (the seed is printed).
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from services.games import LoadedGame, load_game
from shared.matches.archive import export_lines, verify_lines
from shared.runtime.edge import wait
from shared.runtime.redis_server import RedisServer
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore
from tests.integration.faults.stack import all_finished, progress, wait_progress
from tests.integration.scale.stack import SECRET, SERVICES, Client, ClusterStack
from tests.support.redis_cluster import fail_over
from tests.support.timing import scaled, wait_until

LORENZO = "tabula.lorenzo.v1.LorenzoService"
LOBBY = "tabula.lobby.v1.LobbyService"


@dataclass(frozen=True)
class Plan:
    matches: int
    failovers: int  # masters failed over, one after the other (each a different master)
    gap: tuple[int, int]  # events played between two faults
    finish_s: float  # every match finished this long after the last fault


SHORT = Plan(50, 1, (400, 2000), 300)
LONG = Plan(100, 2, (800, 4000), 600)


@pytest.mark.timeout(int(scaled(1200)))
def test_fifty_bot_matches_finish_across_instances_on_a_cluster_failing_over(
    tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    _soak(SHORT, tmp_path, record_property)


@pytest.mark.soak
@pytest.mark.timeout(int(scaled(2400)))
def test_soak_a_hundred_bot_matches_with_two_failovers(
    tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    _soak(LONG, tmp_path, record_property)


def _soak(plan: Plan, folder: Path, record_property: Callable[[str, object], None]) -> None:
    seed = int(os.environ.get("TABULA_SCALE_SEED") or random.randrange(1_000_000))
    rng = random.Random(seed)
    game = load_game("lorenzo")
    signer = TokenSigner(SECRET.encode())
    stack = ClusterStack(folder)
    started = time.monotonic()
    stop = threading.Event()
    try:
        stack.start()
        up_s = time.monotonic() - started
        client = Client(stack)
        store = RedisEventStore(stack.client())
        service = signer.service("lorenzo", 3600)
        matches = [
            _create(client, service, f"scale-{n}", rng.randrange(1, 2**31)) for n in range(plan.matches)
        ]
        errors: list[str] = []
        caller = threading.Thread(
            target=_keep_calling, args=(client, signer, matches, stop, errors), daemon=True
        )
        caller.start()
        served = _both_instances_serve(stack)
        faults = []
        for name, fault in _faults(stack, plan, rng):
            at = wait_progress(store, matches, rng.randint(*plan.gap))
            fault()
            faults.append(f"{name} at {at} events, {round(time.monotonic() - started)} s")
        last_fault = time.monotonic()
        wait_until(lambda: all_finished(store, matches), plan.finish_s, "every match to finish", 0.5)
        finish_s = time.monotonic() - last_fault
        stop.set()
        caller.join(scaled(60))
        assert errors == []
        events = _check(store, game, client, service, matches)
        assert stack.exited() == [], f"exited by themselves: {stack.exited()}"
    except BaseException:
        stop.set()
        print(f"seed {seed}\n{stack.logs()}")
        raise
    finally:
        stack.stop()
    counts = {
        "seed": seed,
        "matches": len(matches),
        "events": events,
        "startup_s": round(up_s),
        "finished_after_last_fault_s": round(finish_s),
        "seconds": round(time.monotonic() - started),
        "client_calls": client.calls,
        "client_retries": client.retries,
        "faults": faults,
        "served_before_the_faults": served,
    }
    record_property("counts", json.dumps(counts, sort_keys=True))  # printed in the summary (conftest)


def _create(client: Client, token: str, match_id: str, seed: int) -> str:
    bots = {str(seat): "random" for seat in range(4)}
    request = {"matchId": match_id, "seats": 4, "seed": str(seed), "bots": bots}
    created = client.call(f"{LORENZO}/CreateMatch", request, token)
    assert created["matchId"] == match_id, created
    return match_id


def _both_instances_serve(stack: ClusterStack) -> dict[str, list[int]]:
    """The gateways spread the calls over both rule services (CreateMatch) and both lobbies
    (ListGames, from the client's thread): calls each instance answered."""
    methods = {"lorenzo": "CreateMatch", "lobby": "ListGames"}

    def counts() -> dict[str, list[int]] | None:
        found = {s: [stack.served(i, m) for i in stack.of(s)] for s, m in methods.items()}
        return found if all(min(c) > 0 for c in found.values()) else None

    found = wait_until(counts, 60, "calls answered by every rule service and lobby instance")
    assert found is not None
    return found


def _faults(stack: ClusterStack, plan: Plan, rng: random.Random) -> list[tuple[str, Callable[[], None]]]:
    """The failovers first (a different master each time), then one kill per service in a seeded
    order."""
    assert stack.cluster is not None
    replicas = stack.cluster.nodes[3:]  # replica i follows master i
    chosen = rng.sample(range(len(replicas)), plan.failovers)
    kills = list(SERVICES)
    rng.shuffle(kills)
    return [
        *((f"failover of master {n}", _failover(replicas[n])) for n in chosen),
        *((f"SIGKILL {service}-0", _kill(stack, service)) for service in kills),
    ]


def _failover(replica: RedisServer) -> Callable[[], None]:
    return lambda: fail_over(replica)


def _kill(stack: ClusterStack, service: str) -> Callable[[], None]:
    def kill() -> None:
        stack.kill(service)

    return kill


def _keep_calling(
    client: Client, signer: TokenSigner, matches: list[str], stop: threading.Event, errors: list[str]
) -> None:
    """A spectator's and a lobby visitor's calls through the gateways while the matches are played;
    a call that gets no answer (after its retries) is recorded in ``errors``."""
    try:
        guest = client.call(f"{LOBBY}/SignInGuest", {"displayName": "watcher"}, "")["token"]
        n = 0
        while not stop.wait(0.2):
            match_id = matches[n % len(matches)]
            spectator = signer.spectator("lorenzo", match_id, "watcher")
            client.call(f"{LORENZO}/GetView", {"matchId": match_id}, spectator)
            client.call(f"{LOBBY}/ListGames", {}, guest)
            n += 1
    except Exception as err:  # whatever ended the thread fails the test
        errors.append(repr(err))


def _check(store: RedisEventStore, game: LoadedGame, client: Client, service: str, matches: list[str]) -> int:
    """Every log verifies and ends finished; the surviving instances serve its last version."""
    events = 0
    for match_id in matches:
        verified = verify_lines(game.rules, game.codec, list(wait(export_lines(store, match_id, game.codec))))
        assert verified.ok and verified.finished, (match_id, verified.problems)
        events += verified.events
        view = client.call(f"{LORENZO}/GetView", {"matchId": match_id}, service)
        assert int(view["version"]) == verified.events, (match_id, view["version"], verified.events)
    assert progress(store, matches) == events
    return events
