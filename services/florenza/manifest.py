"""Florenza as the platform sees it: the one manifest the registry lists.

Content, rules, bots and the terminal presentation are loaded on first use (the loaders below), so
listing games stays cheap. One option, ``hidden_certificates`` (docs/rules/florenza.md, D24).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.core.manifest import (
    BalanceHook,
    BotHooks,
    ContentHook,
    GameManifest,
    GameOption,
    OptionType,
    Presentation,
)

if TYPE_CHECKING:
    from services.florenza.rules.rules import FlorenzaRules


def _rules() -> FlorenzaRules:
    from services.florenza.content import load_rules

    return load_rules()


def _bots() -> BotHooks:
    from services.florenza import bots

    return BotHooks(
        evaluate=bots.evaluate,
        evaluate_all=bots.evaluate_all,
        prune=bots.prune,
        horizon=bots.horizon,  # lines end with their step, before the next step's dice
        common_dice=True,  # and compare the root's commands under the same dice
        random_ties=True,  # ties at the root drawn at random, as greedy draws them
        rollout_depth=24,  # so lines reach their step's end: 12 plies cut them short (docs/workers.md)
    )


def _presentation() -> Presentation:
    from services.florenza.presentation import load

    return load()


def _balance() -> BalanceHook:
    from services.florenza.balance import hook

    return hook()


def _content_tables() -> Mapping[str, Any]:
    from services.florenza.content import content_tables

    return content_tables()


def _content_type() -> type:
    from services.florenza.texts import FlorenzaContent

    return FlorenzaContent


def _content() -> Any:
    from services.florenza.texts import packaged_content_message

    return packaged_content_message()


def _content_counts() -> Mapping[str, int]:
    from services.florenza.content import load_content
    from services.florenza.rules.content_types import content_counts

    return content_counts(load_content())


# The reference keeps certificates hidden (R game_structure.json prestige.certificates_hidden, VERIFIED
# S3); the seed says nothing of it. Default "true", as make_config has it (docs/rules/florenza.md, D24).
HIDDEN_CERTIFICATES = GameOption(
    "hidden_certificates",
    OptionType.BOOL,
    "true",
    "Each family's certificates (the prestige a Captain of the People banks) are hidden from the others "
    "until the final scoring reveals them. false: every family's certificates are open on the table.",
)

MANIFEST = GameManifest(
    name="florenza",
    title="Florenza",
    min_seats=2,
    max_seats=5,
    default_port=50063,
    options=(HIDDEN_CERTIFICATES,),
    rules=_rules,
    bots=_bots,
    presentation=_presentation,
    content_counts=_content_counts,
    content_tables=_content_tables,  # GET /content/florenza, names for the ids in views
    content=ContentHook(_content_type, _content),  # GetContent: every component, typed, with its text
    web=Path(__file__).parent / "web",  # florenza.js and florenza.css for the spectator page
    source="services/florenza/rules",
    description="Eight rounds in Renaissance Florence: place workers to build workshops, hire artists for "
    "art works in your Palazzo, your Chiesa, the city and the Duomo, make offerings to preachers, and "
    "vie for Captain of the People and Bishop.",
    # The bot bench plays 4 seats, like Lorenzo's (bench/bots.py): its goals are set
    # against 3 opponents (docs/workers.md, "Bench").
    bench_seats=4,
    balance=_balance,  # `tabula balance florenza`: the report in docs/rules/florenza.md
)
