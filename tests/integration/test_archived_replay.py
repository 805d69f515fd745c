"""Replay and ExportLog of a match archived out of Redis read the archive (real gRPC, real Redis)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis

from shared.matches.archive import LocalArchive
from shared.matches.archiver import archive_match
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import start_server
from shared.serving.protogen import GameModules
from shared.store.redis_store import RedisEventStore
from tests.integration.test_game_service import SIGNER, _codec, create, fails, roll, seat
from tests.support.race.manifest import race_rules
from tests.support.race.protos import race_game_modules


@pytest.fixture(scope="module")
def race_modules(tmp_path_factory: pytest.TempPathFactory) -> GameModules:
    return race_game_modules(tmp_path_factory.mktemp("race"))


@pytest.fixture
def store(redis_client: redis.Redis) -> RedisEventStore:
    return RedisEventStore(redis_client)


@pytest.fixture
def runner(race_modules: GameModules, store: RedisEventStore) -> MatchRunner[Any]:
    return MatchRunner(race_rules(), _codec(race_modules), store)


@pytest.fixture
def stub(runner: MatchRunner[Any], race_modules: GameModules, tmp_path: Path) -> Iterator[Any]:
    servicer = GameServicer(runner, race_modules, SIGNER, archive=LocalArchive(tmp_path))
    running = start_server([servicer.registration()])
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    yield race_modules.pb2_grpc.RaceServiceStub(channel)
    channel.close()
    running.stop(0)


def test_an_archived_match_is_replayed_and_exported_from_the_archive(
    stub: Any, store: RedisEventStore, runner: MatchRunner[Any], race_modules: GameModules, tmp_path: Path
) -> None:
    pb2, me = race_modules.pb2, seat("m1", 0)
    create(stub, pb2, goal="1")
    stub.SubmitCommand(roll(pb2, "m1", 3, "a"), metadata=me, timeout=5)  # goal 1: the first roll wins
    live = [
        stub.Replay(pb2.ReplayRequest(match_id="m1", version=v), metadata=me, timeout=5) for v in range(5)
    ]
    exported = stub.ExportLog(pb2.ExportLogRequest(match_id="m1"), metadata=me, timeout=5)

    wait(archive_match(store, LocalArchive(tmp_path), "m1", lambda game: (runner.rules, runner.codec)))
    assert wait(store.get_meta("m1")) == {}
    runner._cache.clear()  # no help from the in-process cache either

    again = [
        stub.Replay(pb2.ReplayRequest(match_id="m1", version=v), metadata=me, timeout=5) for v in range(5)
    ]
    assert again == live
    assert stub.ExportLog(pb2.ExportLogRequest(match_id="m1"), metadata=me, timeout=5) == exported
    fails(  # past the archived head, as for a live match
        lambda: stub.Replay(pb2.ReplayRequest(match_id="m1", version=5), metadata=me, timeout=5),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    fails(  # only the finished log is kept: there is no live view to play on
        lambda: stub.GetView(pb2.GetViewRequest(match_id="m1"), metadata=me, timeout=5),
        grpc.StatusCode.NOT_FOUND,
    )


def test_a_match_in_neither_redis_nor_the_archive_is_not_found(stub: Any, race_modules: GameModules) -> None:
    pb2, me = race_modules.pb2, seat("nope", 0)
    fails(
        lambda: stub.Replay(pb2.ReplayRequest(match_id="nope", version=1), metadata=me, timeout=5),
        grpc.StatusCode.NOT_FOUND,
    )
    fails(
        lambda: stub.ExportLog(pb2.ExportLogRequest(match_id="nope"), metadata=me, timeout=5),
        grpc.StatusCode.NOT_FOUND,
    )
