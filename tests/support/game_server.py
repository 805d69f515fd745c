"""A game's real rule service over gRPC on a free loopback port, for as long as a ``with`` lasts."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from services.games import LoadedGame
from shared.matches.runner import MatchRunner
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore


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
