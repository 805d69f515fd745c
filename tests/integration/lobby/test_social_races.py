"""Races on the social calls over real gRPC and Redis: calls sent at the same moment from many threads
(a barrier lets them go together) settle as one would alone, exactly once: two players asking each
other, one chat message sent again and again under one client id, two accounts taking one name, an
account deleted twice at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from tabula.lobby.v1 import chat_pb2
from tabula.lobby.v1 import lobby_pb2 as pb

from shared.serving.errors import error_info
from tests.integration.lobby.conftest import Guest, LobbyFactory, sign_in
from tests.integration.lobby.test_accounts import PASSWORD, QUIET, sign_up
from tests.integration.lobby.test_limits import stub_of

TOGETHER = 8  # threads let go at once


@pytest.fixture
def stub(make_lobby: LobbyFactory) -> Any:
    return stub_of(make_lobby(env=QUIET))


def together(calls: list[Callable[[], Any]]) -> list[str]:
    """Run ``calls`` at the same moment; for each, "ok" or its refusal's code and reason."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> str:
        barrier.wait()
        try:
            call()
            return "ok"
        except grpc.RpcError as err:
            info = error_info(err)
            return f"{err.code().name} {info.reason if info else err.details()}"

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def account(stub: Any, email: str, name: str) -> Guest:
    session = sign_up(stub, email, name)
    return Guest(session.player_id, session.access_token)


def test_two_players_asking_each_other_at_once_are_friends_once(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")

    def ask(who: Guest, whom: Guest) -> Callable[[], Any]:
        request = pb.SendFriendRequestRequest(player_id=whom.player_id)
        return lambda: stub.SendFriendRequest(request, metadata=who.md, timeout=10)

    answers = together([ask(ada, bob), ask(bob, ada)] * (TOGETHER // 2))
    assert "ok" in answers and all(a == "ok" or "already" in a for a in answers), answers
    for who, other in ((ada, bob), (bob, ada)):
        listed = stub.ListFriends(pb.ListFriendsRequest(), metadata=who.md, timeout=5)
        assert [f.player_id for f in listed.friends] == [other.player_id]
        assert not listed.incoming and not listed.outgoing, "no request left waiting"


def test_one_client_message_id_sent_at_once_from_many_threads_is_stored_once(stub: Any) -> None:
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    stub.SendFriendRequest(pb.SendFriendRequestRequest(player_id=bob.player_id), metadata=ada.md, timeout=5)
    stub.AcceptFriendRequest(
        pb.AcceptFriendRequestRequest(player_id=ada.player_id), metadata=bob.md, timeout=5
    )
    channel = f"dm:{ada.player_id}:{bob.player_id}"
    request = chat_pb2.SendChatMessageRequest(channel=channel, text="good game", client_message_id="once")
    ids: list[str] = []
    lock = threading.Lock()

    def send() -> None:
        sent = stub.SendChatMessage(request, metadata=ada.md, timeout=10).message
        with lock:
            ids.append(sent.message_id)

    assert together([send] * TOGETHER) == ["ok"] * TOGETHER
    assert len(set(ids)) == 1, "every sender is answered with the one message"
    listed = stub.ListChatMessages(
        chat_pb2.ListChatMessagesRequest(channel=channel), metadata=bob.md, timeout=5
    )
    assert [(m.message_id, m.text) for m in listed.messages] == [(ids[0], "good game")]


def test_two_accounts_taking_one_name_at_once_one_wins(stub: Any) -> None:
    ada = account(stub, "ada@example.org", "Ada")
    bea = account(stub, "bea@example.org", "Bea")

    def rename(who: Guest) -> Callable[[], Any]:
        request = pb.UpdateProfileRequest(display_name="Hypatia")
        return lambda: stub.UpdateProfile(request, metadata=who.md, timeout=10)

    answers = together([rename(ada), rename(bea)] * (TOGETHER // 2))
    assert "ok" in answers and all(a == "ok" or "name_taken" in a for a in answers), answers
    names = {
        who.player_id: stub.GetProfile(
            pb.GetProfileRequest(player_id=who.player_id), metadata=ada.md
        ).display_name
        for who in (ada, bea)
    }
    assert sorted(names.values()) in (["Ada", "Hypatia"], ["Bea", "Hypatia"]), (
        names
    )  # one won, one kept its own


def test_an_account_deleted_twice_at_once_is_deleted_once(stub: Any) -> None:
    ada = account(stub, "ada@example.org", "Ada")
    request = pb.DeleteAccountRequest(password=PASSWORD)
    answers = together([lambda: stub.DeleteAccount(request, metadata=ada.md, timeout=20)] * 2)
    assert "ok" in answers, answers
    assert all(a == "ok" or a.startswith("UNAUTHENTICATED") for a in answers), answers
    fresh = sign_up(stub, "ada@example.org", "Ada")  # the address and the name are free again
    assert fresh.player_id != ada.player_id
