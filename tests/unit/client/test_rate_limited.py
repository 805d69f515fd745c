"""A call refused by a rate limit: the RetryInfo delay read from a real status (built by
shared/serving/errors.py), the terminal client's wait-and-resend of the very same request (bounded, the
wait capped) and the line the player sees meanwhile."""

from __future__ import annotations

import io
from typing import Any

import grpc
import pytest
from rich.console import Console

from services.client.presentation import presentation_for
from services.client.rpc import LIMITED_RETRIES, LIMITED_WAIT_S, GameClient, limited_wait_s
from services.client.session import Player
from shared.serving.errors import Mapped, ResourceExhausted, retry_delay_s, to_status
from shared.store import VersionConflict
from tests.support.timing import wait_until
from tests.unit.client.fakes import FakeLorenzoStub, FakeRpcError, new_match, rpc_error

pytestmark = pytest.mark.timeout(120)


def limited(delay_s: float) -> ResourceExhausted:
    return ResourceExhausted("rate_limited", "command_player", delay_s, "too many calls; retry later")


def test_the_retry_delay_is_read_from_the_status_details() -> None:
    assert retry_delay_s(rpc_error(limited(2.25))) == 2.25
    assert retry_delay_s(rpc_error(limited(0.083))) == pytest.approx(0.083)
    assert retry_delay_s(rpc_error(VersionConflict("m1", 1, 2))) is None  # ABORTED has no RetryInfo


def test_only_resource_exhausted_with_a_retry_info_is_waited_for_and_the_wait_is_capped() -> None:
    assert limited_wait_s(rpc_error(limited(2.0))) == 2.0
    assert limited_wait_s(rpc_error(limited(600.0))) == LIMITED_WAIT_S
    assert limited_wait_s(rpc_error(limited(600.0)), most_s=1.5) == 1.5
    # a message over grpc's size limit: RESOURCE_EXHAUSTED without RetryInfo, the same on every try
    too_big = FakeRpcError(to_status(Mapped(grpc.StatusCode.RESOURCE_EXHAUSTED, "", "too big", {}), "game"))
    assert retry_delay_s(too_big) is None and limited_wait_s(too_big) is None
    # UNAVAILABLE has a RetryInfo too, but it is retried with the client's own back-off
    outage = FakeRpcError(
        to_status(Mapped(grpc.StatusCode.UNAVAILABLE, "store_unavailable", "down", {}, None, 1), "game")
    )
    assert retry_delay_s(outage) == 1 and limited_wait_s(outage) is None


class Recorded:
    """The SubmitCommand requests a fake rule service received, and the client's sleeps."""

    def __init__(self, stub: FakeLorenzoStub) -> None:
        self.requests: list[Any] = []
        self.sleeps: list[float] = []
        submit = stub.SubmitCommand

        def recording(request: Any, metadata: Any = (), timeout: float | None = None) -> Any:
            self.requests.append((request.command_id, request.expected_version))
            return submit(request, metadata=metadata, timeout=timeout)

        stub.SubmitCommand = recording  # type: ignore[method-assign]


def _client(stub: FakeLorenzoStub, recorded: Recorded) -> GameClient:
    return GameClient(stub, stub.pb2, stub.match_id, "token", deadline_s=5, sleep=recorded.sleeps.append)


def test_a_limited_command_is_sent_again_after_the_delay_with_the_same_id_and_the_player_is_told() -> None:
    stub = new_match(seats=2, seed=3)
    recorded = Recorded(stub)
    stub.fail_next_submit += [limited(2.0), limited(0.04)]
    console = Console(width=200, record=True, no_color=True, file=io.StringIO())

    answered = 0
    left = False

    def answer() -> str:
        """ "1" to each new question until the first command is sent, then leave (and keep leaving:
        the input thread may read once more after the player has gone, with no question to wait for)."""
        nonlocal answered, left
        if left:
            return "q"
        wait_until(lambda: len(player.prompts) > answered, 30, "a question")
        answered = len(player.prompts)
        left = bool(recorded.requests)
        return "q" if left else "1"

    player = Player(
        client=_client(stub, recorded),
        presentation=presentation_for("lorenzo"),
        console=console,
        names=("Ada", "random bot"),
        read_line=answer,
        live=True,
    )
    player.play()
    first, *others = recorded.requests
    assert others == [first, first]  # the same command id and expected version, twice more
    assert len(stub.submitted) == 1  # applied once
    assert recorded.sleeps == [2.0, 0.04]
    text = console.export_text(clear=False)
    assert "busy, retrying in 2 s" in text and "busy, retrying in 0.1 s" in text
    assert "busy, retrying in 2 s" in text[text.rindex("Towers") :]  # still under the redrawn board
    assert "Refused" not in text


def test_a_call_still_limited_after_a_few_tries_fails_with_the_limit() -> None:
    stub = new_match(seats=2, seed=3)
    recorded = Recorded(stub)
    stub.fail_next_submit += [limited(30.0)] * (LIMITED_RETRIES + 1)
    client = _client(stub, recorded)
    waits: list[float] = []
    client.on_limited = waits.append
    view = client.get_view()
    while not view.legal_commands:  # the bots and the system play until it is our turn
        assert stub.act_now()
        view = client.get_view()
    with pytest.raises(grpc.RpcError) as err:
        client.submit(view.legal_commands[0], view.version)
    assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert waits == recorded.sleeps == [LIMITED_WAIT_S] * LIMITED_RETRIES  # capped, bounded
    assert len(set(recorded.requests)) == 1 and len(recorded.requests) == LIMITED_RETRIES + 1
    assert stub.submitted == []


def test_a_watch_refused_by_its_quota_reconnects_after_the_delay() -> None:
    stub = new_match(seats=2, seed=3)
    recorded = Recorded(stub)
    watch = stub.WatchMatch
    refusals = [rpc_error(ResourceExhausted("quota_exceeded", "watches_per_token", 30.0, "too many"))]

    def refusing(request: Any, metadata: Any = (), timeout: float | None = None) -> Any:
        if refusals:
            raise refusals.pop()
        return watch(request, metadata=metadata, timeout=timeout)

    stub.WatchMatch = refusing  # type: ignore[method-assign]
    client = _client(stub, recorded)
    first = next(iter(client.follow(1)))
    assert first.version == 1 and recorded.sleeps == [LIMITED_WAIT_S] and client.reconnects == 1
