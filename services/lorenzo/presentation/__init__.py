"""How clients show Lorenzo il Magnifico: the terminal board, its wording and the spectator page's tables.

:class:`LorenzoPresentation` implements ``shared.core.manifest.Presentation`` for the terminal client
(``tabula play | watch | replay``); the manifest's ``presentation=`` is :func:`load`. The labels
come from the validated content (``services.lorenzo.content.load_content()``), loaded once.
"""

from __future__ import annotations

import functools

from services.lorenzo.presentation import steps
from services.lorenzo.presentation.board import board, final_table
from services.lorenzo.presentation.describe import LorenzoDescriber
from services.lorenzo.presentation.labels import Labels
from shared.core.labelled_presentation import LabelledPresentation


class LorenzoPresentation(LabelledPresentation):
    """``? NAME`` explains cards, leaders, tiles, excommunications and privileges (costs, effects)."""


@functools.cache
def load(locale: str = "en") -> LorenzoPresentation:
    """The presentation over the validated content (the manifest's ``presentation=``)."""
    from services.lorenzo.content import load_content

    return LorenzoPresentation(
        Labels(load_content()), board, final_table, LorenzoDescriber, steps, Labels.explain
    )
