"""The manifest hooks a game package gets by convention (shared/core/game_package.py)."""

from __future__ import annotations

from pathlib import Path

from shared.core.game_package import conventional_bots, conventional_hooks


def test_conventional_hooks_load_the_package_parts_by_name() -> None:
    hooks = conventional_hooks("services.florenza", "Florenza")
    assert type(hooks["rules"]()).__name__ == "FlorenzaRules"
    assert type(hooks["presentation"]()).__name__ == "FlorenzaPresentation"
    assert hooks["content"].message().__name__ == "FlorenzaContent"
    assert isinstance(hooks["content"].build(), hooks["content"].message())
    assert hooks["content_counts"]() and hooks["content_tables"]()
    assert hooks["web"] == Path("services/florenza/web").resolve()
    assert hooks["source"] == "services/florenza/rules"


def test_conventional_bots_take_the_horizon_when_there_is_one_and_the_settings_given() -> None:
    plain = conventional_bots("services.lorenzo")()
    assert plain.horizon is None and plain.rollout_depth is None and plain.prune is not None
    tuned = conventional_bots("services.florenza", rollout_depth=24)()
    assert tuned.horizon is not None and tuned.rollout_depth == 24
