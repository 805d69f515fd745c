"""docs/clients.md cannot go stale: its examples are the requests and replies of a real session.

The flow of the guide runs against a stack of ``tabula serve`` processes on a private Redis (the
Lorenzo rule service, the lobby, a Celery worker and the reactor for the bots, the gateway), through
the gateway's Connect JSON API only, as a browser or an app would. Each step is one example of the
page, between ``<!-- example NAME -->`` and ``<!-- /example -->``.

Ids, tokens and dice differ from run to run, so by default the page is checked, not compared: every
example must be there, every documented request and reply must parse as today's message of its
method (a renamed or removed field fails), and every field today's replies have must be documented
(a new field fails). ``TABULA_UPDATE_DOCS=1`` rewrites the examples from this run instead.
"""

from __future__ import annotations

import json
import os
import re
import struct
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from google.protobuf import descriptor_pool, json_format, message_factory
from tabula.lobby.v1 import lobby_pb2  # noqa: F401 (registers the lobby's descriptors)

from services.games import game_modules
from tests.support.tabula_serve import tabula_serve

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "clients.md"
UPDATE = os.environ.get("TABULA_UPDATE_DOCS") == "1"
GAME = "lorenzo"  # the game the guide plays
LOBBY = "/tabula.lobby.v1.LobbyService"
RULES = f"/tabula.{GAME}.v1.{GAME.capitalize()}Service"
PROCESSES = (GAME, "lobby", "worker", "reactor", "gateway")
MOST = 3  # items a list keeps in the page
TOKENS = ("token", "seatToken")  # cut to their first characters in the page
STATUS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 409: "Conflict"}


# ---------------------------------------------------------------- examples


@dataclass
class Example:
    name: str
    path: str
    request: dict[str, Any]
    token: str  # which token went in Authorization ("" for none)
    status: int
    replies: list[Any]  # one message (unary), or every streamed one
    stream: bool = False
    most: int = MOST  # items a list keeps in the page


def cut(value: Any, key: str = "", most: int = MOST) -> Any:
    """What the page shows: lists cut to ``most`` items, tokens to their first characters."""
    if isinstance(value, dict):
        return {k: cut(v, k, most) for k, v in value.items()}
    if isinstance(value, list):
        return [cut(v, "", most) for v in value[:most]]
    if key in TOKENS and isinstance(value, str) and len(value) > 24:
        return value[:20] + "..."
    return value


def render(example: Example) -> str:
    headers = ["Content-Type: application/" + ("connect+json" if example.stream else "json")]
    if example.token:
        headers.append(f"Authorization: Bearer <{example.token}>")
    request = json.dumps(cut(example.request), indent=2, ensure_ascii=False)
    if example.stream:
        body = "\n".join(json.dumps(cut(m, "", example.most), ensure_ascii=False) for m in example.replies)
    else:
        body = json.dumps(cut(example.replies[0], "", example.most), indent=2, ensure_ascii=False)
    return (
        f"```http\nPOST {example.path}\n" + "\n".join(headers) + f"\n\n{request}\n```\n\n"
        f"```http\nHTTP/1.1 {example.status} {STATUS.get(example.status, '')}\n\n{body}\n```"
    )


BLOCK = re.compile(r"<!-- example (?P<name>[a-z-]+) -->\n(?P<body>.*?)<!-- /example -->", re.S)


def documented(page: str) -> dict[str, tuple[str, dict[str, Any], int, list[Any], bool]]:
    """name -> (path, request, status, replies, streamed), read back from the page's blocks."""
    out: dict[str, tuple[str, dict[str, Any], int, list[Any], bool]] = {}
    for found in BLOCK.finditer(page):
        fences = re.findall(r"```http\n(.*?)\n```", found["body"], re.S)
        if len(fences) != 2:
            out[found["name"]] = ("", {}, 0, [], False)
            continue
        head, _, request = fences[0].partition("\n\n")
        status_line, _, reply = fences[1].partition("\n\n")
        streamed = "connect+json" in head
        replies = [json.loads(line) for line in reply.splitlines()] if streamed else [json.loads(reply)]
        path = head.splitlines()[0].removeprefix("POST ")
        out[found["name"]] = (path, json.loads(request), int(status_line.split()[1]), replies, streamed)
    return out


def rewrite(page: str, examples: list[Example]) -> str:
    by_name = {e.name: e for e in examples}

    def fill(found: re.Match[str]) -> str:
        example = by_name[found["name"]]
        return f"<!-- example {example.name} -->\n{render(example)}\n<!-- /example -->"

    return BLOCK.sub(fill, page)


# ---------------------------------------------------------------- checking the page


def method_types(path: str) -> tuple[Any, Any]:
    game_modules(GAME)  # registers the game's descriptors (the lobby's are imported above)
    service, _, method = path.strip("/").rpartition("/")
    found = descriptor_pool.Default().FindServiceByName(service).FindMethodByName(method)
    message = message_factory.GetMessageClass
    return message(found.input_type), message(found.output_type)


