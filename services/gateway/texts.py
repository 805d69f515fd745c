"""What ``GET /texts/<name>`` answers: a package's words in one locale, for the pages.

``<name>`` is a game (its manifest's ``texts``: the words its web module shows through ``ctx.t``)
or a package registered with :func:`shared.core.i18n.register`, such as ``play``, the web app's own
words (the play app and the spectator page: ``services.gateway.web_words``). The answer is every key
of the package's English with the locale's translation over it, so a page never needs a second
request for what a translation leaves out.
"""

from __future__ import annotations

import functools
from typing import Any

from services.games import game_names, manifest
from services.gateway import web_words  # noqa: F401  (registers the web app's words, ``play``)
from shared.core.i18n import Texts, negotiate, registered


def _texts(name: str) -> Texts | None:
    if name in game_names():
        hook = manifest(name).texts
        try:
            return hook() if hook is not None else None
        except AttributeError:
            return None  # the game's texts module declares no TEXTS (yet): no words
    loader = registered().get(name)
    return loader() if loader is not None else None


@functools.lru_cache(maxsize=64)
def _merged(name: str, locale: str) -> dict[str, Any] | None:
    texts = _texts(name)
    if texts is None:
        return None
    catalog = texts.catalog(locale)
    english = catalog.english
    translated = {key: value for key, value in catalog.translated.items() if key in english}
    return {"locale": catalog.locale, "texts": {**english, **translated}}


def words(name: str, wanted: str | None) -> dict[str, Any] | None:
    """``{"locale", "texts": {key: template}}`` of package ``name`` for the ``Accept-Language`` (or
    plain tag) ``wanted``; None when no game or registered package has that name or texts."""
    return _merged(name, negotiate(wanted))
