"""A game's real rule service over gRPC on a free loopback port, for as long as a ``with`` lasts, and
the calls the tests make of it: tokens for each kind of caller, one random legal step, a whole match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc

from services.games import LoadedGame
from shared.core.codec import union_field
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore

Metadata = list[tuple[str, str]]


@contextmanager
def serving(
    game: LoadedGame, redis_client: Any, signer: TokenSigner, **options: Any
) -> Iterator[RunningServer]:
    """The game's service on ``redis_client``'s store; ``options`` go to ``GameServicer``."""
    runner = MatchRunner(game.rules, game.codec, RedisEventStore(redis_client))
    running = start_server([GameServicer(runner, game.modules, signer, **options).registration()])
    try:
        yield running
    finally:
        running.stop(0)


@contextmanager
def service_stub(game: LoadedGame, port: int) -> Iterator[Any]:
    """A stub of the game's service on the loopback ``port``; its channel closes after the ``with``."""
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield getattr(game.modules.pb2_grpc, f"{game.manifest.service_name}Stub")(channel)


@contextmanager
def served_stub(game: LoadedGame, redis_client: Any, signer: TokenSigner, **options: Any) -> Iterator[Any]:
    """:func:`serving` and a :func:`service_stub` of it."""
    with serving(game, redis_client, signer, **options) as running, service_stub(game, running.port) as stub:
        yield stub


def bearer(token: str) -> Metadata:
    return [("authorization", f"Bearer {token}")]


@dataclass(frozen=True)
class Callers:
    """The call metadata of one game's callers, signed by ``signer``: the service (the lobby and the
    workers), a seat (as player ``p<seat>``) and a spectator."""

    signer: TokenSigner
    game: str

    @property
    def service(self) -> Metadata:
        return bearer(self.signer.service(self.game))

    def seat(self, match_id: str, seat: int) -> Metadata:
        return bearer(self.signer.seat(self.game, match_id, seat, f"p{seat}"))

    def spectator(self, match_id: str) -> Metadata:
        return bearer(self.signer.spectator(self.game, match_id, "watcher"))


# (the view a caller was answered, its seat or None for the service) -> checks of what it may see
Look = Callable[[Any, int | None], None]


def step(
    stub: Any, pb2: Any, callers: Callers, match_id: str, rng: Rng, n: int, look: Look | None = None
) -> Any:
    """One command by whoever is to act (the system with a service token), chosen among its legal ones."""
    head = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=callers.service, timeout=10)
    seat = None if head.system_to_act else rng.choice(list(head.seats_to_act))
    auth = callers.service if seat is None else callers.seat(match_id, seat)
    view = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=auth, timeout=10)
    if look is not None:
        look(view, seat)
    command = rng.choice(list(view.legal_commands))
    request = pb2.SubmitCommandRequest(
        match_id=match_id, expected_version=view.version, command_id=f"c{n}", command=command
    )
    return stub.SubmitCommand(request, metadata=auth, timeout=10)


def play_out(
    stub: Any, game: LoadedGame, callers: Callers, match_id: str, rng: Rng, look: Look | None = None
) -> Any:
    """Random :func:`step` s to the end; the service's last view (with the outcome). Then the whole log,
    exported to seat 0, must hold every version and fold to the outcome's scores."""
    pb2 = game.modules.pb2
    for n in range(5000):
        view = stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=callers.service, timeout=10)
        if view.HasField("outcome"):
            break
        step(stub, pb2, callers, match_id, rng, n, look)
    assert view.HasField("outcome"), "the match did not end"
    log = stub.ExportLog(
        pb2.ExportLogRequest(match_id=match_id), metadata=callers.seat(match_id, 0), timeout=30
    )
    assert [e.envelope.version for e in log.events] == list(range(1, view.version + 1))
    state = game.rules.initial_state()
    for e in log.events:
        state = game.rules.evolve(state, game.codec.from_message(union_field(e.event)))
    assert game.rules.outcome(state).scores == tuple(view.outcome.scores)
    return view
