"""One queue for everything a player's session waits on: typed lines and the match moving.

While the player reads the board and chooses, the match may move under them (simultaneous steps
such as the leader draft, bots, turn clocks). So the session never blocks on the keyboard alone:
a :class:`Follower` thread reads the match's watch stream and a :class:`LineReader` thread reads
input lines, and both put what they get into one :class:`Inbox`, in arrival order. The session
(one thread, the only one that prints) takes items from it.

Lines are read on demand (:meth:`LineReader.want`): a script piped into ``tabula play`` is read one
answer per question, never ahead (``yes 1 |`` would otherwise fill memory), and an answer cannot be
consumed while no question is on the screen.

Every line carries the question it was typed for (:attr:`Line.question`, the session's count of
questions redrawn because the match moved): a whole line read from a pipe or a script belongs to the
question on screen when it arrives; on a terminal the :class:`KeyReader` edits the line from the
keys and gives it the question on screen when its first key came (services/client/keyboard.py). The
session refuses a line typed for a question that is no longer the current one.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from services.client.keyboard import END, ENTER, ERASE, ESC, KILL, ReadKeys, escape_after
from services.client.rpc import Followed


@dataclass(frozen=True)
class Line:
    """A line typed by the player (None at the end of input), and the question it was typed for."""

    text: str | None
    question: int = 0


@dataclass(frozen=True)
class Moved:
    """An event of the followed match, or a keepalive with a newer head version."""

    item: Followed


@dataclass(frozen=True)
class StreamFailed:
    """The watch stream gave up (after its own reconnects); the session stops with this error."""

    error: BaseException


@dataclass(frozen=True)
class Said:
    """A message of the match's players' chat (services/client/chat.py)."""

    message_id: str
    name: str
    text: str


Item = Line | Moved | StreamFailed | Said


class Inbox:
    def __init__(self) -> None:
        self.items: queue.Queue[Item] = queue.Queue()

    def put(self, item: Item) -> None:
        self.items.put(item)

    def get(self, timeout: float | None = None) -> Item | None:
        """The next item, or None after ``timeout`` seconds without one."""
        try:
            return self.items.get(timeout=timeout)
        except queue.Empty:
            return None

    def get_nowait(self) -> Item | None:
        return self.get(timeout=0) if not self.items.empty() else None


class Follower:
    """Puts every event of ``events`` (and every keepalive past the last head) into the inbox."""

    def __init__(self, events: Iterator[Followed], inbox: Inbox) -> None:
        self.events, self.inbox = events, inbox
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tabula-follow", daemon=True)

    def start(self) -> Follower:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()

    def _run(self) -> None:
        head = 0
        try:
            for item in self.events:
                if self.stopped.is_set():
                    return
                if item.event is not None or item.version > head:
                    head = max(head, item.version)
                    self.inbox.put(Moved(item))
        except Exception as err:  # handed to the session, which raises it
            if not self.stopped.is_set():
                self.inbox.put(StreamFailed(err))


class LineReader:
    """Reads one line with ``read_line`` each time :meth:`want` is called (and none is pending); the
    line belongs to ``question()`` when it arrives."""

    def __init__(
        self, read_line: Callable[[], str | None], inbox: Inbox, question: Callable[[], int] = lambda: 0
    ) -> None:
        self.read_line, self.inbox, self.question = read_line, inbox, question
        self.wanted = threading.Semaphore(0)
        self.lock = threading.Lock()  # ``pending`` changes together with the line's arrival
        self.pending = False
        self.done = False
        self.thread = threading.Thread(target=self._run, name="tabula-input", daemon=True)
        self.thread.start()

    def want(self) -> None:
        """Ask for the next line, unless one is already asked for or the input has ended."""
        with self.lock:
            if self.pending or self.done:
                return
            self.pending = True
        self.wanted.release()

    def retype(self) -> None:
        """Show again, after a new prompt, what is typed of the next line (a whole-line reader has
        nothing to show)."""

    def read(self) -> Line:
        try:
            text = self.read_line()
        except (EOFError, OSError, ValueError):
            text = None
        return Line(text, self.question())

    def _run(self) -> None:
        while True:
            self.wanted.acquire()
            line = self.read()
            with self.lock:
                self.done = line.text is None
                self.pending = False
                self.inbox.put(line)
            if line.text is None:
                return


class KeyReader(LineReader):
    """Edits lines from keys (printable keys, Backspace, Ctrl-U, Enter, Ctrl-D on an empty line;
    escape sequences dropped), echoing them with ``echo``. A line belongs to the question on screen
    when its first key was read (erasing the whole line starts afresh). Keys after an Enter in the
    same read wait for the next line, with the question of their read."""

    def __init__(
        self, read_keys: ReadKeys, inbox: Inbox, question: Callable[[], int], echo: Callable[[str], None]
    ) -> None:
        self.read_keys, self.echo = read_keys, echo
        self.editing = threading.Lock()  # the line being typed, echoed by this thread or retyped
        self.typed, self.typed_for = "", 0  # the line so far; the question of its first key
        self.ahead, self.ahead_for = "", 0  # keys read and not edited yet; the question of their read
        self.escape = ""  # the start of an escape sequence being dropped
        super().__init__(lambda: None, inbox, question)

    def retype(self) -> None:
        with self.editing:
            if self.typed:
                self.echo(self.typed)

    def read(self) -> Line:
        while True:
            if not self.ahead:
                try:
                    keys = self.read_keys()
                except (OSError, ValueError):
                    keys = ""
                if not keys:
                    return Line(None)
                self.ahead, self.ahead_for = keys, self.question()
            with self.editing:
                line = self._edit()
            if line is not None:
                return line

    def _edit(self) -> Line | None:
        """Apply the keys read ahead up to an Enter: the line then, else None (more keys needed)."""
        while self.ahead:
            key, self.ahead = self.ahead[0], self.ahead[1:]
            if self.escape:
                self.escape = escape_after(self.escape, key)
            elif key == ESC:
                self.escape = key
            elif key in ENTER:
                line = Line(self.typed, self.typed_for)
                self.typed = ""
                self.echo("\n")
                return line
            elif key in ERASE and self.typed:
                self.typed = self.typed[:-1]
                self.echo("\b \b")
            elif key == KILL:
                self.echo("\b \b" * len(self.typed))
                self.typed = ""
            elif key == END and not self.typed:
                return Line(None)
            elif key.isprintable():
                if not self.typed:
                    self.typed_for = self.ahead_for
                self.typed += key
                self.echo(key)
        return None


def stdin_line() -> str | None:
    """One line from stdin without its newline (None at end of input)."""
    try:
        return input()
    except EOFError:
        return None


def drain_moves(first: Moved, inbox: Inbox, later: list[Item]) -> list[Followed]:
    """``first`` and every ``Moved`` already waiting behind it; the first other item waiting is put
    in ``later`` (so one refresh covers a burst of events, and lines keep their order)."""
    moved = [first.item]
    while (item := inbox.get_nowait()) is not None:
        if isinstance(item, Moved):
            moved.append(item.item)
            continue
        later.append(item)
        break
    return moved


__all__ = [
    "Follower",
    "Inbox",
    "Item",
    "KeyReader",
    "Line",
    "LineReader",
    "Moved",
    "StreamFailed",
    "drain_moves",
]
