"""The web app's own words (the play app, clients/ts/src/play/, and the spectator page,
services/gateway/static/): their English, declared once here, keyed by stable ids; translations in
``services/gateway/locales/<locale>.yaml``. The pages read them as ``GET /texts/play`` and word
everything through ``t(key, values)`` (clients/ts/src/i18n.ts).
"""

from __future__ import annotations

from pathlib import Path

from shared.core.i18n import Texts, register

ENGLISH: dict[str, str] = {
    # the language picker
    "lang.label": "Language",
}

PLAY = Texts("play", Path(__file__).parent, ENGLISH)
register(PLAY.name, lambda: PLAY)
