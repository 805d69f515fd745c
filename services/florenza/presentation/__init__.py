"""How clients show Florenza: the terminal board and its wording.

:class:`FlorenzaPresentation` implements ``shared.core.manifest.Presentation`` for the terminal client
(``tabula play | watch | replay``); the manifest's ``presentation=`` is :func:`load`. The labels come
from the validated content (``services.florenza.content.load_content()``), loaded once, and are worded
in the locale asked for (English, Simplified Chinese, Brazilian Portuguese: ``services/florenza/texts.py``).
"""

from __future__ import annotations

import functools

from services.florenza.presentation import steps
from services.florenza.presentation.board import board, final_table
from services.florenza.presentation.describe import FlorenzaDescriber
from services.florenza.presentation.labels import Labels, catalog
from shared.core.labelled_presentation import LabelledPresentation


class FlorenzaPresentation(LabelledPresentation):
    """``? NAME`` explains workshops, artists, preachers and art works (costs, effects)."""


@functools.cache
def load(locale: str = "en") -> FlorenzaPresentation:
    """The presentation over the validated content in ``locale`` (the manifest's ``presentation=``)."""
    from services.florenza.content import load_content

    t = catalog(locale)
    return FlorenzaPresentation(
        Labels(load_content(), t),
        board,
        functools.partial(final_table, t=t),
        FlorenzaDescriber,
        steps.Steps(t.locale),
        steps.explain,
    )
