"""Content: printed names and counts, a provenance for every value, and loader errors that name the place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from services.florenza.content import (
    CONTENT_DIR,
    FILES,
    PROVENANCE,
    is_project_defined,
    load_content,
    load_from,
    provenance,
)
from services.florenza.rules import content_counts
from services.florenza.rules.content_types import Area, EffectKind, Skill
from services.florenza.rules.goods import Goods, Resource
from shared.core.content import ContentError

C = load_content()

SEED_STARTING = {
    "Boscaiuolo": 3, "Cambiavalute": 4, "Erbolaio": 11, "Fabbro": 12, "Lanaiuolo": 14, "Legnaiuolo": 15,
    "Monte di Pietà": 18, "Orafo": 19, "Ottonaio": 20, "Picconiere": 22, "Speziale": 27, "Tintore": 28,
}  # fmt: skip


def test_component_counts_are_the_printed_ones() -> None:
    counts = content_counts(C)
    assert counts["workshop_tiles"] == 45
    assert counts["starting_workshops"] == 12
    assert (counts["named_artists"], counts["anonymous_artists"]) == (34, 6)
    assert (counts["named_preachers"], counts["anonymous_preachers"]) == (6, 2)
    assert counts["character_tiles"] == 48
    assert (counts["palazzo_works"], counts["chiesa_works"]) == (4, 4)
    assert counts["city_works"] + counts["duomo_works"] == 19
    assert counts["city_buildings"] == 6
    assert counts["life_in_florenza_cards"] == 7
    assert counts["resource_cubes"] == 84


def test_the_twelve_starting_workshops_carry_the_seeds_names_and_numbers() -> None:
    starting = {w.name: w.id for w in C.workshops if w.starting}
    assert starting == SEED_STARTING


def test_purple_workshops_pay_the_seeds_incomes() -> None:
    # Seed 1.3: Casa 50 + 1 worker, Casamento 100 + 1 worker, Palagio 1 prestige + 100 + 1 worker.
    by_name = {w.name: w for w in C.workshops}
    incomes = {n: by_name[n] for n in ("Casa", "Casamento", "Palagio")}
    assert all(e.effect is EffectKind.INCOME for e in incomes.values())
    assert (incomes["Casa"].gain.goods, incomes["Casa"].gain.workers) == (Goods(money=50), 1)
    assert (incomes["Casamento"].gain.goods, incomes["Casamento"].gain.workers) == (Goods(money=100), 1)
    palagio = incomes["Palagio"].gain
    assert (palagio.prestige, palagio.goods, palagio.workers) == (1, Goods(money=100), 1)
    assert sum(1 for w in C.workshops if w.is_purple) == 3


def test_city_buildings_and_supply_are_the_printed_ones() -> None:
    buildings = {w.building for w in C.works if w.area is Area.CITY}
    assert buildings == {
        "Banco", "Battistero", "Lastricato", "Ospedale", "Palazzo della Signoria", "Palazzo Vescovile",
    }  # fmt: skip
    supply = C.board.supply
    assert [supply.count(r) for r in Resource] == [18, 18, 12, 12, 12, 12]


def test_two_anonymous_artists_per_skill_are_free_and_pictured_on_cards_two_to_five() -> None:
    anonymous = [a for a in C.artists if a.anonymous]
    assert sorted(a.skills[0] for a in anonymous) == sorted([*Skill] * 2)
    assert all(a.talents[0].fee == 0 and a.mark == 0 for a in anonymous)
    pictured = {card.number: card.anonymous for card in C.life}
    assert all(len(pictured[n]) == 2 for n in (2, 3, 4, 5))
    assert all(not pictured[n] for n in (1, 6, 7))


def test_named_characters_go_under_a_life_in_florenza_card_and_have_six_faces() -> None:
    for a in C.artists:
        if not a.anonymous:
            assert 1 <= a.mark <= 7
            assert all(len(r.faces) == 6 and r.fee > 0 for r in a.talents)
    assert all(len(p.faces) == 6 for p in C.preachers)
    assert len(C.named_characters) == 40


def test_every_value_has_a_provenance() -> None:
    entries = provenance()
    assert entries
    assert all(PROVENANCE.fullmatch(source) for *_, source in entries)
    # one entry per field of every record: a workshop has 7 fields, a named artist 3 plus 5 per talent
    per_record: dict[tuple[str, object], set[str]] = {}
    for file, entry, field, _ in entries:
        per_record.setdefault((file, entry), set()).add(field)
    assert per_record["workshops.yaml", 3] == {
        "id", "name", "copies", "starting", "cost", "build_prestige", "effect",
    }  # fmt: skip
    michelangelo = per_record["artists.yaml", 8]
    assert {f for f in michelangelo if f.startswith("skills[2].")} == {
        "skills[2].skill", "skills[2].fee", "skills[2].faces", "skills[2].masterpiece_faces",
        "skills[2].masterpiece",
    }  # fmt: skip


def test_designed_values_are_marked_and_printed_ones_cite_the_seed_or_the_reference() -> None:
    source = {(f, e, field): s for f, e, field, s in provenance()}
    assert is_project_defined(source["artists.yaml", 8, "skills[0].fee"])
    assert is_project_defined(source["board.yaml", None, "income_die"])
    assert source["workshops.yaml", 3, "name"].startswith("printed (seed")
    assert source["board.yaml", None, "market_buy"].startswith("printed (seed")
    assert source["artists.yaml", 5, "name"].startswith("printed (ref characters.json: VERIFIED")
    assert is_project_defined(source["workshops.yaml", 3, "cost"])


def _copy_content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    target.mkdir()
    for name in FILES:
        shutil.copy(CONTENT_DIR / name, target / name)
    return target


def _edit(folder: Path, file: str, change: object) -> None:
    path = folder / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_a_copy_of_the_content_loads_to_the_same_records(tmp_path: Path) -> None:
    assert load_from(_copy_content(tmp_path)) == C


def test_a_missing_provenance_names_file_entry_and_field(tmp_path: Path) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, "workshops.yaml", lambda d: d["workshops"][2]["provenance"].pop("cost"))
    with pytest.raises(ContentError) as err:
        load_from(folder)
    assert (err.value.file, err.value.entry, err.value.field) == ("workshops.yaml", 3, "provenance")
    assert "cost" in err.value.problem


def test_a_provenance_that_is_neither_printed_nor_project_defined_is_refused(tmp_path: Path) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, "board.yaml", lambda d: d["market_buy"].update(provenance="I think so"))
    with pytest.raises(ContentError) as err:
        load_from(folder)
    assert (err.value.file, err.value.field) == ("board.yaml", "market_buy.provenance")


def test_a_wrong_count_of_tiles_is_refused(tmp_path: Path) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, "workshops.yaml", lambda d: d["workshops"][0].update(copies=2))
    with pytest.raises(ContentError, match=r"46 workshop tiles, board\.yaml says 45"):
        load_from(folder)


def test_an_unknown_skill_names_the_artist_and_the_row(tmp_path: Path) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, "artists.yaml", lambda d: d["artists"][7]["skills"][1].update(skill="poetry"))
    with pytest.raises(ContentError) as err:
        load_from(folder)
    assert (err.value.file, err.value.entry, err.value.field) == ("artists.yaml", 8, "skills[1].skill")


def test_a_formula_without_a_price_is_refused(tmp_path: Path) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, "workshops.yaml", lambda d: d["workshops"][14]["effect"].pop("pay"))
    with pytest.raises(ContentError) as err:
        load_from(folder)
    assert (err.value.entry, err.value.field) == (15, "effect")


def test_a_character_id_used_twice_is_refused(tmp_path: Path) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, "preachers.yaml", lambda d: d["preachers"][0].update(id=1))
    with pytest.raises(ContentError, match="same id"):
        load_from(folder)


@pytest.mark.parametrize(
    ("file", "change", "entry", "field", "words"),
    [
        ("artworks.yaml", lambda d: d["works"][0].pop("income"), 1, "income", "Field required"),
        ("artworks.yaml", lambda d: d["works"][0].update(building="Banco"), 1, "building", "a city work"),
        ("artworks.yaml", lambda d: d["works"][0]["reward"].update(workers=1), 1, "reward", "no workers"),
        (
            "workshops.yaml",
            lambda d: d["workshops"][0]["effect"]["pay"].update(workers=1),
            1,
            "effect",
            "no workers",
        ),
        (
            "workshops.yaml",
            lambda d: d["workshops"][2]["effect"].update(gain={}),
            3,
            "effect",
            "gives something",
        ),
        (
            "workshops.yaml",
            lambda d: d["workshops"][2]["effect"].update(pay={"wood": 1}),
            3,
            "effect",
            "takes no pay",
        ),
        (
            "artists.yaml",
            lambda d: d["artists"][2]["skills"][1].update(skill="architecture"),
            3,
            "skills",
            "one row",
        ),
        ("artists.yaml", lambda d: d["anonymous"][0].update(mark=1), 41, "mark", "Extra inputs"),
        (
            "artists.yaml",
            lambda d: d["artists"][0]["skills"][0]["provenance"].pop("fee"),
            1,
            "skills[0].provenance",
            "misses fee",
        ),
        (
            "preachers.yaml",
            lambda d: d["anonymous"][0]["provenance"].pop("faces"),
            47,
            "provenance",
            "misses faces",
        ),
        ("board.yaml", lambda d: d["income_die"]["value"].pop(6), None, "income_die.value", "each die face"),
        (
            "board.yaml",
            lambda d: d["failure_penalty"]["value"].pop("duomo"),
            None,
            "failure_penalty.value",
            "each area",
        ),
        (
            "board.yaml",
            lambda d: d["bag_draws"]["value"].pop(5),
            None,
            "bag_draws",
            "each seat count: 2, 3, 4, 5",
        ),
        ("board.yaml", lambda d: d["supply"]["value"].update(gold=4), None, "supply", "too few cubes"),
        ("board.yaml", lambda d: d["rounds"].pop("provenance"), None, "rounds.provenance", "Field required"),
    ],
)
def test_a_broken_entry_names_file_entry_and_field(
    tmp_path: Path, file: str, change: object, entry: object, field: str, words: str
) -> None:
    folder = _copy_content(tmp_path)
    _edit(folder, file, change)
    with pytest.raises(ContentError) as err:
        load_from(folder)
    assert (err.value.file, err.value.entry, err.value.field) == (file, entry, field)
    assert words in err.value.problem
