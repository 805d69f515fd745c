"""The fault suite's human clients retry what a retry may cure with the very same request: a
rate-limited call (RESOURCE_EXHAUSTED with a RetryInfo, a status built by shared/serving/errors.py) after its
delay; ABORTED and a RESOURCE_EXHAUSTED without RetryInfo are not retried."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import grpc
import pytest

from shared.serving.errors import Mapped, ResourceExhausted, to_status
from shared.serving.tokens import TokenSigner
from shared.store import VersionConflict
from tests.integration.faults.humans import Human, Ledger
from tests.unit.client.fakes import FakeRpcError, rpc_error


def human(ledger: Ledger) -> Human:
    modules = SimpleNamespace(pb2=None, pb2_grpc=SimpleNamespace(GameServiceStub=None), name="Game")
    signer = TokenSigner(b"humans-retry-secret-0123456789abcdef")
    return Human(0, "game", modules, signer, "m1", 0, ledger, 1, threading.Event())


class Answers:
    """A stub method answering with ``answers`` in turn (an exception is raised), recording requests."""

    def __init__(self, *answers: Any) -> None:
        self.answers, self.requests = list(answers), list[Any]()

    def __call__(self, request: Any, metadata: Any = (), timeout: float | None = None) -> Any:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


def test_a_rate_limited_call_is_sent_again_after_its_delay() -> None:
    ledger = Ledger()
    limited = rpc_error(ResourceExhausted("rate_limited", "command_player", 0.3, "too many calls"))
    method = Answers(limited, "answer")
    request = object()
    started = time.monotonic()
    assert human(ledger)._call(method, request) == "answer"
    assert time.monotonic() - started >= 0.3
    assert method.requests == [request, request] and (ledger.limited, ledger.retries) == (1, 0)


@pytest.mark.parametrize(
    "refusal",
    [
        rpc_error(VersionConflict("m1", 1, 2)),
        FakeRpcError(to_status(Mapped(grpc.StatusCode.RESOURCE_EXHAUSTED, "", "too big", {}), "lorenzo")),
    ],
)
def test_other_refusals_are_not_retried(refusal: grpc.RpcError) -> None:
    ledger = Ledger()
    with pytest.raises(grpc.RpcError):
        human(ledger)._call(Answers(refusal, "answer"), object())
    assert (ledger.limited, ledger.retries) == (0, 0)
