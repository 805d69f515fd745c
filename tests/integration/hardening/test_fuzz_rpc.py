"""A property-based fuzzer over every RPC of the rule services and the lobby (its account RPCs too,
with an account among the callers), over real gRPC and Redis: random well-typed requests (from the
request's descriptor, with valid ids and versions mixed in, and legal commands with one field
changed) and random bytes.

The rule services fuzzed are every game of the registry (services/games.py), found there, so a
game added to it is fuzzed without a test naming it, and the race test game; the lobby reaches a
rule service of each, and its valid ids (room, ticket, match) are drawn per game.

For every call: never INTERNAL or UNKNOWN; INVALID_ARGUMENT names its field in a BadRequest; a
refused call leaves all of Redis as it was; nothing is logged at ERROR. Each rule service's fuzz
reaches its rules (a SubmitCommand answered OK). After its fuzz each service is healthy and serves a
good request (checked by the test that fuzzed it: no test relies on another's having run).

Short by default (a hundred examples per game and a few hundred for the lobby, derandomized);
``TABULA_FUZZ=1`` runs 40 times as many with fresh randomness.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabula.lobby.v1 import lobby_pb2 as lb

from services.games import game_names, load_game
from shared.serving.errors import bad_request, error_info
from tests.integration.hardening.conftest import (
    SERVICE,
    SIGNER,
    Served,
    auth,
    dump,
    errors_logged,
    play,
    seat,
    serve_game,
    serve_lobby,
    service,
    view,
)
from tests.integration.hardening.strategies import NUDGES, messages, nudged

TRIED: set[str] = set()  # "<service> <method> <outcome>" of every call the fuzz made in this process
FUZZ = os.environ.get("TABULA_FUZZ") == "1"
# A legal command (of a seat to act, or the system) as it is or with one field changed.
INDEX = st.integers(0, 2**16)
NEAR = st.tuples(st.booleans(), INDEX, INDEX, st.booleans(), INDEX, NUDGES)
NEVER = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}
# The lobby's account under fuzz (no valid refresh token is mixed in: a reused one ends its session,
# a refusal that changes Redis on purpose).
EMAIL, PASSWORD = "fuzz@example.org", "fuzz password"


def budget(examples: int) -> Any:
    return settings(
        max_examples=examples * 40 if FUZZ else examples,
        deadline=None,
        database=None,
        derandomize=not FUZZ,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )


@dataclass
class Target:
    """A service under fuzz: who may call it, and the valid values of its request fields right now."""

    served: Served
    client: redis.Redis
    callers: list[list[tuple[str, str]] | None]
    valid: Callable[[st.DataObject], dict[str, Any]]  # the values for one example (it may draw)
    focus: tuple[str, ...] = ()  # methods drawn more often (where the rules are)

    def methods(self) -> list[str]:
        """Every method but ``Resign``: one that lands ends a two-seat match, and no command could
        reach the rules after it (its refusals: test_bad_input.py, tests/integration/test_resign.py)."""
        every = sorted(set(self.served.service.methods_by_name) - {"Resign"})
        return every + [m for m in self.focus for _ in range(4)]

    def send(
        self,
        method: str,
        raw: bytes,
        metadata: list[tuple[str, str]] | None,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        """One call, and every property checked on its answer."""
        before = dump(self.client)
        caplog.clear()
        try:
            self.served.call(method, raw, metadata, timeout=5)
            outcome = "OK"
        except StopIteration:
            outcome = "OK"  # a stream that ended at once (a room already started)
        except grpc.RpcError as err:
            outcome = err.code().name
            assert err.code() not in NEVER, (method, err.code(), err.details())
            assert err.code() is not grpc.StatusCode.DEADLINE_EXCEEDED, (method, err.details())
            info = error_info(err)
            assert info is not None and info.reason, (method, err.details())
            if err.code() is grpc.StatusCode.INVALID_ARGUMENT:
                request = bad_request(err)
                assert request is not None and len(request.field_violations) == 1, (method, err.details())
                named = request.field_violations[0].field
                assert named or info.reason == "malformed_request", (method, err.details())
            assert dump(self.client) == before, (method, err.code(), err.details())
        assert errors_logged(caplog) == [], method
        TRIED.add(f"{self.served.service.name} {method} {outcome}")


def fix(request: Any, valid: dict[str, Any], data: st.DataObject) -> None:
    """Put valid values into some top-level fields, so calls get past the first checks."""
    for name, value in valid.items():
        if name in request.DESCRIPTOR.fields_by_name and data.draw(st.integers(0, 9), label=name) < 7:
            setattr(request, name, value)


def fuzz_once(
    target: Target, data: st.DataObject, caplog: pytest.LogCaptureFixture, turn: Any = None
) -> None:
    method = data.draw(st.sampled_from(target.methods()), label="method")
    request: Any = data.draw(messages(target.served.request_type(method).DESCRIPTOR), label="request")
    valid = target.valid(data)
    fix(request, valid, data)
    caller = data.draw(st.sampled_from(target.callers), label="caller")
    if turn is not None and method == "SubmitCommand":
        # Always the same draws, whatever the match's state (hypothesis replays test cases).
        near, who, which, change, pick, value = data.draw(NEAR, label="near legal")
        actors = turn()
        if near and actors:
            caller, commands = actors[who % len(actors)]
            chosen = commands[which % len(commands)]
            request.command.CopyFrom(nudged(chosen, pick, value) if change else chosen)
            valid = target.valid(data)
            request.match_id, request.expected_version = valid["match_id"], valid["version"]
            request.command_id = valid["command_id"]
    target.send(method, request.SerializeToString(), caller, caplog)


def bytes_once(target: Target, data: st.DataObject, caplog: pytest.LogCaptureFixture) -> None:
    method = data.draw(st.sampled_from(sorted(target.served.service.methods_by_name)), label="method")
    raw = data.draw(st.binary(max_size=64), label="bytes")
    target.send(method, raw, data.draw(st.sampled_from(target.callers), label="caller"), caplog)


# ---------------------------------------------------------------- the rule services


def game_target(
    served: Served, game: str, client: redis.Redis, match_id: str, seats: int
) -> tuple[Target, Any]:
    pb2 = load_game(game).modules.pb2
    spectator, system = auth(SIGNER.spectator(game, match_id, "s")), service(game)
    callers = [None, system, spectator, auth("garbage"), seat("elsewhere", 0, game)]
    callers += [seat(match_id, n, game) for n in range(seats)]

    def valid(data: st.DataObject) -> dict[str, Any]:
        head = view(served, pb2, match_id, system).version
        fresh = uuid.uuid4().hex
        return {"match_id": match_id, "expected_version": head, "version": head, "command_id": fresh}

    def turn() -> list[tuple[list[tuple[str, str]], list[Any]]]:
        """Who may act now, each with their legal commands."""
        head = view(served, pb2, match_id, system)
        actors = [system] if head.system_to_act else [seat(match_id, n, game) for n in head.seats_to_act]
        found = [(who, list(view(served, pb2, match_id, who).legal_commands)) for who in actors]
        return [(who, commands) for who, commands in found if commands]

    return Target(served, client, callers, valid, ("SubmitCommand",)), turn


# Every game of the registry (services/games.py), and the race test game registered for this module.
GAMES = list(dict.fromkeys([*game_names(), "race"]))
OPTIONS = {"race": {"goal": "100"}}  # a long race: it must not end during the fuzz; others: defaults
SEATS = 3  # within each game's seat range (clamped)


@pytest.fixture(scope="module", params=GAMES)
def rule_target(
    request: pytest.FixtureRequest, registered: None, redis_db: redis.Redis
) -> Iterator[tuple[Target, Any]]:
    """One game's rule service with a match a dozen legal commands in, under fuzz."""
    game = load_game(request.param)
    served = serve_game(game, redis_db)
    seats = min(max(SEATS, game.manifest.min_seats), game.manifest.max_seats)
    match_id = f"fz-{game.manifest.name}"
    create = game.modules.pb2.CreateMatchRequest(
        match_id=match_id, seats=seats, options=OPTIONS.get(game.manifest.name, {}), seed=12
    )
    served.call("CreateMatch", create.SerializeToString(), service(game.manifest.name))
    play(served, game.modules.pb2, match_id, 12, seed=3)  # into the match's first moves
    yield game_target(served, game.manifest.name, redis_db, match_id, seats)
    served.channel.close()
    served.running.stop(0)


