"""Which presentation shows a game in the terminal: its manifest's own, else the generic one."""

from __future__ import annotations

from services.client.generic import GenericPresentation
from services.games import manifest
from shared.manifest import Presentation


def presentation_for(game: str) -> Presentation:
    """``manifest.presentation()`` when the game has one; otherwise (or for a game this process
    does not know, whose messages still carry their descriptors) the generic presentation."""
    try:
        loader = manifest(game).presentation
    except KeyError:
        return GenericPresentation()
    return loader() if loader is not None else GenericPresentation()
