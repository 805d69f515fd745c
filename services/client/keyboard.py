"""Keys typed on a terminal, edited into lines by the client itself.

With the terminal's own line editing (canonical mode) the client only sees a line when Enter is
pressed, so it cannot tell whether the player began typing it before the screen was redrawn for a
new question. So on a terminal the client reads the keys as they come (the terminal in
non-canonical mode without echo, :func:`terminal_keys`) and edits the line itself
(:class:`~services.client.inbox.KeyReader`: printable keys, Backspace, Ctrl-U, Enter, Ctrl-D on an
empty line; escape sequences such as arrow keys are dropped), which tells it when each line's first
key came. Signals still work (Ctrl-C), and the terminal's mode is restored on the way out.
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

ReadKeys = Callable[[], str]  # the next keys typed ("" at the end of input)

ENTER = "\r\n"
ERASE = "\x7f\b"  # Backspace (DEL on most terminals, ^H on some)
KILL = "\x15"  # Ctrl-U: erase the whole line
END = "\x04"  # Ctrl-D: the end of input, on an empty line
ESC = "\x1b"


def escape_after(sequence: str, key: str) -> str:
    """What is left of an escape ``sequence`` (``ESC``, ``ESC [ 1``) after ``key``: "" once it ends
    (``ESC [ ... final`` and ``ESC O final`` are arrow and function keys; ``ESC key`` is Alt+key)."""
    if sequence == ESC:
        return sequence + key if key in "[O" else ""
    return "" if "@" <= key <= "~" else sequence + key


@contextmanager
def terminal_keys(stdin: TextIO | None = None, stdout: TextIO | None = None) -> Iterator[ReadKeys | None]:
    """Reads keys from ``stdin`` when both it and ``stdout`` are terminals (POSIX), with the
    terminal in non-canonical mode without echo until the block ends; otherwise yields None (the
    input is then read a whole line at a time)."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    try:
        import termios

        fd = stdin.fileno()
        interactive = stdin.isatty() and stdout.isatty()
        saved = termios.tcgetattr(fd) if interactive else None
    except (ImportError, OSError, ValueError):  # no termios (not POSIX), or no real file
        saved = None
    if saved is None:
        yield None
        return
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ICANON | termios.ECHO)  # keys one by one, echoed by the client
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def read() -> str:
        while True:
            data = os.read(fd, 256)
            if not data:
                return ""
            keys = decoder.decode(data)
            if keys:  # else the read ended inside a character
                return keys

    try:
        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


__all__ = ["ReadKeys", "escape_after", "terminal_keys"]
