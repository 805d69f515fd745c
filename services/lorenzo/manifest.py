"""Lorenzo il Magnifico as the platform sees it: the one manifest the registry lists.

Content, rules and bots are loaded on first use (``conventional_hooks``), so listing games stays cheap.
"""

from __future__ import annotations

from shared.core.game_package import conventional_hooks
from shared.core.manifest import GameManifest, GameOption, OptionType

# Rulebook, "Regras Avançadas" (S3 p. 12; S0 進階規則): "to play the full game, add these advanced
# rules". Default "true", as make_config has it (docs/rules/lorenzo.md, "Option advanced").
ADVANCED = GameOption(
    "advanced",
    OptionType.BOOL,
    "true",
    "The full game with the advanced rules: each player picks a personal bonus tile, advanced side "
    "up, in reverse turn order, and drafts 4 Leader cards (keep one, pass the rest to the right). "
    "false: the basic game, everyone on the standard bonus tile and no leaders.",
    label="Advanced rules",  # the rulebook's name for them (Regras Avançadas, 進階規則)
)

MANIFEST = GameManifest(
    name="lorenzo",
    title="Lorenzo il Magnifico",
    min_seats=2,
    max_seats=4,
    default_port=50061,
    options=(ADVANCED,),
    description='Three periods of two rounds (rulebook, "O Jogo"): place family members to take '
    "development cards, harvest, produce and face the Vatican reports.",
    # rules, bots, presentation, content (GET /content/lorenzo, GetContent), web/lorenzo.js, source
    **conventional_hooks("services.lorenzo", "Lorenzo"),
)
