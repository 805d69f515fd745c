"""Lorenzo il Magnifico as the platform sees it: the one manifest the registry lists.

Content, rules and bots are loaded on first use (the loaders below), so listing games stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.core.manifest import BotHooks, ContentHook, GameManifest, GameOption, OptionType, Presentation

if TYPE_CHECKING:
    from services.lorenzo.rules.rules import LorenzoRules


def _rules() -> LorenzoRules:
    from services.lorenzo.content import load_rules

    return load_rules()


def _bots() -> BotHooks:
    from services.lorenzo import bots

    return BotHooks(evaluate=bots.evaluate, evaluate_all=bots.evaluate_all, prune=bots.prune)


def _presentation() -> Presentation:
    from services.lorenzo.presentation import load

    return load()


def _content_tables() -> Mapping[str, Any]:
    from services.lorenzo.content import content_tables

    return content_tables()


def _content_type() -> type:
    from services.lorenzo.texts import LorenzoContent

    return LorenzoContent


def _content() -> Any:
    from services.lorenzo.texts import packaged_content_message

    return packaged_content_message()


def _content_counts() -> Mapping[str, int]:
    from services.lorenzo.content import load_content
    from services.lorenzo.rules.content_types import content_counts

    return content_counts(load_content())


# Rulebook, "Regras Avançadas" (S3 p. 12; S0 進階規則): "to play the full game, add these advanced
# rules". Default "true", as make_config has it (docs/rules/lorenzo.md, "Option advanced").
ADVANCED = GameOption(
    "advanced",
    OptionType.BOOL,
    "true",
    "The full game with the advanced rules: each player picks a personal bonus tile, advanced side "
    "up, in reverse turn order, and drafts 4 Leader cards (keep one, pass the rest to the right). "
    "false: the basic game, everyone on the standard bonus tile and no leaders.",
)

MANIFEST = GameManifest(
    name="lorenzo",
    title="Lorenzo il Magnifico",
    min_seats=2,
    max_seats=4,
    default_port=50061,
    options=(ADVANCED,),
    rules=_rules,
    bots=_bots,
    content_counts=_content_counts,
    presentation=_presentation,
    content_tables=_content_tables,  # GET /content/lorenzo, names for the ids in views
    content=ContentHook(_content_type, _content),  # GetContent: every component, typed, with its text
    web=Path(__file__).parent / "web",  # lorenzo.js and lorenzo.css for the spectator page
    source="services/lorenzo/rules",
    description='Three periods of two rounds (rulebook, "O Jogo"): place family members to take '
    "development cards, harvest, produce and face the Vatican reports.",
)
