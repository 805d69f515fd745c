"""The terminal client's lobby calls (services/client/lobby.py) against a real lobby on the private
Redis with a tiny sign-in limit: a refused sign-in waits the RetryInfo delay the lobby gives and is
sent again (the bound and the cap: tests/unit/client/test_rate_limited.py, same helper)."""

from __future__ import annotations

import time

import grpc
import redis

from services.client.lobby import Lobby
from shared.serving.ratelimit import RATES, Limiter, Rate
from tests.integration.lobby.conftest import LobbyFactory


def sign_in_limited(client: redis.Redis, rate: str) -> Limiter:
    rates: dict[str, Rate | None] = {name: None for name in RATES}
    rates["sign_in_ip"] = Rate.parse(rate)
    return Limiter(client, rates, {"watches_per_token": 0})


def test_a_rate_limited_sign_in_waits_the_delay_and_succeeds(
    make_lobby: LobbyFactory, redis_client: redis.Redis
) -> None:
    running = make_lobby(limiter=sign_in_limited(redis_client, "1/2"))  # one sign-in every 2 s
    waits: list[float] = []
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        lobby = Lobby(channel, 5.0, on_limited=waits.append)
        first = lobby.sign_in("Ada")
        started = time.monotonic()
        second = lobby.sign_in("Bob")
        took = time.monotonic() - started
    assert first and second and first != second
    assert len(waits) == 1 and 0 < waits[0] <= 2 and took >= waits[0]