def fuzz_rules(target: Target, turn: Any, examples: int, caplog: pytest.LogCaptureFixture) -> None:
    """``examples`` random requests to a rule service, then the proof that they reached its rules (a
    SubmitCommand answered OK) and that the service is healthy and serves a good request. Checked
    here, by the test that made the calls: a later test may run in another worker (pytest-xdist 3.8
    on pytest 9.2 ignores ``xdist_group``, pytest-xdist#1386), with fixtures built afresh."""
    reached = f"{target.served.service.name} SubmitCommand OK"
    TRIED.discard(reached)

    @budget(examples)
    @given(data=st.data())
    def requests(data: st.DataObject) -> None:
        fuzz_once(target, data, caplog, turn)

    requests()
    assert reached in TRIED, sorted(TRIED)
    healthy(target)
    game = target.served.game
    match_id = f"fz-{game}"
    assert view(target.served, load_game(game).modules.pb2, match_id, seat(match_id, 0, game)).version > 0


def healthy(target: Target) -> None:
    health = health_pb2_grpc.HealthStub(target.served.channel)
    answer = health.Check(health_pb2.HealthCheckRequest(service=target.served.service.full_name), timeout=5)
    assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_each_rule_service_survives_random_requests(
    rule_target: tuple[Target, Any], caplog: pytest.LogCaptureFixture
) -> None:
    fuzz_rules(*rule_target, 100, caplog)


