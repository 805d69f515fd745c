"""A fourth game, Nim (``tests/support/nim``: rules on ``BaseRules`` and a manifest, nothing else), added
by its one registry line (``TABULA_EXTRA_GAMES``, the test-time form of the line in
``services/games.py``) and played to the end through the whole stack (`tabula run`): `tabula play
--game nim` seats a guest in a private lobby room with a bot, the human takes on the generic board,
the bot's takes come from the workers, and the outcome is the fold of the exported log, what the
client printed and what the lobby's history records.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as lobby_pb
from tabula.lobby.v1 import lobby_pb2_grpc

from services.cli.stack import STATE_DIR
from services.client.saved import MATCHES_FILE, find
from services.games import EXTRA_GAMES, GAMES, load_game
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.support.game_protos import compile_game
from tests.support.nim.manifest import MANIFEST
from tests.support.tabula_run import run_env, tabula_run

ROOT = Path(__file__).resolve().parents[2]
REGISTRATION = "tests.support.nim.manifest:MANIFEST"  # the game's one registry line
STONES = 11
PLAY = (sys.executable, "-m", "services.cli", "play", "--game", "nim", "--seats", "2", "--bots", "greedy")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """`tabula run` with Nim registered (its .proto compiled outside the repository); the environment
    of its processes, and ``REDIS_URL`` its Redis."""
    gen = compile_game(tmp_path_factory.mktemp("nim-e2e"), MANIFEST)
    env = {
        **os.environ,
        EXTRA_GAMES: REGISTRATION,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen"), str(gen)]),
        "TABULA_SECRET": "e2e-fourth-game-secret-0123456789",
        "TABULA_MCTS_SECONDS": "0.05",
        STATE_DIR: str(tmp_path_factory.mktemp("state")),
    }
    env = run_env(env, ("lobby", "gateway", *(m.name for m in GAMES), MANIFEST.name))
    with tabula_run(env, "--data", str(tmp_path_factory.mktemp("stack") / "redis")) as (_, output):
        assert re.search(r"^nim\s+grpc 127\.0\.0\.1:\d+", output, re.M), output
        redis_url = re.search(r"^redis\s+(redis://\S+)", output, re.M)
        assert redis_url, output
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(EXTRA_GAMES, REGISTRATION)  # this process decodes the game's messages too
            load_game.cache_clear()
            yield {**env, "REDIS_URL": redis_url.group(1)}
        load_game.cache_clear()


def _address(env: dict[str, str], service: str) -> str:
    return f"127.0.0.1:{env[f'TABULA_{service.upper()}_PORT']}"


def _auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def test_nim_is_played_to_the_end_through_the_lobby_a_bot_and_the_terminal_client(
    stack: dict[str, str],
) -> None:
    played = subprocess.run(
        [*PLAY, "--name", "Ada", "--option", f"stones={STONES}"],
        env=stack,
        cwd=ROOT,
        input="1\n" * 200,  # every prompt: the first legal command (take one stone)
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = played.stdout
    assert played.returncode == 0, out[-4000:] + played.stderr[-4000:]
    found = re.search(r"^Match (\S+): you are Ada at seat (\d)", out, re.M)
    assert found and "Final scores" in out, out[:3000]
    match_id, seat = found.group(1), int(found.group(2))

    lobby = lobby_pb2_grpc.LobbyServiceStub(grpc.insecure_channel(_address(stack, "lobby")))
    listed = {g.name: g for g in lobby.ListGames(lobby_pb.ListGamesRequest(), timeout=10).games}["nim"]
    assert (listed.title, listed.min_seats, listed.max_seats) == (MANIFEST.title, 2, 2)
    saved = find(Path(stack[STATE_DIR]) / MATCHES_FILE, match_id)
    assert saved is not None
    token = lobby.GetSpectatorToken(
        lobby_pb.GetSpectatorTokenRequest(match_id=match_id), metadata=_auth(saved.guest_token), timeout=10
    ).token

    game = load_game("nim")
    with grpc.insecure_channel(_address(stack, "nim")) as channel:
        stub = game.modules.pb2_grpc.NimServiceStub(channel)
        request = game.modules.pb2.ExportLogRequest(match_id=match_id)
        events = list(stub.ExportLog(request, metadata=_auth(token), timeout=10).events)
    state: Any = game.rules.initial_state()
    for item in events:
        e = item.envelope
        state = game.rules.evolve(state, game.codec.decode(e.type, e.payload, e.schema_version))
    outcome = game.rules.outcome(state)
    assert state.stones == 0 and outcome is not None
    takers = {e.envelope.actor for e in events if e.envelope.type == "Taken"}
    assert takers == {f"seat:{seat}", f"bot:{1 - seat}:greedy"}  # the bot's takes come from the workers
    assert sum(e.event.taken.count for e in events if e.envelope.type == "Taken") == STONES
    assert re.search(
        rf"{outcome.placings[seat]}\W+Ada\W+{outcome.scores[seat]}\b", out[out.index("Final scores") :]
    )

    ada = json.loads(
        wait(RedisEventStore(redis.Redis.from_url(stack["REDIS_URL"])).get_meta(match_id))["players"]
    )[seat]
    guest = _auth(lobby.SignInGuest(lobby_pb.SignInGuestRequest(display_name="Eve"), timeout=10).token)
    deadline, recorded = time.monotonic() + 60, None
    while recorded is None and time.monotonic() < deadline:
        request = lobby_pb.GetMatchHistoryRequest(player_id=ada)
        entries = lobby.GetMatchHistory(request, metadata=guest, timeout=10).entries
        recorded = next((e for e in entries if e.match_id == match_id), None)
        time.sleep(0.25)
    assert recorded is not None, "the match never reached Ada's history"
    assert (recorded.game, recorded.seats, list(recorded.placings)) == ("nim", 2, list(outcome.placings))
