"""A test game's generated code, compiled into a folder of the test's own (no committed ``.proto``)."""

from __future__ import annotations

from pathlib import Path

from shared.core.manifest import GameManifest
from shared.serving.protogen import compile_protos, proto_path, render_game_proto

REPO = Path(__file__).resolve().parents[2]


def compile_game(root: Path, game: GameManifest) -> Path:
    """Render ``game``'s ``.proto`` from its rules under ``root/proto``, compile it into ``root/gen``
    (importable in this process from then on) and return that folder, for a ``PYTHONPATH``."""
    proto = root / proto_path(game.name)
    proto.parent.mkdir(parents=True)
    proto.write_text(render_game_proto(game.load_rules(), game.source))
    compile_protos(root / "proto", root / "gen", includes=(REPO / "proto",))
    return root / "gen"
