"""The interactive loops of the terminal client: play one seat, or watch a match.

Both are plain objects over a :class:`~services.client.rpc.GameClient`, a rich ``Console`` and a
``read_line`` function (``input`` by default), so a test drives them with scripted lines and a
fake stub.

Playing: the player's command is chosen in steps (services/client/steps.py: the kind of command,
then each field that differs, "back" at every step, or words that filter the commands). Meanwhile
the match stream is followed in the background (services/client/inbox.py), so when the match moves
while the player is choosing (a simultaneous step, a bot, a turn clock) the board is redrawn and the
choice offered again with what the player chose so far, if it is still possible. Each question so
redrawn is a new one (``Player.question`` counts them): a line typed for an earlier question is not
used; the player is told so under the question, which is asked again. On a terminal a line answers
the question on screen when its first key came, if that question had been there ``reaction_s``
(half a second: nobody reads a new question and answers it sooner); from a pipe or a script, the
question on screen when the line is read. A command is
submitted with the shown version as ``expected_version`` and a fresh command id; if the match moved
first (``ABORTED``) and the very same command is still legal, it is sent again against the new
version; otherwise the reason is shown, and stays on screen (a notice under the board) until the
player's next command. A call refused by a rate limit is sent again by the client itself, the same
request after the RetryInfo delay (services/client/rpc.py); meanwhile a notice says
"busy, retrying in 2 s".
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from services.client.chat import MatchChat
from services.client.inbox import (
    Follower,
    Inbox,
    Item,
    KeyReader,
    Line,
    LineReader,
    Moved,
    Said,
    StreamFailed,
    drain_moves,
    stdin_line,
)
from services.client.keyboard import ReadKeys
from services.client.presentation import glossary_of, planner_of, wording_of
from services.client.render import (
    command_text,
    error_text,
    event_line,
    help_text,
    outcome_table,
    prompt_text,
    render_view,
    seat_labels,
    step_table,
)
from services.client.rpc import Followed, GameClient
from services.client.steps import FILTER_LIMIT, Chooser, Steps
from services.client.texts import localized_message, t
from shared.core.describe import Describer, seat_name
from shared.core.manifest import Presentation
from shared.serving.errors import error_info

ReadLine = Callable[[], str | None]
QUIT = ("q", "quit", "exit")
REACTION_S = 0.5  # a key typed this soon after a redraw was meant for the question before it


def refusal(err: grpc.RpcError) -> Text:
    """A failed call as text: the ErrorInfo reason (rule code, ``stale_version`` ...) and the message
    in the client's language when the server sent it (LocalizedMessage), else its message."""
    info = error_info(err)
    reason = info.reason if info is not None else ""
    details = err.details() if hasattr(err, "details") else ""
    return error_text(err.code().name, reason, localized_message(err) or details or "")


