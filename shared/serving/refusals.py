"""A refusal in the caller's language: the ``google.rpc.LocalizedMessage`` of every error status.

Every refusal a Tabula service sends carries, beside its ``ErrorInfo`` and its English
``Status.message``, a ``google.rpc.LocalizedMessage {locale, message}``: the message in the call's
locale (metadata ``accept-language``, :func:`shared.core.i18n.locale_of`). Its text is the
translation of the refusal's key, ``reason.<code>: <English template>``
(:func:`shared.core.reasons.reason_key`), with the error's values filled in. The key is looked up
in the service's texts (a game's ``TEXTS``, the lobby's), then in the platform's
(:data:`PLATFORM_TEXTS`, ``shared/locales/``); when none translates it the message is the English
one and the locale ``en``.

The platform's English is collected from its raise sites (``shared.core.reasons.refusal_texts``),
so a refusal is worded once, where it is raised. The platform's texts also word its match options
(``game.option.undo``, every game's); :func:`game_words` is a game's title, description and options in a
locale, for the lobby's ``ListGames``, the gateway's ``GET /games`` and ``tabula games``.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from google.rpc import error_details_pb2

from shared.core.i18n import DEFAULT, Texts, register
from shared.core.manifest import GameManifest, ManifestWords, manifest_words, option_texts
from shared.core.reasons import PLATFORM, ROOT, reason_key, refusal_texts
from shared.core.undo import PLATFORM_OPTIONS
from shared.matches.runner import MatchExists, MatchNotFound
from shared.serving.errors import MAX_MESSAGE, STORE_UNAVAILABLE_TEXT, Mapped, clip
from shared.store import VersionConflict

log = logging.getLogger("tabula.refusals")
SHARED = Path(__file__).resolve().parents[1]  # shared/: the platform's texts are in shared/locales/


def _platform_english() -> dict[str, str]:
    found = refusal_texts(SHARED, [r.code for r in PLATFORM], root=ROOT)
    worded_in_class = {
        "match_not_found": MatchNotFound.template,
        "match_exists": MatchExists.template,
        "stale_version": VersionConflict.template,
        "store_unavailable": STORE_UNAVAILABLE_TEXT,
    }
    found.update({reason_key(code, template): template for code, template in worded_in_class.items()})
    return found | option_texts(PLATFORM_OPTIONS)


PLATFORM_TEXTS = Texts("platform", SHARED, _platform_english)
register("platform", lambda: PLATFORM_TEXTS)


def game_texts(manifest: GameManifest) -> Texts | None:
    """A game's ``TEXTS`` (its manifest's ``texts`` hook), None when its package declares none: its
    own refusals are then in English (the platform's are still translated)."""
    if manifest.texts is None:
        return None
    try:
        return manifest.texts()
    except (ModuleNotFoundError, AttributeError):
        return None


def game_words(manifest: GameManifest, locale: str) -> ManifestWords:
    """The game's title, description and match options' descriptions in ``locale``: its own from its
    ``TEXTS`` (``shared.core.manifest.manifest_texts``), the platform's options from the platform's,
    English where untranslated. English is the manifest's, with no texts loaded."""
    if locale == DEFAULT:
        return manifest_words(manifest)
    texts = [t for t in (game_texts(manifest), PLATFORM_TEXTS) if t is not None]
    return manifest_words(manifest, [t.catalog(locale) for t in texts])


class _Given(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"  # a placeholder the error has no value for stays visible


def _fill(template: str, values: Mapping[str, Any]) -> str:
    return string.Formatter().vformat(template, (), _Given(values))


def localized(mapped: Mapped, locale: str, texts: Sequence[Texts] = ()) -> error_details_pb2.LocalizedMessage:
    """``mapped``'s message in ``locale``: the first of ``texts`` (then the platform's) that
    translates its key, else the English message (locale ``en``)."""
    key = reason_key(mapped.reason, mapped.english)
    if locale != DEFAULT:
        for source in (*texts, PLATFORM_TEXTS):
            try:
                translated = source.catalog(locale).translated.get(key)
                if translated is not None:
                    text = _fill(translated, mapped.values)
                    return error_details_pb2.LocalizedMessage(locale=locale, message=clip(text, MAX_MESSAGE))
            except Exception:  # a broken translation must not break the refusal: English instead
                log.exception("translation of %r (%s, %s) failed", key, source.name, locale)
    return error_details_pb2.LocalizedMessage(locale=DEFAULT, message=clip(mapped.message, MAX_MESSAGE))
