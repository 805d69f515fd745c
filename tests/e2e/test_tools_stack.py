"""The tools find the running stack as the README writes them: `tabula run` in a folder records where
it listens (.tabula/stack.json) and `tabula health | export | import | replay | watch` run from that
folder with no address in the environment. Without a stack they say so (never port 6379)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from services.cli.stack import NO_STACK
from services.games import load_game
from shared.matches.archive import archive_name
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.e2e.stack_dir import cli, running_stack, tool_env
from tests.support.timing import wait_until


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("project")
    with running_stack(folder) as (env, output):
        assert "stack      recorded in" in output
        yield folder, env
    assert not (folder / ".tabula" / "stack.json").exists()  # removed when the stack stops


@pytest.fixture(scope="module")
def match_id(stack: tuple[Path, dict[str, str]]) -> str:
    """A match started with `tabula play` and left at once (it waits for its human)."""
    folder, env = stack
    result = cli(folder, env, "play", "--seats", "2", "--bots", "random", stdin="q\n")
    assert result.returncode == 2, result.stdout[-3000:] + result.stderr[-3000:]
    found = re.search(r"^Match (\S+): you are Ada at seat \d", result.stdout, re.M)
    assert found, result.stdout[:2000]
    assert f"Rejoin it with: tabula play --match {found.group(1)}" in result.stdout
    return found.group(1)


def test_the_stack_file_names_every_service(stack: tuple[Path, dict[str, str]]) -> None:
    folder, _ = stack
    recorded = json.loads((folder / ".tabula" / "stack.json").read_text())
    assert recorded["redis_url"].startswith("redis://127.0.0.1:") and ":6379/" not in recorded["redis_url"]
    assert {"lobby", "gateway", "lorenzo"} <= set(recorded["services"]) and recorded["http"] == ["gateway"]


def test_health_checks_every_service_including_the_gateway(stack: tuple[Path, dict[str, str]]) -> None:
    folder, env = stack
    result = cli(folder, env, "health")
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("lobby", "gateway", "lorenzo"):
        assert re.search(rf"^{name} 127\.0\.0\.1:\d+: SERVING$", result.stdout, re.M), result.stdout
    gateway = cli(folder, env, "health", "gateway")
    assert gateway.returncode == 0 and gateway.stdout.startswith("gateway 127.0.0.1:")
    address = json.loads((folder / ".tabula" / "stack.json").read_text())["services"]["gateway"]
    by_address = cli(folder, env, "health", address)  # known as the gateway: asked over HTTP
    assert by_address.returncode == 0 and "SERVING" in by_address.stdout


def test_export_import_and_verify_through_the_stacks_redis(
    stack: tuple[Path, dict[str, str]], match_id: str
) -> None:
    folder, env = stack
    exported = cli(folder, env, "export", match_id, "--out", "m.jsonl")
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert re.search(rf"exported \d+ events of {match_id} to m.jsonl", exported.stdout)
    header = json.loads((folder / "m.jsonl").read_text().splitlines()[0])
    assert header["match_id"] == match_id and header["game"] == "lorenzo"
    imported = cli(folder, env, "import", "m.jsonl", "--match-id", f"{match_id}-copy")
    assert imported.returncode == 0 and f"as match {match_id}-copy" in imported.stdout, imported.stderr
    again = cli(folder, env, "export", f"{match_id}-copy", "--out", "copy.jsonl")
    assert again.returncode == 0, again.stderr
    assert cli(folder, env, "verify", "m.jsonl", "copy.jsonl").returncode == 0


def test_replay_and_watch_find_the_lobby_and_the_game(
    stack: tuple[Path, dict[str, str]], match_id: str
) -> None:
    folder, env = stack
    replay = cli(folder, env, "replay", match_id, "--at", "3")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert f"match {match_id}  v3" in replay.stdout and "Towers" in replay.stdout
    watch = cli(folder, env, "watch", match_id, "--until-version", "3", "--max-seconds", "20")
    assert watch.returncode == 0, watch.stdout + watch.stderr
    assert "Towers" in watch.stdout and "Ada" in watch.stdout  # the players by name


@pytest.mark.parametrize(
    "args",
    [
        ("export", "m1", "--out", "x.jsonl"),
        ("import", "x.jsonl"),
        ("health",),
        ("watch", "m1"),
        ("replay", "m1", "--at", "1"),
    ],
)
def test_without_a_stack_the_tools_say_so(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "x.jsonl").write_text("{}\n")
    result = cli(tmp_path, tool_env(), *args)
    assert result.returncode == 1, result.stdout + result.stderr
    assert NO_STACK in result.stderr and "Traceback" not in result.stderr + result.stdout


def test_a_finished_match_goes_to_the_stacks_own_archive_and_export_still_finds_it(tmp_path: Path) -> None:
    """No archive configured: `tabula run` archives into .tabula/archive/ after TABULA_ARCHIVE_AFTER
    (here 0 s) and records it in stack.json, so `tabula export` from the folder still finds the match."""
    settings = {"TABULA_ARCHIVE_AFTER": "0", "TABULA_ARCHIVE_INTERVAL": "0.5"}
    with running_stack(tmp_path, **settings) as (env, output):
        archive = tmp_path / ".tabula" / "archive"
        url = re.search(r"^redis\s+(redis://\S+)", output, re.M)
        assert url is not None
        client = redis.Redis.from_url(url.group(1))
        try:
            store = RedisEventStore(client)
            game = load_game("lorenzo")
            runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, store)
            bots = json.dumps({"0": "random", "1": "random"})
            wait(runner.create("done", 2, {}, seed=5, extra_meta={"bots": bots, "turn_seconds": "0"}))
            wait_until(lambda: (archive / archive_name("done")).exists(), 120, "the match to be archived")
            wait_until(lambda: not wait(store.get_meta("done")), 30, "the match to leave Redis")
        finally:
            client.close()
        assert f"archive    {archive}  (finished matches, 0 s after they end)" in output
        assert json.loads((tmp_path / ".tabula" / "stack.json").read_text())["archive_dir"] == str(archive)
        exported = cli(tmp_path, env, "export", "done", "--out", "m.jsonl")
        assert exported.returncode == 0, exported.stdout + exported.stderr
        assert json.loads((tmp_path / "m.jsonl").read_text().splitlines()[0])["match_id"] == "done"
