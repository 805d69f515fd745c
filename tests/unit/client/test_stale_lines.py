"""A line typed for a question the match has since redrawn is not used (services/client/session.py,
inbox.py, keyboard.py).

The key reader edits lines from a terminal's keys and gives each line the question on screen when
its first key came; whole lines (a pipe, a script) get the question on screen when they arrive. The
session refuses a line that answers an earlier question, says so under the question and asks it
again; a line typed after the redraw is used.
"""

from __future__ import annotations

import io
import queue
import re
import threading
import time
from typing import Any

import pytest
from rich.console import Console

from services.client.inbox import Inbox, KeyReader, Line, LineReader
from services.client.presentation import presentation_for
from services.client.rpc import GameClient
from services.client.session import Player
from services.client.steps import member_of
from tests.support.timing import wait_until
from tests.unit.client.fakes import FakeLorenzoStub, new_match

pytestmark = pytest.mark.timeout(120)

REFUSED = "was typed for the previous question and was not used"


class Keys:
    """A terminal's keys as the test types them ("" once nothing is typed for a while: the end)."""

    def __init__(self) -> None:
        self.typed: queue.Queue[str] = queue.Queue()

    def type(self, keys: str) -> None:
        self.typed.put(keys)

    def __call__(self) -> str:
        try:
            return self.typed.get(timeout=30)
        except queue.Empty:
            return ""


# ------------------------------------------------------------------ the readers
class Reading:
    """A key reader over test keys, with the question on screen set by the test."""

    def __init__(self) -> None:
        self.keys, self.inbox, self.question = Keys(), Inbox(), 0
        self.echoed: list[str] = []
        self.reader = KeyReader(self.keys, self.inbox, lambda: self.question, self.echoed.append)

    def line(self) -> Line:
        self.reader.want()
        item = self.inbox.get(timeout=10)
        assert isinstance(item, Line), item
        return item

    def read_by_then(self, keys: str) -> None:
        """``keys`` typed and read (echoed) while a line is wanted."""
        self.reader.want()
        echoed = len(self.echoed)
        self.keys.type(keys)
        wait_until(lambda: len(self.echoed) > echoed, 20, "the key echoed", 0.01)


def test_a_line_belongs_to_the_question_on_screen_when_its_first_key_came() -> None:
    r = Reading()
    r.read_by_then("3")
    r.question = 1  # redrawn between the key and Enter
    r.keys.type("\n")
    assert r.line() == Line("3", 0)
    r.keys.type("2\n")  # typed after the redraw
    assert r.line() == Line("2", 1)


def test_erasing_the_whole_line_starts_afresh_and_the_editing_keys_work() -> None:
    r = Reading()
    r.read_by_then("3")
    r.question = 1
    r.read_by_then("\x7f")  # Backspace: nothing left of the old line
    r.keys.type("12\x7f\x1b[A\x1bOB4\n")  # an erased key, two arrow keys (dropped), then 4
    assert r.line() == Line("14", 1)
    assert "".join(r.echoed) == "3\b \b12\b \b4\n"
    r.keys.type("abc\x15de\n")  # Ctrl-U erases the line
    assert r.line().text == "de"


def test_keys_after_an_enter_wait_for_the_next_line_with_the_question_of_their_read() -> None:
    r = Reading()
    r.keys.type("1\n2\n")  # typed ahead, read at once
    assert r.line() == Line("1", 0)
    r.question = 1
    assert r.line() == Line("2", 0)  # read before the redraw


def test_ctrl_d_on_an_empty_line_and_the_end_of_input_end_the_lines() -> None:
    r = Reading()
    r.keys.type("\x04")
    assert r.line().text is None
    lines = Reading()
    lines.keys.type("")
    assert lines.line().text is None


def test_a_whole_line_belongs_to_the_question_on_screen_when_it_arrives() -> None:
    on_screen = [0]

    def read_line() -> str:
        on_screen[0] = 4  # the question is redrawn while the script answers
        return "1"

    inbox = Inbox()
    reader = LineReader(read_line, inbox, lambda: on_screen[0])
    reader.want()
    assert inbox.get(timeout=10) == Line("1", 4)


# ------------------------------------------------------------------ the session
def _player(stub: FakeLorenzoStub, keys: Keys | None = None) -> Player:
    return Player(
        client=GameClient(stub, stub.pb2, stub.match_id, "token", deadline_s=5, sleep=lambda _: None),
        presentation=presentation_for("lorenzo"),
        console=Console(width=200, record=True, no_color=True, file=io.StringIO()),
        names=("Ada", "random bot"),
        read_keys=keys,
        live=True,
    )


def screen(player: Player) -> str:
    return player.console.export_text(clear=False)


def output(player: Player) -> str:
    """All that was written, the echoed keys included."""
    file = player.console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def drafted(stub: FakeLorenzoStub) -> list[Any]:
    return [c for c in stub.submitted if type(c).__name__ == "DraftLeader"]


