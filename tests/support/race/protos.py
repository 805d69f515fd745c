"""The race test game's generated code, compiled into a folder of the test's own.

The race game is not in the repository's ``gen/`` (no committed ``.proto``): a test that needs its
messages renders the ``.proto`` from the rules and compiles it here, once per module or session.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from shared.serving.protogen import GameModules, compile_protos, render_game_proto
from tests.support.race.manifest import race_rules

REPO = Path(__file__).resolve().parents[3]
SOURCE = "tests/support/race/rules.py"  # where the rules' reason codes are read from


def compile_race(root: Path, rules: Any = None, source: str = SOURCE) -> Path:
    """Render the game's ``.proto`` under ``root/proto`` from ``rules`` (the race game's by default),
    compile it into ``root/gen`` (importable in this process from then on) and return that folder,
    for the ``PYTHONPATH`` of processes the test starts."""
    proto = root / "proto" / "tabula" / "race" / "v1" / "race.proto"
    proto.parent.mkdir(parents=True)
    proto.write_text(render_game_proto(rules if rules is not None else race_rules(), source))
    compile_protos(root / "proto", root / "gen", includes=(REPO / "proto",))
    return root / "gen"


def race_game_modules(root: Path) -> GameModules:
    """The race game's messages and service stubs, compiled into ``root``."""
    compile_race(root)
    pb2 = importlib.import_module("tabula.race.v1.race_pb2")
    pb2_grpc = importlib.import_module("tabula.race.v1.race_pb2_grpc")
    return GameModules(pb2, pb2_grpc, "Race")
