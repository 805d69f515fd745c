"""Bootstrap of the lobby: the one place that wires settings, Redis, the games, gRPC and threads.

Besides the gRPC server, every lobby instance runs five background threads: the matcher
(one tick every ``TABULA_MATCH_TICK_S``, default 0.5 s), the ratings projector (the
``lobby-projections`` consumer group on every outbox shard, read by the shared follower), the
notice projector (group ``lobby-notices``, the same way) and the presence sweeper (players gone
quiet go offline, ``service_layer/friends.py``) and the tournament director (every
``TABULA_TOURNAMENT_TICK_S``, default 1 s: ``service_layer/tournaments.py``). All are safe to run in
many instances.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from services.lobby.adapters.accounts_repo import AccountRepository
from services.lobby.adapters.analysis_jobs import AnalysisJobs
from services.lobby.adapters.attempts import PasswordTries, tries_from_env
from services.lobby.adapters.chat_repo import ChatRepository
from services.lobby.adapters.friends_repo import FriendRepository
from services.lobby.adapters.games import GameCatalog
from services.lobby.adapters.mail import Mailer, load_mailer
from services.lobby.adapters.match_index import MatchIndex, PlayerMatches, PrivateMatches
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.adapters.oidc import OidcClient, PendingSignIns, providers_from_env
from services.lobby.adapters.profiles_repo import MAIL_LIMIT, ProfileRepository
from services.lobby.adapters.push import PushSender, load_push
from services.lobby.adapters.queue_repo import QueueRepository
from services.lobby.adapters.ratings_repo import RatingsRepository
from services.lobby.adapters.rooms_repo import RoomRepository
from services.lobby.adapters.tournaments_repo import TournamentRepository
from services.lobby.domain import seasons
from services.lobby.domain.friends import ONLINE_TTL_S
from services.lobby.domain.matchmaking import Policy
from services.lobby.entrypoints.servicer import LobbyServicer
from services.lobby.service_layer.accounts import Accounts
from services.lobby.service_layer.analysis import Analyses
from services.lobby.service_layer.chat import Chat
from services.lobby.service_layer.external import ExternalSignIn
from services.lobby.service_layer.friends import Friends, PresenceService
from services.lobby.service_layer.identity import Identity
from services.lobby.service_layer.matches import MatchList
from services.lobby.service_layer.matchmaking import Matcher, QueueService
from services.lobby.service_layer.mine import MyMatches
from services.lobby.service_layer.notices import NoticeProjector, Notices
from services.lobby.service_layer.profiles import Profiles
from services.lobby.service_layer.projections import RatingsProjector, Standings
from services.lobby.service_layer.rooms import RoomService
from services.lobby.service_layer.tournaments import TournamentDirector, TournamentService
from shared.core.i18n import LOCALES
from shared.matches.analysis import AnalysisStore
from shared.matches.archive import storage_from_env
from shared.runtime.config import Settings, port_for
from shared.runtime.edge import wait
from shared.serving.grpc_server import Limits, RunningServer, serve_forever, start_server
from shared.serving.process import boot
from shared.serving.ratelimit import Limiter, Rate
from shared.serving.refusals import game_words
from shared.serving.tokens import TokenSigner
from shared.store.clients import redis_client, store_from_settings

BACKGROUND_THREADS = (
    5  # start_background's matcher, projector, notices, presence, tournaments: a connection each
)
# After a read of the outbox that found notices, each projector waits this long before the next read:
# a busy outbox comes in bigger pages (fewer reads, acknowledgements and notice writes per command).
# Under load a "your turn" notice is written at most LINGER later (an idle projector reads at once);
# a finished match's ratings and history, which nobody waits for to the second, at most
# RATINGS_LINGER later. Longer lingers halve the lobby's CPU per command under load (bench/README.md).
LINGER_VAR, DEFAULT_LINGER_MS = "TABULA_LOBBY_LINGER_MS", 100
RATINGS_LINGER_VAR, DEFAULT_RATINGS_LINGER_MS = "TABULA_LOBBY_RATINGS_LINGER_MS", 500
# Seconds between two passes of the tournament director over the live tournaments.
TOURNAMENT_TICK_VAR = "TABULA_TOURNAMENT_TICK_S"
# Seconds a player stays online after their last call or stream renewal (domain/friends.py).
PRESENCE_TTL_VAR = "TABULA_PRESENCE_TTL_S"
# Mails (verification and reset codes) per account address (MAIL_LIMIT): 3 at once, then one every
# 20 minutes.
MAIL_LIMIT_VAR, DEFAULT_MAIL_LIMIT = "TABULA_LIMIT_MAIL_ACCOUNT", "3/3600"
# The seasons' schedule (domain/seasons.py, docs/operations.md): quarterly, monthly, yearly, or a list
# of UTC starts. Every lobby instance must be given the same one.
SEASONS_VAR = "TABULA_SEASONS"


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Lobby:
    """A running lobby: the gRPC server plus its background threads."""

    server: RunningServer
    matcher: Matcher
    projector: RatingsProjector
    catalog: GameCatalog
    notices: NoticeProjector
    presence: PresenceService
    stopping: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    director: TournamentDirector | None = None
    tournament_tick_s: float = 1.0

    @property
    def port(self) -> int:
        return self.server.port

    def start_background(self, tick_s: float) -> None:
        self.projector.follower.ensure_groups()
        self.notices.follower.ensure_groups()
        loops = (
            ("matcher", self.matcher.run, (self.stopping, tick_s)),
            ("projector", self.projector.run, (self.stopping,)),
            ("notices", self.notices.run, (self.stopping,)),
            ("presence", self.presence.run, (self.stopping,)),
            *(
                (("tournaments", self.director.run, (self.stopping, self.tournament_tick_s)),)
                if self.director
                else ()
            ),
        )
        for name, loop, args in loops:
            thread = threading.Thread(target=loop, args=args, name=f"lobby-{name}", daemon=True)
            thread.start()
            self.threads.append(thread)

    def stop(self, grace: float = 5.0) -> None:
        self.stopping.set()
        self.server.stop(grace)
        for thread in self.threads:
            thread.join(5)
        self.catalog.close()


def _analyses(
    client: Any,
    settings: Settings,
    store: Any,
    private: PrivateMatches,
    catalog: GameCatalog,
    e: Mapping[str, str],
) -> Analyses:
    """Analyses sent to the workers' broker (``TABULA_BROKER_URL``, else the Redis of the store)."""
    jobs = AnalysisJobs(e.get("TABULA_BROKER_URL", settings.redis_url))
    records = AnalysisStore(client, settings.shards, float(e.get("TABULA_ANALYSIS_LEASE", "60")))
    hooks = lambda game: catalog.manifest(game).bots()  # noqa: E731
    iterations = int(e.get("TABULA_ANALYSIS_ITERATIONS", "400"))
    return Analyses(store, records, jobs.send, private, hooks, storage_from_env(e), iterations)


