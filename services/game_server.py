"""Bootstrap of a game's rule service: the one place that wires settings, Redis and gRPC."""

from __future__ import annotations

from services.games import game_port, load_game
from shared.matches.archive import storage_from_env
from shared.matches.runner import MatchRunner
from shared.runtime.config import Settings
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import Limits, RunningServer, offload, serve_forever, start_server
from shared.serving.process import boot
from shared.serving.ratelimit import Limiter
from shared.serving.refusals import game_texts
from shared.serving.tokens import TokenSigner
from shared.serving.watch import WatchHub, watch_connections
from shared.store.clients import async_redis_client, redis_client, store_from_settings
from shared.store.redis_store import RedisStreamReader


def build(
    game: str, settings: Settings, port: int, signer: TokenSigner, limits: Limits | None = None
) -> RunningServer:
    """``limits``: the server's caps (default: from the environment); both Redis pools are sized
    from them (docs/operations.md, "Concurrency caps")."""
    limits = limits if limits is not None else Limits.from_env()
    loaded = load_game(game)
    client = redis_client(settings, limits.redis_connections())
    # SubmitCommand's rate limits and appends, on the serving loop: as many at once as the pool runs calls
    commands_client = async_redis_client(settings, limits.workers)
    store = store_from_settings(settings, client, async_client=commands_client)
    runner = MatchRunner(loaded.rules, loaded.codec, store, cache_size=settings.state_cache, offload=offload)
    content = loaded.manifest.content.build if loaded.manifest.content is not None else None
    limiter = Limiter.from_env(client, signer.keys, async_client=commands_client)
    archive = storage_from_env()  # where finished matches went: Replay / ExportLog read them there
    watch_client = async_redis_client(settings, watch_connections(limits, settings.shards))
    hub = WatchHub(RedisStreamReader(watch_client, store), on_new=runner.absorb)
    servicer = GameServicer(
        runner,
        loaded.modules,
        signer,
        content=content,
        limiter=limiter,
        archive=archive,
        hub=hub,
        away_seconds=settings.away_seconds,
        texts=game_texts(loaded.manifest),
    )
    return start_server([servicer.registration()], port=port, host=settings.host, limits=limits)


def main(game: str) -> None:
    settings, keys = boot(game)
    serve_forever(build(game, settings, game_port(game), TokenSigner(keys)), game)
