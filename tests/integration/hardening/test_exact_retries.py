"""Retries are exact: 16 concurrent tries of one command id, 100 rounds, over real gRPC and Redis.

Every try of a round sends the same request (same command id, same expected version) at the same
moment; every one must answer the same first and last version, exactly one of them as the first
(``duplicate`` false), and the stream must hold the command's events exactly once.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import redis

from services.games import load_game
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.integration.hardening.conftest import SERVICE, Served, seat, view

TRIES = 16
ROUNDS = 100


def all_at_once(served: Served, request: bytes, metadata: list[tuple[str, str]]) -> list[Any]:
    """``TRIES`` calls released together; each gives (first, last, duplicate) or its status code."""
    start = threading.Barrier(TRIES)
    channels = [grpc.insecure_channel(f"127.0.0.1:{served.running.port}") for _ in range(4)]
    path = f"/{served.service.full_name}/SubmitCommand"
    response = load_game("race").modules.pb2.SubmitCommandResponse

    def one(i: int) -> Any:
        call = channels[i % len(channels)].unary_unary(path, response_deserializer=response.FromString)
        start.wait()
        try:
            done = call(request, metadata=metadata, timeout=20)
        except grpc.RpcError as err:
            return err.code()
        return (done.first_version, done.last_version, done.duplicate)

    try:
        with ThreadPoolExecutor(TRIES) as pool:
            return list(pool.map(one, range(TRIES)))
    finally:
        for channel in channels:
            channel.close()


def test_sixteen_concurrent_retries_return_the_first_result_for_a_hundred_rounds(
    race: Served, redis_db: redis.Redis
) -> None:
    pb2 = load_game("race").modules.pb2
    store = RedisEventStore(redis_db)
    match_id, matches = "", 0
    for n in range(ROUNDS):
        head = view(race, pb2, match_id, SERVICE) if match_id else None
        if head is None or head.HasField("outcome"):
            matches += 1
            match_id = f"retries-{matches}"
            create = pb2.CreateMatchRequest(match_id=match_id, seats=4, options={"goal": "100"}, seed=matches)
            race.call("CreateMatch", create.SerializeToString(), SERVICE)
            head = view(race, pb2, match_id, SERVICE)
        who = SERVICE if head.system_to_act else seat(match_id, head.seats_to_act[0])
        command = view(race, pb2, match_id, who).legal_commands[0]
        request = pb2.SubmitCommandRequest(
            match_id=match_id, expected_version=head.version, command_id=f"round-{n}", command=command
        )
        answers = all_at_once(race, request.SerializeToString(), who)
        assert all(isinstance(a, tuple) for a in answers), (n, answers)
        assert len({(first, last) for first, last, _ in answers}) == 1, (n, answers)
        assert sum(not duplicate for _, _, duplicate in answers) == 1, (n, answers)
        first, last, _ = answers[0]
        assert first == head.version + 1
        written = [e.version for e in wait(store.read(match_id)) if e.command_id == f"round-{n}"]
        assert written == list(range(first, last + 1)) and wait(store.version(match_id)) == last
