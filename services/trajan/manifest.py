"""Trajan as the platform sees it: the one manifest the registry lists.

Content, rules, bots and the terminal presentation are loaded on first use (``conventional_hooks``), so
listing games stays cheap. Trajan takes no options: the seed's rules have no variants, and the seat
count alone picks the time track (docs/rules/trajan.md).
"""

from __future__ import annotations

from shared.core.game_package import conventional_hooks
from shared.core.manifest import GameManifest

MANIFEST = GameManifest(
    name="trajan",
    title="Trajan",
    min_seats=2,
    max_seats=4,
    default_port=50062,
    description="A year of four quarters in Trajan's Rome: sow action markers around your mancala circle "
    "to ship goods, take forum tiles, lead legions into the provinces, build, climb the senate and "
    "complete Trajan tiles, while meeting the people's demands.",
    # rules, bots, presentation, content (GET /content/trajan, GetContent), web/trajan.js, source
    **conventional_hooks("services.trajan", "Trajan"),
)
