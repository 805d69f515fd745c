"""Which presentation shows a game in the terminal: its manifest's own, else the generic one.

Beyond ``shared.core.manifest.Presentation`` (board, commands, events, final scoring), a game's
presentation may offer optional parts the client looks for by their shape: words for the steps
of a choice (:class:`services.client.steps.StepWording`), plans that make several commands in a row
one choice (:class:`services.client.steps.Planner`) and a glossary of its components for the
``? NAME`` input (:class:`Glossary`). A presentation without them gets the client's defaults.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from services.client.generic import GenericPresentation
from services.client.steps import Planner, StepWording
from services.games import manifest
from shared.core.manifest import Presentation


@runtime_checkable
class Glossary(Protocol):
    def explain(self, query: str) -> Sequence[str]:
        """Texts (with costs and effects) of the components ``query`` names; empty when none."""
        ...


def presentation_for(game: str, locale: str = "en") -> Presentation:
    """``manifest.presentation(locale)`` (its words in that locale) when the game has one; otherwise
    (or for a game this process does not know, whose messages still carry their descriptors) the
    generic presentation."""
    try:
        loader = manifest(game).presentation
    except KeyError:
        return GenericPresentation()
    return loader(locale) if loader is not None else GenericPresentation()


def wording_of(presentation: Any) -> StepWording | None:
    return presentation if isinstance(presentation, StepWording) else None


def planner_of(presentation: Any) -> Planner | None:
    return presentation if isinstance(presentation, Planner) else None


def glossary_of(presentation: Any) -> Glossary | None:
    return presentation if isinstance(presentation, Glossary) else None
