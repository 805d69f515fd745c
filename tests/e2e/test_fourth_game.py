"""A fourth game, Nim (``tests/support/nim``: rules on ``BaseRules`` and a manifest, nothing else), added
by its one registry line (``TABULA_EXTRA_GAMES``, the test-time form of the line in
``services/games.py``) and played to the end through the whole stack (`tabula run`): `tabula play
--game nim` seats a guest in a private lobby room with a bot, the human takes on the generic board,
the bot's takes come from the workers, and the outcome is the fold of the exported log, what the
client printed and what the lobby's history records.
"""

from __future__ import annotations

import json
import re
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
from services.games import load_game
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.support.game_protos import compile_game
from tests.support.nim.manifest import MANIFEST
from tests.support.tabula_run import play_as_ada, run_with_game

REGISTRATION = "tests.support.nim.manifest:MANIFEST"  # the game's one registry line
STONES = 11
PLAY = ("--game", "nim", "--seats", "2", "--bots", "greedy")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """`tabula run` with Nim registered (its .proto compiled outside the repository); the environment
    of its processes, and ``REDIS_URL`` its Redis."""
    gen = compile_game(tmp_path_factory.mktemp("nim-e2e"), MANIFEST)
    secret = "e2e-fourth-game-secret-0123456789"
    with run_with_game(MANIFEST, REGISTRATION, gen, tmp_path_factory, TABULA_SECRET=secret) as running:
        env, output, redis_url = running
        assert re.search(r"^nim\s+grpc 127\.0\.0\.1:\d+", output, re.M), output
        yield {**env, "REDIS_URL": redis_url}


def _address(env: dict[str, str], service: str) -> str:
    return f"127.0.0.1:{env[f'TABULA_{service.upper()}_PORT']}"


def _auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def test_nim_is_played_to_the_end_through_the_lobby_a_bot_and_the_terminal_client(
    stack: dict[str, str],
) -> None:
    # every prompt: the first legal command (take one stone)
    match_id, seat, out = play_as_ada(stack, *PLAY, "--option", f"stones={STONES}", answers="1\n" * 200)
    assert "Final scores" in out, out[:3000]

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
