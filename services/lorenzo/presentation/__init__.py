"""How clients show Lorenzo il Magnifico: the terminal board, its wording and the spectator page's tables.

:class:`LorenzoPresentation` implements ``shared.core.manifest.Presentation`` for the terminal client
(``tabula play | watch | replay``); the manifest's ``presentation=`` is :func:`load`. The labels
come from the validated content (``services.lorenzo.content.load_content()``), loaded once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

from services.lorenzo.presentation import steps
from services.lorenzo.presentation.board import board, final_table
from services.lorenzo.presentation.describe import LorenzoDescriber
from services.lorenzo.presentation.labels import Labels


@dataclass(frozen=True)
class LorenzoPresentation:
    labels: Labels

    def board(self, view: Any, version: int, names: Sequence[str], match_id: str) -> RenderableType:
        return board(view, self.labels, names, version, match_id)

    def describe_command(self, command: Any, view: Any | None, names: Sequence[str]) -> str:
        return LorenzoDescriber(self.labels, names).command(command, view)

    def describe_event(self, event: Any, names: Sequence[str]) -> str:
        return LorenzoDescriber(self.labels, names).event(event)

    def final(self, view: Any, names: Sequence[str]) -> RenderableType | None:
        return final_table(view, names)

    # The terminal client's optional parts (services/client/steps.py, ``? NAME``).
    def step_title(self, command: str, field: str, member: Any = None, view: Any = None) -> str | None:
        return steps.step_title(command, field)

    def option_text(self, member: Any, field: str, view: Any | None, names: Sequence[str]) -> str | None:
        return steps.option_text(self.labels, member, field, view, names)

    def explain(self, query: str) -> list[str]:
        """Cards, leaders, tiles, excommunications and privileges with their costs and effects."""
        return self.labels.explain(query)


@functools.cache
def load() -> LorenzoPresentation:
    """The presentation over the validated content (the manifest's ``presentation=``)."""
    from services.lorenzo.content import load_content

    return LorenzoPresentation(Labels(load_content()))
