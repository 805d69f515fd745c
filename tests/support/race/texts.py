"""The dice race's words in three languages, as a game declares them (``services/<game>/texts.py``):
what the gateway's ``/texts/race`` serves and the tests read back. Its manifest's title, description and
option are among them (``manifest_texts``); the Portuguese translates them, the Chinese leaves them in
English."""

from __future__ import annotations

from pathlib import Path

from shared.core.i18n import Texts
from shared.core.manifest import manifest_texts

WORDS = {
    "web.position": "{seat} is on square {square}",
    "web.goal": "Goal: square {goal}",
    "web.english_only": "Only in English",
}


def english() -> dict[str, str]:
    from tests.support.race.manifest import MANIFEST

    return {**manifest_texts(MANIFEST), **WORDS}


TEXTS = Texts("race", Path(__file__).parent, english)
