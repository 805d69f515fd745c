"""``tabula rescore``: Nim matches played to the end in Redis (one archived) with Nim's rules, then
re-scored with a deliberate change of them (tests/support/nim/rescored.py) registered under the
same name: the report names exactly the changed matches, and nothing stored changes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from typer.testing import CliRunner

from services.cli import app
from services.games import load_game
from shared.core.decider import Actor
from shared.matches.archive import LocalArchive
from shared.matches.archiver import archive_match
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import MatchStatus, NewEvent, Progress
from shared.store.redis_store import RedisEventStore
from tests.support.game_protos import compile_game
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.nim.rules import Take

TODAY = "tests.support.nim.manifest:MANIFEST"
CHANGED = "tests.support.nim.rescored:MANIFEST"
cli = CliRunner()

# match id -> (stones, the takes in turn, seat 0 first). Snapshots every 4 versions: the one kept is
# at version 4 (version 1 lays the heap, each take is one version).
PLAYED = {
    "same": (4, [1, 1, 2]),  # ends on a take of two: the same winner
    "at-snapshot": (8, [1, 1, 3, 3]),  # a take of three right before the snapshot, and at the end
    "at-end": (6, [1, 1, 1, 3]),  # the snapshot agrees; the last take of three flips the winner
    "going": (9, [3, 1]),  # not ended: still not ended
    "archived": (7, [1, 3, 3]),  # archived, ends on a take of three: changed
    "archived-same": (3, [1, 2]),  # archived, unchanged
}


@pytest.fixture(scope="module")
def nim_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_game(tmp_path_factory.mktemp("nim"), NIM)


def register(monkeypatch: pytest.MonkeyPatch, manifest: str) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", manifest)
    load_game.cache_clear()


@pytest.fixture
def played(
    nim_code: Path, redis_client: redis.Redis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[RedisEventStore, Path]]:
    """The matches of PLAYED in Redis with today's Nim, the archived ones moved to tmp_path/archive,
    and one a resignation ended."""
    register(monkeypatch, TODAY)
    nim = load_game("nim")
    store = RedisEventStore(redis_client)
    runner: MatchRunner[Any] = MatchRunner(nim.rules, nim.codec, store, snapshot_every=4)
    for match_id, (stones, takes) in PLAYED.items():
        wait(runner.create(match_id, 2, {"stones": str(stones)}, seed=1))
        for version, count in enumerate(takes, start=1):
            wait(
                runner.submit(match_id, Actor.of_seat((version - 1) % 2), Take(count), version, f"t{version}")
            )
    wait(runner.create("resigned", 2, {"stones": "9"}, seed=1))
    wait(runner.submit("resigned", Actor.of_seat(0), Take(3), 1, "t1"))
    wait(runner.resign("resigned", 1, "r"))  # ends it, seat 1 last: the same under either rules
    archive = tmp_path / "archive"
    for match_id in ("archived", "archived-same"):
        wait(archive_match(store, LocalArchive(archive), match_id, lambda _: (nim.rules, nim.codec)))
    yield store, archive
    load_game.cache_clear()


def dump(client: redis.Redis, archive: Path) -> tuple[dict[bytes, bytes], dict[str, bytes]]:
    keys = {key: client.dump(key) for key in client.scan_iter(count=1000)}
    files = {str(p.relative_to(archive)): p.read_bytes() for p in sorted(archive.rglob("*")) if p.is_file()}
    return keys, files  # type: ignore[return-value]


def rescore(redis_url: str, archive: Path, *args: str) -> tuple[int, dict[str, Any]]:
    done = cli.invoke(app, ["rescore", "--json", "--redis-url", redis_url, "--dir", str(archive), *args])
    assert done.exit_code in (0, 1), done.output
    return done.exit_code, json.loads(done.output)


def test_rescoring_with_todays_rules_finds_nothing_changed(
    played: tuple[RedisEventStore, Path], redis_url: str
) -> None:
    code, report = rescore(redis_url, played[1], "--game", "nim")
    assert (code, report["read"], report["changed"], report["failed"]) == (0, 7, [], [])


def test_a_rules_change_names_exactly_the_matches_it_changes_and_writes_nothing(
    played: tuple[RedisEventStore, Path],
    redis_client: redis.Redis,
    redis_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, archive = played
    going = Progress((0,), False, MatchStatus.ACTIVE)
    meta = {"game": "nim", "seats": "2"}
    wait(store.append("broken", 0, [NewEvent("Vanished", b"\x01")], "c", meta=meta, progress=going))
    gone = {"game": "chess", "seats": "2"}  # a game this release does not register
    wait(store.append("gone", 0, [NewEvent("Moved", b"")], "c", meta=gone, progress=going))
    (archive / "matches" / "torn.jsonl.gz").write_bytes(b"not gzip")
    register(monkeypatch, CHANGED)
    before = dump(redis_client, archive)

    code, report = rescore(redis_url, archive, "--game", "nim")

    assert dump(redis_client, archive) == before
    assert code == 1 and report["read"] == 9
    rows = {row["match_id"]: row for row in report["changed"]}
    assert sorted(rows) == ["archived", "at-end", "at-snapshot"]
    assert rows["at-snapshot"] == {
        "match_id": "at-snapshot",
        "game": "nim",
        "source": "redis",
        "head": 5,
        "old": {"scores": [0, 1], "placings": [2, 1]},
        "new": {"scores": [1, 0], "placings": [1, 2]},
        "differs_at": 4,
        "differs_in": "snapshot",
        "same_until": 0,
    }
    at_end = rows["at-end"]
    assert (at_end["differs_at"], at_end["differs_in"], at_end["same_until"]) == (5, "outcome", 4)
    assert (at_end["old"]["placings"], at_end["new"]["placings"]) == ([2, 1], [1, 2])
    archived = rows["archived"]
    assert (archived["source"], archived["head"], archived["differs_at"]) == ("archive", 4, 4)
    assert (archived["old"]["scores"], archived["new"]["scores"]) == ([1, 0], [0, 1])
    failed = {f["match_id"]: f for f in report["failed"]}
    assert sorted(failed) == ["broken", "torn"]
    assert "cannot decode Vanished" in failed["broken"]["reason"] and failed["broken"]["source"] == "redis"
    assert "unreadable log" in failed["torn"]["reason"] and failed["torn"]["source"] == "archive"

    table = cli.invoke(app, ["rescore", "--redis-url", redis_url, "--dir", str(archive)])  # every game
    assert table.exit_code == 1
    assert "at-snapshot" in table.output and "4 (snapshot)" in table.output, table.output
    assert "failed gone (redis): no rules for game 'chess'" in table.output
    assert "10 matches read, 3 changed, 3 failed to fold" in table.output
    assert "archived-same" not in table.output and "going" not in table.output
    assert dump(redis_client, archive) == before


def test_since_keeps_the_matches_created_that_day_or_later(
    played: tuple[RedisEventStore, Path], redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(monkeypatch, CHANGED)
    code, report = rescore(redis_url, played[1], "--since", "2000-01-01")
    assert code == 1 and report["read"] == 7 and len(report["changed"]) == 3
    code, report = rescore(redis_url, played[1], "--since", "2999-01-01")
    assert (code, report["read"], report["changed"]) == (0, 0, [])
