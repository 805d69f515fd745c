"""`tabula play`'s chat against the whole stack (`tabula run` in a folder of its own): `say TEXT` at the
prompt writes to the match's players' channel in the lobby, the line is shown, and the lobby holds it
(read back over gRPC with the player's own saved token)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from tabula.lobby.v1 import chat_pb2, lobby_pb2_grpc

from services.client.saved import find
from tests.e2e.stack_dir import cli, stack_in


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from stack_in(tmp_path_factory, "chat")


def test_say_writes_to_the_matchs_players_chat(stack: tuple[Path, dict[str, str]]) -> None:
    folder, env = stack
    play = ["play", "--seats", "2", "--bots", "random", "--name", "Ada"]
    result = cli(folder, env, *play, stdin="?\nsay hello table\nq\n", timeout=120)
    out = result.stdout
    assert result.returncode == 2, out[-3000:] + result.stderr[-3000:]  # left the match
    assert "say TEXT" in out  # the help names it
    assert "Ada: hello table" in out
    match_id = re.search(r"^Match (\S+): you are Ada", out, re.M).group(1)  # type: ignore[union-attr]
    saved = find(folder / ".tabula" / "matches.json", match_id)
    assert saved is not None and saved.guest_token
    lobby = json.loads((folder / ".tabula" / "stack.json").read_text())["services"]["lobby"]
    with grpc.insecure_channel(lobby) as channel:
        reply = lobby_pb2_grpc.LobbyServiceStub(channel).ListChatMessages(
            chat_pb2.ListChatMessagesRequest(channel=f"match:{match_id}"),
            metadata=[("authorization", f"Bearer {saved.guest_token}")],
            timeout=10,
        )
    assert [(m.display_name, m.text) for m in reply.messages] == [("Ada", "hello table")]
