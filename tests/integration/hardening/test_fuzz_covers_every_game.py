"""The RPC fuzz finds its games in the registry: every registered game has its fuzz tests, with no
test naming it (tests/integration/hardening/test_fuzz_rpc.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from services.games import game_names

ROOT = Path(__file__).resolve().parents[3]
FUZZ = "tests/integration/hardening/test_fuzz_rpc.py"


def test_every_registered_game_is_fuzzed() -> None:
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", FUZZ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.splitlines()
    for game in game_names():
        for test in (
            "test_each_rule_service_survives_random_requests",
            "test_each_rule_service_survives_random_bytes",
        ):
            assert f"{FUZZ}::{test}[{game}]" in collected, (game, collected)
