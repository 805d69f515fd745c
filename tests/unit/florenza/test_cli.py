"""The tabula commands on Florenza: the content counts, and a short simulation with every bot level."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from services.cli.main import app

from .helpers import C


def test_tabula_content_florenza_json_prints_the_counts_of_the_validated_content() -> None:
    result = CliRunner().invoke(app, ["content", "florenza", "--json"])
    assert result.exit_code == 0, result.output
    counts = json.loads(result.output)["counts"]
    assert counts["workshop_tiles"] == sum(w.copies for w in C.workshops) == 45
    assert counts["starting_workshops"] == 12 and counts["character_tiles"] == 48
    assert counts["duomo_works"] == 8 and counts["city_buildings"] == 6 and counts["resource_cubes"] == 84


def test_tabula_simulate_game_florenza_plays_whole_games_with_the_bots() -> None:
    args = [
        "simulate",
        "--game",
        "florenza",
        "--players",
        "3",
        "--games",
        "1",
        "--bots",
        "greedy,random,mcts",
    ]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games_finished"] == 1 and report["invariant_violations"] == []
    assert report["game"] == "florenza" and sum(report["wins_per_seat"]) >= 1