def keys(value: Any) -> set[str]:
    """Every field path of a JSON value (lists by their items), to compare what is documented."""
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            out |= {f"{k}.{inner}" for inner in keys(v)}
    elif isinstance(value, list):
        for item in value:
            out |= keys(item)
    return out


def problems(page: str, examples: list[Example]) -> list[str]:
    """What is wrong with the page's examples against this run (empty when all is well)."""
    found, out = documented(page), []
    for example in examples:
        if example.name not in found:
            out.append(f"{example.name}: no example block")
            continue
        path, request, status, replies, streamed = found[example.name]
        if (path, status, streamed) != (example.path, example.status, example.stream):
            out.append(f"{example.name}: documented {path} {status}, now {example.path} {example.status}")
            continue
        request_type, reply_type = method_types(path)
        for label, value, kind in [("request", request, request_type)] + [
            ("reply", r, reply_type) for r in replies if status == 200
        ]:
            try:
                json_format.ParseDict(value, kind())
            except json_format.ParseError as err:
                out.append(f"{example.name}: the documented {label} is not a {kind.DESCRIPTOR.name}: {err}")
        if status != 200 and not {"code", "message", "details"} <= set(replies[0]):
            out.append(f"{example.name}: the documented error is not a Connect error")
        now, then = keys([cut(r, "", example.most) for r in example.replies]), keys(replies)
        missing = sorted(k for k in now - then if not example.stream or "." not in k)
        if missing:
            out.append(f"{example.name}: fields the replies have now are not documented: {missing}")
    return out


# ---------------------------------------------------------------- a client of the gateway


