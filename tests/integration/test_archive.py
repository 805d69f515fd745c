"""Export a finished Lorenzo match to JSON lines, import it into another store, verify it."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
import redis
from typer.testing import CliRunner

from services.cli import app
from services.games import LoadedGame, load_game
from shared.matches.archive import LogError, export_lines, import_lines, state_hash, verify_lines
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MemoryEventStore
from shared.store.redis_store import RedisEventStore


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game("lorenzo")


@pytest.fixture(scope="module")
def finished(game: LoadedGame) -> tuple[MatchRunner, list[str]]:
    runner = MatchRunner(game.rules, game.codec, MemoryEventStore())
    wait(runner.create("g1", 3, {"advanced": "true"}, seed=31))
    assert wait(play_match(runner, "g1", seed=4)).violations == []
    return runner, list(wait(export_lines(runner.store, "g1", game.codec)))


def test_a_log_imports_into_another_store_with_the_same_events(
    game: LoadedGame, finished: tuple[MatchRunner, list[str]], redis_client: redis.Redis
) -> None:
    runner, lines = finished
    other = RedisEventStore(redis_client)
    assert wait(import_lines(other, lines, "copy")) == "copy"
    original, copied = wait(runner.store.read("g1")), wait(other.read("copy"))
    assert [(e.version, e.type, e.payload, e.visibility, e.command_id) for e in original] == [
        (e.version, e.type, e.payload, e.visibility, e.command_id) for e in copied
    ]
    assert wait(other.get_meta("copy"))["status"] == "finished"
    some = original[-1]
    assert (
        wait(other.command_result("copy", some.command_id)) is not None
    )  # retries still dedupe after import
    replayed = wait(MatchRunner(game.rules, game.codec, other).load("copy")).state
    assert state_hash(replayed) == state_hash(wait(runner.load("g1")).state)


def test_verify_reports_the_final_state_hash(
    game: LoadedGame, finished: tuple[MatchRunner, list[str]]
) -> None:
    runner, lines = finished
    report = verify_lines(game.rules, game.codec, lines)
    assert report.ok and report.finished and report.events == len(lines) - 1
    assert report.state_hash == state_hash(wait(runner.load("g1")).state)


def test_verify_finds_gaps_tampering_and_events_after_the_end(
    game: LoadedGame, finished: tuple[MatchRunner, list[str]]
) -> None:
    _, lines = finished
    gap = lines[:5] + lines[6:]
    assert any("version" in p for p in verify_lines(game.rules, game.codec, gap).problems)
    line = json.loads(lines[3])
    line["payload"] = base64.b64encode(b"\xff\xff\xff").decode()
    broken = [*lines[:3], json.dumps(line), *lines[4:]]
    assert verify_lines(game.rules, game.codec, broken).problems
    extra = json.loads(lines[-1])
    extra["version"] += 1
    assert any(
        "after the match ended" in p
        for p in verify_lines(game.rules, game.codec, [*lines, json.dumps(extra)]).problems
    )
    with pytest.raises(LogError):
        verify_lines(game.rules, game.codec, ["not json"])


def test_cli_verifies_many_logs_and_fails_on_a_bad_one(
    finished: tuple[MatchRunner, list[str]], tmp_path: Path
) -> None:
    _, lines = finished
    for i in range(3):
        (tmp_path / f"good{i}.jsonl").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["verify", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and len(report["logs"]) == 3 and len({r["state_hash"] for r in report["logs"]}) == 1
    (tmp_path / "bad.jsonl").write_text("\n".join(lines[:10] + lines[11:]) + "\n")
    assert CliRunner().invoke(app, ["verify", str(tmp_path)]).exit_code == 1


def test_cli_shows_a_bad_logs_first_problem_and_counts_the_rest(
    game: LoadedGame, finished: tuple[MatchRunner, list[str]], tmp_path: Path
) -> None:
    _, lines = finished
    gap = lines[:10] + lines[11:]  # one event removed: every later line is out of sequence
    problems = verify_lines(game.rules, game.codec, gap).problems
    assert len(problems) > 2
    (tmp_path / "bad.jsonl").write_text("\n".join(gap) + "\n")
    result = CliRunner().invoke(app, ["verify", str(tmp_path / "bad.jsonl")])
    assert result.exit_code == 1
    shown = result.stdout.splitlines()
    assert shown[0].startswith("BAD ")
    rest = f"    and {len(problems) - 1} more problems (--json lists them all)"
    assert shown[1:] == [f"    {problems[0]}", rest]
    listed = json.loads(CliRunner().invoke(app, ["verify", str(tmp_path / "bad.jsonl"), "--json"]).stdout)
    assert listed["logs"][0]["problems"] == problems
