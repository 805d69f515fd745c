"""Trajan's public content tables (``/content/trajan``): the validated records, in the YAML files' own
terms, read here against the files themselves."""

from __future__ import annotations

from typing import Any

import yaml

from services.trajan.content import CONTENT_DIR
from services.trajan.manifest import MANIFEST


def content_tables() -> Any:
    assert MANIFEST.content_tables is not None
    return MANIFEST.content_tables()


def _yaml(file: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((CONTENT_DIR / f"{file}.yaml").read_text(encoding="utf-8"))
    return data


def _ids() -> dict[str, int]:
    return {p["key"]: p["id"] for p in _yaml("provinces")["provinces"]}


def test_tables_hold_every_file_and_list() -> None:
    assert {file: tuple(lists) for file, lists in content_tables().items()} == {
        "board": ("bowls", "colours", "senate_track", "time_track", "sites", "camp_exits"),
        "trajan_tiles": ("tiles",),
        "forum_tiles": ("forum_tiles",),
        "construction": ("kinds", "tiles"),
        "provinces": ("provinces",),
        "ships": ("ships",),
        "bonus_tiles": ("tiles",),
    }


def test_records_the_files_write_as_they_are_read_as_written() -> None:
    t = content_tables()
    assert t["ships"]["ships"] == _yaml("ships")["ships"]
    assert t["bonus_tiles"]["tiles"] == sorted(_yaml("bonus_tiles")["tiles"], key=lambda x: x["id"])
    assert t["forum_tiles"]["forum_tiles"] == _yaml("forum_tiles")["forum_tiles"]
    assert t["construction"] == _yaml("construction")


def test_provinces_name_their_neighbours_by_id() -> None:
    ids = _ids()
    written = [p | {"adjacent": [ids[k] for k in p["adjacent"]]} for p in _yaml("provinces")["provinces"]]
    assert content_tables()["provinces"]["provinces"] == sorted(written, key=lambda p: p["id"])


def test_board_parts_views_name() -> None:
    board, ids = _yaml("board"), _ids()
    assert content_tables()["board"] == {
        "bowls": board["bowls"],
        "colours": board["colours"],
        "senate_track": board["senate_track"],
        "time_track": board["time_track"],
        "sites": [{k: s[k] for k in ("id", "row", "column")} for s in board["construction_sites"]],
        "camp_exits": [ids[k] for k in board["camp_exits"]],
    }


def test_trajan_tiles_carry_their_kinds_numbers() -> None:
    """Each tile as its kind writes it (without the kind's name), its colours in colour order."""
    file = _yaml("trajan_tiles")
    kinds = {k["kind"]: {x: v for x, v in k.items() if x != "kind"} for k in file["kinds"]}
    order = {c: i for i, c in enumerate(_yaml("board")["colours"])}
    tiles = content_tables()["trajan_tiles"]["tiles"]
    assert [t["id"] for t in tiles] == sorted(t["id"] for t in file["tiles"])
    for tile, written in zip(tiles, sorted(file["tiles"], key=lambda t: t["id"]), strict=True):
        colours = sorted(written["colours"], key=order.__getitem__)
        assert tile == {"id": written["id"], "colours": colours, **kinds[written["kind"]]}
