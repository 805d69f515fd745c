"""The gRPC rule service every game runs: thin translation from protobuf to the runner.

Each RPC: authenticate (bearer token) -> proto to domain -> runner -> domain to proto. The
game contributes only its rules and its generated modules; guard clauses run in a fixed
order (shape, credentials, match exists, seat may act, rate limits, version) before the pure
decide. Credentials: a token for this game's service whose scope covers the match
(``shared/serving/tokens.py``, ``actor_for``).
The shape of every field is checked here (ids, versions, counts; a command against the game's
dataclass types by the codec) so a bad request is INVALID_ARGUMENT naming its field, before
anything is read or written (bounds: ``shared.serving.bounds``, docs/platform.md).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from tabula.common.v1 import common_pb2

from shared.core.codec import MessageCodec, to_proto, union_field, wrap_union
from shared.core.decider import SPECTATOR, SYSTEM, Actor, RuleViolation, Visibility
from shared.core.i18n import Texts, locale_of
from shared.core.lru import keep
from shared.core.resign import PLATFORM_TYPES
from shared.core.seats import SeatInfo, seat_of_actor
from shared.core.undo import COMMANDS_UNDONE, undone_to
from shared.matches.archive import ArchiveStorage, archived_lines, archived_runner
from shared.matches.runner import MatchRunner
from shared.serving import bounds
from shared.serving.errors import InvalidArgument, PermissionDenied
from shared.serving.grpc_server import Registration, offload, offload_soon, rpc, stream_rpc
from shared.serving.protogen import GameModules
from shared.serving.ratelimit import Limiter
from shared.serving.seen import SeenMarks
from shared.serving.tokens import Claims, Scope, TokenError, TokenSigner, game_audience
from shared.serving.watch import WatchHub
from shared.store import MatchMeta, StoredEvent

MAX_SEATS = 64  # far above any game's; the rules' make_config names the game's own range
MAX_NAME = 64  # a player id or a bot level in CreateMatch
MAX_OPTIONS = 16
MAX_OPTION_TEXT = 64
MAX_TURN_SECONDS = 7 * 24 * 3600
SHOWN_KEPT = 4096  # watch replies kept converted (a busy match's recent events, for all its watchers)
ARCHIVED_KEPT = 16  # archived matches kept folded in memory, for a replay stepped version by version


def check_options(options: Any) -> None:
    """Game options as the lobby sends them: a few short names and values (the rules parse them)."""
    if len(options) > MAX_OPTIONS:
        raise InvalidArgument("at most {most} options", "options", most=MAX_OPTIONS)
    for key, value in options.items():
        if not key or len(key) > MAX_OPTION_TEXT or len(value) > MAX_OPTION_TEXT:
            raise InvalidArgument(
                "option names and values are 1 to {most} characters", "options", most=MAX_OPTION_TEXT
            )


def bearer(context: grpc.ServicerContext) -> str:
    for key, value in context.invocation_metadata():
        if key == "authorization" and isinstance(value, str) and value.startswith("Bearer "):
            return value[len("Bearer ") :]
    raise TokenError("missing bearer token (metadata 'authorization: Bearer <token>')")


def actor_for(claims: Claims, match_id: str) -> Actor:
    """What a token (already checked to be for this game's service) may be in one match: the
    system (service), its seat (seat token of this match) or a spectator (spectator token of this
    match, from the lobby's GetSpectatorToken). Nothing else reads a match."""
    match claims.scope:
        case Scope.SERVICE:
            return SYSTEM
        case Scope.SEAT | Scope.SPECTATOR if claims.match_id != match_id:
            raise PermissionDenied("this {scope} token is for another match", scope=claims.scope.value)
        case Scope.SEAT if claims.seat >= 0:
            return Actor.of_seat(claims.seat)
        case Scope.SPECTATOR:
            return SPECTATOR
    raise PermissionDenied("a {scope} token cannot read a match", scope=claims.scope.value)


def envelope(event: StoredEvent) -> common_pb2.EventEnvelope:
    return common_pb2.EventEnvelope(
        version=event.version,
        type=event.type,
        payload=event.payload,
        visibility=event.visibility,
        actor=event.actor,
        server_time_ms=event.server_time_ms,
        schema_version=event.schema_version,
        command_id=event.command_id,
    )


def seat_message(seat: SeatInfo) -> common_pb2.Seat:
    return common_pb2.Seat(
        seat=seat.seat, display_name=seat.display_name, bot_level=seat.bot_level, label=seat.label
    )


def seat_messages(meta: MatchMeta) -> list[common_pb2.Seat]:
    return [seat_message(seat) for seat in meta.seat_infos]


class GameServicer:
    """Implements ``<Game>Service`` for any game over a :class:`MatchRunner`.

        ``content`` builds the game's typed content (its manifest's ``ContentHook.build``, given a
        locale) for ``GetContent``; it is built once per locale, on the first call in it. None: the
        game describes no components.
        ``archive``: where finished matches go when they leave Redis (``shared.matches.archiver``); ``Replay``
        and ``ExportLog`` of a match no longer in Redis read its log there (a few are kept in memory).
        Tokens must be for this game's service (audience ``game:<name>``). ``limiter``: the rate
        limits on commands, watches and reads (GetView, Replay, ExportLog) and the watch quota per
        token (None: none, for tests of other things); service tokens are never limited. ``texts``: the
    game's ``TEXTS``, which translate its refusals (``shared/serving/refusals.py``). ``hub``: where
        ``WatchMatch`` streams read (default: a hub over the runner's store's own ``stream_reader``), which
        hands what it reads to the runner (``MatchRunner.absorb``).

        Every RPC but ``GetContent`` (no I/O) is a coroutine on the serving loop: the rate limits, the
        runner and the store are awaited there. Only what has no asynchronous path runs on the server's
        thread pool (``shared.serving.grpc_server.offload``): the watch leases, reading the archive's
        storage, and the runner's folds of long tails (its ``offload``).
    """

    def __init__(
        self,
        runner: MatchRunner[Any],
        modules: GameModules,
        signer: TokenSigner,
        keepalive_s: float = 10.0,
        content: Callable[[str], Any] | None = None,
        archive: ArchiveStorage | None = None,
        limiter: Limiter | None = None,
        hub: WatchHub | None = None,
        away_seconds: int = 5,
        texts: Texts | None = None,
    ) -> None:
        self.texts = texts  # the game's TEXTS: its refusals in the caller's language (None: English)
        self.away_seconds = away_seconds  # a seat marked away's clock, as the workers' TABULA_AWAY_SECONDS
        self.runner, self.modules, self.signer, self.limiter = runner, modules, signer, limiter
        self.archive = archive
        self._archived: OrderedDict[str, MatchRunner[Any]] = OrderedDict()
        self._archive_lock = threading.Lock()
        self.content = content
        self._content_replies: dict[str, Any] = {}  # locale -> GetContent's answer
        self._content_lock = threading.Lock()
        self.rules = runner.rules
        self.audience = game_audience(self.rules.game)
        self.codec = MessageCodec(
            modules.pb2, [*self.rules.command_types, *self.rules.event_types, self.rules.view_type]
        )
        self.keepalive_ms = int(keepalive_s * 1000)
        self.hub = hub if hub is not None else WatchHub(runner.store.stream_reader(32), on_new=runner.absorb)
        self.seen = SeenMarks(runner.mark_seen)  # seats watching here: their turns wake no follower
        self._shown: OrderedDict[tuple[str, int, tuple[str, ...]], Any] = (
            OrderedDict()
        )  # the watch's converted events

    # ------------------------------------------------------------ helpers
    def _claims(self, context: grpc.ServicerContext) -> Claims:
        return self.signer.verify(bearer(context), self.audience)

    def _who(self, context: Any, match_id: str) -> tuple[Claims, Actor]:
        """The caller's claims and who it is in ``match_id`` (checked)."""
        bounds.match_id(match_id)
        claims = self._claims(context)
        return claims, actor_for(claims, match_id)

    async def _caller(self, context: Any, match_id: str) -> Actor:
        """Who reads ``match_id`` (Replay, ExportLog), once the read's rate limits allow it."""
        claims, caller = self._who(context, match_id)
        await self._limit("read", claims, context)
        return caller

    async def _limit(self, action: str, claims: Claims, context: Any) -> None:
        """A command, a watch or a read of a seat or a spectator: its rate limits (service tokens: none)."""
        if self.limiter is not None and claims.scope is not Scope.SERVICE:
            await self.limiter.check(action, context, claims.player_id)

    def _setup(self, request: Any) -> tuple[str, int, dict[str, str]]:
        """The match id, seed and platform meta of a CreateMatch request, every field checked."""
        match_id = bounds.match_id(request.match_id) if request.match_id else uuid.uuid4().hex
        seed = bounds.count(request.seed, "seed", 2**63 - 1) or secrets.randbits(62)
        check_options(request.options)
        seats = bounds.count(request.seats, "seats", MAX_SEATS)
        for seat, level in request.bots.items():
            if not 0 <= seat < seats or not level or len(level) > MAX_NAME:
                raise InvalidArgument("bots maps a seat (0 to {last}) to a bot level", "bots", last=seats - 1)
        if len(request.players) > seats or any(len(p) > MAX_NAME for p in request.players):
            raise InvalidArgument(
                "players: at most one id per seat, each at most {most} long", "players", most=MAX_NAME
            )
        if len(request.display_names) > seats or any(len(n) > MAX_NAME for n in request.display_names):
            raise InvalidArgument(
                "display_names: at most one per seat, each at most {most} long",
                "display_names",
                most=MAX_NAME,
            )
        extra = {
            "bots": json.dumps({str(seat): level for seat, level in sorted(request.bots.items())}),
            "turn_seconds": str(bounds.count(request.turn_seconds, "turn_seconds", MAX_TURN_SECONDS)),
            "players": json.dumps(list(request.players)),
            "names": json.dumps(list(request.display_names)),
        }
        return match_id, seed, extra

    def _command(self, request: Any) -> Any:
        """The command of a SubmitCommand request as the game's dataclass (CodecError names the field)."""
        if not request.HasField("command"):
            raise InvalidArgument("command is required", "command")
        member = union_field(request.command, "command")
        return self.codec.from_message(member, f"command.{request.command.WhichOneof('kind')}")

    def _view_message(self, state: Any, viewer: Actor) -> Any:
        return self.codec.to_message(self.rules.view(state, viewer))

    def _match_event(self, event: StoredEvent, seats: list[common_pb2.Seat]) -> Any:
        pb2 = self.modules.pb2
        if event.type in PLATFORM_TYPES:  # the platform's own (a resignation, an undo), not the game's
            if event.type == COMMANDS_UNDONE:
                undone = common_pb2.CommandsUndone.FromString(event.payload)
                platform = common_pb2.PlatformEvent(commands_undone=undone)
            else:
                resigned = common_pb2.SeatResigned.FromString(event.payload)
                platform = common_pb2.PlatformEvent(seat_resigned=resigned)
            out = pb2.MatchEvent(envelope=envelope(event), platform=platform)
        else:
            member = self.codec.stored_message(event.type, event.payload, event.schema_version)
            if member is None:  # stored with an older schema: decoded and upcast, then converted
                member = self.codec.to_message(self.runner.decode(event))
            out = pb2.MatchEvent(envelope=envelope(event), event=wrap_union(pb2.Event(), member))
        seat = seat_of_actor(event.actor)
        if seat is not None and seat < len(seats):
            out.actor_seat.CopyFrom(seats[seat])
        return out

    async def _revealed(self, match_id: str, viewer: Actor) -> Actor:
        """After the match ends the full log may be revealed to anyone who may watch it."""
        meta = MatchMeta.of(await (await self._source(match_id)).store.get_meta(match_id))
        return SYSTEM if meta.finished else viewer

    async def _source(self, match_id: str) -> MatchRunner[Any]:
        """The live runner; for a match archived out of Redis, a runner over its archived log."""
        if self.archive is None or await self.runner.store.get_meta(match_id):
            return self.runner
        with self._archive_lock:
            found = self._archived.get(match_id)
        if found is None:
            lines = await offload(archived_lines, self.archive, match_id)  # its storage may block
            if lines is None:
                return self.runner  # in neither place: the runner answers NOT_FOUND
            found = archived_runner(self.rules, self.runner.codec, lines, self.runner.offload)
            if MatchMeta.of(await found.store.get_meta(match_id)).game != self.rules.game:
                return self.runner  # another game's match
            with self._archive_lock:
                keep(self._archived, match_id, found, ARCHIVED_KEPT)
        return found

    # ------------------------------------------------------------ RPCs
    @rpc("game")
    async def CreateMatch(self, request: Any, context: Any) -> Any:
        if self._claims(context).scope is not Scope.SERVICE:
            raise PermissionDenied("only the lobby (a service token) creates matches")
        match_id, seed, extra = self._setup(request)
        loaded = await self.runner.create(match_id, request.seats, dict(request.options), seed, extra)
        return self.modules.pb2.CreateMatchResponse(match_id=match_id, version=loaded.version)

    @rpc("game")
    async def GetView(self, request: Any, context: Any) -> Any:
        """The read's rate limits and the match (a cached match's meta and tail in one script) are
        awaited, the view is built here."""
        claims, viewer = self._who(context, request.match_id)
        await self._limit("read", claims, context)
        loaded = await self.runner.load(request.match_id)
        pb2, state, resigned = self.modules.pb2, loaded.state, loaded.seating.resigned
        to_act = loaded.seating.to_act(self.rules.to_act(state))
        response = pb2.GetViewResponse(
            version=loaded.version,
            view=self._view_message(state, viewer),
            seats_to_act=[a.seat for a in to_act if a.is_seat],
            system_to_act=any(a.is_system for a in to_act),
            seats=seat_messages(loaded.meta),
            resigned=resigned,
        )
        outcome = self.runner.outcome(state, loaded.seating)
        playing = (viewer.is_seat and viewer.seat not in resigned) or viewer.is_system
        if playing and outcome is None:
            for command in self.rules.legal_commands(state, viewer):
                self.codec.fill_union(response.legal_commands.add(), command)
        if playing and outcome is None and viewer.is_seat:
            response.undoable = await self._undoable(request.match_id, viewer.seat, loaded)
        if outcome is not None:
            to_proto(outcome, response.outcome)
            response.outcome.SetInParent()
        elif loaded.meta.turn_seconds > 0 and loaded.version > 0:
            played = {*loaded.meta.bots, *resigned}  # by a bot, at once: no clock
            humans = [a.seat for a in to_act if a.is_seat and a.seat not in played]
            if humans:
                response.clocks.extend(
                    await self._clocks(request.match_id, loaded.version, loaded.meta, humans)
                )
        return response

    async def _undoable(self, match_id: str, seat: int, loaded: Any) -> bool:
        """Whether the seat's Undo would be accepted at ``loaded`` (the head)."""
        try:
            await self.runner.undo_point(match_id, seat, loaded)
        except RuleViolation:
            return False
        return True

    async def _clocks(self, match_id: str, version: int, meta: MatchMeta, seats: list[int]) -> list[Any]:
        """The turn clocks of ``seats`` at ``version``, as the reactor plans them (workers' planner):
        ``turn_seconds``, or ``min(turn_seconds, away_seconds)`` for a seat marked away, from the time
        of the version's last event (the reactor sets the clock when it sees that append)."""
        last = await self.runner.store.read(match_id, version, version)
        since = last[0].server_time_ms if last else 0
        now = int(time.time() * 1000)
        clocks = []
        for seat in seats:
            away = seat in meta.away_seats
            seconds = min(meta.turn_seconds, self.away_seconds) if away else meta.turn_seconds
            left = max(0, since + seconds * 1000 - now)
            clocks.append(common_pb2.TurnClock(seat=seat, seconds=seconds, remaining_ms=left, away=away))
        return clocks

    @rpc("game")
    async def SubmitCommand(self, request: Any, context: Any) -> Any:
        """The checks and the decision are CPU only (a token's claims are kept); the rate limits and
        the runner's reads and append are awaited."""
        claims, actor = self._who(context, request.match_id)
        if not (actor.is_seat or actor.is_system):
            raise PermissionDenied("spectators cannot send commands")
        await self._limit("command", claims, context)
        bounds.command_id(request.command_id)
        bounds.count(request.expected_version, "expected_version")
        command = self._command(request)
        done = await self.runner.submit(
            request.match_id, actor, command, request.expected_version, request.command_id
        )
        return self.modules.pb2.SubmitCommandResponse(
            first_version=done.first_version, last_version=done.last_version, duplicate=done.duplicate
        )

    @rpc("game")
    async def Resign(self, request: Any, context: Any) -> Any:
        """The caller's seat (a seat token of this match) resigns: ``MatchRunner.resign``."""
        claims, actor = self._who(context, request.match_id)
        if not actor.is_seat:
            raise PermissionDenied("only a seat's player resigns it (a seat token)")
        await self._limit("command", claims, context)
        bounds.command_id(request.command_id)
        expected = None
        if request.HasField("expected_version"):
            expected = bounds.count(request.expected_version, "expected_version")
        done = await self.runner.resign(request.match_id, actor.seat, request.command_id, expected)
        return self.modules.pb2.ResignResponse(
            first_version=done.first_version, last_version=done.last_version, duplicate=done.duplicate
        )

    @rpc("game")
    async def Undo(self, request: Any, context: Any) -> Any:
        """The caller's seat (a seat token of this match) takes back its latest command:
        ``MatchRunner.undo``."""
        claims, actor = self._who(context, request.match_id)
        if not actor.is_seat:
            raise PermissionDenied("only a seat's player takes back its commands (a seat token)")
        await self._limit("command", claims, context)
        bounds.command_id(request.command_id)
        expected = bounds.count(request.expected_version, "expected_version")
        done = await self.runner.undo(request.match_id, actor.seat, request.command_id, expected)
        appended = await self.runner.store.read(request.match_id, done.first_version, done.first_version)
        undid = appended and appended[0].type == COMMANDS_UNDONE  # not, when the id was another call's
        to_version = undone_to(appended[0].payload) if undid else 0
        return self.modules.pb2.UndoResponse(
            first_version=done.first_version,
            last_version=done.last_version,
            duplicate=done.duplicate,
            to_version=to_version,
        )

    @stream_rpc("game")
    async def WatchMatch(self, request: Any, context: Any) -> AsyncIterator[Any]:
        claims, viewer = self._who(context, request.match_id)
        bounds.count(request.from_version, "from_version")
        loaded = await self.runner.load(request.match_id)  # NOT_FOUND before the stream starts
        seats = seat_messages(loaded.meta)
        lease = None
        if self.limiter is not None and claims.scope is not Scope.SERVICE:
            await self.limiter.check("watch", context, claims.player_id)
            lease = await offload(self.limiter.lease, claims.token_id)  # the token's concurrent-watch quota
        seat = viewer.seat if viewer.is_seat else None  # its player is marked as watching live
        marked: int | None = None
        try:
            if seat is not None:
                await self.seen.open(request.match_id, seat)
                marked = seat
            async for reply in self._follow(request, viewer, seats):
                if lease is not None and lease.due():
                    await offload(lease.renew)
                if seat is not None:
                    await self.seen.renew(request.match_id, seat)
                yield reply
        finally:
            if lease is not None:
                offload_soon(lease.release)
            if marked is not None:
                self.seen.close(request.match_id, marked)

    async def _follow(self, request: Any, viewer: Actor, seats: list[common_pb2.Seat]) -> AsyncIterator[Any]:
        """WatchMatch's replies: the viewer's events from ``from_version`` on, keepalives when idle."""
        pb2, match_id = self.modules.pb2, request.match_id
        async for batch, head in self.hub.watch(match_id, request.from_version, self.keepalive_ms / 1000):
            if not batch:
                yield pb2.WatchMatchResponse(keepalive=common_pb2.Keepalive(head_version=head))
            shown = 0
            for event in batch:
                if Visibility.decode(event.visibility).visible_to(viewer):
                    shown = event.version
                    yield self._shown_event(match_id, event, seats)
            if batch and shown != batch[-1].version:  # it ends out of the viewer's sight: say so now
                last = batch[-1].version
                yield pb2.WatchMatchResponse(keepalive=common_pb2.Keepalive(head_version=last))

    def _shown_event(self, match_id: str, event: StoredEvent, seats: list[common_pb2.Seat]) -> Any:
        """The reply carrying ``event``, converted once for all its watchers (the last few kept); a
        seat renamed since (a deleted account's) makes it anew."""
        key = (match_id, event.version, tuple(seat.display_name for seat in seats))
        reply = self._shown.get(key)
        if reply is None:
            reply = self.modules.pb2.WatchMatchResponse(event=self._match_event(event, seats))
            keep(self._shown, key, reply, SHOWN_KEPT)
        return reply

    @rpc("game")
    async def Replay(self, request: Any, context: Any) -> Any:
        viewer = await self._caller(context, request.match_id)
        runner = await self._source(request.match_id)
        head = (await runner.load(request.match_id)).version
        bounds.count(request.version, "version", head)  # 0: before the setup (the rules' initial state)
        loaded = await runner.load(request.match_id, at_version=request.version)
        viewer = await self._revealed(request.match_id, viewer)
        return self.modules.pb2.ReplayResponse(
            version=loaded.version,
            view=self._view_message(loaded.state, viewer),
            seats=seat_messages(loaded.meta),
            resigned=loaded.seating.resigned,
        )

    @rpc("game")
    async def ExportLog(self, request: Any, context: Any) -> Any:
        viewer = await self._revealed(request.match_id, await self._caller(context, request.match_id))
        runner = await self._source(request.match_id)
        seats = seat_messages((await runner.load(request.match_id)).meta)
        if not viewer.is_system:
            raise PermissionDenied("the full log is revealed only after the match ends")
        events = [self._match_event(e, seats) for e in await runner.store.read(request.match_id)]
        return self.modules.pb2.ExportLogResponse(events=events)

    @rpc("game")
    def GetContent(self, request: Any, context: grpc.ServicerContext) -> Any:
        """Public, the same for every match: no token is read. Its texts are in the call's locale
        (metadata ``accept-language``); built once per locale, then answered as is."""
        locale = locale_of(context.invocation_metadata())
        with self._content_lock:
            reply = self._content_replies.get(locale)
            if reply is None:
                reply = self.modules.pb2.GetContentResponse()
                if self.content is not None:
                    to_proto(self.content(locale), reply.content)
                    reply.content.SetInParent()
                self._content_replies[locale] = reply
            return reply

    # ------------------------------------------------------------ wiring
    def registration(self) -> Registration:
        """grpc only needs the method names, so this object is the servicer itself."""
        service = self.modules.pb2.DESCRIPTOR.services_by_name[f"{self.modules.name}Service"]
        return Registration(self, service, "game", (self.texts,) if self.texts is not None else ())
