"""Bootstrap of a game's rule service: the one place that wires settings, Redis and gRPC."""

from __future__ import annotations

from services.games import game_port, load_game
from shared.archive import storage_from_env
from shared.config import Settings, redis_client
from shared.game_service import GameServicer
from shared.grpc_server import RunningServer, serve_forever, start_server
from shared.observability import setup_logging, start_metrics
from shared.runner import MatchRunner
from shared.store.redis_store import RedisEventStore
from shared.tokens import TokenSigner, load_secret


def build(game: str, settings: Settings, port: int) -> RunningServer:
    loaded = load_game(game)
    store = RedisEventStore(redis_client(settings), shards=settings.shards)
    runner = MatchRunner(loaded.rules, loaded.codec, store)
    content = loaded.manifest.content.build if loaded.manifest.content is not None else None
    signer, archive = TokenSigner(load_secret()), storage_from_env()
    servicer = GameServicer(runner, loaded.modules, signer, content=content, archive=archive)
    return start_server([servicer.registration()], port=port, host=settings.host, workers=256)


def main(game: str) -> None:
    settings = Settings.from_env()
    setup_logging(settings.log_level)
    start_metrics(settings.metrics_port)
    serve_forever(build(game, settings, game_port(game)), game)
