"""A game's public component tables (names, types, board spaces) for front-ends that show ids.

Views and events name cards, tiles and spaces by id; the YAML content of each game
(``services/<game>/content/*.yaml``) says what they are. This serves, for every list of records with
an ``id``, the records' scalar fields (``id``, ``name``, ``type``, ``period``, ``kind``, ``tower`` ...),
keyed by file and list: ``{"cards": {"cards": [{"id": 1, "name": "Commercial Hub", ...}]}}``.
Nested rules data (effects, costs) stays out: it is the rules' business, not a label.
"""

from __future__ import annotations

import functools
import importlib.resources
from typing import Any

import yaml

Records = list[dict[str, Any]]


def _labels(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if isinstance(v, str | int | float | bool)}


def _tables(data: Any) -> dict[str, Records]:
    out: dict[str, Records] = {}
    if not isinstance(data, dict):
        return out
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(r, dict) and "id" in r for r in value):
            out[str(key)] = [_labels(r) for r in value]
    return out


@functools.cache
def component_tables(game: str) -> dict[str, dict[str, Records]]:
    """Tables of one game's content package, or KeyError when the game has none."""
    try:
        folder = importlib.resources.files(f"services.{game}.content")
    except ModuleNotFoundError as err:
        raise KeyError(game) from err
    out: dict[str, dict[str, Records]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            tables = _tables(yaml.safe_load(entry.read_text(encoding="utf-8")))
            if tables:
                out[entry.name.removesuffix(".yaml")] = tables
    return out
