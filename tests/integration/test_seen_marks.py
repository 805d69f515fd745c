"""A player watching their match live is not woken for: the turn it hands them writes no notice.

Over real gRPC and Redis (the race test game): while a seat's ``WatchMatch`` stream is open the meta
marks its player as watching (``seen:<seat>``); a roll handing that seat the turn is then quiet (no
outbox notice: the lobby and the reactor are not woken), and once the stream closes the mark is
cleared and such a roll notifies again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from shared.core.decider import SYSTEM
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.protogen import GameModules
from shared.store import MatchMeta, shard_of
from shared.store.redis_store import RedisEventStore
from tests.integration.test_game_service import SIGNER, _codec, roll, seat
from tests.support.race.manifest import race_rules
from tests.support.race.protos import race_game_modules
from tests.support.race.rules import EndRound


@pytest.fixture(scope="module")
def race_modules(tmp_path_factory: pytest.TempPathFactory) -> GameModules:
    return race_game_modules(tmp_path_factory.mktemp("race"))


@pytest.fixture
def served(race_modules: GameModules, redis_client: redis.Redis) -> Iterator[tuple[MatchRunner[Any], Any]]:
    runner = MatchRunner(race_rules(), _codec(race_modules), RedisEventStore(redis_client))
    running: RunningServer = start_server(
        [GameServicer(runner, race_modules, SIGNER, keepalive_s=0.2).registration()]
    )
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    yield runner, race_modules.pb2_grpc.RaceServiceStub(channel)
    channel.close()
    running.stop(0)


def _notified(runner: MatchRunner[Any], match_id: str) -> list[int]:
    outbox = wait(runner.store.read_outbox(shard_of(match_id, runner.store.shards), count=1000))
    return [n.last_version for n in outbox if n.match_id == match_id]


def _seen(runner: MatchRunner[Any], match_id: str) -> dict[int, int]:
    return dict(MatchMeta.of(wait(runner.store.get_meta(match_id))).seen)


def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_a_turn_handed_to_a_player_watching_live_writes_no_notice_until_the_stream_closes(
    served: tuple[MatchRunner[Any], Any], race_modules: GameModules
) -> None:
    runner, stub = served
    pb2 = race_modules.pb2
    players = {"players": json.dumps(["p0", "p1", "p2"])}
    version = wait(runner.create("w1", 3, {"goal": "50"}, seed=4, extra_meta=players)).version
    stream = stub.WatchMatch(pb2.WatchMatchRequest(match_id="w1", from_version=1), metadata=seat("w1", 1))
    next(stream)
    _until(lambda: 1 in _seen(runner, "w1"), "seat 1's mark written")
    assert _seen(runner, "w1")[1] > time.time() * 1000
    stub.SubmitCommand(roll(pb2, "w1", version, "a"), metadata=seat("w1", 0), timeout=10)  # p1 watches
    assert _notified(runner, "w1") == [version]
    stub.SubmitCommand(roll(pb2, "w1", version + 1, "b"), metadata=seat("w1", 1), timeout=10)  # p2 does not
    assert _notified(runner, "w1") == [version, version + 2]
    stream.cancel()
    with pytest.raises(grpc.RpcError):
        for _ in stream:
            pass
    _until(lambda: not _seen(runner, "w1").get(1), "seat 1's mark cleared")
    stub.SubmitCommand(roll(pb2, "w1", version + 2, "c"), metadata=seat("w1", 2), timeout=10)  # round over
    wait(runner.submit("w1", SYSTEM, EndRound(), version + 3, "end"))  # as a worker would: p0's turn
    stub.SubmitCommand(roll(pb2, "w1", version + 4, "d"), metadata=seat("w1", 0), timeout=10)
    assert _notified(runner, "w1") == [version, version + 2, version + 3, version + 4, version + 5]
