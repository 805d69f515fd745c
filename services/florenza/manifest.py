"""Florenza as the platform sees it: the one manifest the registry lists.

Content, rules, bots and the terminal presentation are loaded on first use (``conventional_hooks``), so
listing games stays cheap. One option, ``hidden_certificates`` (docs/rules/florenza.md, D24).
"""

from __future__ import annotations

from shared.core.game_package import conventional_bots, conventional_hooks, lazy
from shared.core.manifest import GameManifest, GameOption, OptionType

_BOTS = conventional_bots(
    "services.florenza",
    common_dice=True,  # and compare the root's commands under the same dice
    random_ties=True,  # ties at the root drawn at random, as greedy draws them
    rollout_depth=24,  # so lines reach their step's end: 12 plies cut them short (docs/workers.md)
)  # bots.horizon: lines end with their step, before the next step's dice


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
    description="Eight rounds in Renaissance Florence: place workers to build workshops, hire artists for "
    "art works in your Palazzo, your Chiesa, the city and the Duomo, make offerings to preachers, and "
    "vie for Captain of the People and Bishop.",
    # The bot bench plays 4 seats, like Lorenzo's (bench/bots.py): its goals are set
    # against 3 opponents (docs/workers.md, "Bench").
    bench_seats=4,
    # `tabula balance florenza`: the report in docs/rules/florenza.md
    balance=lazy("services.florenza.balance", "hook"),
    # rules, bots, presentation, content (GET /content/florenza, GetContent), web/florenza.js, source
    **conventional_hooks("services.florenza", "Florenza", bots=_BOTS),
)
