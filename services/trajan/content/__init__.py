"""Load and validate Trajan's YAML content into the typed records of the rules package.

The only module of the game that reads files. Each file is validated by its pydantic model
(``schema.py``) through :func:`shared.core.content.load`; anything malformed raises one
:class:`ContentError` listing every problem with its file, entry id and field.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from services.trajan.content.schema import (
    BoardYaml,
    BonusTilesYaml,
    CommoditiesYaml,
    ConstructionYaml,
    DemandsYaml,
    ForumTilesYaml,
    ProvincesYaml,
    ScoringYaml,
    ShipsYaml,
    TrajanTilesYaml,
)
from services.trajan.rules.content_types import Content
from shared.core.content import ContentError, load

if TYPE_CHECKING:
    from services.trajan.rules.rules import TrajanRules

CONTENT_DIR = Path(__file__).parent


def load_from(directory: Path) -> Content:
    """Load content from a directory of the same YAML files (tests use this for malformed files).

    The provinces come first: the board names the camp's exits by province key.
    """
    provinces = load(directory / "provinces.yaml", ProvincesYaml).records()
    board = load(directory / "board.yaml", BoardYaml, {"provinces": provinces}).record(provinces)
    forum = load(directory / "forum_tiles.yaml", ForumTilesYaml)
    kinds, tiles = load(directory / "construction.yaml", ConstructionYaml).records()
    return Content(
        board=board,
        trajan_tiles=load(directory / "trajan_tiles.yaml", TrajanTilesYaml).records(),
        forum_tiles=tuple(t.record() for t in forum.forum_tiles),
        extra_action_tiles=tuple((t.action, t.count) for t in forum.extra_action_tiles),
        construction_kinds=kinds,
        construction_tiles=tiles,
        provinces=provinces,
        ships=load(directory / "ships.yaml", ShipsYaml).records(),
        bonus_tiles=load(directory / "bonus_tiles.yaml", BonusTilesYaml).records(),
        commodities=load(directory / "commodities.yaml", CommoditiesYaml).records(),
        demands=load(directory / "demands.yaml", DemandsYaml).record(),
        scoring=load(directory / "scoring.yaml", ScoringYaml).record(),
    )


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def load_rules() -> TrajanRules:
    """A ``TrajanRules`` over the packaged content."""
    from services.trajan.rules import TrajanRules

    return TrajanRules(load_content())


__all__ = ["CONTENT_DIR", "ContentError", "load_content", "load_from", "load_rules"]
