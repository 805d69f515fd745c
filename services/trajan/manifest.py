"""Trajan as the platform sees it: the one manifest the registry lists.

Content, rules, bots and the terminal presentation are loaded on first use (the loaders below), so
listing games stays cheap. Trajan takes no options: the seed's rules have no variants, and the seat
count alone picks the time track (docs/rules/trajan.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.core.manifest import BotHooks, ContentHook, GameManifest, Presentation

if TYPE_CHECKING:
    from services.trajan.rules.rules import TrajanRules


def _rules() -> TrajanRules:
    from services.trajan.content import load_rules

    return load_rules()


def _bots() -> BotHooks:
    from services.trajan import bots

    return BotHooks(evaluate=bots.evaluate, evaluate_all=bots.evaluate_all, prune=bots.prune)


def _presentation() -> Presentation:
    from services.trajan.presentation import load

    return load()


def _content_tables() -> Mapping[str, Any]:
    from services.trajan.content import content_tables

    return content_tables()


def _content_type() -> type:
    from services.trajan.texts import TrajanContent

    return TrajanContent


def _content() -> Any:
    from services.trajan.texts import packaged_content_message

    return packaged_content_message()


def _content_counts() -> Mapping[str, int]:
    from services.trajan.content import load_content
    from services.trajan.rules.content_types import content_counts

    return content_counts(load_content())


MANIFEST = GameManifest(
    name="trajan",
    title="Trajan",
    min_seats=2,
    max_seats=4,
    default_port=50062,
    rules=_rules,
    bots=_bots,
    presentation=_presentation,
    content_counts=_content_counts,
    content_tables=_content_tables,  # GET /content/trajan, names for the ids in views
    content=ContentHook(_content_type, _content),  # GetContent: every component, typed, with its text
    web=Path(__file__).parent / "web",  # trajan.js and trajan.css for the spectator page
    source="services/trajan/rules",
    description="A year of four quarters in Trajan's Rome: sow action markers around your mancala circle "
    "to ship goods, take forum tiles, lead legions into the provinces, build, climb the senate and "
    "complete Trajan tiles, while meeting the people's demands.",
)
