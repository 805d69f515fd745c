"""Nim as the platform sees it: the one manifest the registry lists, its name and seats said here only."""

from __future__ import annotations

from shared.core.game_package import lazy
from shared.core.manifest import GameManifest, GameOption, OptionType

STONES, MAX_STONES = 15, 100  # the heap's default and largest size (the rules check the same range)
STONES_OPTION = GameOption(
    "stones", OptionType.INT, str(STONES), "stones on the heap", minimum=1, maximum=MAX_STONES
)


MANIFEST = GameManifest(
    name="nim",
    title="Nim",
    min_seats=2,
    max_seats=2,
    default_port=50091,
    options=(STONES_OPTION,),
    rules=lazy("tests.support.nim.rules", "NimRules"),
    source="tests/support/nim/rules.py",
    description="Take one to three stones in turn; whoever takes the last one wins.",
)
