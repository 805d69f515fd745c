"""A game's terminal presentation put together from its parts over one labels value.

A game whose board, final table, describer and step wording each take its ``Labels`` (the names of
the validated content) subclasses :class:`LabelledPresentation` and builds it once in its
``presentation.load``; the result implements ``shared.core.manifest.Presentation`` and the terminal
client's optional step wording and ``? NAME`` (docs/client.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class StepWords(Protocol):
    """A game's step wording: a question for a command's field, a field's value in words."""

    def step_title(self, command: str, field: str) -> str | None: ...

    def option_text(
        self, labels: Any, member: Any, field: str, view: Any | None, names: Sequence[str]
    ) -> str | None: ...


@dataclass(frozen=True)
class LabelledPresentation:
    labels: Any
    draw_board: Callable[[Any, Any, Sequence[str], int, str], Any]  # (view, labels, names, version, match)
    draw_final: Callable[[Any, Sequence[str]], Any]  # (view, names): the final table or None
    describer: Callable[[Any, Sequence[str]], Any]  # (labels, names) -> .command(c, view), .event(e)
    steps: StepWords
    explain_in: Callable[[Any, str], list[str]]  # (labels, query): the components ``? NAME`` names

    def board(self, view: Any, version: int, names: Sequence[str], match_id: str) -> Any:
        return self.draw_board(view, self.labels, names, version, match_id)

    def describe_command(self, command: Any, view: Any | None, names: Sequence[str]) -> str:
        text: str = self.describer(self.labels, names).command(command, view)
        return text

    def describe_event(self, event: Any, names: Sequence[str]) -> str:
        text: str = self.describer(self.labels, names).event(event)
        return text

    def final(self, view: Any, names: Sequence[str]) -> Any:
        return self.draw_final(view, names)

    def step_title(self, command: str, field: str, member: Any = None, view: Any = None) -> str | None:
        return self.steps.step_title(command, field)

    def option_text(self, member: Any, field: str, view: Any | None, names: Sequence[str]) -> str | None:
        return self.steps.option_text(self.labels, member, field, view, names)

    def explain(self, query: str) -> list[str]:
        return self.explain_in(self.labels, query)
