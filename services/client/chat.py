"""The match's players' chat in the terminal client (docs/chat.md), with the player's lobby token.

``say TEXT`` sends to the channel ``match:<match id>`` with a fresh client message id (a
rate-limited send is sent again, the same request, after its RetryInfo delay: stored once). A thread
reads the channel's last messages, then follows ``WatchChat`` from the newest one seen (opened again
after a break), and hands each message to the session's inbox as a :class:`~services.client.inbox.Said`.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import grpc
from tabula.lobby.v1 import chat_pb2, lobby_pb2_grpc

from services.client.inbox import Said
from services.client.rpc import auth, retry_limited

RECENT = 10  # messages shown when the match opens
RESUMABLE = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
)


def said(message: Any) -> Said:
    return Said(message.message_id, message.display_name, message.text)


class MatchChat:
    def __init__(self, channel: grpc.Channel, token: str, match_id: str, deadline_s: float = 10.0) -> None:
        self.stub = lobby_pb2_grpc.LobbyServiceStub(channel)
        self.token, self.deadline_s = token, deadline_s
        self.channel = f"match:{match_id}"
        self.stopped = threading.Event()
        self._call: Any = None

    def say(self, text: str) -> Said:
        """Send one message (grpc.RpcError when refused: too long, rate-limited ...)."""
        request = chat_pb2.SendChatMessageRequest(
            channel=self.channel, text=text, client_message_id=uuid.uuid4().hex
        )
        reply = retry_limited(
            lambda: self.stub.SendChatMessage(request, metadata=auth(self.token), timeout=self.deadline_s)
        )
        return said(reply.message)

    def follow(self, put: Callable[[Said], None]) -> None:
        threading.Thread(target=self._run, args=(put,), name="tabula-chat", daemon=True).start()

    def stop(self) -> None:
        self.stopped.set()
        if self._call is not None:
            self._call.cancel()

    def _run(self, put: Callable[[Said], None]) -> None:
        md = auth(self.token)
        try:
            page = self.stub.ListChatMessages(
                chat_pb2.ListChatMessagesRequest(channel=self.channel, limit=RECENT),
                metadata=md,
                timeout=self.deadline_s,
            )
        except grpc.RpcError:
            return  # no chat here (a match of no room, a lobby that has none): the match goes on
        for message in page.messages:
            put(said(message))
        after = page.head
        while not self.stopped.is_set():
            try:
                self._call = self.stub.WatchChat(
                    chat_pb2.WatchChatRequest(channel=self.channel, after=after), metadata=md
                )
                for item in self._call:
                    if item.HasField("message"):
                        after = item.message.message_id
                        put(said(item.message))
            except grpc.RpcError as err:
                if self.stopped.is_set() or err.code() not in RESUMABLE:
                    return
            self.stopped.wait(1.0)