class Playing:
    """``tabula play`` on a terminal in a thread: the bot waits in the leader draft until told. The
    player's reaction time is short here (a key sooner after a redraw answers the question before)."""

    def __init__(self, reaction_s: float = 0.2) -> None:
        self.stub = new_match(seats=2, seed=3)
        self.stub.hold = lambda state: state.phase.name == "DRAFT_LEADERS"
        self.keys = Keys()
        self.player = _player(self.stub, self.keys)
        self.player.reaction_s = reaction_s
        self.thread = threading.Thread(target=self.player.play, daemon=True)
        self.thread.start()

    def asked(self, since: int) -> None:
        """Wait for a question after the first ``since`` (its prompt and what is typed so far shown)."""
        wait_until(lambda: len(self.player.prompts) > since, 20, "a new prompt", 0.01)

    def answer(self, keys: str) -> None:
        """``keys`` typed once the question has been on screen for the reaction time."""
        time.sleep(self.player.reaction_s + 0.1)
        self.keys.type(keys)

    def to_the_draft(self) -> None:
        """Answers 1 (the personal bonus tile) until the draft's question is on screen."""
        since = 0
        while True:
            self.asked(since)
            since = len(self.player.prompts)
            if "Which leader do you keep?" in output(self.player)[-3000:]:
                return
            self.answer("1\n")

    def redraw(self) -> None:
        """The bot keeps a leader while the player chooses: the board and the question are drawn again."""
        since, question = len(self.player.prompts), self.player.question
        assert self.stub.act_now()
        self.asked(since)
        assert self.player.question > question

    def option(self, number: int) -> Any:
        """The leader of option ``number`` of the question on screen."""
        assert self.player.chooser is not None
        return member_of(self.player.chooser.step().options[number - 1].commands[0]).leader

    def quit(self) -> None:
        self.keys.type("q\n")
        self.thread.join(timeout=20)
        assert not self.thread.is_alive()


def test_a_number_typed_before_a_redraw_and_entered_after_it_is_refused_and_explained() -> None:
    playing = Playing()
    player = playing.player
    playing.to_the_draft()
    playing.answer("3")
    # read (and echoed) under the first question
    wait_until(lambda: output(player).endswith("3"), 20, "the answer echoed", 0.01)
    playing.redraw()
    assert output(player).endswith(player.prompts[-1] + "3")  # still shown after the new prompt
    asked = len(player.prompts)
    playing.answer("\n")
    playing.asked(asked)
    assert f"The match moved on: '3' {REFUSED}; choose again." in screen(player)
    # Under the prompt where it was entered, then the question again.
    after = re.split(rf"\[1-4, \? help\]: 3\nThe match moved on: '3' {REFUSED}", output(player))
    assert len(after) == 2 and "Which leader do you keep?" in after[1], output(player)[-3000:]
    assert after[1].endswith(player.prompts[-1])
    assert not drafted(playing.stub)
    # Typed after the redraw: used.
    wanted = playing.option(2)
    playing.answer("2\n")
    wait_until(lambda: drafted(playing.stub), 20, "a leader drafted", 0.01)
    assert drafted(playing.stub)[0].leader == wanted
    playing.quit()


def test_a_number_typed_after_a_redraw_is_used() -> None:
    playing = Playing()
    player = playing.player
    playing.to_the_draft()
    playing.redraw()
    wanted = playing.option(1)
    playing.answer("1\n")
    wait_until(lambda: drafted(playing.stub), 20, "a leader drafted", 0.01)
    assert [d.leader for d in drafted(playing.stub)] == [wanted]  # accepted the first time
    assert REFUSED not in screen(player)
    assert re.search(r"The match moved on while you were choosing \(v\d+ -> v\d+\)", screen(player))
    playing.quit()


def test_a_number_typed_sooner_than_a_reaction_after_a_redraw_is_refused() -> None:
    playing = Playing()
    player = playing.player
    playing.to_the_draft()
    player.reaction_s = 30.0  # now far longer than this test takes to type
    playing.redraw()
    asked = len(player.prompts)
    playing.keys.type("1\n")  # as the new question appears: meant for the one before
    playing.asked(asked)
    assert f"The match moved on: '1' {REFUSED}; choose again." in screen(player)
    assert not drafted(playing.stub)
    player.reaction_s = 0.0
    playing.keys.type("1\n")
    wait_until(lambda: drafted(playing.stub), 20, "a leader drafted", 0.01)
    playing.quit()


def test_a_line_for_an_earlier_question_is_not_used_unless_it_does_not_answer_it() -> None:
    stub = new_match(seats=2, seed=3, advanced=False)
    player = _player(stub)
    while player.refresh() is not None and not player.my_turn():
        assert stub.act_now()  # the system starts the round
    player.offer()
    player.offer(redrawn=True)  # the match moved: the question is drawn again, a new one
    assert player.on_line(Line("1", question=0))
    assert f"The match moved on: '1' {REFUSED}; choose again." in screen(player)
    assert player.chooser is not None and not player.chooser.choices
    assert player.on_line(Line("?", question=0))  # the help, the board, leaving: whatever the question
    assert "Inputs:" in screen(player)
    assert player.on_line(Line("1", question=1))
    assert player.chooser.choices and not stub.submitted  # the first step answered
    assert not player.on_line(Line("q", question=0))


def test_a_key_answers_the_question_on_screen_once_it_has_been_there_a_reaction_time() -> None:
    player = _player(new_match(seats=2, seed=3))
    player.reaction_s = 30.0
    assert player.answering() == 0  # nothing redrawn yet
    player.redrawn()
    assert player.question == 1 and player.answering() == 0  # too soon: the question before
    player.reaction_s = 0.0
    assert player.answering() == 1
