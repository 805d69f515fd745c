"""An in-process stand-in for a rule service: the real rules and runner on a MemoryEventStore.

``FakeLorenzoStub`` answers GetView / SubmitCommand / WatchMatch / Replay like the gRPC stub
(same request and response messages, ``metadata`` and ``timeout`` keywords, errors as
``grpc.RpcError`` with a ``google.rpc.Status`` ErrorInfo), and while its watch stream has nothing
new it plays the other seats and the system with random legal commands, as the workers would
(also during the watched seat's turn in simultaneous phases). The client follows the stream in a
thread of its own, so the stub is guarded by a lock; ``hold`` stops the others in chosen states,
and ``act_now`` makes one of them act when a test says so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
from tabula.common.v1 import common_pb2

from services.games import LoadedGame, load_game
from shared.core.codec import to_proto, union_field, wrap_union
from shared.core.decider import SPECTATOR, Actor, RuleViolation, Visibility
from shared.core.rng import Rng
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.serving.errors import map_error, to_status
from shared.serving.game_service import envelope
from shared.store import MemoryEventStore, StoredEvent


class FakeRpcError(grpc.RpcError, grpc.Call):  # type: ignore[misc]
    """What a failed call raises on the client: code, details and the rich-status trailer."""

    def __init__(self, status: grpc.Status) -> None:
        super().__init__(status.details)
        self._status = status

    def code(self) -> grpc.StatusCode:
        return self._status.code

    def details(self) -> str:
        return str(self._status.details)

    def trailing_metadata(self) -> Any:
        return self._status.trailing_metadata

    def initial_metadata(self) -> Any:
        return ()

    def is_active(self) -> bool:
        return False

    def time_remaining(self) -> float | None:
        return None

    def cancel(self) -> bool:
        return False

    def add_callback(self, callback: Any) -> bool:
        return False


def rpc_error(err: BaseException) -> FakeRpcError:
    mapped = map_error(err)
    assert mapped is not None, err
    return FakeRpcError(to_status(mapped, "game"))


def unavailable() -> FakeRpcError:
    from shared.serving.errors import Mapped

    return FakeRpcError(to_status(Mapped(grpc.StatusCode.UNAVAILABLE, "unavailable", "gone", {}), "game"))


@dataclass
class FakeLorenzoStub:
    game: LoadedGame
    runner: MatchRunner[Any]
    match_id: str
    viewer: Actor
    rng: Rng = field(default_factory=lambda: Rng(7))
    calls: list[str] = field(default_factory=list)
    submitted: list[Any] = field(default_factory=list)
    fail_next_submit: list[BaseException] = field(default_factory=list)
    break_stream_after: int = 0  # raise UNAVAILABLE after this many items of the next stream
    others_step_before_submit: int = 0  # let others act first (a stale expected_version)
    before_submit: Callable[[], None] | None = None  # runs once, just before the next submit
    hold: Callable[[Any], bool] = lambda state: False  # others wait in the states it accepts
    labels: tuple[str, ...] = ()  # the seats' labels GetView reports (as the lobby named them)
    steps: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def pb2(self) -> Any:
        return self.game.modules.pb2

    def _others_act(self, force: bool = False) -> bool:
        """One random legal command by the system or another seat; False if only the viewer may act
        (or ``hold`` keeps the others waiting, unless ``force``)."""
        with self.lock:
            state = wait(self.runner.load(self.match_id)).state
            rules = self.game.rules
            if rules.outcome(state) is not None or (self.hold(state) and not force):
                return False
            others = [a for a in rules.to_act(state) if a != self.viewer]
            if not others:
                return False
            actor = self.rng.choice(others)
            command = self.rng.choice(rules.legal_commands(state, actor))
            loaded = wait(self.runner.load(self.match_id))
            self.steps += 1
            wait(self.runner.submit(self.match_id, actor, command, loaded.version, f"fake-{self.steps}"))
            return True

    def act_now(self) -> bool:
        """Another seat (or the system) acts now, whatever ``hold`` says."""
        return self._others_act(force=True)

    def play_for_viewer(self) -> None:
        """What a turn clock does: the viewer's seat plays its last legal command."""
        with self.lock:
            loaded = wait(self.runner.load(self.match_id))
            command = self.game.rules.legal_commands(loaded.state, self.viewer)[-1]
            self.steps += 1
            wait(
                self.runner.submit(self.match_id, self.viewer, command, loaded.version, f"clock-{self.steps}")
            )

    def state(self) -> Any:
        with self.lock:
            return wait(self.runner.load(self.match_id)).state

    def _event(self, event: StoredEvent) -> Any:
        member = self.game.codec.to_message(self.runner.decode(event))
        return self.pb2.MatchEvent(envelope=envelope(event), event=wrap_union(self.pb2.Event(), member))

    # ------------------------------------------------------------ the stub's methods
    def GetView(self, request: Any, metadata: Any = (), timeout: float | None = None) -> Any:
        assert timeout, "every call needs a deadline"
        with self.lock:
            return self._get_view(request)

    def _get_view(self, request: Any) -> Any:
        self.calls.append("GetView")
        loaded = wait(self.runner.load(request.match_id))
        rules, state = self.game.rules, loaded.state
        response = self.pb2.GetViewResponse(
            version=loaded.version,
            view=self.game.codec.to_message(rules.view(state, self.viewer)),
            seats_to_act=[a.seat for a in rules.to_act(state) if a.is_seat],
            system_to_act=any(a.is_system for a in rules.to_act(state)),
        )
        for seat, label in enumerate(self.labels):
            response.seats.add(seat=seat, label=label)
        if self.viewer.is_seat:
            for command in rules.legal_commands(state, self.viewer):
                wrap_union(response.legal_commands.add(), self.game.codec.to_message(command))
        outcome = rules.outcome(state)
        if outcome is not None:
            to_proto(outcome, response.outcome)
            response.outcome.SetInParent()
        return response

    def SubmitCommand(self, request: Any, metadata: Any = (), timeout: float | None = None) -> Any:
        assert timeout and request.command_id
        with self.lock:
            return self._submit(request)

    def _submit(self, request: Any) -> Any:
        self.calls.append("SubmitCommand")
        for _ in range(self.others_step_before_submit):
            self._others_act(force=True)
        self.others_step_before_submit = 0
        if self.before_submit is not None:
            run, self.before_submit = self.before_submit, None
            run()
        if self.fail_next_submit:
            raise rpc_error(self.fail_next_submit.pop(0))
        command = self.game.codec.from_message(union_field(request.command))
        self.submitted.append(command)
        try:
            done = wait(
                self.runner.submit(
                    request.match_id, self.viewer, command, request.expected_version, request.command_id
                )
            )
        except Exception as err:
            raise rpc_error(err) from err
        return self.pb2.SubmitCommandResponse(
            first_version=done.first_version, last_version=done.last_version
        )

    def WatchMatch(self, request: Any, metadata: Any = (), timeout: float | None = None) -> Iterator[Any]:
        assert timeout
        self.calls.append(f"WatchMatch:{request.from_version}")
        budget, self.break_stream_after = self.break_stream_after, 0
        return self._stream(request.from_version, budget)

    def _stream(self, next_version: int, budget: int) -> Iterator[Any]:
        sent = 0
        while True:
            with self.lock:
                events = wait(self.runner.store.read(self.match_id, next_version))
            if not events:
                if not self._others_act():
                    head = wait(self.runner.store.version(self.match_id))
                    time.sleep(0.01)  # a server sends keepalives now and then, not in a busy loop
                    yield self.pb2.WatchMatchResponse(keepalive=common_pb2.Keepalive(head_version=head))
                    sent += 1
                continue
            for event in events:
                next_version = event.version + 1
                if budget and sent >= budget:
                    raise unavailable()
                if Visibility.decode(event.visibility).visible_to(self.viewer):
                    yield self.pb2.WatchMatchResponse(event=self._event(event))
                    sent += 1

    def Replay(self, request: Any, metadata: Any = (), timeout: float | None = None) -> Any:
        assert timeout
        with self.lock:
            loaded = wait(self.runner.load(request.match_id, at_version=request.version))
        view = self.game.codec.to_message(self.game.rules.view(loaded.state, self.viewer))
        return self.pb2.ReplayResponse(version=loaded.version, view=view)


def new_match(
    seats: int = 2, seed: int = 3, advanced: bool = True, viewer: Actor | None = None
) -> FakeLorenzoStub:
    game = load_game("lorenzo")
    runner: MatchRunner[Any] = MatchRunner(game.rules, game.codec, MemoryEventStore())
    wait(runner.create("m1", seats, {"advanced": "true" if advanced else "false"}, seed, {}))
    return FakeLorenzoStub(game, runner, "m1", viewer if viewer is not None else Actor.of_seat(0))


__all__ = ["SPECTATOR", "FakeLorenzoStub", "FakeRpcError", "RuleViolation", "new_match", "rpc_error"]
