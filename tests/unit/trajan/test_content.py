"""Content: every component count of the seed's component list, and validation that names file, entry
and field for malformed YAML."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from services.trajan.content import CONTENT_DIR, ContentError, load_content, load_from
from services.trajan.manifest import MANIFEST
from services.trajan.rules.content_types import Action, Colour, ShipKind, TrajanEffect, content_counts


def test_counts_match_the_seed_component_list() -> None:
    # Seed (p1-2): 60 commodity cards (12 x 5), 70 forum tiles, 54 Trajan tiles, 20 construction tiles,
    # 12 extra action tiles, 24 [+2] markers, 15 demand tiles, 4 quarter tiles, 3 ships, 12 bonus tiles;
    # 15 figures and 12 markers per player; 10 provinces, a 4 x 5 construction area, 6 bowls.
    assert content_counts(load_content()) == {
        "trajan_tiles": 54,
        "trajan_stacks": 6,
        "forum_tiles": 70,
        "extra_action_tiles": 12,
        "plus_two_markers": 24,
        "demand_tiles": 15,
        "bonus_tiles": 12,
        "ship_tiles": 3,
        "quarter_tiles": 4,
        "commodity_cards": 60,
        "commodity_kinds": 12,
        "construction_tiles": 20,
        "construction_kinds": 5,
        "construction_sites": 20,
        "provinces": 10,
        "bowls": 6,
        "action_markers_per_player": 12,
        "tokens_per_player": 15,
    }


def test_load_rules_builds_the_decider() -> None:
    rules = MANIFEST.load_rules()
    assert (rules.game, rules.min_seats, rules.max_seats) == ("trajan", 2, 4)


def test_board_facts() -> None:
    c = load_content()
    assert c.board.bowls == tuple(Action)  # seaport, forum, military, senate, trajan, construction
    assert [c.board.lap(n) for n in (2, 3, 4)] == [11, 16, 21]
    assert c.board.senate_track == (0, 2, 3, 4, 5, 6, 7, 8)
    assert c.demands.penalties == (4, 9, 15) and c.demands.reveal_after_rounds == (1, 2, 3)
    assert {s.kind: (s.yellow, s.grey) for s in c.ships}[ShipKind.IDENTICAL] == (
        (2, 6, 12, 20),
        (0, 1, 7, 15),
    )
    stacks = {k: {t.effect for t in c.trajan_tiles if t.stack == k} for k in c.trajan_stacks}
    assert stacks[3] == {TrajanEffect.WORKERS} and stacks[6] == {TrajanEffect.DEMAND}
    assert all(sum(t.colours.count(x) for t in c.trajan_tiles) == 18 for x in Colour)


def test_province_and_site_adjacency_is_symmetric() -> None:
    c = load_content()
    for p in c.provinces:
        assert all(p.id in c.province[q].adjacent for q in p.adjacent)
    for s in c.board.sites:
        assert all(s.id in c.site[n].adjacent for n in s.adjacent) and 2 <= len(s.adjacent) <= 4


def _broken(tmp_path: Path, file: str, old: str, new: str) -> ContentError:
    for f in CONTENT_DIR.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as e:
        load_from(tmp_path)
    return e.value


def test_a_wrong_colour_names_its_tile(tmp_path: Path) -> None:
    e = _broken(
        tmp_path,
        "trajan_tiles.yaml",
        "{id: 7, kind: draw_cards, colours: [white, blue]}",
        "{id: 7, kind: draw_cards, colours: [white, purple]}",
    )
    assert (e.file, e.entry) == ("trajan_tiles.yaml", 7) and e.field.startswith("colours")


@pytest.mark.parametrize(
    ("file", "old", "new", "words"),
    [
        pytest.param(
            "trajan_tiles.yaml",
            "  - {id: 54, kind: religion, colours: [blue, orange]}\n",
            "",
            "54",
            id="a_missing_trajan_tile",
        ),
        pytest.param(
            "provinces.yaml",
            "adjacent: [raetia]}",
            "adjacent: [raetia, alpes]}",
            "both ways",
            id="one_sided_adjacency",
        ),
        pytest.param(
            "board.yaml",
            "{id: 1, row: 1, column: 1, adjacent: [2, 6]}",
            "{id: 1, row: 1, column: 1, adjacent: [2, 7]}",
            "orthogonal",
            id="a_diagonal_site_neighbour",
        ),
        pytest.param(
            "forum_tiles.yaml",
            "{tile: bread, kind: demand, count: 14",
            "{tile: bread, kind: demand, count: 15",
            "70",
            id="forum_counts_not_seventy",
        ),
        pytest.param(
            "forum_tiles.yaml",
            "{tile: senate_2, kind: senate, count: 3, votes: 2}",
            "{tile: senate_2, kind: senate, count: 3}",
            "votes",
            id="a_senate_tile_without_votes",
        ),
    ],
)
def test_a_broken_file_is_refused_with_its_problem(
    tmp_path: Path, file: str, old: str, new: str, words: str
) -> None:
    e = _broken(tmp_path, file, old, new)
    assert e.file == file and words in e.problem


def test_a_construction_kind_may_not_grant_construction(tmp_path: Path) -> None:
    e = _broken(
        tmp_path,
        "construction.yaml",
        "{kind: door, bonus_action: senate}",
        "{kind: door, bonus_action: construction}",
    )
    assert e.file == "construction.yaml" and e.field.endswith("bonus_action")


def test_unknown_keys_and_strings_for_numbers_are_refused(tmp_path: Path) -> None:
    e = _broken(tmp_path, "ships.yaml", "{id: 2, kind: different,", "{id: 2, colour: red, kind: different,")
    assert (e.file, e.entry, e.field) == ("ships.yaml", 2, "colour")
    e = _broken(tmp_path, "scoring.yaml", "legionnaire_malus: 3", 'legionnaire_malus: "3"')
    assert e.file == "scoring.yaml" and e.field == "legionnaire_malus"


@pytest.mark.parametrize(
    ("file", "old", "new", "entry", "field", "words"),
    [
        ("forum_tiles.yaml", "count: 3, votes: 2}", "count: 3}", "#0", "votes", "votes go with senate"),
        (
            "trajan_tiles.yaml",
            "effect: draw_cards, amount: 2}",
            "effect: draw_cards}",
            "#0",
            "amount",
            "amount",
        ),
        (
            "bonus_tiles.yaml",
            "demand: bread, yellow: 9, grey: 6}",
            "yellow: 9, grey: 6}",
            1,
            "demand",
            "demand",
        ),
        ("bonus_tiles.yaml", "yellow: 9, grey: 6}", "yellow: 9, grey: 10}", 1, "grey", "at most the yellow"),
        ("provinces.yaml", "adjacent: [raetia]}", "adjacent: [raetia, alpes]}", 3, "adjacent", "both ways"),
        ("demands.yaml", "penalties: [4, 9, 15]", "penalties: [4, 9]", None, "penalties", "one penalty"),
    ],
)
def test_a_problem_across_fields_names_its_field(
    tmp_path: Path, file: str, old: str, new: str, entry: object, field: str, words: str
) -> None:
    e = _broken(tmp_path, file, old, new)
    assert (e.file, e.entry, e.field) == (file, entry, field) and words in e.problem


def test_provinces_are_named_by_key_in_the_files_and_by_id_in_the_records(tmp_path: Path) -> None:
    c = load_content()
    ids = {p.key: p.id for p in c.provinces}
    assert c.board.camp_exits == (ids["alpes"], ids["raetia"], ids["noricum"])
    assert c.province[ids["noricum"]].adjacent == (ids["raetia"],)
    e = _broken(tmp_path, "board.yaml", "camp_exits: [alpes,", "camp_exits: [roma,")
    assert (e.file, e.entry, e.field, e.problem) == (
        "board.yaml",
        None,
        "camp_exits",
        "unknown province roma",
    )
    e = _broken(tmp_path, "provinces.yaml", "{id: 3, key: noricum", "{id: 3, key: raetia")
    assert e.file == "provinces.yaml" and e.problem == "province key raetia appears more than once"


def test_the_trajan_tiles_checks_across_the_file(tmp_path: Path) -> None:
    nine = "{id: 7, kind: draw_cards,"
    e = _broken(tmp_path, "trajan_tiles.yaml", nine, "{id: 7, kind: victory_points,")
    assert (e.file, e.field, e.problem) == ("trajan_tiles.yaml", "tiles", "six stacks of nine tiles")
    e = _broken(tmp_path, "trajan_tiles.yaml", "colours: [white, blue]}", "colours: [white, white]}")
    assert e.problem == "every colour appears on the tiles 18 times"
    e = _broken(tmp_path, "trajan_tiles.yaml", nine, "{id: 7, kind: draw_card,")
    assert e.problem == "tile 7: unknown kind draw_card"
