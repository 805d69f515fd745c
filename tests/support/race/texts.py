"""The dice race's words in three languages, as a game declares them (``services/<game>/texts.py``):
what the gateway's ``/texts/race`` serves and the tests read back."""

from __future__ import annotations

from pathlib import Path

from shared.core.i18n import Texts

TEXTS = Texts(
    "race",
    Path(__file__).parent,
    {
        "web.position": "{seat} is on square {square}",
        "web.goal": "Goal: square {goal}",
        "web.english_only": "Only in English",
    },
)
