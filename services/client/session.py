"""The interactive loops of the terminal client: play one seat, or watch a match.

Both are plain objects over a :class:`~services.client.rpc.GameClient`, a rich ``Console`` and a
``read_line`` function (``input`` by default), so a test drives them with scripted lines and a
fake stub. The loop: show the view; if the seat must act, number the legal commands and read a
choice, submit it with the view's version as ``expected_version`` and a fresh command id (on
``ABORTED`` - someone acted first - refresh and ask again; on ``FAILED_PRECONDITION`` show the
rule's reason and ask again); otherwise follow the watch stream and refresh when an event past
the shown version arrives. The stream reconnects from the last version on errors.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from services.client.render import (
    command_text,
    commands_table,
    error_text,
    event_line,
    outcome_table,
    render_view,
)
from services.client.rpc import Followed, GameClient
from shared.errors import error_info
from shared.manifest import Presentation

ReadLine = Callable[[str], str | None]


def stdin_line(prompt: str) -> str | None:
    """One line from stdin (None at end of input)."""
    try:
        return input(prompt)
    except EOFError:
        return None


def refusal(err: grpc.RpcError) -> Text:
    """A failed call as text: the ErrorInfo reason (rule code, ``stale_version`` ...) and message."""
    info = error_info(err)
    reason = info.reason if info is not None else ""
    details = err.details() if hasattr(err, "details") else ""
    return error_text(err.code().name, reason, details or "")


def parse_choice(line: str, count: int) -> int | None:
    """``"3"`` -> index 2 when 1 <= 3 <= count; anything else -> None."""
    text = line.strip()
    if text.isdigit() and 1 <= int(text) <= count:
        return int(text) - 1
    return None


@dataclass
class Viewer:
    """Shared by players and spectators: the last view, the event log, the rendering policy.

    ``presentation`` draws the board and words commands and events (the game's own, or the
    generic one: ``services.client.presentation.presentation_for``).

    ``live`` (a terminal): clear and redraw the whole table on every refresh, recent events below it.
    Otherwise (a pipe, a log): print each event as a line and the table only when the seat must act,
    at the end, and when asked (``v``), so the output stays readable.
    """

    client: GameClient
    presentation: Presentation
    console: Console
    names: Sequence[str] = ()
    live: bool = False
    recent: deque[Text] = field(default_factory=lambda: deque(maxlen=8))
    response: Any = None
    version: int = 0

    def refresh(self) -> Any:
        self.response = self.client.get_view()
        self.version = int(self.response.version)
        return self.response

    def board(self) -> Any:
        return render_view(
            self.response.view, self.presentation, self.names, self.version, self.client.match_id
        )

    def show(self, force: bool = False) -> None:
        if self.live:
            self.console.clear()
            parts: list[Any] = [self.board()]
            if self.recent:
                parts.append(Panel(Group(*self.recent), title="recent events", expand=False))
            self.console.print(Group(*parts))
        elif force:
            self.console.print(self.board())

    def log_event(self, item: Followed) -> None:
        line = event_line(item.event, self.presentation, self.names)
        self.recent.append(line)
        if not self.live:
            self.console.print(line)

    def finished(self) -> bool:
        return self.response is not None and self.response.HasField("outcome")

    def print_outcome(self) -> None:
        outcome = self.response.outcome
        self.console.print(self.board())
        self.console.print(outcome_table(list(outcome.scores), list(outcome.placings), self.names))

    def wait_for_change(self, events: Iterator[Followed], idle_hint_s: float = 30.0) -> bool:
        """Read the stream until an event past the shown version; then refresh. False: stream ended."""
        quiet_since = time.monotonic()
        hinted = False
        for item in events:
            if item.event is not None:
                quiet_since = time.monotonic()
                self.log_event(item)
            if item.version > self.version:
                self.refresh()
                return True
            if not hinted and time.monotonic() - quiet_since > idle_hint_s:
                hinted = True
                waiting = "the system" if self.response.system_to_act else "other players"
                self.console.print(
                    Text(f"(waiting for {waiting}; bots and system steps are played by the workers)", "dim")
                )
        return False


@dataclass
class Player(Viewer):
    """Plays one seat to the end of the match (or until input ends / the player quits)."""

    seat: int = 0
    read_line: ReadLine = stdin_line
    max_refusals: int = 50

    def my_turn(self) -> bool:
        r = self.response
        return self.seat in list(r.seats_to_act) and len(r.legal_commands) > 0

    def ask(self) -> int | None:
        """The chosen command's index; None when the input ended or the player quits."""
        commands = list(self.response.legal_commands)
        self.console.print(commands_table(commands, self.presentation, self.response.view, self.names))
        while True:
            line = self.read_line(f"Your move [1-{len(commands)}] (v: show the table, q: quit): ")
            if line is None or line.strip().lower() in ("q", "quit", "exit"):
                return None
            if line.strip().lower() in ("v", "view"):
                self.console.print(self.board())
                continue
            choice = parse_choice(line, len(commands))
            if choice is not None:
                return choice
            self.console.print(Text(f"Please type a number from 1 to {len(commands)}.", "yellow"))

    def play(self) -> Any:
        """Returns the ``MatchOutcome`` (None if the player left before the end)."""
        self.refresh()
        events = self.client.follow(self.version + 1)
        refusals = 0
        self.show(force=True)
        while not self.finished():
            if not self.my_turn():
                if not self.wait_for_change(events):
                    return None
                self.show(force=self.my_turn())
                continue
            choice = self.ask()
            if choice is None:
                self.console.print(
                    "Leaving the match; it goes on without you (a turn clock or a bot may act)."
                )
                return None
            command = self.response.legal_commands[choice]
            described = command_text(command, self.presentation, self.response.view, self.names)
            self.console.print(Text(f"> {described}", "bold green"))
            try:
                self.client.submit(command, self.version)
            except grpc.RpcError as err:
                code = err.code()
                if code not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                    raise
                refusals += 1
                if code is grpc.StatusCode.ABORTED:
                    self.console.print(
                        Text("The match moved on before your command arrived; refreshing.", "yellow")
                    )
                else:
                    self.console.print(refusal(err))
                if refusals > self.max_refusals:
                    raise
            self.refresh()
            self.show(force=self.my_turn())
        self.print_outcome()
        return self.response.outcome


@dataclass
class Spectator(Viewer):
    """Follows a match's public view live until it ends, a version, or a time limit."""

    until_version: int = 0  # 0: until the end
    max_seconds: float = 0.0  # 0: no limit

    def watch(self) -> Any:
        started = time.monotonic()
        self.refresh()
        self.show(force=True)
        events = self.client.follow(self.version + 1)

        def done() -> bool:
            if self.finished() or (self.until_version and self.version >= self.until_version):
                return True
            return bool(self.max_seconds) and time.monotonic() - started >= self.max_seconds

        while not done():
            for item in events:
                if item.event is not None:
                    self.log_event(item)
                if item.version > self.version:
                    self.refresh()
                    self.show()
                if done():
                    break
        if self.finished():
            self.print_outcome()
            return self.response.outcome
        self.show(force=not self.live)
        return None
