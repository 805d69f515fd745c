"""The platform names no game: no registered game's name or title in its files, no import of a game.

The platform is ``shared/``, the lobby, workers, gateway (static files included), terminal client,
CLI and the generic rule-service bootstrap. It reaches games only through the registry
(``services.games``), which is the one module allowed to import a game package. A game package is
a folder ``services/<game>/`` with a ``manifest.py``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from services.games import GAMES
from shared.core.manifest import GameManifest
from tests.support.nim.manifest import MANIFEST as NIM

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = (
    "shared",
    "services/lobby",
    "services/workers",
    "services/gateway",
    "services/client",
    "services/cli",
    "services/game_server.py",
)

# Still naming a game, waiting for another change to land; the test fails once such a file is
# clean, so that its line is removed here:
PENDING: set[str] = set()


def platform_files() -> list[Path]:
    files: list[Path] = []
    for entry in PLATFORM:
        path = ROOT / entry
        files += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return [p for p in files if "__pycache__" not in p.parts]


def game_packages() -> set[str]:
    return {p.parent.name for p in (ROOT / "services").glob("*/manifest.py")} | {m.name for m in GAMES}


def names_pattern(games: Sequence[GameManifest] = GAMES) -> re.Pattern[str]:
    """Each game's name and title as a word: not inside a longer word (``nim`` is not in "minimum"
    or "UNIMPLEMENTED"), but in ``TABULA_NIM_ADDR``, ``nim_pb2`` or ``tabula.nim.v1``."""
    words = sorted({w for m in games for w in (m.name, m.title)}, key=len, reverse=True)
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![a-z])(?:{alternatives})(?![a-z])", re.IGNORECASE)


def game_imports(source: str, games: set[str]) -> list[str]:
    """Modules of a game package that ``source`` imports (``services.<game>...``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        else:
            continue
        found += [m for m in modules if m.split(".")[:2] in (["services", g] for g in games)]
    return found


def test_the_walk_covers_the_platform() -> None:
    seen = {p.relative_to(ROOT).as_posix() for p in platform_files()}
    assert {"shared/core/decider.py", "services/lobby/server.py", "services/cli/main.py"} <= seen
    assert any(p.startswith("services/gateway/static/") for p in seen)
    assert "services/games.py" not in seen and not any(p.startswith("services/lorenzo/") for p in seen)


def test_the_pending_paths_exist() -> None:
    """An allow-listed path that is gone (moved or deleted) must leave the list too."""
    assert all((ROOT / path).is_file() for path in PENDING)


@pytest.mark.parametrize("path", platform_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_platform_file_names_a_game(path: Path) -> None:
    name, text = path.relative_to(ROOT).as_posix(), path.read_text(errors="replace")
    hits = sorted({m.group(0) for m in names_pattern().finditer(text)})
    if name in PENDING:
        assert hits, f"{name} no longer names a game: remove it from PENDING"
    else:
        assert not hits, f"{name} names a game: {hits}"
    if path.suffix == ".py":
        imports = game_imports(text, game_packages())
        assert not imports, f"{name} imports a game directly: {imports}"


def test_the_checks_catch_a_name_a_title_and_an_import() -> None:
    game = GAMES[0]
    assert names_pattern().search(f"x = '{game.name.upper()}'")
    assert names_pattern().search(f"# {game.title.lower()}")
    games = {game.name}
    assert game_imports(f"from services.{game.name}.rules import x", games) == [
        f"services.{game.name}.rules",
        f"services.{game.name}.rules.x",
    ]
    assert game_imports(f"from services import {game.name}", games) == [f"services.{game.name}"]
    assert game_imports(f"import services.{game.name}.bots", games) == [f"services.{game.name}.bots"]
    assert game_imports("from services.games import manifest", games) == []


def test_a_game_is_matched_as_a_word_so_a_short_name_fits_the_platform() -> None:
    """A game named ``nim`` registered next to the others: no platform file names it, though the
    platform says "minimum" and "UNIMPLEMENTED"; its name in an identifier is still caught."""
    pattern = names_pattern([*GAMES, NIM])
    assert not any(
        pattern.search(p.read_text(errors="replace")) for p in platform_files() if "nim" not in p.name
    )
    assert not pattern.search("minimum, UNIMPLEMENTED, animate")
    assert all(pattern.search(text) for text in ("TABULA_NIM_ADDR", "nim_pb2", "tabula.nim.v1", "Nim's heap"))
    assert re.search("nim", "minimum")  # what matching inside words would have found