@dataclass
class Viewer:
    """Shared by players and spectators: the last view, the event log, the rendering policy.

    ``presentation`` draws the board and words commands and events (the game's own, or the
    generic one: ``services.client.presentation.presentation_for``).

    ``live`` (a terminal): clear and redraw the whole table on every refresh, recent events and
    notices below it. Otherwise (a pipe, a log): print each event as a line and the table only when
    the seat must act, at the end, and when asked (``v``), so the output stays readable.
    """

    client: GameClient
    presentation: Presentation
    console: Console
    names: Sequence[str] = ()
    live: bool = False
    recent: deque[Text] = field(default_factory=lambda: deque(maxlen=8))
    notices: list[Text] = field(default_factory=list)  # explanations kept on screen until the next move
    chat_lines: deque[Text] = field(default_factory=lambda: deque(maxlen=5))  # the players' chat, newest last
    response: Any = None
    version: int = 0
    seen: int = 0  # the newest version the match stream has delivered (an event or a keepalive head)
    _cause: tuple[str, str] = ("", "")  # the actor and command of the last event logged

    def __post_init__(self) -> None:
        self.client.on_limited = self.busy  # a rate-limited call waits and is sent again: say so

    def busy(self, wait_s: float) -> None:
        """The service refused a call for now (a rate limit): the line under the board while the
        client waits to send the same call again."""
        self.notice(Text(t("busy", seconds=f"{max(round(wait_s, 1), 0.1):g}"), "yellow"))

    def refresh(self) -> Any:
        self.response = self.client.get_view()
        self.version = int(self.response.version)
        self.names = seat_labels(self.response) or self.names  # the players' names, from the match
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
            if self.chat_lines:
                parts.append(Panel(Group(*self.chat_lines), title="chat (say TEXT)", expand=False))
            parts += self.notices
            self.console.print(Group(*parts))
        elif force:
            self.console.print(self.board())

    def notice(self, text: Text) -> None:
        """An explanation that must stay readable: printed now, and redrawn under the board."""
        self.notices.append(text)
        if len(self.notices) > 3:
            del self.notices[0]
        self.console.print(text)

    def take(self, item: Followed) -> bool:
        """One item of the match stream: its event logged (True), or a keepalive's head noted."""
        self.seen = max(self.seen, item.version)
        if item.event is None:
            return False
        envelope = item.event.envelope
        cause = (envelope.actor, envelope.command_id)
        line = event_line(item.event, self.presentation, self.names, continued=cause == self._cause)
        self._cause = cause
        self.recent.append(line)
        if not self.live:
            self.console.print(line)
        return True

    def caught_up(self) -> bool:
        """The stream has delivered every event up to the version the board shows (GetView may be
        ahead of it: the box of recent events must not run behind the board)."""
        return self.seen >= self.version

    def finished(self) -> bool:
        return self.response is not None and self.response.HasField("outcome")

    def print_outcome(self) -> None:
        outcome = self.response.outcome
        self.console.print(self.board())
        self.console.print(outcome_table(list(outcome.scores), list(outcome.placings), self.names))


