"""Finished matches archived from the in-memory store and a private Redis: verified, stored, read
back, deleted, still replayable."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.games import LoadedGame, load_game
from shared.matches.archive import (
    LocalArchive,
    archive_name,
    archived_lines,
    archived_runner,
    state_hash,
    storage_from_env,
    verify_lines,
)
from shared.matches.archiver import ArchivableStore, ArchiveFailed, Archiver, archive_match
from shared.matches.runner import EventCodec, MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import OutboxNotice, shard_of
from shared.store.outbox import FollowerSettings, OutboxFollower
from tests.support.stores import store_of

GROUPS = ("reactor", "lobby-projections")


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game("lorenzo")


@pytest.fixture(params=("memory", "redis"))
def store(request: pytest.FixtureRequest) -> Iterator[ArchivableStore]:
    yield from store_of(request, shards=2)


@pytest.fixture
def runner(game: LoadedGame, store: ArchivableStore) -> MatchRunner[Any]:
    return MatchRunner(game.rules, game.codec, store)


def games(game: LoadedGame) -> Any:
    def load(name: str) -> tuple[Any, EventCodec]:
        assert name == game.rules.game
        return game.rules, game.codec

    return load


def followers(store: ArchivableStore, names: tuple[str, ...] = GROUPS) -> list[OutboxFollower]:
    def ignore(notice: OutboxNotice) -> None:
        pass

    out = []
    for name in names:
        follower = OutboxFollower(
            store, range(store.shards), ignore, FollowerSettings(name, "c", block_ms=10)
        )
        follower.ensure_groups()
        out.append(follower)
    return out


def read_all(readers: list[OutboxFollower]) -> None:
    for reader in readers:
        while reader.poll():
            pass


def finish(runner: MatchRunner[Any], match_id: str, seed: int) -> str:
    wait(runner.create(match_id, 4, {}, seed=seed))
    assert wait(play_match(runner, match_id, seed=seed, check=False)).outcome is not None
    return state_hash(wait(runner.load(match_id)).state)


def kept(store: ArchivableStore, match_id: str) -> bool:
    """Whether anything of the match is left in the store: events, meta, snapshot, finished index."""
    finished = wait(store.finished_matches(shard_of(match_id, store.shards)))
    return bool(
        wait(store.read(match_id))
        or wait(store.get_meta(match_id))
        or wait(store.load_snapshot(match_id))
        or match_id in dict(finished)
    )


def test_an_archived_match_leaves_redis_and_replays_from_the_archive(
    game: LoadedGame, store: ArchivableStore, runner: MatchRunner[Any], tmp_path: Path
) -> None:
    final = finish(runner, "m1", 3)
    mid = state_hash(wait(runner.load("m1", at_version=40)).state)
    storage = LocalArchive(tmp_path)
    done = wait(archive_match(store, storage, "m1", games(game)))
    assert done.state_hash == final and (tmp_path / archive_name("m1")).stat().st_size == done.size
    assert not kept(store, "m1")
    lines = archived_lines(storage, "m1")
    assert lines is not None and verify_lines(game.rules, game.codec, lines).state_hash == final
    replay = archived_runner(game.rules, game.codec, lines)
    assert state_hash(wait(replay.load("m1", at_version=40)).state) == mid
    assert wait(replay.store.get_meta("m1"))["status"] == "finished"


def test_an_unfinished_or_inconsistent_match_stays_in_redis(
    game: LoadedGame, store: ArchivableStore, runner: MatchRunner[Any], tmp_path: Path
) -> None:
    wait(runner.create("going", 4, {}, seed=1))
    with pytest.raises(ArchiveFailed, match="not finished"):
        wait(archive_match(store, LocalArchive(tmp_path), "going", games(game)))
    finish(runner, "odd", 2)
    wait(store.set_meta("odd", {"version": "9999"}))  # the log no longer matches the meta
    with pytest.raises(ArchiveFailed, match="does not verify"):
        wait(archive_match(store, LocalArchive(tmp_path), "odd", games(game)))
    assert wait(store.get_meta("odd"))["version"] == "9999" and kept(store, "odd")
    assert archived_lines(LocalArchive(tmp_path), "odd") is None


class LosingStorage:
    """Accepts every write and keeps nothing, like a misconfigured bucket."""

    def put(self, name: str, data: bytes) -> None:
        pass

    def get(self, name: str) -> bytes | None:
        return None


def test_a_storage_that_does_not_give_the_log_back_keeps_the_match(
    game: LoadedGame, store: ArchivableStore, runner: MatchRunner[Any]
) -> None:
    finish(runner, "m1", 4)
    with pytest.raises(ArchiveFailed, match="other bytes"):
        wait(archive_match(store, LosingStorage(), "m1", games(game)))
    assert wait(store.get_meta("m1"))["status"] == "finished"


def test_the_archiver_waits_for_the_delay_and_for_every_group_to_acknowledge_the_end(
    game: LoadedGame, store: ArchivableStore, runner: MatchRunner[Any], tmp_path: Path
) -> None:
    readers = followers(store)
    finish(runner, "m1", 5)
    shard = shard_of("m1", store.shards)
    clock = [time.time()]
    archiver = Archiver(store, LocalArchive(tmp_path), games(game), 3600, GROUPS, now=lambda: clock[0])
    read_all(readers[:1])  # the reactor has read everything, the lobby nothing yet
    clock[0] += 3601
    assert archiver.due(shard) == []
    read_all(readers)
    clock[0] -= 2
    assert archiver.due(shard) == []  # every group is done, but the match ended less than an hour ago
    clock[0] += 2
    assert archiver.due(shard) == ["m1"]
    assert [a.match_id for a in archiver.run(range(store.shards))] == ["m1"]
    assert not kept(store, "m1")


def test_the_archiver_archives_nothing_while_a_required_group_does_not_exist(
    game: LoadedGame, store: ArchivableStore, runner: MatchRunner[Any], tmp_path: Path
) -> None:
    read_all(followers(store, ("reactor",)))
    finish(runner, "m1", 6)
    archiver = Archiver(store, LocalArchive(tmp_path), games(game), 0, GROUPS, now=lambda: time.time() + 1)
    assert archiver.run(range(store.shards)) == []
    assert wait(store.get_meta("m1"))["status"] == "finished"


def test_the_archiver_takes_at_most_a_batch_per_call(
    game: LoadedGame, store: ArchivableStore, runner: MatchRunner[Any], tmp_path: Path
) -> None:
    readers = followers(store)
    for n in range(3):
        finish(runner, f"m{n}", 10 + n)
    read_all(readers)
    archiver = Archiver(store, LocalArchive(tmp_path), games(game), 0, GROUPS, batch=2)
    time.sleep(0.002)
    assert len(archiver.run(range(store.shards))) == 2
    assert len(archiver.run(range(store.shards))) == 1
    assert archiver.run(range(store.shards)) == []


def test_the_archive_is_configured_from_the_environment(tmp_path: Path) -> None:
    assert storage_from_env({}) is None
    assert storage_from_env({"TABULA_ARCHIVE_DIR": str(tmp_path)}) == LocalArchive(tmp_path)
    plugged = storage_from_env({"TABULA_ARCHIVE_STORAGE": f"{__name__}:LosingStorage"})
    assert isinstance(plugged, LosingStorage)