def build(
    settings: Settings,
    port: int,
    signer: TokenSigner,
    env: Mapping[str, str] | None = None,
    clock: Callable[[], int] = now_ms,
    policy: Policy | None = None,
    keepalive_ms: int = 10_000,
    push: PushSender | None = None,
    limiter: Limiter | None = None,
    limits: Limits | None = None,
    mailer: Mailer | None = None,
) -> Lobby:
    """``push``: the push-notification hook (default: ``TABULA_PUSH`` from ``env``, else a log line);
    ``limiter``: the abuse limits (default: ``TABULA_LIMIT_*`` from
    ``env``, else the defaults of ``shared/serving/ratelimit.py``); ``limits``: the server's caps (default:
    ``TABULA_RPC_WORKERS`` ... from ``env``), which size the Redis pool (docs/operations.md); ``mailer``:
    where account mail goes (default: ``TABULA_MAIL`` / ``TABULA_MAIL_DIR`` from ``env``,
    ``adapters/mail.py``). The OpenID Connect providers come from ``TABULA_OIDC_*`` in ``env``
    (``adapters/oidc.py``), the seasons from ``TABULA_SEASONS`` (a bad one is refused here, ValueError)."""
    e = env if env is not None else os.environ
    schedule = seasons.parse(e.get(SEASONS_VAR, ""))
    limits = limits if limits is not None else Limits.from_env(e)
    client = redis_client(settings, limits.redis_connections(background=BACKGROUND_THREADS))
    store = store_from_settings(settings, client)
    mine, private = PlayerMatches(client), PrivateMatches(client)
    catalog = GameCatalog(signer, env, index=MatchIndex(client), mine=mine, private=private)
    ratings = RatingsRepository(client)
    identity = Identity(signer, ratings, store, private)
    limiter = limiter if limiter is not None else Limiter.from_env(client, signer.keys, e)
    queue_repo = QueueRepository(client)
    notice_repo = NoticeRepository(client)
    push = push if push is not None else load_push(e)
    friend_repo = FriendRepository(client)
    chat_repo = ChatRepository(client)
    tournament_repo = TournamentRepository(client)
    rooms = RoomService(
        RoomRepository(client), catalog, identity, clock, friend_repo.blocked_by, chat_repo.open_to_spectators
    )
    queue = QueueService(queue_repo, ratings, catalog, identity, clock, schedule)
    notices = Notices(notice_repo, rooms.repo, ratings, identity, push, friend_repo.has_blocked)
    presence = PresenceService(
        friend_repo, notice_repo, ratings, private, clock, int(e.get(PRESENCE_TTL_VAR, ONLINE_TTL_S))
    )
    friends = Friends(friend_repo, presence, ratings, rooms.repo, notice_repo, push, clock)
    accounts = _accounts(client, signer, e, mailer if mailer is not None else load_mailer(e))
    profiles = Profiles(
        accounts,
        ProfileRepository(client),
        ratings,
        rooms.repo,
        store,
        catalog.names,
        storage_from_env(e),
        friend_repo.are_friends,
    )
    servicer = LobbyServicer(
        identity,
        rooms,
        queue,
        Standings(ratings, catalog, schedule, clock),
        keepalive_ms,
        MatchList(MatchIndex(client), store, ratings, catalog),
        MyMatches(mine, store, identity, rooms, queue, notices),
        notices,
        accounts,
        friends,
        Chat(chat_repo, rooms.repo, store, private, friend_repo),
        profiles,
        limiter,
        _external(client, e, accounts),
        _analyses(client, settings, store, private, catalog, e),
        TournamentService(tournament_repo, catalog, identity, clock, notice_repo),
    )
    for game in catalog.available():  # every game's rules loaded before serving, not in a first call
        # (seconds), and its texts: ListGames answers at once in every language
        for locale in LOCALES:
            game_words(game, locale)
    consumer = f"{socket.gethostname()}-{os.getpid()}-{port}"
    linger_ms = int(e.get(LINGER_VAR, DEFAULT_LINGER_MS))
    ratings_linger_ms = int(e.get(RATINGS_LINGER_VAR, DEFAULT_RATINGS_LINGER_MS))
    server = start_server([servicer.registration()], port=port, host=settings.host, limits=limits)
    return Lobby(
        server,
        Matcher(queue_repo, catalog, clock, store, policy, ratings=ratings),
        RatingsProjector(store, ratings, consumer, linger_ms=ratings_linger_ms, schedule=schedule),
        catalog,
        NoticeProjector(store, notice_repo, push, consumer, linger_ms=linger_ms, told=presence.playing),
        presence,
        director=TournamentDirector(tournament_repo, catalog, store, ratings, notice_repo, clock),
        tournament_tick_s=float(e.get(TOURNAMENT_TICK_VAR, "1")),
    )