@dataclass
class Player(Viewer):
    """Plays one seat to the end of the match (or until input ends / the player quits)."""

    seat: int = 0
    read_line: ReadLine = stdin_line
    read_keys: ReadKeys | None = None  # a terminal's keys: lines edited here (services/client/keyboard.py)
    max_refusals: int = 50
    resends: int = 3  # a stale command still legal is sent again up to this many times
    idle_hint_s: float = 30.0
    prompts: list[str] = field(default_factory=list)  # every prompt shown, in order
    chooser: Chooser | None = None
    refusals: int = 0
    reaction_s: float = REACTION_S
    question: int = 0  # the question on screen: counts the redraws because the match moved
    redrawn_at: float = 0.0  # when the last one was on screen (time.monotonic)
    catch_up_s: float = 0.5  # how long a redraw waits for the stream to reach the view's version
    chat: MatchChat | None = None  # the match's players' chat (``say TEXT``), with the lobby token
    _heard: set[str] = field(default_factory=set)  # chat message ids shown
    _inbox: Inbox | None = None
    _later: list[Item] = field(default_factory=list)
    _reader: LineReader | None = None
    _line_open: bool = False  # the cursor is on the prompt's line (after it, or what is typed)
    _resigning: bool = False  # "resign" was typed: the next line confirms it ("yes") or not

    def my_turn(self) -> bool:
        r = self.response
        return self.seat in list(r.seats_to_act) and len(r.legal_commands) > 0

    # ------------------------------------------------------------ the loop
    def play(self) -> Any:
        """Returns the ``MatchOutcome`` (None if the player left before the end)."""
        self.refresh()
        self.seen = self.version  # the events before it are not shown
        inbox = self._inbox = Inbox()
        follower = Follower(self.client.follow(self.version + 1), inbox).start()
        if self.read_keys is not None:
            reader: LineReader = KeyReader(self.read_keys, inbox, self.answering, self._echo)
        else:
            reader = LineReader(self.read_line, inbox, lambda: self.question)
        self._reader = reader
        if self.chat is not None:
            self.chat.follow(inbox.put)
        try:
            return self._loop(inbox, reader)
        finally:
            follower.stop()
            self.client.stop_following()
            if self.chat is not None:
                self.chat.stop()

    def _loop(self, inbox: Inbox, reader: LineReader) -> Any:
        self.show(force=True)
        self.offer()
        quiet_since, hinted = time.monotonic(), False
        while not self.finished():
            if self.my_turn() or self.live:
                reader.want()
            item = self._later.pop(0) if self._later else inbox.get(timeout=1.0)
            if item is None:
                if not hinted and not self.my_turn() and time.monotonic() - quiet_since > self.idle_hint_s:
                    hinted = True
                    self.console.print(Text(self.waiting_text(), "dim"))
                continue
            if isinstance(item, StreamFailed):
                raise item.error
            if isinstance(item, Said):
                self.heard(item)
                continue
            if isinstance(item, Moved):
                quiet_since, hinted = time.monotonic(), False
                self.on_moved(drain_moves(item, inbox, self._later))
            elif not self.on_line(item):
                self.console.print(t("leaving"))
                self.console.print(t("rejoin", match=self.client.match_id))
                return None
        self.print_outcome()
        return self.response.outcome

    def waiting_text(self) -> str:
        seats = [seat_name(self.names, s) for s in self.response.seats_to_act if s != self.seat]
        who = ", ".join(seats) or t("waiting.system" if self.response.system_to_act else "waiting.others")
        return t("waiting", who=who)

    # ------------------------------------------------------------ the match moved
    def on_moved(self, items: Sequence[Followed]) -> None:
        logged = [self.take(item) for item in items]
        if self.seen <= self.version:  # events the board already shows: the box catches up
            if any(logged) and self.live:
                self._off_prompt()
                self.show()
                self.offer()
            return
        choosing = self.chooser is not None and self.my_turn()
        self._off_prompt()
        before, options = self.version, list(self.response.legal_commands)
        self.fetch_view()
        if not self.my_turn():
            self.chooser = None
            self.show()
            self.redrawn()
            return
        kept = self._update_chooser()
        if choosing:
            if options == list(self.response.legal_commands):
                what = t("moved.same")
            elif kept and self.chooser is not None and self.chooser.choices:
                what = t("moved.kept")
            else:
                what = t("moved.changed")
            moved = t("moved.while_choosing", before=before, version=self.version, what=what)
            self.notice(Text(moved, "yellow"))
        self.show(force=not choosing)
        self.offer(redrawn=True)

    def fetch_view(self) -> None:
        """The view now, and the stream's events up to its version (the stream may run behind
        GetView), so the board and the recent events show the same moment."""
        self.refresh()
        for _ in range(3):
            self.catch_up()
            if self.seen <= self.version:
                return
            self.refresh()  # the match moved on while the events came: never a board behind them

    def catch_up(self) -> None:
        """Take the stream's items until it reaches the shown version, waiting at most
        ``catch_up_s`` (events hidden from this seat may end a batch unannounced); what else comes
        meanwhile (a typed line) is handled after, in order."""
        deadline = time.monotonic() + self.catch_up_s
        while self._inbox is not None and not self.caught_up():
            item = self._inbox.get(timeout=max(deadline - time.monotonic(), 0.0))
            if item is None:
                return
            if isinstance(item, Moved):
                self.take(item.item)
            else:
                self._later.append(item)

    def _steps(self) -> Steps:
        view = self.response.view
        return Steps(
            describe=lambda c: command_text(c, self.presentation, view, self.names),
            describer=Describer(self.names),
            wording=wording_of(self.presentation),
            view=view,
            names=self.names,
            planner=planner_of(self.presentation),
        )

    def _update_chooser(self) -> bool:
        commands = list(self.response.legal_commands)
        if self.chooser is None:
            self.chooser = Chooser(self._steps(), commands, [])
            return True
        return self.chooser.update(commands, self._steps())

    # ------------------------------------------------------------ asking
    def offer(self, redrawn: bool = False) -> None:
        """Show the current step of the choice and its prompt (nothing when it is not our turn); a
        question ``redrawn`` because the match moved is a new question once it is on screen."""
        if not self.my_turn():
            return
        if self.chooser is None:
            self._update_chooser()
        assert self.chooser is not None
        step = self.chooser.step()
        self.console.print(step_table(step, self.chooser.path()))
        prompt = prompt_text(step, bool(self.chooser.choices or self.chooser.found))
        self.console.print(prompt, end="" if self.live else "\n")  # a script's output stays one line each
        self._line_open = self.live
        if redrawn:
            self.redrawn()
        if self._reader is not None:
            self._reader.retype()  # what is typed so far stays visible after the prompt
        self.prompts.append(prompt)

    def redrawn(self) -> None:
        """The match moved and the screen shows it: what is typed from now on answers a new question."""
        self.redrawn_at = time.monotonic()  # before the count: ``answering`` reads them the other way
        self.question += 1

    def answering(self) -> int:
        """The question a key typed now answers: the one on screen once it has been there
        ``reaction_s``; sooner, the one before it."""
        question = self.question
        return question - 1 if time.monotonic() - self.redrawn_at < self.reaction_s else question

    def _echo(self, keys: str) -> None:
        self._line_open = not keys.endswith("\n")
        self.console.file.write(keys)
        self.console.file.flush()

    def _off_prompt(self) -> None:
        """A new line, if the cursor is still on the prompt's line: the match moved while the player
        was typing, or a line came without its Enter echoed after the prompt (it was entered before
        the prompt was shown, or comes from a pipe)."""
        if self._line_open:
            self._line_open = False
            self.console.print()

    def on_line(self, line: Line) -> bool:
        """Handle one input line; False when the player leaves. A line that answers the question
        (a number, ``b``, words) but was typed for an earlier one is not used: it is explained."""
        text = (line.text or "").strip()
        self._off_prompt()
        if line.text is None or text.lower() in QUIT:
            return False
        lowered = text.lower()
        if self._resigning or lowered == "resign":
            self.resign(lowered)
        elif lowered == "undo":
            self.undo()
        elif lowered in ("v", "view"):
            self.console.print(self.board())
        elif lowered in ("?", "h", "help"):
            self.console.print(self.help())
        elif text.startswith("?"):
            self.explain(text[1:].strip())
        elif lowered == "say" or lowered.startswith("say "):
            self.say(text[3:].strip())
            return True
        elif text and line.question != self.question:
            self.notice(self._stale(text))
        elif not self.my_turn():
            self.console.print(Text(t("not_your_turn", waiting=self.waiting_text()), "yellow"))
            return True
        else:
            self.choose(text)
            return True
        self.offer()
        return True

    def resign(self, lowered: str) -> None:
        """``resign`` asks first; ``yes`` then resigns the seat (Resign), anything else keeps playing."""
        if not self._resigning:
            self._resigning = True
            self.console.print(Text(t("resign.ask"), "yellow"))
            return
        self._resigning = False
        answers = {"y", "yes", *(a.strip().lower() for a in t("resign.yes_answers").split(","))}
        if lowered not in answers:
            self.console.print(Text(t("resign.kept"), "dim"))
            return
        try:
            self.client.resign()
        except grpc.RpcError as err:
            if err.code() is not grpc.StatusCode.FAILED_PRECONDITION:
                raise
            self.notice(refusal(err))
            return
        self.console.print(Text(t("resign.done"), "yellow"))
        self.chooser = None
        self.fetch_view()

    def undo(self) -> None:
        """``undo`` takes back the seat's latest command (Undo), when the view says it may; a refusal
        is said in words."""
        try:
            done = self.client.undo(self.version)
        except grpc.RpcError as err:
            if err.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                raise
            self.notice(refusal(err))
            return
        self.console.print(Text(t("undo.done", version=done.to_version), "yellow"))
        self.chooser = None
        self.fetch_view()

    # ------------------------------------------------------------ chat
    def say(self, text: str) -> None:
        """Send ``text`` to the match's players' chat; a refusal is said in words."""
        if self.chat is None:
            self.console.print(Text(t("chat.none"), "yellow"))
            return
        try:
            self.heard(self.chat.say(text))
        except grpc.RpcError as err:
            self.console.print(refusal(err))

    def heard(self, said: Said) -> None:
        """A chat message, once: printed above the prompt (which is shown again with what is typed)
        and kept under the board."""
        if said.message_id in self._heard:
            return
        self._heard.add(said.message_id)
        line = Text.assemble((said.name, "bold magenta"), ": ", said.text)
        self.chat_lines.append(line)
        typing = self._line_open
        self._off_prompt()
        self.console.print(line)
        if typing and self.prompts:
            self.console.print(self.prompts[-1], end="")
            self._line_open = True
            if self._reader is not None:
                self._reader.retype()

    def help(self) -> Text:
        step = self.chooser.step() if self.chooser is not None and self.my_turn() else None
        back = bool(self.chooser and (self.chooser.choices or self.chooser.found))
        return help_text(step, back, glossary_of(self.presentation) is not None)

    def explain(self, query: str) -> None:
        glossary = glossary_of(self.presentation)
        found = list(glossary.explain(query)) if glossary is not None and query else []
        if not found:
            self.console.print(Text(t("explain.none", query=repr(query)), "yellow"))
        for text in found:
            self.console.print(Text(text, "cyan"))

    def choose(self, text: str) -> None:
        """A step's number, ``b`` (back), nothing (ask again) or words that filter the commands."""
        chooser = self.chooser
        assert chooser is not None
        step = chooser.step()
        if text.lower() in ("b", "back"):
            if not chooser.back():
                self.console.print(Text(t("choose.first_step"), "yellow"))
        elif text.isdigit() and 1 <= int(text) <= len(step.options):
            command = chooser.pick(int(text) - 1)
            if command is not None:
                self.submit(command)
                return
        elif text.isdigit():
            self.console.print(Text(t("choose.range", count=len(step.options)), "yellow"))
        elif text:
            count, command = chooser.search(text)
            if command is not None:
                self.submit(command)
                return
            if count == 0:
                self.console.print(Text(t("choose.no_match", text=repr(text)), "yellow"))
            elif count > FILTER_LIMIT:
                self.console.print(Text(t("choose.too_many", count=count, text=repr(text)), "yellow"))
        self.offer()

    # ------------------------------------------------------------ submitting
    def submit(self, command: Any) -> None:
        """Send ``command`` (and the rest of the plan it starts, each while it is still legal)."""
        then = self.chooser.then if self.chooser is not None else ()
        self.notices.clear()
        sent = self._send(command)
        for following in then:
            if not sent:
                break
            self.refresh()
            if not self.my_turn() or following not in list(self.response.legal_commands):
                described = command_text(following, self.presentation, self.response.view, self.names)
                self.notice(Text(t("send.rest_gone", command=described), "yellow"))
                break
            sent = self._send(following)
        self.chooser = None
        self.fetch_view()
        self.show(force=self.my_turn())
        self.offer()

    def _send(self, command: Any) -> bool:
        """Send one command; a stale one is sent again while it is still legal, else explained.
        True when it was played."""
        described = command_text(command, self.presentation, self.response.view, self.names)
        self.console.print(Text(f"> {described}", "bold green"))
        for _ in range(self.resends + 1):
            before = self.version
            try:
                self.client.submit(command, self.version)
                return True
            except grpc.RpcError as err:
                if err.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                    raise
                self.refusals += 1
                if self.refusals > self.max_refusals:
                    raise
                self.refresh()
                if err.code() is grpc.StatusCode.FAILED_PRECONDITION:
                    self.notice(refusal(err))
                    return False
                if self.finished() or command not in list(self.response.legal_commands):
                    self.notice(self._gone(described, before))
                    return False
                self.console.print(Text(t("send.again", before=before, version=self.version)))
        return False

    def _stale(self, text: str) -> Text:
        then = t("stale.choose_again" if self.my_turn() else "stale.not_your_turn")
        return Text(t("stale.typed", text=repr(text), then=then), "yellow")

    def _gone(self, described: str, before: int) -> Text:
        text = Text(t("gone.not_played", command=described), "bold yellow")
        text.append(t("gone.why", before=before, version=self.version), "yellow")
        return text


@dataclass
class Spectator(Viewer):
    """Follows a match's public view live until it ends, a version, or a time limit."""

    until_version: int = 0  # 0: until the end
    max_seconds: float = 0.0  # 0: no limit

    def watch(self) -> Any:
        started = time.monotonic()
        self.refresh()
        self.seen = self.version
        self.show(force=True)
        events = self.client.follow(self.version + 1)
        behind = False  # the view is newer than the board drawn: drawn once its events are in

        def done() -> bool:
            if self.max_seconds and time.monotonic() - started >= self.max_seconds:
                return True
            if not self.caught_up():  # the events up to the view's version come first
                return False
            return self.finished() or bool(self.until_version and self.version >= self.until_version)

        while not done():
            for item in events:
                self.take(item)
                if item.version > self.version:
                    self.refresh()
                    behind = True
                if behind and self.caught_up():
                    self.show()
                    behind = False
                if done():
                    break
        if self.finished():
            self.print_outcome()
            return self.response.outcome
        self.show(force=not self.live)
        return None


__all__ = ["Line", "Player", "Spectator", "Viewer", "refusal", "stdin_line"]
