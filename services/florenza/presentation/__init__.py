"""How clients show Florenza: the terminal board and its wording.

:class:`FlorenzaPresentation` implements ``shared.core.manifest.Presentation`` for the terminal client
(``tabula play | watch | replay``); the manifest's ``presentation=`` is :func:`load`. The labels come
from the validated content (``services.florenza.content.load_content()``), loaded once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

from services.florenza.presentation import steps
from services.florenza.presentation.board import board, final_table
from services.florenza.presentation.describe import FlorenzaDescriber
from services.florenza.presentation.labels import Labels


@dataclass(frozen=True)
class FlorenzaPresentation:
    labels: Labels

    def board(self, view: Any, version: int, names: Sequence[str], match_id: str) -> RenderableType:
        return board(view, self.labels, names, version, match_id)

    def describe_command(self, command: Any, view: Any | None, names: Sequence[str]) -> str:
        return FlorenzaDescriber(self.labels, names).command(command, view)

    def describe_event(self, event: Any, names: Sequence[str]) -> str:
        return FlorenzaDescriber(self.labels, names).event(event)

    def final(self, view: Any, names: Sequence[str]) -> RenderableType | None:
        return final_table(view, names)

    # The terminal client's optional parts: step wording (services/client/steps.py), ``? NAME``.
    def step_title(self, command: str, field: str, member: Any = None, view: Any = None) -> str | None:
        return steps.step_title(command, field)

    def option_text(self, member: Any, field: str, view: Any | None, names: Sequence[str]) -> str | None:
        return steps.option_text(self.labels, member, field, view, names)

    def explain(self, query: str) -> list[str]:
        """Workshops, artists, preachers and art works with their costs and effects (``? NAME``)."""
        return steps.explain(self.labels, query)


@functools.cache
def load() -> FlorenzaPresentation:
    """The presentation over the validated content (the manifest's ``presentation=``)."""
    from services.florenza.content import load_content

    return FlorenzaPresentation(Labels(load_content()))
