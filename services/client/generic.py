"""How the terminal shows a game that brings no presentation of its own: from the proto descriptors.

The board prints the view message field by field: scalar fields as a two-column list (enums by
value name, booleans as yes / no, repeated scalars joined, a ``seat`` by its player's name),
nested messages as panels of their own, repeated messages as tables with one column per field.
Commands and events are described by :class:`shared.core.describe.Describer`. A game's own
presentation (its manifest's ``presentation``) replaces all of this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from shared.core.describe import Describer, words

Msg = Any


def _is_message(fd: FieldDescriptor) -> bool:
    return fd.type == FieldDescriptor.TYPE_MESSAGE


def field_text(message: Msg, fd: FieldDescriptor, describer: Describer) -> str:
    """One field of ``message`` as text; ``-`` for an empty list or an absent optional field."""
    raw = getattr(message, fd.name)
    if fd.is_repeated:
        return ", ".join(describer.value(fd, item, message.DESCRIPTOR.name) for item in raw) or "-"
    if fd.has_presence and not message.HasField(fd.name):
        return "-"
    if _is_message(fd) and not raw.ListFields():
        return "-"
    return describer.value(fd, raw, message.DESCRIPTOR.name)


def messages_table(title: str, items: Sequence[Msg], describer: Describer) -> Table:
    """A repeated message field: one row per item, one column per field of the item's type."""
    fields = items[0].DESCRIPTOR.fields
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    for fd in fields:
        numeric = fd.cpp_type in (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_INT64)
        table.add_column(
            words(fd.name).lower(), justify="right" if numeric and not fd.is_repeated else "left"
        )
    for item in items:
        table.add_row(*(field_text(item, fd, describer) for fd in fields))
    return table


def render_message(message: Msg, describer: Describer, title: str) -> Panel:
    """Scalars first as ``label  value`` lines, then each nested message and repeated message."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column()
    blocks: list[RenderableType] = []
    for fd in message.DESCRIPTOR.fields:
        label = words(fd.name).lower()
        raw = getattr(message, fd.name)
        if _is_message(fd) and fd.is_repeated and len(raw):
            blocks.append(messages_table(label, list(raw), describer))
        elif _is_message(fd) and not fd.is_repeated and raw.ListFields():
            blocks.append(render_message(raw, describer, label))
        else:
            grid.add_row(label, field_text(message, fd, describer))
    parts: list[RenderableType] = [grid] if grid.row_count else []
    return Panel(Group(*parts, *blocks), title=title, title_align="left", expand=False)


@dataclass(frozen=True)
class GenericPresentation:
    """``shared.core.manifest.Presentation`` for any game, from its messages' descriptors alone."""

    def board(self, view: Msg, version: int, names: Sequence[str], match_id: str) -> RenderableType:
        title = f"{view.DESCRIPTOR.name}" + (f"  match {match_id}" if match_id else "") + f"  v{version}"
        return render_message(view, Describer(names), title)

    def describe_command(self, command: Msg, view: Msg | None, names: Sequence[str]) -> str:
        return Describer(names).command(command, view)

    def describe_event(self, event: Msg, names: Sequence[str]) -> str:
        return Describer(names).event(event)

    def final(self, view: Msg, names: Sequence[str]) -> RenderableType | None:
        return None  # the board already shows every field; the outcome table follows it
