"""``tabula archive``, and ``export`` / ``verify`` / ``replay`` of a match no longer in Redis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
from typer.testing import CliRunner

from bench.memory import GROUPS
from services.cli import app
from services.cli.archive import archived_replay
from services.games import LoadedGame, load_game
from shared.core.decider import SYSTEM
from shared.matches.archive import state_hash
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import OutboxNotice, shard_of
from shared.store.outbox import FollowerSettings, OutboxFollower
from shared.store.redis_store import RedisEventStore

cli = CliRunner()


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game("lorenzo")


@pytest.fixture
def finished(game: LoadedGame, redis_client: redis.Redis, redis_url: str) -> MatchRunner[Any]:
    """Match m1 finished, every outbox group has read it; m2 still going."""
    store = RedisEventStore(redis_client)
    runner = MatchRunner(game.rules, game.codec, store)
    wait(runner.create("m1", 4, {}, seed=7))
    wait(play_match(runner, "m1", seed=7, check=False))
    wait(runner.create("m2", 4, {}, seed=8))

    def ignore(notice: OutboxNotice) -> None:
        pass

    for group in GROUPS:
        follower = OutboxFollower(store, range(store.shards), ignore, FollowerSettings(group, "c"))
        follower.ensure_groups()
        while follower.poll():
            pass
    return runner


def test_archive_export_verify_and_replay_an_archived_match(
    game: LoadedGame, finished: MatchRunner[Any], redis_url: str, tmp_path: Path, monkeypatch: Any
) -> None:
    folder, url = tmp_path / "archive", ["--redis-url", redis_url]
    monkeypatch.setenv("TABULA_ARCHIVE_DIR", str(folder))
    at_40 = wait(finished.load("m1", at_version=40))
    view_40 = game.codec.to_message(game.rules.view(at_40.state, SYSTEM))
    final = state_hash(wait(finished.load("m1")).state)
    before = tmp_path / "before.jsonl"
    assert cli.invoke(app, ["export", "m1", "--out", str(before), *url]).exit_code == 0

    done = cli.invoke(app, ["archive", "--after", "0", *url])
    assert done.exit_code == 0 and "archived 1 matches" in done.output, done.output
    assert (
        wait(finished.store.get_meta("m1")) == {}
        and wait(finished.store.get_meta("m2"))["status"] == "active"
    )

    after = tmp_path / "after.jsonl"
    assert cli.invoke(app, ["export", "m1", "--out", str(after), *url]).exit_code == 0
    assert after.read_text() == before.read_text()  # the archive gives back the very log
    checked = cli.invoke(app, ["verify", "--match", "m1", str(folder), *url])
    assert checked.exit_code == 0 and checked.output.count(f"hash={final}") == 2, checked.output
    found = archived_replay("m1", 40)
    assert found is not None
    assert found[0] == "lorenzo" and found[1].version == 40 and found[1].view == view_40


def test_an_unfinished_match_named_on_the_command_line_is_kept(
    finished: MatchRunner[Any], redis_url: str, tmp_path: Path
) -> None:
    kept = cli.invoke(app, ["archive", "m2", "--dir", str(tmp_path), "--redis-url", redis_url])
    assert kept.exit_code == 1 and "not finished" in kept.output
    assert wait(finished.store.get_meta("m2"))["status"] == "active"
    missing = cli.invoke(app, ["verify", "--match", "nothing", "--redis-url", redis_url])
    assert missing.exit_code == 1


def test_a_match_that_ended_before_the_finished_index_existed_is_indexed_then_archived(
    finished: MatchRunner[Any], redis_client: redis.Redis, redis_url: str, tmp_path: Path
) -> None:
    store = finished.store
    assert isinstance(store, RedisEventStore)
    shard = shard_of("m1", store.shards)
    redis_client.zrem(store.finished_key(shard), "m1")  # as an older release left it
    url = ["--dir", str(tmp_path), "--redis-url", redis_url, "--after", "0"]
    assert "archived 0 matches" in cli.invoke(app, ["archive", *url]).output
    done = cli.invoke(app, ["archive", "--index", *url])
    assert "indexed 1 finished matches" in done.output and "archived 1 matches" in done.output, done.output
    assert wait(store.get_meta("m1")) == {} and wait(store.get_meta("m2"))["status"] == "active"
