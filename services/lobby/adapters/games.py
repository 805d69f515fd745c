"""The lobby's view of the games: their manifests (seats, options), their rules (for validation)
and their services, all through the registry (``services.games``). Outcomes need no game code:
the runner records them in the match meta (see ``service_layer/projections.py``).

Game services are reached at ``TABULA_<GAME>_ADDR``, else by the deployment's convention
``TABULA_ADDRESS_PATTERN``, else ``127.0.0.1:<port>`` (the port from ``TABULA_<GAME>_PORT`` or the
manifest; a comma-separated list of instances is one round_robin channel,
``shared/serving/addresses.py``) with a short-lived service token for that game's service and a
deadline on every call. Channels are opened lazily, once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import grpc

from services.games import LoadedGame, game_names, game_port, load_game, load_rules, manifest
from services.lobby.adapters.match_index import MatchIndex, PlayerMatches, PrivateMatches
from services.lobby.domain import validation
from shared.core.manifest import GameManifest
from shared.runtime.observability import log_fields
from shared.serving.addresses import ROUND_ROBIN, channel_target, service_address
from shared.serving.errors import Conflict, Unavailable
from shared.serving.stubs import game_stub
from shared.serving.tokens import TokenSigner

log = logging.getLogger("tabula.lobby")


@dataclass(frozen=True, slots=True)
class MatchRequest:
    """What the lobby asks a rule service to set up."""

    game: str
    match_id: str
    seats: int
    options: Mapping[str, str]
    bots: Mapping[int, str]  # seat -> level
    players: tuple[str, ...]  # player id per seat, "" for bots
    turn_seconds: int
    listed: bool = True  # offered to spectators by ListMatches (not for private rooms)
    names: tuple[str, ...] = ()  # display name per seat, "" for bots: the game service labels seats with them
    viewers: frozenset[str] = (
        frozenset()
    )  # a private room's: who may watch (players, invitees); empty: anyone


class GameCatalog:
    def __init__(
        self,
        signer: TokenSigner,
        env: Mapping[str, str] | None = None,
        timeout_s: float = 10.0,
        index: MatchIndex | None = None,
        mine: PlayerMatches | None = None,
        private: PrivateMatches | None = None,
    ) -> None:
        self.signer, self.timeout_s, self.index, self.mine = signer, timeout_s, index, mine
        self.private = private
        self.env = dict(env if env is not None else os.environ)
        self._rules: dict[str, Any] = {}
        self._channels: dict[str, grpc.Channel] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        return game_names()

    def manifest(self, game: str) -> GameManifest:
        """What the game is (seat range, options); an unknown game is INVALID_ARGUMENT."""
        validation.game_name(game, self.names())
        return manifest(game)

    def rules(self, game: str) -> Any:
        """The game's pure rules; an unknown game is INVALID_ARGUMENT, a broken one UNAVAILABLE-like."""
        validation.game_name(game, self.names())
        with self._lock:
            if game not in self._rules:
                self._rules[game] = self._load(game)
            return self._rules[game]

    def available(self) -> list[GameManifest]:
        """Manifests of every game whose rules load (a game mid-development is left out and logged)."""
        out = []
        for name in self.names():
            try:
                self.rules(name)
            except Conflict:
                continue
            out.append(manifest(name))
        return out

    def create_match(self, request: MatchRequest) -> None:
        loaded = self._game(request.game)
        pb2 = loaded.modules.pb2
        message = pb2.CreateMatchRequest(
            match_id=request.match_id,
            seats=request.seats,
            options=dict(request.options),
            bots=dict(request.bots),
            turn_seconds=request.turn_seconds,
            players=list(request.players),
            display_names=list(request.names),
        )
        stub = game_stub(pb2, self._channel(request.game))
        if self.mine is not None:  # before creating: a match made by a lobby that then died is still found
            self.mine.record(request.match_id, [p for p in request.players if p], int(time.time() * 1000))
        if self.private is not None and request.viewers:  # before creating: never public for a moment
            self.private.restrict(request.match_id, set(request.viewers))
        token = self.signer.service(request.game, ttl_s=300)
        try:
            stub.CreateMatch(message, metadata=[("authorization", f"Bearer {token}")], timeout=self.timeout_s)
        except grpc.RpcError as err:
            log.warning(
                "create match failed",
                extra=log_fields(
                    game=request.game, match_id=request.match_id, code=str(err.code()), details=err.details()
                ),
            )
            if err.code() is grpc.StatusCode.UNAVAILABLE:  # not created: undo the records, say retry
                self._forget(request)
                raise Unavailable(
                    "game_service_unavailable",
                    "the {game} service cannot be reached; retry",
                    game=request.game,
                ) from err
            raise Conflict(
                "match_create_failed",
                "the {game} service refused: {details}",
                game=request.game,
                details=err.details(),
            ) from err
        if self.index is not None and request.listed:
            self.index.record(request.match_id, int(time.time() * 1000))

    def resign(self, game: str, match_id: str, seat: int, player_id: str, command_id: str) -> None:
        """Resign a seat for its player (a tournament's forfeit, ``service_layer/tournaments.py``) with a
        seat token the lobby signs; the same ``command_id`` again changes nothing."""
        pb2 = self._game(game).modules.pb2
        stub = game_stub(pb2, self._channel(game))
        token = self.signer.seat(game, match_id, seat, player_id, ttl_s=300)
        request = pb2.ResignRequest(match_id=match_id, command_id=command_id)
        try:
            stub.Resign(request, metadata=[("authorization", f"Bearer {token}")], timeout=self.timeout_s)
        except grpc.RpcError as err:
            if err.code() is grpc.StatusCode.UNAVAILABLE:
                raise Unavailable(
                    "game_service_unavailable", "the {game} service cannot be reached; retry", game=game
                ) from err
            raise Conflict(
                "forfeit_refused", "the {game} service refused: {details}", game=game, details=err.details()
            ) from err

    def close(self) -> None:
        with self._lock:
            for channel in self._channels.values():
                channel.close()
            self._channels.clear()

    # ------------------------------------------------------------ helpers
    def _forget(self, request: MatchRequest) -> None:
        """Take back what :meth:`create_match` recorded before asking for a match never created."""
        if self.mine is not None:
            self.mine.forget(request.match_id, [p for p in request.players if p])
        if self.private is not None and request.viewers:
            self.private.forget(request.match_id)

    def _load(self, game: str) -> Any:
        try:
            return load_rules(game)
        except Exception as err:  # a game whose code does not import yet must not take the lobby down
            log.warning("game rules unavailable", extra=log_fields(game=game, error=repr(err)))
            raise Conflict("game_unavailable", "{game} is not available right now", game=game) from err

    def _game(self, game: str) -> LoadedGame:
        validation.game_name(game, self.names())
        try:
            return load_game(game)
        except Exception as err:  # rules or generated code missing: the game is not deployable yet
            log.warning("game unavailable", extra=log_fields(game=game, error=repr(err)))
            raise Conflict("game_unavailable", "{game} is not available right now", game=game) from err

    def _channel(self, game: str) -> grpc.Channel:
        with self._lock:
            if game not in self._channels:
                address = service_address(game, game_port(game, self.env), self.env)
                # round_robin: calls go to every address the name resolves to (a headless Service)
                # or the list names (shared/serving/addresses.py)
                self._channels[game] = grpc.insecure_channel(channel_target(address), [ROUND_ROBIN])
            return self._channels[game]