def _accounts(client: Any, signer: TokenSigner, env: Mapping[str, str], mailer: Mailer) -> Accounts:
    """The accounts' use cases, with their limits: password tries, and mail per address."""
    mail_rate = Rate.parse(env.get(MAIL_LIMIT_VAR, DEFAULT_MAIL_LIMIT))
    mail_limiter = Limiter(client, {MAIL_LIMIT: mail_rate}, {"watches_per_token": 0}, signer.keys)

    def mail_limit(subject: str) -> None:
        wait(mail_limiter.take(MAIL_LIMIT, subject))

    tries = PasswordTries(client, tries_from_env(env))
    return Accounts(AccountRepository(client), signer, tries, mailer, mail_limit)


def _external(client: Any, env: Mapping[str, str], accounts: Accounts) -> ExternalSignIn | None:
    """Sign-in with the OpenID Connect providers of ``TABULA_OIDC_PROVIDERS`` (None: none)."""
    providers = providers_from_env(env)
    if not providers:
        return None
    return ExternalSignIn(providers, OidcClient(), PendingSignIns(client), accounts.repo, accounts)


def main() -> None:
    settings, keys = boot("lobby")
    lobby = build(settings, port_for("lobby"), TokenSigner(keys))
    lobby.start_background(float(os.environ.get("TABULA_MATCH_TICK_S", "0.5")))
    try:
        serve_forever(lobby.server, "lobby")
    finally:
        lobby.stop(0)


if __name__ == "__main__":
    main()
