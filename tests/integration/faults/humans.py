"""Paced "human" clients of a game's rule service, retrying as a real client does.

Each client plays one seat over gRPC with a seat token: it polls its view, picks one of its legal
commands, and submits it with a command id of its own. ``UNAVAILABLE`` and ``DEADLINE_EXCEEDED``
(the rule service or Redis is down) are retried with the same command id and expected version until
answered, and so is ``RESOURCE_EXHAUSTED`` with a RetryInfo (a rate limit: after its delay, capped as
the terminal client caps it, ``services.client.rpc.limited_wait_s``); ``ABORTED`` (the match
moved: a bot of a simultaneous phase was first) makes it look again and decide anew, with a new
command id. Every command the server acknowledged is recorded with the
versions it answered, for the checks after the soak.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import grpc

from services.client.rpc import limited_wait_s
from shared.serving.errors import error_info
from shared.serving.tokens import TokenSigner

RETRY = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
CALL_TIMEOUT = 10.0
TOKEN_TTL = 3600
# A real client reconnects quickly after a restart rather than after grpc's default back-off (up to 2 min).
CHANNEL_OPTIONS = [("grpc.initial_reconnect_backoff_ms", 200), ("grpc.max_reconnect_backoff_ms", 2000)]


@dataclass(frozen=True)
class Ack:
    match_id: str
    command_id: str
    first_version: int
    last_version: int
    duplicate: bool


@dataclass
class Ledger:
    """What the clients saw, shared by their threads."""

    acks: list[Ack] = field(default_factory=list)
    retries: int = 0  # UNAVAILABLE / DEADLINE_EXCEEDED answers, retried with the same command id
    aborted: int = 0  # ABORTED answers: looked again and decided anew
    limited: int = 0  # RESOURCE_EXHAUSTED with a RetryInfo: waited its delay, same request again
    in_flight: set[tuple[str, str]] = field(default_factory=set)  # (match, command id) sent, unanswered
    errors: list[str] = field(default_factory=list)  # anything a client must never get
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, **counts: int) -> None:
        with self.lock:
            for name, n in counts.items():
                setattr(self, name, getattr(self, name) + n)


class Human(threading.Thread):
    """One seat of one match, until the match has an outcome or ``stop`` is set."""

    def __init__(
        self,
        port: int,
        game: str,
        modules: Any,
        signer: TokenSigner,
        match_id: str,
        seat: int,
        ledger: Ledger,
        seed: int,
        stop: threading.Event,
    ) -> None:
        super().__init__(name=f"human-{match_id}-{seat}", daemon=True)
        self.port, self.pb2 = port, modules.pb2
        self.stub = getattr(modules.pb2_grpc, f"{modules.name}ServiceStub")
        self.match_id, self.seat, self.ledger, self.stop = match_id, seat, ledger, stop
        token = signer.seat(game, match_id, seat, f"human-{match_id}-{seat}", TOKEN_TTL)
        self.auth = [("authorization", f"Bearer {token}")]
        self.rng = random.Random(seed)
        self.sent = 0
        self.finished = False

    def run(self) -> None:
        with grpc.insecure_channel(f"127.0.0.1:{self.port}", options=CHANNEL_OPTIONS) as channel:
            stub = self.stub(channel)
            try:
                self._play(stub)
            except grpc.RpcError as err:  # an answer no retry cures: the test reports it
                info = error_info(err)
                reason = info.reason if info is not None else ""
                self.ledger.errors.append(f"{self.name}: {err.code().name} {reason}: {err.details()}")
            except Exception as err:  # a client must not die silently either
                self.ledger.errors.append(f"{self.name}: {type(err).__name__}: {err}")

    def _play(self, stub: Any) -> None:
        while not self.stop.is_set():
            view = self._call(stub.GetView, self.pb2.GetViewRequest(match_id=self.match_id))
            if view is None:
                return
            if view.HasField("outcome"):
                self.finished = True
                return
            if self.seat not in view.seats_to_act or not view.legal_commands:
                time.sleep(0.1)  # not our turn: look again soon
                continue
            time.sleep(self.rng.uniform(0.02, 0.15))  # a person takes a moment
            self._submit(stub, view.version, self.rng.choice(list(view.legal_commands)))

    def _submit(self, stub: Any, version: int, command: Any) -> None:
        self.sent += 1
        command_id = f"human:{self.match_id}:{self.seat}:{self.sent}"
        request = self.pb2.SubmitCommandRequest(
            match_id=self.match_id, expected_version=version, command_id=command_id, command=command
        )
        with self.ledger.lock:
            self.ledger.in_flight.add((self.match_id, command_id))
        try:
            reply = self._call(stub.SubmitCommand, request)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.ABORTED:
                raise
            self.ledger.add(aborted=1)
            return
        finally:
            with self.ledger.lock:
                self.ledger.in_flight.discard((self.match_id, command_id))
        if reply is not None:
            ack = Ack(self.match_id, command_id, reply.first_version, reply.last_version, reply.duplicate)
            with self.ledger.lock:
                self.ledger.acks.append(ack)

    def _call(self, method: Any, request: Any) -> Any:
        """The answer, retrying what a retry may cure with the very same request; None once stopped."""
        delay = 0.1
        while not self.stop.is_set():
            try:
                return method(request, metadata=self.auth, timeout=CALL_TIMEOUT)
            except grpc.RpcError as err:
                wait = limited_wait_s(err)
                if wait is not None:
                    self.ledger.add(limited=1)
                    self.stop.wait(wait)
                    continue
                if err.code() not in RETRY:
                    raise
                self.ledger.add(retries=1)
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
        return None
