"""Dice race as the platform sees it: the one manifest the registry lists.

A real game's ``services/<game>/manifest.py`` ends the same way and is listed by one line in
``services/games.py``; this test game is listed for one process by
``TABULA_EXTRA_GAMES=tests.support.race.manifest:MANIFEST``. No ``presentation`` (the terminal
client's generic rendering shows it), no ``web`` module (the spectator page draws a tree), no
content files; a few words in three languages (``texts.py``). Rules and bots are loaded on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from shared.core.game_package import lazy, lazy_attribute
from shared.core.manifest import BotHooks, GameManifest, GameOption, OptionType

if TYPE_CHECKING:
    from tests.support.race.rules import RaceRules

GOAL = 20  # the default goal (the rules read both from here)
MAX_GOAL = 100


def _bots() -> BotHooks:
    from tests.support.race import bots

    return BotHooks(evaluate=bots.evaluate)


# Rulebook, 4. End of the race (tests/support/race/rules.py): the rules check the same range.
GOAL_OPTION = GameOption(
    "goal", OptionType.INT, str(GOAL), "position that ends the race", minimum=1, maximum=MAX_GOAL
)

MANIFEST = GameManifest(
    name="race",
    title="Dice race",
    min_seats=2,
    max_seats=4,
    default_port=50090,
    options=(GOAL_OPTION,),
    rules=lazy("tests.support.race.rules", "RaceRules"),
    bots=_bots,
    source="tests/support/race/rules.py",
    texts=lazy_attribute("tests.support.race.texts", "TEXTS"),
    description="Roll a die in turn and race to the goal; a secret bonus per seat decides the final scores.",
)


def race_rules(variant: Callable[[], RaceRules] | None = None) -> Any:
    """The race's rules (or a test's variant of them, built by ``variant``) as the registry loads
    them: named and seated by this manifest."""
    return (MANIFEST if variant is None else replace(MANIFEST, rules=variant)).load_rules()
