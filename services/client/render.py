"""Rich renderables the loops print: the board (through the game's presentation), the numbered legal
commands, event lines, the outcome, refusals.

Pure functions (messages in, renderables out), so they are tested without a server. What is
game-specific (the board, the wording of commands and events, the final scoring) comes from a
``shared.manifest.Presentation``: the game's own or :class:`~services.client.generic.GenericPresentation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from shared.describe import seat_name, union_member
from shared.manifest import Presentation

# Messages of a game's generated module (dynamically imported, so untyped here).
Msg = Any


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
        return "(empty command)"
    return presentation.describe_command(member, view, names)


def commands_table(
    commands: Sequence[Msg], presentation: Presentation, view: Msg | None, names: Sequence[str] = ()
) -> Table:
    """The legal commands, numbered from 1, described in words."""
    table = Table(title="Your legal commands", box=box.SIMPLE, title_style="bold green")
    table.add_column("#", justify="right", style="bold green")
    table.add_column("command")
    for n, command in enumerate(commands, start=1):
        table.add_row(str(n), command_text(command, presentation, view, names))
    return table


def outcome_table(scores: Sequence[int], placings: Sequence[int], names: Sequence[str]) -> Table:
    """Final scores and placings (1 = first), best first."""
    table = Table(title="Final scores", box=box.DOUBLE_EDGE, title_style="bold magenta")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    order = sorted(range(len(scores)), key=lambda s: (placings[s] if s < len(placings) else 99, s))
    for seat in order:
        place = placings[seat] if seat < len(placings) else 0
        table.add_row(str(place), seat_name(names, seat), str(scores[seat]))
    return table


def event_line(match_event: Msg, presentation: Presentation, names: Sequence[str] = ()) -> Text:
    """``[Ada] v12 Die rolled: ...``: one ``MatchEvent``, marked with who caused it."""
    envelope = match_event.envelope
    actor = envelope.actor
    parts = actor.split(":")  # "seat:N", "bot:N[:level]" or "system"
    who = actor
    if parts[0] in ("seat", "bot") and len(parts) > 1 and parts[1].isdigit():
        who = seat_name(names, int(parts[1]))
    member = union_member(match_event.event)
    text = presentation.describe_event(member, names) if member is not None else envelope.type
    line = Text(f"[{who}] ", style="dim")
    line.append(f"v{envelope.version} {text}")
    return line


def error_text(code: str, reason: str, message: str) -> Text:
    """A refused command: the gRPC code, the rule's reason code and its message."""
    text = Text("Refused: ", style="bold red")
    text.append(f"{reason or code}", style="red")
    if message:
        text.append(f" - {message}")
    return text
