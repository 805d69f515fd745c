"""A property-based fuzzer over every RPC of the rule services (the race test game, Lorenzo) and the
lobby, over real gRPC and Redis: random well-typed requests (from the request's descriptor, with
valid ids and versions mixed in, and legal commands with one field changed) and random bytes.

For every call: never INTERNAL or UNKNOWN; INVALID_ARGUMENT names its field in a BadRequest; a
refused call leaves all of Redis as it was; nothing is logged at ERROR. Each rule service's fuzz
reaches its rules (a SubmitCommand answered OK). After the fuzz the services are healthy and serve a
good request.

Short by default (a few hundred examples, derandomized, well under a minute); ``TABULA_FUZZ=1``
runs 40 times as many with fresh randomness.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabula.lobby.v1 import lobby_pb2 as lb

from services.games import load_game
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
    service,
    view,
)
from tests.integration.hardening.strategies import NUDGES, messages, nudged

# One worker for the module under pytest-xdist (make test: --dist loadgroup), so the last test's health
# checks run where the fuzz ran. Nothing may depend on it: pytest-xdist 3.8 on pytest 9.2 ignores the
# mark (pytest-xdist#1386: its group goes into a node id that pytest no longer reads) and deals the
# module's tests out to both workers one by one; and between them a worker may run another module's
# tests, after which pytest builds this module's fixtures afresh.
pytestmark = pytest.mark.xdist_group("fuzz_rpc")
TRIED: set[str] = set()  # "<service> <method> <outcome>" of every call the fuzz made in this process
FUZZ = os.environ.get("TABULA_FUZZ") == "1"
# A legal command (of a seat to act, or the system) as it is or with one field changed.
INDEX = st.integers(0, 2**16)
NEAR = st.tuples(st.booleans(), INDEX, INDEX, st.booleans(), INDEX, NUDGES)
NEVER = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}


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
    valid: Callable[[], dict[str, Any]]
    focus: tuple[str, ...] = ()  # methods drawn more often (where the rules are)

    def methods(self) -> list[str]:
        return sorted(self.served.service.methods_by_name) + [m for m in self.focus for _ in range(4)]

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
    fix(request, target.valid(), data)
    caller = data.draw(st.sampled_from(target.callers), label="caller")
    if turn is not None and method == "SubmitCommand":
        # Always the same draws, whatever the match's state (hypothesis replays test cases).
        near, who, which, change, pick, value = data.draw(NEAR, label="near legal")
        actors = turn()
        if near and actors:
            caller, commands = actors[who % len(actors)]
            chosen = commands[which % len(commands)]
            request.command.CopyFrom(nudged(chosen, pick, value) if change else chosen)
            valid = target.valid()
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

    def valid() -> dict[str, Any]:
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


@pytest.fixture(scope="module")
def race_target(race: Served, redis_db: redis.Redis) -> tuple[Target, Any]:
    pb2 = load_game("race").modules.pb2
    create = pb2.CreateMatchRequest(match_id="fz-race", seats=3, options={"goal": "100"}, seed=11)
    race.call("CreateMatch", create.SerializeToString(), SERVICE)
    return game_target(race, "race", redis_db, "fz-race", 3)


@pytest.fixture(scope="module")
def lorenzo_target(lorenzo: Served, redis_db: redis.Redis) -> tuple[Target, Any]:
    pb2 = load_game("lorenzo").modules.pb2
    create = pb2.CreateMatchRequest(match_id="fz-lorenzo", seats=3, options={"advanced": "true"}, seed=12)
    lorenzo.call("CreateMatch", create.SerializeToString(), service("lorenzo"))
    play(lorenzo, pb2, "fz-lorenzo", 12, seed=3)  # into the draft and the first actions
    return game_target(lorenzo, "lorenzo", redis_db, "fz-lorenzo", 3)


def fuzz_rules(target: Target, turn: Any, examples: int, caplog: pytest.LogCaptureFixture) -> None:
    """``examples`` random requests to a rule service, then the proof that they reached its rules: a
    SubmitCommand answered OK. Checked here, by the test that made the calls, and not by a later test
    (which may run in another worker, see ``pytestmark``)."""
    reached = f"{target.served.service.name} SubmitCommand OK"
    TRIED.discard(reached)

    @budget(examples)
    @given(data=st.data())
    def requests(data: st.DataObject) -> None:
        fuzz_once(target, data, caplog, turn)

    requests()
    assert reached in TRIED, sorted(TRIED)


def test_the_race_rule_service_survives_random_requests(
    race_target: tuple[Target, Any], caplog: pytest.LogCaptureFixture
) -> None:
    fuzz_rules(*race_target, 100, caplog)


def test_the_lorenzo_rule_service_survives_random_requests(
    lorenzo_target: tuple[Target, Any], caplog: pytest.LogCaptureFixture
) -> None:
    fuzz_rules(*lorenzo_target, 200, caplog)


@budget(60)
@given(data=st.data())
def test_the_rule_services_survive_random_bytes(
    race_target: tuple[Target, Any],
    lorenzo_target: tuple[Target, Any],
    data: st.DataObject,
    caplog: pytest.LogCaptureFixture,
) -> None:
    target = data.draw(st.sampled_from([race_target[0], lorenzo_target[0]]), label="service")
    bytes_once(target, data, caplog)


# ---------------------------------------------------------------- the lobby


@pytest.fixture(scope="module")
def lobby_target(lobby: Served, redis_db: redis.Redis, race_target: tuple[Target, Any]) -> Target:
    def sign_in(name: str) -> tuple[str, list[tuple[str, str]]]:
        reply = lobby.call("SignInGuest", lb.SignInGuestRequest(display_name=name).SerializeToString())
        return reply.player_id, auth(reply.token)

    host_id, host = sign_in("Host")
    _, other = sign_in("Other")
    private = lb.CreateRoomRequest(game="race", seats=3, visibility=lb.ROOM_VISIBILITY_PRIVATE)
    room = lobby.call("CreateRoom", private.SerializeToString(), host).room
    ticket = lobby.call("Enqueue", lb.EnqueueRequest(game="race").SerializeToString(), other).ticket_id
    valid = {
        "game": "race",
        "room_id": room.room_id,
        "invite_code": room.invite_code,
        "ticket_id": ticket,
        "match_id": "fz-race",
        "player_id": host_id,
        "display_name": "Fuzz",
    }
    callers = [host, other, None, auth("garbage"), SERVICE]
    return Target(lobby, redis_db, callers, lambda: valid)


@budget(150)
@given(data=st.data())
def test_the_lobby_survives_random_requests(
    lobby_target: Target, data: st.DataObject, caplog: pytest.LogCaptureFixture
) -> None:
    fuzz_once(lobby_target, data, caplog)


@budget(50)
@given(data=st.data())
def test_the_lobby_survives_random_bytes(
    lobby_target: Target, data: st.DataObject, caplog: pytest.LogCaptureFixture
) -> None:
    bytes_once(lobby_target, data, caplog)


# ---------------------------------------------------------------- after


def test_every_service_is_healthy_and_serves_after_the_fuzz(
    race_target: tuple[Target, Any], lorenzo_target: tuple[Target, Any], lobby_target: Target
) -> None:
    for target in (race_target[0], lorenzo_target[0], lobby_target):
        health = health_pb2_grpc.HealthStub(target.served.channel)
        answer = health.Check(
            health_pb2.HealthCheckRequest(service=target.served.service.full_name), timeout=5
        )
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
    for target, game, match_id in (
        (race_target[0], "race", "fz-race"),
        (lorenzo_target[0], "lorenzo", "fz-lorenzo"),
    ):
        assert view(target.served, load_game(game).modules.pb2, match_id, seat(match_id, 0, game)).version > 0
    listed = lobby_target.served.call("ListGames", b"", None)
    assert "race" in {g.name for g in listed.games}
