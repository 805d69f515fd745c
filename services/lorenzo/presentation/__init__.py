"""How clients show Lorenzo il Magnifico: the terminal board, its wording and the spectator page's tables.

:class:`LorenzoPresentation` implements ``shared.core.manifest.Presentation`` for the terminal client
(``tabula play | watch | replay``); the manifest's ``presentation=`` is :func:`load`. The labels
come from the validated content (``services.lorenzo.content.load_content()``), loaded once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from services.lorenzo.presentation.board import board, final_table
from services.lorenzo.presentation.describe import LorenzoDescriber
from services.lorenzo.presentation.labels import Labels
from services.lorenzo.presentation.steps import StepWords
from shared.core.labelled_presentation import LabelledPresentation


class LorenzoPresentation(LabelledPresentation):
    """``? NAME`` explains cards, leaders, tiles, excommunications and privileges (costs, effects)."""


@functools.cache
def load(locale: str = "en") -> LorenzoPresentation:
    """The presentation over the validated content with its words in ``locale`` (the manifest's
    ``presentation=``; one of ``shared.core.i18n.LOCALES``, anything else is English)."""
    from services.lorenzo.content import load_content
    from services.lorenzo.texts import Words

    words = Words.of(locale)
    labels = Labels(load_content(), words)
    final = functools.partial(_final, labels=labels)
    return LorenzoPresentation(labels, board, final, LorenzoDescriber, StepWords(words), Labels.explain)


def _final(view: object, names: Sequence[str], labels: Labels) -> object:
    return final_table(view, names, labels)