class Gateway:
    def __init__(self, url: str) -> None:
        self.url = url
        self.examples: list[Example] = []
        self.http = requests.Session()

    def call(
        self, name: str, path: str, request: dict[str, Any], token: tuple[str, str] | None = None
    ) -> Any:
        """One unary call; recorded as example ``name`` when a name is given."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token[1]}"
        reply = self.http.post(self.url + path, data=json.dumps(request), headers=headers, timeout=30)
        body = reply.json()
        if name:
            self.examples.append(
                Example(name, path, request, token[0] if token else "", reply.status_code, [body])
            )
        return body

    def stream(
        self,
        name: str,
        path: str,
        request: dict[str, Any],
        token: tuple[str, str],
        until: Callable[[list[Any]], bool],
        keep: Callable[[Any, list[Any]], bool] = lambda message, kept: True,
        timeout_s: float = 60,
    ) -> list[Any]:
        """A Connect server stream read until ``until(kept messages)`` or its end; recorded as ``name``.
        ``keep(message, kept so far)`` says which messages the page shows."""
        raw = json.dumps(request).encode()
        headers = {"Content-Type": "application/connect+json", "Authorization": f"Bearer {token[1]}"}
        kept: list[Any] = []
        with self.http.post(
            self.url + path,
            data=struct.pack(">BI", 0, len(raw)) + raw,
            headers=headers,
            stream=True,
            timeout=timeout_s,
        ) as reply:
            assert reply.status_code == 200, reply.text
            source = reply.raw
            deadline = time.monotonic() + timeout_s
            while not until(kept) and time.monotonic() < deadline:
                head = source.read(5)
                if len(head) < 5:
                    break
                flags, size = struct.unpack(">BI", head)
                message = json.loads(source.read(size))
                if flags & 2:
                    assert "error" not in message, message
                    break
                if keep(message, kept):
                    kept.append(message)
        assert until(kept), f"{path}: the stream ended with {kept}"
        self.examples.append(Example(name, path, request, token[0], 200, kept, stream=True))
        return kept


# ---------------------------------------------------------------- the stack


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Gateway]:
    settings = {
        "TABULA_SECRET": "client-guide-secret-0123456789abcdef",
        "TABULA_WORKER_CONCURRENCY": "2",
        "TABULA_MATCH_TICK_S": "0.2",
    }
    with tabula_serve(tmp_path, PROCESSES, **settings) as (_, ports):
        yield Gateway(f"http://127.0.0.1:{ports['gateway']}")


def my_turn(gw: Gateway, match_id: str, seat: tuple[str, str], timeout_s: float = 60) -> dict[str, Any]:
    """GetView until the seat has legal commands (the bot and the system move in between)."""
    deadline = time.monotonic() + timeout_s
    while True:
        view: dict[str, Any] = gw.call("", f"{RULES}/GetView", {"matchId": match_id}, seat)
        if view["legalCommands"] or time.monotonic() > deadline:
            assert view["legalCommands"], "the seat never got a turn"
            return view
        time.sleep(0.2)


def session(gw: Gateway) -> None:
    """The guide's flow, step by step: each named call is one example of the page."""
    ada = gw.call("sign-in", f"{LOBBY}/SignInGuest", {"displayName": "Ada"})
    guest = ("guest token", ada["token"])
    gw.call("list-games", f"{LOBBY}/ListGames", {})
    gw.call("get-content", f"{RULES}/GetContent", {})
    gw.examples[-1].most = 1  # the page shows one component of each kind
    head = gw.call("", f"{LOBBY}/ListMyMatches", {}, guest)["noticesHead"]

    room = gw.call(
        "create-room",
        f"{LOBBY}/CreateRoom",
        {"game": GAME, "seats": 2, "visibility": "ROOM_VISIBILITY_PRIVATE"},
        guest,
    )["room"]
    gw.call("add-bot", f"{LOBBY}/AddBot", {"roomId": room["roomId"], "level": "BOT_LEVEL_GREEDY"}, guest)
    started = gw.call("start-room", f"{LOBBY}/StartRoom", {"roomId": room["roomId"]}, guest)
    match_id, seat = started["matchId"], ("seat token", started["seatToken"])

    bob = ("guest token", gw.call("", f"{LOBBY}/SignInGuest", {"displayName": "Bob"})["token"])
    ticket = gw.call(
        "enqueue",
        f"{LOBBY}/Enqueue",
        {"game": GAME, "seatCounts": [2], "botFillAfterSeconds": 1, "botLevel": "BOT_LEVEL_RANDOM"},
        bob,
    )["ticketId"]
    gw.stream(
        "watch-queue",
        f"{LOBBY}/WatchQueue",
        {"ticketId": ticket},
        bob,
        until=lambda got: any(m.get("ticket", {}).get("status") == "TICKET_STATUS_MATCHED" for m in got),
        keep=lambda message, kept: "ticket" in message,
    )

    view = my_turn(gw, match_id, seat)
    gw.examples.append(
        Example("get-view", f"{RULES}/GetView", {"matchId": match_id}, "seat token", 200, [view])
    )
    submit = {
        "matchId": match_id,
        "expectedVersion": view["version"],
        "commandId": "0b7c6c1e-5d2a-4f7e-9a51-2f4c8e1d3a90",
        "command": view["legalCommands"][0],
    }
    gw.call("submit-command", f"{RULES}/SubmitCommand", submit, seat)
    gw.call("submit-retry", f"{RULES}/SubmitCommand", submit, seat)
    stale = {**submit, "commandId": "5e0f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b"}
    assert gw.call("submit-stale", f"{RULES}/SubmitCommand", stale, seat)["code"] == "aborted"
    illegal_id = "9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a"
    for _ in range(20):  # the bot may move between the look and the command (then it is stale)
        now = my_turn(gw, match_id, seat)
        again = {**submit, "expectedVersion": now["version"], "commandId": illegal_id}
        refused = gw.call("submit-illegal", f"{RULES}/SubmitCommand", again, seat)
        if refused["code"] != "aborted":
            break
        gw.examples.pop()  # not the example: look again
    assert refused["code"] == "failed_precondition"

    gw.stream(  # the first two events (the setup's, by the system), then the first by a seat
        "watch-match",
        f"{RULES}/WatchMatch",
        {"matchId": match_id, "fromVersion": "1"},
        seat,
        until=lambda got: len(got) >= 3,
        keep=lambda message, kept: "event" in message and (len(kept) < 2 or "actorSeat" in message["event"]),
    )
    gw.call("list-my-matches", f"{LOBBY}/ListMyMatches", {}, guest)
    gw.stream(
        "watch-my-notices",
        f"{LOBBY}/WatchMyNotices",
        {"after": head},
        guest,
        until=lambda got: len(got) >= 2,
        keep=lambda message, kept: "notice" in message,
    )
    gw.call("bad-token", f"{RULES}/GetView", {"matchId": match_id}, ("an expired token", "not-a-token"))


def test_the_client_guide_shows_a_real_session(gateway: Gateway) -> None:
    session(gateway)
    page = GUIDE.read_text()
    names = [e.name for e in gateway.examples]
    assert sorted(names) == sorted(m["name"] for m in BLOCK.finditer(page)), (
        "examples and the page's blocks differ"
    )
    if UPDATE:
        GUIDE.write_text(rewrite(page, gateway.examples))
        page = GUIDE.read_text()
    found = problems(page, gateway.examples)
    stale = "docs/clients.md is stale (TABULA_UPDATE_DOCS=1 rewrites its examples):\n"
    assert not found, stale + "\n".join(found)


def test_a_renamed_field_in_the_page_is_caught() -> None:
    """The check itself can fail: a documented reply with a field today's message lacks."""
    example = Example("get-view", f"{RULES}/GetView", {"matchId": "m"}, "seat token", 200, [{"version": "3"}])
    page = f"<!-- example get-view -->\n{render(example)}\n<!-- /example -->"
    assert problems(page, [example]) == []
    renamed = page.replace('"version"', '"versionNumber"')
    assert any("is not a GetViewResponse" in p for p in problems(renamed, [example]))
    grown = Example("get-view", example.path, example.request, "seat token", 200, [])
    grown.replies = [{"version": "3", "systemToAct": False}]  # a field the page does not show yet
    assert any("not documented: ['systemToAct']" in p for p in problems(page, [grown]))
