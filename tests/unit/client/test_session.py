"""The play and watch loops, driven by scripted input against an in-process rule service."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from services.client.presentation import presentation_for
from services.client.rpc import GameClient
from services.client.session import Player, Spectator, parse_choice
from shared.decider import SPECTATOR, RuleViolation
from shared.store import VersionConflict
from tests.unit.client.fakes import FakeLorenzoStub, new_match

pytestmark = pytest.mark.timeout(120)


def _client(stub: FakeLorenzoStub) -> GameClient:
    return GameClient(stub, stub.pb2, stub.match_id, "token", deadline_s=5, sleep=lambda _: None)


def _console() -> Console:
    return Console(width=200, record=True, no_color=True, file=io.StringIO())


def _player(stub: FakeLorenzoStub, answers: Any, names: tuple[str, ...] = ("Ada", "random bot")) -> Player:
    prompts: list[str] = []

    def read_line(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(answers, None)

    player = Player(
        client=_client(stub),
        presentation=presentation_for("lorenzo"),
        console=_console(),
        names=names,
        read_line=read_line,
    )
    player.prompts = prompts  # type: ignore[attr-defined]
    return player


def _ones() -> Any:
    while True:
        yield "1"


def test_parse_choice() -> None:
    assert parse_choice(" 3 ", 5) == 2
    assert parse_choice("0", 5) is None and parse_choice("6", 5) is None and parse_choice("x", 5) is None


def test_a_whole_match_answering_1_ends_with_scores_and_placings() -> None:
    stub = new_match(seats=2, seed=3)
    player = _player(stub, _ones())
    outcome = player.play()
    assert outcome is not None and len(outcome.scores) == 2
    text = player.console.export_text()
    assert "Towers" in text and "Your legal commands" in text and "Your leaders in hand" in text
    assert "Final scores" in text and "Final scoring" in text
    assert len(player.prompts) == len(stub.submitted) > 10  # type: ignore[attr-defined]
    assert all(c.startswith(("GetView", "SubmitCommand", "WatchMatch")) for c in stub.calls)
    assert "[random bot]" in text or "[system]" in text  # others' events were shown as they came


def test_stale_version_refreshes_and_asks_again() -> None:
    stub = new_match(seats=2, seed=3)
    stub.fail_next_submit.append(VersionConflict("m1", 1, 2))
    answers = iter(["1", "q"])
    player = _player(stub, answers)
    assert player.play() is None  # quit at the second prompt
    text = player.console.export_text()
    assert "moved on before your command arrived" in text
    assert len(player.prompts) == 2  # type: ignore[attr-defined]
    assert stub.calls.count("GetView") >= 2


def test_rule_violation_shows_the_reason_and_asks_again() -> None:
    stub = new_match(seats=2, seed=3)
    stub.fail_next_submit.append(RuleViolation("not_your_turn", "wait for your turn"))
    player = _player(stub, iter(["abc", "999", "1", "1"]))
    player.play()
    text = player.console.export_text()
    assert "Refused: not_your_turn - wait for your turn" in text
    assert "Please type a number from 1 to" in text


def test_the_real_version_conflict_from_others_acting_first() -> None:
    stub = new_match(seats=2, seed=3)
    player = _player(stub, _ones())
    player.refresh()
    while not player.my_turn():  # play until our seat may act, then let the bot act in between
        stub._others_act()
        player.refresh()
    stub.others_step_before_submit = 0
    player.play()  # finishes; conflicts (if any) were refreshed and re-asked
    assert player.finished()


def test_the_watch_stream_resumes_from_the_last_version_after_an_error() -> None:
    stub = new_match(seats=2, seed=3)
    stub.break_stream_after = 5
    client = _client(stub)
    versions = []
    for item in client.follow(1):
        if item.event is None:
            break  # a keepalive: nothing more until seat 0 acts
        versions.append(item.version)
    assert len(versions) > 5
    assert versions == sorted(set(versions)) and versions[0] == 1  # no repeat after the reconnect
    assert client.reconnects == 1
    assert [c for c in stub.calls if c.startswith("WatchMatch")][1] == f"WatchMatch:{versions[4] + 1}"
    head = stub.runner.store.version("m1")
    visible = [e.version for e in stub.runner.store.read("m1", 1) if e.visibility in ("public", "seat:0")]
    assert versions == [v for v in visible if v <= head]  # and no gap


def test_spectator_follows_until_a_version() -> None:
    stub = new_match(seats=2, seed=3, viewer=SPECTATOR)
    spectator = Spectator(
        client=_client(stub), presentation=presentation_for("lorenzo"), console=_console(), until_version=40
    )
    assert spectator.watch() is None
    assert spectator.version >= 40
    text = spectator.console.export_text()
    assert "Towers" in text and "(you)" not in text and "v9 " in text, text


@pytest.mark.parametrize("version", [0, 5])
def test_replay_view(version: int) -> None:
    stub = new_match(seats=2, seed=3)
    reply = _client(stub).replay(version)
    assert reply.version == version


def test_live_mode_redraws_the_table_with_recent_events() -> None:
    stub = new_match(seats=2, seed=3)
    answers = iter(["1"] * 6 + ["q"])
    player = _player(stub, answers)
    player.live = True
    assert player.play() is None
    text = player.console.export_text()
    assert "recent events" in text and text.count("Towers") > 3
