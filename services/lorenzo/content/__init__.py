"""Load and validate Lorenzo il Magnifico's YAML content into the typed records of the rules package.

The only module of the game that reads files. Each file is validated by its pydantic model
(``schema.py``) through :func:`shared.core.content.load`; anything malformed raises one
:class:`ContentError` listing every problem with its file, entry id and field.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from services.lorenzo.content.schema import (
    BoardYaml,
    BonusTilesYaml,
    CardsYaml,
    ExcommunicationsYaml,
    LeadersYaml,
)
from services.lorenzo.rules.content_types import Content
from shared.core.content import ContentError, load

if TYPE_CHECKING:
    from services.lorenzo.rules.rules import LorenzoRules

CONTENT_DIR = Path(__file__).parent


def load_from(directory: Path) -> Content:
    """Load content from a directory of the same five YAML files (tests use this for malformed files).

    The board comes first: the other files are checked against it (periods, deck sizes).
    """
    board = load(directory / "board.yaml", BoardYaml).record()
    context = {"board": board}
    return Content(
        cards=load(directory / "cards.yaml", CardsYaml, context).records(),
        leaders=load(directory / "leaders.yaml", LeadersYaml, context).records(),
        excommunications=load(directory / "excommunications.yaml", ExcommunicationsYaml, context).records(),
        bonus_tiles=load(directory / "bonus_tiles.yaml", BonusTilesYaml, context).records(),
        board=board,
    )


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def load_rules() -> LorenzoRules:
    """A ``LorenzoRules`` over the packaged content."""
    from services.lorenzo.rules import LorenzoRules

    return LorenzoRules(load_content())


__all__ = ["CONTENT_DIR", "ContentError", "load_content", "load_from", "load_rules"]
