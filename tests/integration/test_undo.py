"""The rule service's Undo (shared/core/undo.py, docs/workers.md "Undo") in every registered game and
the test games, over real gRPC and a private Redis: GetView says when the caller may undo, an Undo
takes the seat's latest command back (its view is the one before it, ExportLog shows the platform's
event), a retry answers the first result, and every refusal (another seat's, a spectator's, a stale
version, nothing to undo, the match option off) has its reason code and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from rich.console import Console

from services.client.presentation import presentation_for
from services.client.rpc import GameClient
from services.client.session import Player
from services.games import GAMES, LoadedGame, load_game
from shared.core.rng import Rng
from shared.core.undo import COMMANDS_UNDONE
from shared.serving.tokens import TokenSigner
from tests.integration.test_resign import refused, stored
from tests.support.game_protos import compile_game
from tests.support.game_server import Callers, served_stub
from tests.support.nim.manifest import MANIFEST as NIM
from tests.support.race.manifest import MANIFEST as RACE

GAME_NAMES = (*(m.name for m in GAMES), NIM.name, RACE.name)
LATER_GAMES = "tests.support.nim.manifest:MANIFEST,tests.support.race.manifest:MANIFEST"
SIGNER = TokenSigner(b"undo-test-secret-0123456789abcdefghij")
FAILED = grpc.StatusCode.FAILED_PRECONDITION


@pytest.fixture(scope="module")
def later_games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return [compile_game(tmp_path_factory.mktemp(m.name), m) for m in (NIM, RACE)]


@pytest.fixture
def game(
    request: pytest.FixtureRequest, later_games: list[Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[LoadedGame]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", LATER_GAMES)
    load_game.cache_clear()
    yield load_game(request.param)
    load_game.cache_clear()


@pytest.fixture
def stub(game: LoadedGame, redis_client: redis.Redis) -> Iterator[Any]:
    with served_stub(game, redis_client, SIGNER) as served:
        yield served


class Match:
    """One match of two people through the stub."""

    def __init__(self, stub: Any, game: LoadedGame, match_id: str, options: dict[str, str]) -> None:
        self.stub, self.pb2, self.id = stub, game.modules.pb2, match_id
        self.callers = Callers(SIGNER, game.manifest.name)
        request = self.pb2.CreateMatchRequest(
            match_id=match_id, seats=2, seed=11, options=options, players=["p0", "p1"]
        )
        stub.CreateMatch(request, metadata=self.callers.service, timeout=10)

    def auth(self, seat: int | None) -> Any:
        return self.callers.service if seat is None else self.callers.seat(self.id, seat)

    def view(self, seat: int | None) -> Any:
        return self.stub.GetView(
            self.pb2.GetViewRequest(match_id=self.id), metadata=self.auth(seat), timeout=10
        )

    def undo(self, auth: Any, expected: int, command_id: str = "u") -> Any:
        request = self.pb2.UndoRequest(match_id=self.id, expected_version=expected, command_id=command_id)
        return self.stub.Undo(request, metadata=auth, timeout=10)

    def step(self, rng: Rng, n: int) -> int | None:
        """One command by whoever is to act (the system with a service token); the seat, if a seat."""
        head = self.view(None)
        seat = None if head.system_to_act else rng.choice(list(head.seats_to_act))
        view = self.view(seat)
        command = rng.choice(list(view.legal_commands))
        request = self.pb2.SubmitCommandRequest(
            match_id=self.id, expected_version=view.version, command_id=f"c{n}", command=command
        )
        self.stub.SubmitCommand(request, metadata=self.auth(seat), timeout=10)
        return seat


@pytest.mark.parametrize("game", [n for n in GAME_NAMES if n != RACE.name], indirect=True)
def test_a_seat_takes_back_its_latest_command_and_every_refusal_writes_nothing(
    game: LoadedGame, stub: Any, redis_client: redis.Redis
) -> None:
    match, rng = Match(stub, game, "m", {}), Rng(5)
    start = match.view(0)
    assert not start.undoable
    before = stored(redis_client, "m")
    refused(lambda: match.undo(match.auth(0), start.version), FAILED, "nothing_to_undo")
    assert stored(redis_client, "m") == before

    for n in range(300):  # until a seat's command may be taken back
        was = {seat: match.view(seat) for seat in (0, 1)}
        seat = match.step(rng, n)
        if seat is not None and match.view(seat).undoable:
            break
    else:
        pytest.fail("no command could be taken back")
    other, head = 1 - seat, match.view(seat)
    assert not match.view(other).undoable
    before = stored(redis_client, "m")
    refusals = [
        (lambda: match.undo(match.auth(other), head.version), FAILED, "undo_not_yours"),
        (lambda: match.undo(match.auth(seat), head.version - 1), grpc.StatusCode.ABORTED, "stale_version"),
        (
            lambda: match.undo(match.callers.spectator("m"), head.version),
            grpc.StatusCode.PERMISSION_DENIED,
            "forbidden",
        ),
        (
            lambda: match.undo(match.callers.service, head.version),
            grpc.StatusCode.PERMISSION_DENIED,
            "forbidden",
        ),
    ]
    for call, code, reason in refusals:
        refused(call, code, reason)
    assert stored(redis_client, "m") == before

    done = match.undo(match.auth(seat), head.version)
    assert (done.first_version, done.last_version, done.duplicate) == (
        head.version + 1,
        head.version + 1,
        False,
    )
    assert done.to_version == was[seat].version
    again = match.undo(match.auth(seat), head.version)  # a retry: its first answer
    assert (again.last_version, again.duplicate, again.to_version) == (
        done.last_version,
        True,
        done.to_version,
    )
    for s in (0, 1):  # each seat sees what it saw before the command, and may do what it could then
        now = match.view(s)
        assert now.version == done.last_version
        assert now.view == was[s].view and list(now.legal_commands) == list(was[s].legal_commands)
        assert list(now.seats_to_act) == list(was[s].seats_to_act)

    log = stub.ExportLog(
        game.modules.pb2.ExportLogRequest(match_id="m"), metadata=match.callers.service, timeout=10
    )
    last = log.events[-1]
    assert (last.envelope.type, last.envelope.actor) == (COMMANDS_UNDONE, f"seat:{seat}")
    assert (last.platform.commands_undone.seat, last.platform.commands_undone.to_version) == (
        seat,
        done.to_version,
    )
    assert not last.HasField("event")
    replayed = stub.Replay(
        game.modules.pb2.ReplayRequest(match_id="m", version=done.last_version),
        metadata=match.auth(seat),
        timeout=10,
    )
    assert replayed.view == was[seat].view


@pytest.mark.parametrize("game", [NIM.name, GAMES[0].name], indirect=True)
def test_the_undo_option_off_refuses_every_undo(
    game: LoadedGame, stub: Any, redis_client: redis.Redis
) -> None:
    match, rng = Match(stub, game, "off", {"undo": "false"}), Rng(5)
    for n in range(40):
        seat = match.step(rng, n)
        if seat is not None:
            break
    assert seat is not None
    head = match.view(seat)
    assert not head.undoable
    before = stored(redis_client, "off")
    refused(lambda: match.undo(match.auth(seat), head.version), FAILED, "undo_off")
    assert stored(redis_client, "off") == before


@pytest.mark.parametrize("game", [RACE.name], indirect=True)
def test_a_command_that_rolled_a_die_stands(game: LoadedGame, stub: Any, redis_client: redis.Redis) -> None:
    match, rng = Match(stub, game, "dice", {}), Rng(5)
    for n in range(40):
        seat = match.step(rng, n)
        if seat is not None:
            break
    assert seat is not None
    head = match.view(seat)
    assert not head.undoable
    before = stored(redis_client, "dice")
    refused(lambda: match.undo(match.auth(seat), head.version), FAILED, "undo_revealed")
    assert stored(redis_client, "dice") == before


@pytest.mark.parametrize("game", [NIM.name], indirect=True)
def test_the_terminal_client_takes_back_the_players_latest_command(game: LoadedGame, stub: Any) -> None:
    """``tabula play``'s loop: ``undo`` with nothing done is refused in words; after a move, ``undo``
    takes it back and the player is to move again."""
    match = Match(stub, game, "cli", {})
    token = match.callers.seat("cli", 0)[0][1].removeprefix("Bearer ")
    client = GameClient(stub, game.modules.pb2, "cli", token, deadline_s=10)
    lines = iter(["undo", "1", "undo"])
    console = Console(width=200, record=True, no_color=True)
    player = Player(
        client, presentation_for(NIM.name), console, live=True, seat=0, read_line=lambda: next(lines, None)
    )
    assert player.play() is None  # left when the lines ran out, the match going on
    text = console.export_text()
    assert "nothing_to_undo" in text and "Taken back: the match is as it was at v1." in text
    after = match.view(0)
    assert list(after.seats_to_act) == [0] and after.undoable is False and after.version == 3


@pytest.mark.parametrize("game", [NIM.name], indirect=True)
def test_the_turn_clock_follows_the_undo_back_to_the_seat_to_act(game: LoadedGame, stub: Any) -> None:
    callers, pb2 = Callers(SIGNER, game.manifest.name), game.modules.pb2
    request = pb2.CreateMatchRequest(match_id="clock", seats=2, seed=3, turn_seconds=60, players=["p0", "p1"])
    stub.CreateMatch(request, metadata=callers.service, timeout=10)
    match, rng = Match.__new__(Match), Rng(1)
    match.stub, match.pb2, match.id, match.callers = stub, pb2, "clock", callers
    assert [c.seat for c in match.view(None).clocks] == [0]
    assert match.step(rng, 0) == 0
    assert [c.seat for c in match.view(None).clocks] == [1]
    done = match.undo(match.auth(0), match.view(0).version)
    after = match.view(None)
    assert after.version == done.last_version and list(after.seats_to_act) == [0]
    assert [c.seat for c in after.clocks] == [0] and after.clocks[0].remaining_ms > 50_000
