"""The LobbyService's tournament RPCs (a mixin of ``servicer.LobbyServicer``) and their conversions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeAlias

import grpc
from tabula.common.v1 import common_pb2
from tabula.lobby.v1 import tournaments_pb2 as tpb

from services.lobby.domain.tournaments import Format, Standing, Status, TableState, Tournament
from services.lobby.service_layer.tournaments import NewTournament, TournamentSeen, TournamentService
from shared.serving.errors import InvalidArgument
from shared.serving.grpc_server import rpc, stream_rpc
from shared.serving.tokens import Claims

Ctx: TypeAlias = grpc.ServicerContext

FORMAT = {
    tpb.TOURNAMENT_FORMAT_SWISS: Format.SWISS,
    tpb.TOURNAMENT_FORMAT_ROUND_ROBIN: Format.ROUND_ROBIN,
    tpb.TOURNAMENT_FORMAT_SINGLE_ELIMINATION: Format.SINGLE_ELIMINATION,
}
FORMAT_PB = {v: k for k, v in FORMAT.items()}
STATUS_PB = {
    Status.REGISTERING: tpb.TOURNAMENT_STATUS_REGISTERING,
    Status.RUNNING: tpb.TOURNAMENT_STATUS_RUNNING,
    Status.FINISHED: tpb.TOURNAMENT_STATUS_FINISHED,
    Status.CANCELLED: tpb.TOURNAMENT_STATUS_CANCELLED,
}
TABLE_PB = {
    TableState.PENDING: tpb.TABLE_STATUS_PENDING,
    TableState.PLAYING: tpb.TABLE_STATUS_PLAYING,
    TableState.DONE: tpb.TABLE_STATUS_DONE,
}


def tournament(t: Tournament) -> tpb.Tournament:
    return tpb.Tournament(
        tournament_id=t.tournament_id,
        name=t.name,
        game=t.game,
        creator_id=t.creator,
        format=FORMAT_PB[t.format],
        options=dict(t.options),
        seats_per_table=t.seats,
        round_count=t.rounds,
        turn_seconds=t.turn_seconds,
        allow_bots=t.allow_bots,
        bot_level=t.bot_level,
        start_at_ms=t.start_ms,
        max_players=t.max_players,
        status=STATUS_PB[t.status],
        registered=len(t.entrants),
        current_round=len(t.played),
        created_at_ms=t.created_ms,
        ended_at_ms=t.ended_ms,
        ended_reason=t.ended_reason,
        version=t.version,
    )


def standing(s: Standing) -> tpb.TournamentStanding:
    return tpb.TournamentStanding(
        rank=s.rank,
        player_id=s.player_id,
        display_name=s.name,
        points=float(s.points),
        buchholz=float(s.buchholz),
        game_score=s.game_score,
        wins=s.wins,
        played=s.played,
        byes=s.byes,
        forfeits=s.forfeits,
        withdrawn=s.withdrawn,
        eliminated=s.eliminated,
    )


def seen(s: TournamentSeen) -> tpb.GetTournamentResponse:
    t = s.tournament
    names = {e.player_id: e.name for e in t.entrants}
    rounds = [
        tpb.TournamentRound(
            number=r.number,
            started_at_ms=r.started_ms,
            tables=[
                tpb.TournamentTable(
                    number=table.number,
                    match_id=table.match_id,
                    status=TABLE_PB[table.state],
                    seats=[
                        tpb.TournamentSeat(
                            player_id=player,
                            display_name=names.get(player, ""),
                            placing=table.placings[seat] if table.placings else 0,
                            score=table.scores[seat] if table.scores else 0,
                            forfeited=seat in table.forfeited,
                            points=float(table.points(seat)),
                        )
                        for seat, player in enumerate(table.seats)
                    ],
                )
                for table in r.tables
            ],
        )
        for r in t.played
    ]
    return tpb.GetTournamentResponse(
        tournament=tournament(t),
        standings=[standing(row) for row in s.standings],
        rounds=rounds,
        registered=s.registered,
        my_match_id=s.match_id,
        my_seat=s.seat,
        my_seat_token=s.seat_token,
    )


def new_tournament(request: tpb.CreateTournamentRequest) -> NewTournament:
    if request.format not in FORMAT:
        raise InvalidArgument(
            "format is SWISS, ROUND_ROBIN or SINGLE_ELIMINATION", "format", "tournament_format"
        )
    return NewTournament(
        request.name,
        request.game,
        FORMAT[request.format],
        dict(request.options),
        request.seats_per_table,
        request.round_count,
        request.turn_seconds,
        request.allow_bots,
        request.bot_level,
        request.start_at_ms,
        request.max_players,
    )


class TournamentRpcs:
    """The tournament RPCs; the servicer supplies ``tournaments``, ``_caller``, ``_limit``, ``_watch``."""

    tournaments: TournamentService | None
    keepalive_ms: int
    _caller: Callable[[Ctx], Claims]
    _limit: Callable[..., None]
    _watch: Callable[..., Iterator[Any]]

    def _tournaments(self) -> TournamentService:
        assert self.tournaments is not None, "a lobby built without tournaments"
        return self.tournaments

    @rpc("lobby")
    def CreateTournament(
        self, request: tpb.CreateTournamentRequest, context: Ctx
    ) -> tpb.CreateTournamentResponse:
        caller = self._caller(context)
        self._limit("create_room", context, caller)
        t = self._tournaments().create(caller, new_tournament(request))
        return tpb.CreateTournamentResponse(tournament=tournament(t))

    @rpc("lobby")
    def ListTournaments(
        self, request: tpb.ListTournamentsRequest, context: Ctx
    ) -> tpb.ListTournamentsResponse:
        self._caller(context)
        found = self._tournaments().list(request.game, request.limit, request.include_ended)
        return tpb.ListTournamentsResponse(tournaments=[tournament(t) for t in found])

    @rpc("lobby")
    def GetTournament(self, request: tpb.GetTournamentRequest, context: Ctx) -> tpb.GetTournamentResponse:
        return seen(self._tournaments().get(self._caller(context), request.tournament_id))

    @rpc("lobby")
    def RegisterForTournament(
        self, request: tpb.RegisterForTournamentRequest, context: Ctx
    ) -> tpb.RegisterForTournamentResponse:
        caller = self._caller(context)
        self._limit("join", context, caller)
        t = self._tournaments().register(caller, request.tournament_id)
        return tpb.RegisterForTournamentResponse(tournament=tournament(t))

    @rpc("lobby")
    def WithdrawFromTournament(
        self, request: tpb.WithdrawFromTournamentRequest, context: Ctx
    ) -> tpb.WithdrawFromTournamentResponse:
        t = self._tournaments().withdraw(self._caller(context), request.tournament_id)
        return tpb.WithdrawFromTournamentResponse(tournament=tournament(t))

    @rpc("lobby")
    def CancelTournament(
        self, request: tpb.CancelTournamentRequest, context: Ctx
    ) -> tpb.CancelTournamentResponse:
        t = self._tournaments().cancel(self._caller(context), request.tournament_id)
        return tpb.CancelTournamentResponse(tournament=tournament(t))

    @stream_rpc("lobby")
    def WatchTournament(
        self, request: tpb.WatchTournamentRequest, context: Ctx
    ) -> Iterator[tpb.WatchTournamentResponse]:
        caller = self._caller(context)
        follow = self._tournaments().watch(caller, request.tournament_id, self.keepalive_ms)
        for now in self._watch(caller, context, follow):
            if now is None:
                yield tpb.WatchTournamentResponse(keepalive=common_pb2.Keepalive())
            else:
                yield tpb.WatchTournamentResponse(tournament=seen(now))
