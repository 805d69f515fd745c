"""Rich renderables the loops print: the board (through the game's presentation), the current step of
the player's choice, the help, event lines, the outcome, refusals.

Pure functions (messages in, renderables out), so they are tested without a server. What is
game-specific (the board, the wording of commands and events, the final scoring) comes
from a ``shared.core.manifest.Presentation``: the game's own or
:class:`~services.client.generic.GenericPresentation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from services.client.steps import Step
from services.client.texts import t
from shared.core.describe import seat_name, union_member
from shared.core.manifest import Presentation

# Messages of a game's generated module (dynamically imported, so untyped here).
Msg = Any


def seat_labels(response: Msg) -> tuple[str, ...]:
    """Who plays each seat, as the rule service labels them (``GetViewResponse.seats``, ``Replay``):
    the player's name, else ``greedy bot``; () when the response carries none."""
    if "seats" not in response.DESCRIPTOR.fields_by_name or not response.seats:
        return ()
    return tuple(s.label or t("seat", n=s.seat) for s in sorted(response.seats, key=lambda s: s.seat))


def render_view(
    view: Msg, presentation: Presentation, names: Sequence[str] = (), version: int = 0, match_id: str = ""
) -> RenderableType:
    """The whole table as a player (or a spectator) sees it, with the final scoring once there is one."""
    parts = [presentation.board(view, version, names, match_id)]
    final = presentation.final(view, names)
    if final is not None:
        parts.append(final)
    return Group(*parts)


def command_text(command: Msg, presentation: Presentation, view: Msg | None, names: Sequence[str]) -> str:
    """A ``Command`` wrapper (as ``legal_commands`` carries it) in words."""
    member = union_member(command) if command.DESCRIPTOR.oneofs else command
    if member is None:
        return t("empty_command")
    return presentation.describe_command(member, view, names)


def step_table(step: Step, path: str = "") -> RenderableType:
    """One step of the choice: its question (after what is chosen so far) and its numbered options.
    The question is a line of its own (a table title would wrap to the width of short options)."""
    title = Text(f"{path} > " if path else "", style="green")
    title.append(step.title, style="bold green")
    table = Table(box=box.SIMPLE, show_header=False, padding=(0, 1))
    table.add_column("#", justify="right", style="bold green")
    table.add_column(t("step.choice"))
    for n, option in enumerate(step.options, start=1):
        table.add_row(str(n), option.label)
    return Group(title, table)


def prompt_text(step: Step, can_go_back: bool) -> str:
    """``Your choice [1-4, b back, ? help]: `` (the range of every input is in the help)."""
    back = t("prompt.back") if can_go_back else ""
    return t("prompt", count=len(step.options), back=back)


def help_text(step: Step | None, can_go_back: bool, glossary: bool) -> Text:
    """What each input does, with its range now."""
    lines = []
    if step is not None:
        lines.append(t("help.option", count=len(step.options), title=step.title))
        if can_go_back:
            lines.append(t("help.back"))
        lines.append(t("help.words"))
        lines.append(t("help.empty"))
    lines.append(t("help.board"))
    lines.append(t("help.say"))
    if glossary:
        lines.append(t("help.glossary"))
    lines.append(t("help.help"))
    lines.append(t("help.undo"))
    lines.append(t("help.resign"))
    lines.append(t("help.quit"))
    return Text(t("help.title") + "\n" + "\n".join(lines), style="cyan")


def outcome_table(scores: Sequence[int], placings: Sequence[int], names: Sequence[str]) -> Table:
    """Final scores and placings (1 = first), best first."""
    table = Table(title=t("scores.title"), box=box.DOUBLE_EDGE, title_style="bold magenta")
    table.add_column(t("scores.place"), justify="right")
    table.add_column(t("scores.player"))
    table.add_column(t("scores.score"), justify="right")
    order = sorted(range(len(scores)), key=lambda s: (placings[s] if s < len(placings) else 99, s))
    for seat in order:
        place = placings[seat] if seat < len(placings) else 0
        table.add_row(str(place), seat_name(names, seat), str(scores[seat]))
    return table


def event_line(
    match_event: Msg, presentation: Presentation, names: Sequence[str] = (), continued: bool = False
) -> Text:
    """``[Ada] v12 Die rolled: ...``: one ``MatchEvent``, marked with who caused it. An event that
    follows from the same command as the line before (``continued``: what the rules did next, often
    to or for another player) is indented under it instead, so it is not read as that player's move."""
    envelope = match_event.envelope
    actor = envelope.actor
    parts = actor.split(":")  # "seat:N", "bot:N[:level]" or "system"
    who = actor
    if parts[0] in ("seat", "bot") and len(parts) > 1 and parts[1].isdigit():
        who = seat_name(names, int(parts[1]))
    member = union_member(match_event.event)
    if match_event.HasField("platform"):  # the platform's own event, the same in every game
        platform = match_event.platform
        if platform.HasField("commands_undone"):
            undone = platform.commands_undone
            text = t("event.undone", seat=seat_name(names, undone.seat), version=undone.to_version)
        else:
            text = t("event.resigned", seat=seat_name(names, platform.seat_resigned.seat))
    else:
        text = presentation.describe_event(member, names) if member is not None else envelope.type
    prefix = f"[{who}] "
    line = Text(" " * len(prefix) if continued else prefix, style="dim")
    line.append(f"v{envelope.version} {text}")
    return line


def error_text(code: str, reason: str, message: str) -> Text:
    """A refused command: the gRPC code, the rule's reason code and its message."""
    text = Text(t("refused"), style="bold red")
    text.append(f"{reason or code}", style="red")
    if message:
        text.append(f" - {message}")
    return text