def test_each_rule_service_survives_random_bytes(
    rule_target: tuple[Target, Any], caplog: pytest.LogCaptureFixture
) -> None:
    @budget(20)
    @given(data=st.data())
    def calls(data: st.DataObject) -> None:
        bytes_once(rule_target[0], data, caplog)

    calls()
    healthy(rule_target[0])


# ---------------------------------------------------------------- the lobby


@pytest.fixture(scope="module")
def lobby_target(registered: None, redis_url: str, redis_db: redis.Redis) -> Iterator[Target]:
    """The lobby, with a rule service for every game; per game, a private room, a queue ticket and a
    match, the values the fuzz puts into requests that name that game."""
    games = {name: serve_game(load_game(name), redis_db) for name in GAMES}
    lobby, stop = serve_lobby(redis_url, {name: served.running.port for name, served in games.items()})

    def sign_in(name: str) -> tuple[str, list[tuple[str, str]]]:
        reply = lobby.call("SignInGuest", lb.SignInGuestRequest(display_name=name).SerializeToString())
        return reply.player_id, auth(reply.token)

    valid: dict[str, dict[str, Any]] = {}
    callers: list[list[tuple[str, str]] | None] = [None, auth("garbage"), SERVICE]
    account = lb.SignUpRequest(email=EMAIL, password=PASSWORD, display_name="Fuzz account")
    callers.append(auth(lobby.call("SignUp", account.SerializeToString()).session.access_token))
    for name, served in games.items():
        host_id, host = sign_in(f"Host {name}")
        _, other = sign_in(f"Other {name}")  # one room or queue at a time: a player per game
        callers += [host, other]
        private = lb.CreateRoomRequest(game=name, seats=3, visibility=lb.ROOM_VISIBILITY_PRIVATE)
        room = lobby.call("CreateRoom", private.SerializeToString(), host).room
        ticket = lobby.call("Enqueue", lb.EnqueueRequest(game=name).SerializeToString(), other).ticket_id
        create = load_game(name).modules.pb2.CreateMatchRequest(match_id=f"fz-lobby-{name}", seats=3, seed=5)
        served.call("CreateMatch", create.SerializeToString(), service(name))
        valid[name] = {
            "game": name,
            "room_id": room.room_id,
            "invite_code": room.invite_code,
            "ticket_id": ticket,
            "match_id": f"fz-lobby-{name}",
            "player_id": host_id,
            "display_name": "Fuzz",
            "email": EMAIL,  # the account's: SignIn, RequestPasswordReset; taken for SignUp, UpgradeGuest
            "password": PASSWORD,
            "current_password": PASSWORD,  # ChangePassword by the account
        }
    yield Target(lobby, redis_db, callers, partial(_one_game, valid))
    stop()
    for served in games.values():
        served.channel.close()
        served.running.stop(0)


def _one_game(valid: dict[str, dict[str, Any]], data: st.DataObject) -> dict[str, Any]:
    return valid[data.draw(st.sampled_from(GAMES), label="game")]


def test_the_lobby_survives_random_requests(lobby_target: Target, caplog: pytest.LogCaptureFixture) -> None:
    @budget(150)
    @given(data=st.data())
    def requests(data: st.DataObject) -> None:
        fuzz_once(lobby_target, data, caplog)

    requests()
    healthy(lobby_target)
    listed = lobby_target.served.call("ListGames", b"", None)
    assert set(GAMES) <= {g.name for g in listed.games}


def test_the_lobby_survives_random_bytes(lobby_target: Target, caplog: pytest.LogCaptureFixture) -> None:
    @budget(50)
    @given(data=st.data())
    def calls(data: st.DataObject) -> None:
        bytes_once(lobby_target, data, caplog)

    calls()
    healthy(lobby_target)
