"""Play a whole match through a MatchRunner (random legal commands; the system takes its step)."""

from __future__ import annotations

from typing import Any

from shared.rng import Rng
from shared.runner import MatchRunner


def play_match(runner: MatchRunner[Any], match_id: str, seed: int, max_commands: int = 20_000) -> int:
    rules, rng = runner.rules, Rng(seed)
    loaded = runner.load(match_id)
    for n in range(max_commands):
        if rules.outcome(loaded.state) is not None:
            return loaded.version
        actor = rng.choice(rules.to_act(loaded.state))
        command = rng.choice(rules.legal_commands(loaded.state, actor))
        done = runner.submit(match_id, actor, command, loaded.version, f"{match_id}-c{n}")
        loaded = runner.load(match_id)
        assert loaded.version == done.last_version
    raise AssertionError("the match did not end")
