"""`tabula play` against the whole stack (`tabula run`, started in a folder of its own; the client
finds it by .tabula/stack.json).

* Scripted (stdin a pipe): a guest plays a full Lorenzo match against a random bot by choosing the
  first option of every step; then `tabula replay` and `tabula watch`.
* In a terminal (a pty, so the client redraws in place): the leader draft against an mcts bot
  (it thinks 1.5 s a move, so it picks while the player is choosing: the board and the question
  are redrawn, with the player's choice kept, and a key typed before that redraw and entered after
  it is refused and explained); a command chosen in steps, with "back"; quitting; then
  `tabula play --match ID` rejoins the same seat.

The test answers the question on screen as soon as its prompt is the last thing shown. The client
may redraw it before the answer arrives (a bot moves, the round's system steps run), or have
redrawn it less than its reaction time (half a second) before: it then refuses the answer ("The
match moved on: '1' was typed for the previous question ...") and asks again, and the test answers
the question then on screen, half a second later.

Bots and the system's round / Vatican / game-end steps are played by the workers and the reactor.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from services.client.session import REACTION_S
from tests.e2e.stack_dir import cli, stack_in
from tests.support.timing import scaled

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>()][0-9A-Za-z]?|\r")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from stack_in(tmp_path_factory, "project")


class Terminal:
    """A command in a pseudo-terminal (200 x 60): what a person sees, and keys typed into it."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "services.cli", *args],
            cwd=cwd,
            env={**env, "TERM": "xterm-256color", "COLUMNS": "200", "LINES": "60"},
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.raw = ""  # everything shown, as written
        self.text = ""  # the same with escape sequences removed
        self.mark = 0  # where the next expect() starts looking
        # A read may end inside a UTF-8 character or an escape sequence: decode incrementally and
        # strip escapes from the whole output, never from one chunk.
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def _read(self, timeout: float) -> bool:
        """Whether something more was shown within ``timeout`` seconds."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            self.raw += self._decoder.decode(os.read(self.master, 65536))
        except OSError:  # the program ended
            time.sleep(timeout)
            return False
        self.text = ANSI.sub("", self.raw)
        return True

    def expect(self, pattern: str, timeout: float = 90.0) -> re.Match[str]:
        deadline = time.monotonic() + scaled(timeout)
        while True:
            found = re.compile(pattern).search(self.text, self.mark)
            if found:
                self.mark = found.end()
                return found
            assert time.monotonic() < deadline, f"no {pattern!r} in:\n{self.text[-6000:]}"
            self._read(0.2)

    def seen(self, pattern: str, timeout: float) -> bool:
        try:
            self.expect(pattern, timeout)
        except AssertionError:
            return False
        return True

    def question(self, since: int | None = None, timeout: float = 90.0) -> str:
        """The screen of the question asked now: a prompt (after position ``since``, by default the
        last question's) that is the last thing shown so far; one followed by more output was drawn
        again."""
        asked = re.compile(PROMPT + r"$")
        since = self.mark if since is None else since
        deadline = time.monotonic() + scaled(timeout)
        while True:
            while self._read(0):  # what is already written
                pass
            if asked.search(self.text, since):
                self.mark = len(self.text)
                return self.screen()
            assert time.monotonic() < deadline, f"no question after {since} in:\n{self.text[-6000:]}"
            self._read(0.2)

    def answer(self, choose: Callable[[str], str], screen: str) -> str:
        """Types ``choose(screen)`` for the question on ``screen``, and again for the question then on
        screen while the client refuses it (the match moved before it arrived, or less than the
        client's reaction time before); the next question's screen."""
        while True:
            start = len(self.text)
            self.type(choose(screen))
            screen = self.question(start)
            if not re.search(REFUSED, self.text[start:]):
                return screen
            time.sleep(REACTION_S + 0.1)  # as a person would: the new question is read first
            screen = self.question(start)

    def screen(self) -> str:
        """The text since the prompt before the last one (the current question and its board)."""
        return self.text[self.text.rfind("Lorenzo il Magnifico") :]

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def type_keys(self, keys: str) -> None:
        """Keys without Enter."""
        os.write(self.master, keys.encode())

    def close(self, timeout: float = 30) -> int:
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            code = self.proc.wait()
        os.close(self.master)
        return code


PROMPT = r"Your choice \[1-(\d+)[^\]]*\]: "
REFUSED = r"The match moved on: '[^']*' was typed for the previous question and was not used; choose again\."


def option(screen: str, label: str) -> str:
    """The number of the option whose label starts with ``label`` in the last step table."""
    numbers = re.findall(rf"^\s*(\d+)\s+{re.escape(label)}", screen, re.M)
    assert numbers, f"no option {label!r} in:\n{screen[-4000:]}"
    return str(numbers[-1])


def test_in_a_terminal_steps_back_refresh_during_a_bot_move_quit_and_rejoin(
    stack: tuple[Path, dict[str, str]],
) -> None:
    folder, env = stack
    term = Terminal(["play", "--seats", "2", "--bots", "mcts", "--name", "Ada"], folder, env)
    match_id = term.expect(r"Match (\S+): you are Ada at seat (\d)").group(1)
    moved = r"The match moved on while you were choosing \(v\d+ -> v\d+\)"
    refused = False
    screen = term.question()
    while "Place family member (" not in screen and "Which family member?" not in screen:
        # The personal bonus tile, then the leader draft, until the first action.
        if "Which leader do you keep?" in screen and not refused:
            # The bot (mcts, 1.5 s a move) picks while we read our hand: the board and the question
            # are drawn again, without a keypress. A key typed before that, entered after it, is
            # not used.
            term.type_keys("1")
            if term.seen(moved, 30):
                term.expect(PROMPT + "1", 30)  # what was typed is shown after the new prompt
                term.type("")
                term.expect(REFUSED)
                refused = True
            else:
                term.type("")
            screen = term.question()
            continue
        screen = term.answer(lambda _: "1", screen)
    assert refused, term.text[-6000:]

    # A command in steps: the kind (when there are several), the family member, then the space.
    # The round's system steps (phase, towers, dice) may redraw the first menu meanwhile: a number
    # typed for the menu before is refused and typed again for the new one.
    if "Which family member?" not in screen:
        screen = term.answer(lambda shown: option(shown, "Place family member ("), screen)
        assert "Which family member?" in screen, term.text[-12000:]
    term.type("?")  # the help states every input's range
    help_text = term.expect(r"Inputs:[\s\S]+?q\s+leave the match").group(0)
    assert re.search(r"1-\d+\s+choose that option of 'Which family member\?'", help_text), help_text
    screen = term.question()

    def black(shown: str) -> str:
        return option(shown[shown.rfind("Which family member?") :], "black member (die")

    screen = term.answer(black, screen)
    assert re.search(r"black member \(die \d\) > Where do you place it\?", screen), screen
    screen = term.answer(lambda _: "b", screen)  # back: the family member is asked again
    assert "Where do you place it?" not in screen[screen.rfind("Which family member?") :], screen
    screen = term.answer(black, screen)
    places = screen[screen.rfind("Where do you place it?") :]
    assert "council palace" in places, screen
    card = r"[^\n]+: (territory|character|building|venture) card, period 1\."
    assert re.search(rf"tower floor \d \(\d\)[^\n]*: {card}", places), places  # each card with its text
    term.type("q")
    term.expect(rf"Rejoin it with: tabula play --match {match_id}")
    assert term.close() == 2

    # Rejoin: the same seat, our turn still, the players by name.
    again = Terminal(["play", "--match", match_id], folder, env)
    again.expect(rf"Rejoining match {match_id}: you are Ada at seat \d")
    again.expect(PROMPT)
    board = again.screen()
    assert "Ada (you)" in board and "mcts bot" in board
    assert "What do you do?" in board or "Which family member?" in board
    again.type("q")
    again.expect("Rejoin it with")
    assert again.close() == 2


def _played_by_ada(
    stack: tuple[Path, dict[str, str]], *game: str, answers: int, timeout: int
) -> tuple[str, str]:
    """(match id, output) of a whole 2-seat match (of ``--game`` in ``game``, if given) in which Ada answers
    "1" to every question against a random bot."""
    folder, env = stack
    play = ["play", *game, "--seats", "2", "--bots", "random", "--name", "Ada"]
    result = cli(folder, env, *play, stdin="1\n" * answers, timeout=timeout)
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    found = re.search(r"^Match (\S+): you are Ada at seat (\d)", out, re.M)
    assert found, out[:2000]
    return found.group(1), out


@pytest.fixture(scope="module")
def played(stack: tuple[Path, dict[str, str]]) -> tuple[str, str]:
    """(match id, output) of a whole match played by answering "1" to every question."""
    return _played_by_ada(stack, answers=20000, timeout=900)


def test_play_shows_the_board_steps_and_final_scores(played: tuple[str, str]) -> None:
    _, out = played
    assert "Lorenzo il Magnifico" in out and "Towers" in out and "Players" in out
    assert "Your leaders in hand" in out and "What do you do?" in out and "Which family member?" in out
    assert "> Place family member" in out  # what was played, in words
    _short_choices_and_final_scores(out, "Final scores")


def _short_choices_and_final_scores(out: str, scoring: str) -> None:
    """Never a long flat list of choices; the final ``scoring`` names Ada and the bot, and the final
    scores give Ada's place and score."""
    ranges = [int(n) for n in re.findall(r"Your choice \[1-(\d+)", out)]
    assert ranges and max(ranges) <= 30
    final = out[out.index(scoring) :]
    assert "Ada" in final and "random bot" in final
    assert re.search(r"[12] \W+ Ada \W+ -?\d+", out[out.index("Final scores") :])  # place, player, score


@pytest.mark.parametrize(
    ("match", "version", "part"),
    [
        ("played", 5, "Towers"),
        ("played_trajan", 60, "Action circles"),
        ("played_florenza", 60, "Life in Florenza"),
    ],
)
def test_replay_prints_a_games_view_at_a_version(
    stack: tuple[Path, dict[str, str]], request: pytest.FixtureRequest, match: str, version: int, part: str
) -> None:
    folder, env = stack
    match_id, _ = request.getfixturevalue(match)
    result = cli(folder, env, "replay", match_id, "--at", str(version))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"match {match_id}  v{version}" in result.stdout and part in result.stdout


def test_watch_follows_the_public_view(stack: tuple[Path, dict[str, str]], played: tuple[str, str]) -> None:
    folder, env = stack
    match_id, _ = played
    result = cli(folder, env, "watch", match_id, "--until-version", "10", "--max-seconds", "20")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Towers" in result.stdout and "(you)" not in result.stdout
    assert "Final scores" in result.stdout and "Ada" in result.stdout  # over: the result, by name


# ---------------------------------------------------------------- Trajan
@pytest.fixture(scope="module")
def played_trajan(stack: tuple[Path, dict[str, str]]) -> tuple[str, str]:
    """(match id, output) of a whole 2-seat Trajan match: Ada answers "1" (the first option) to every
    question against a random bot; the workers play the bot and the round and quarter ends."""
    return _played_by_ada(stack, "--game", "trajan", answers=40000, timeout=1500)


def test_play_trajan_shows_its_board_commands_events_and_final_scores(played_trajan: tuple[str, str]) -> None:
    _, out = played_trajan
    for part in ("Action circles", "Time track:", "Trajan stacks", "Forum", "Senate", "Ships", "Provinces"):
        assert part in out, part
    assert "Construction area" in out and "Your hand: " in out and "Ada (you)" in out
    assert "Round 16 of 16" in out  # played through the last round
    assert re.search(r"Pick up bowl [IV]+ \(\w+\): \d markers?", out)  # commands in words
    _short_choices_and_final_scores(out, "Final scoring")


# ---------------------------------------------------------------- Florenza
@pytest.fixture(scope="module")
def played_florenza(stack: tuple[Path, dict[str, str]]) -> tuple[str, str]:
    """(match id, output) of a whole 2-seat Florenza match: Ada answers "1" (the first option) to every
    question against a random bot; the workers play the bot, the income, district and round-end steps
    and the final scoring."""
    return _played_by_ada(stack, "--game", "florenza", answers=40000, timeout=1500)


def test_play_florenza_shows_its_board_commands_events_and_final_scores(
    played_florenza: tuple[str, str],
) -> None:
    _, out = played_florenza
    for part in (
        "Families and tracks",
        "The city",
        "The Duomo",
        "Market",
        "Life in Florenza",
        "Workshop supply",
    ):
        assert part in out, part
    assert "Ada (you)" in out and "Round 8 of 8" in out  # played through the last round
    assert "Which starting workshop?" in out and "What do you do?" in out
    assert re.search(
        r"Choose starting workshop: \w+: costs .+; (gives|pays|income) ", out
    )  # commands in words
    assert re.search(r"(Ada|random bot) hired .+ for .+ \(.+\)", out)  # events in words, with names
    _short_choices_and_final_scores(out, "Final scoring")
    assert "Palazzo/Chiesa" in out[out.index("Final scoring") :]  # the lines of the score
