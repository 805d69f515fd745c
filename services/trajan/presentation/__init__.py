"""How clients show Trajan: the terminal board and its wording (``shared.core.manifest.Presentation``).

The terminal client (``tabula play | watch | replay``) hands protobuf messages; :class:`TrajanPresentation`
turns them back into the rules' typed records (``shared.core.codec.from_proto``: the generated messages have
the records' field names and enum numbers) and draws or words those. The labels come from the validated
content (``services.trajan.content.load_content()``), loaded once; the manifest's ``presentation=`` is
:func:`load`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

from services.trajan.presentation import steps
from services.trajan.presentation.board import board, final_table
from services.trajan.presentation.describe import TrajanDescriber
from services.trajan.presentation.labels import Labels, explain
from services.trajan.rules.commands import COMMAND_TYPES
from services.trajan.rules.events import EVENT_TYPES
from services.trajan.rules.view import TrajanView
from shared.core.codec import from_proto
from shared.core.describe import Describer

COMMANDS = {cls.__name__: cls for cls in COMMAND_TYPES}
EVENTS = {cls.__name__: cls for cls in EVENT_TYPES}


def typed_view(view: Any) -> TrajanView:
    """A ``TrajanView`` protobuf message as the rules' record."""
    record: TrajanView = from_proto(TrajanView, view)
    return record


@dataclass(frozen=True)
class TrajanPresentation:
    labels: Labels

    def board(self, view: Any, version: int, names: Sequence[str], match_id: str) -> RenderableType:
        return board(typed_view(view), self.labels, names, version, match_id)

    def describe_command(self, command: Any, view: Any | None, names: Sequence[str]) -> str:
        cls = COMMANDS.get(command.DESCRIPTOR.name)
        if cls is None:  # a newer server's command: the generic wording
            return Describer(names).command(command, view)
        typed = typed_view(view) if view is not None else None
        return TrajanDescriber(self.labels, names).command(from_proto(cls, command), typed)

    def describe_event(self, event: Any, names: Sequence[str]) -> str:
        cls = EVENTS.get(event.DESCRIPTOR.name)
        if cls is None:  # a newer server's event: the generic wording
            return Describer(names).event(event)
        return TrajanDescriber(self.labels, names).event(from_proto(cls, event))

    def final(self, view: Any, names: Sequence[str]) -> RenderableType | None:
        return final_table(typed_view(view), names)

    # The terminal client's optional parts (docs/client.md): words for the steps of a choice, ``? NAME``.
    def step_title(self, command: str, field: str, member: Any = None, view: Any = None) -> str | None:
        cls = COMMANDS.get(command)
        typed = from_proto(cls, member) if cls is not None and member is not None else None
        return steps.step_title(
            command, field, typed, self.labels, typed_view(view) if view is not None else None
        )

    def option_text(self, member: Any, field: str, view: Any | None, names: Sequence[str]) -> str | None:
        cls = COMMANDS.get(member.DESCRIPTOR.name)
        if cls is None:
            return None
        typed = typed_view(view) if view is not None else None
        return steps.option_text(TrajanDescriber(self.labels, names), from_proto(cls, member), field, typed)

    def plans(self, view: Any, commands: Sequence[Any], names: Sequence[str]) -> tuple[str, list[Any]] | None:
        """Sowing as one choice of order (services/client/steps.py ``Planner``)."""
        return steps.sowing_plans(self.labels, typed_view(view), commands) if view is not None else None

    def explain(self, query: str) -> list[str]:
        """``? NAME`` in the terminal: Trajan tiles, provinces, bonus, forum and construction tiles, ships."""
        return explain(self.labels, query)


@functools.cache
def load(locale: str = "en") -> TrajanPresentation:
    """The presentation over the validated content (the manifest's ``presentation=``)."""
    from services.trajan.content import load_content

    return TrajanPresentation(Labels(load_content()))
