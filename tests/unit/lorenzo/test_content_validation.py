"""Lorenzo's content loader: the real files load; a broken copy names its file, entry and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from services.lorenzo.content import CONTENT_DIR, ContentError, load_content, load_from
from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionKind,
    CardType,
    ImmediateKind,
    PenaltyKind,
    SpaceKind,
    content_counts,
)
from services.lorenzo.rules.goods import Goods


def _broken(tmp_path: Path, file: str, *changes: tuple[str, str]) -> Path:
    """A copy of the content folder with ``file`` edited: each (old, new) replaced once."""
    for f in CONTENT_DIR.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    text = (tmp_path / file).read_text()
    for old, new in changes:
        assert text.count(old) == 1, f"{old!r} must occur once in {file}"
        text = text.replace(old, new)
    (tmp_path / file).write_text(text)
    return tmp_path


def _error(tmp_path: Path, file: str, *changes: tuple[str, str]) -> ContentError:
    with pytest.raises(ContentError) as e:
        load_from(_broken(tmp_path, file, *changes))
    return e.value


def test_the_real_content_loads_with_every_component() -> None:
    assert content_counts(load_content()) == {
        "development_cards": 96,
        "territory_cards": 24,
        "building_cards": 24,
        "character_cards": 24,
        "venture_cards": 24,
        "leaders": 20,
        "excommunication_tiles": 21,
        "personal_bonus_tiles": 5,
        "advanced_bonus_tiles": 4,
        "board_spaces": 25,
        "council_privileges": 5,
    }


def test_yaml_names_become_typed_records() -> None:
    c = load_content()
    stonemason = next(card for card in c.cards if card.name == "Stonemason")
    assert stonemason.action_bonus is not None
    assert stonemason.action_bonus.action is ActionKind.TAKE_BUILDING
    assert stonemason.action_bonus.discounts == (Goods(wood=1), Goods(stone=1))
    preacher = next(card for card in c.cards if card.name == "Preacher")
    assert preacher.no_floor_bonus and preacher.card_type is CardType.CHARACTER
    take_any = [e for card in c.cards for e in card.immediate if e.kind is ImmediateKind.TAKE_CARD]
    assert any(e.card_type is None for e in take_any) and any(e.card_type for e in take_any)
    assert c.leader[10].ability is AbilityKind.PRODUCTION and c.leader[10].requirement.counts == (2, 0, 4, 0)
    assert c.tile[18].penalty is PenaltyKind.LOSE_PER_VICTORY and c.tile[18].value == 5  # every: 5
    assert c.space[23].kind is SpaceKind.HARVEST and (c.space[23].capacity, c.space[23].modifier) == (0, -3)
    assert c.space[1].tower is CardType.TERRITORY and c.space[17].tower is None


WOODS = "name: 'Woods'\n  type: territory\n  period: 1"  # card 2
COLLEONI = "- {id: 20, name: Bartolomeo Colleoni"


def swap(anchor: str, old: str, new: str) -> tuple[str, str]:
    """Replace ``old`` by ``new`` inside the unique text ``anchor``."""
    return anchor, anchor.replace(old, new)


# (file, (old, new), entry, field, words of the problem)
BROKEN = [
    pytest.param("cards.yaml", ("  name: 'Woods'\n", ""), 2, "name", "Field required", id="missing field"),
    pytest.param("cards.yaml", swap(WOODS, "1", "'1'"), 2, "period", "valid integer", id="wrong type"),
    pytest.param(
        "leaders.yaml",
        swap("once_per_round: false, ability: {kind: occupied_spaces}", "false", "1"),
        2,
        "once_per_round",
        "valid boolean",
        id="an integer is not a boolean",
    ),
    pytest.param(
        "cards.yaml",
        swap(WOODS, "territory", "castle"),
        2,
        "type",
        "unknown name 'castle'",
        id="unknown enum",
    ),
    pytest.param(
        "leaders.yaml",
        swap("ability: {kind: harvest, value: 1}", "harvest", "fly"),
        1,
        "ability.kind",
        "unknown name 'fly'",
        id="unknown ability",
    ),
    pytest.param(
        "excommunications.yaml",
        ("{kind: no_market}", "{kind: no_markets}"),
        12,
        "penalty.kind",
        "unknown name",
        id="unknown penalty",
    ),
    pytest.param(
        "board.yaml",
        ("{id: 17, kind: market,", "{id: 17, kind: shop,"),
        17,
        "kind",
        "unknown name 'shop'",
        id="unknown space kind",
    ),
    pytest.param(
        "cards.yaml",
        swap(WOODS, "1", "4"),
        2,
        "period",
        "outside the game's 3 periods",
        id="card period beyond the board's periods",
    ),
    pytest.param(
        "excommunications.yaml",
        swap("{id: 21, code: '3_7', period: 3,", "3,", "5,"),
        21,
        "period",
        "outside the game's 3 periods",
        id="tile period beyond the board's periods",
    ),
    pytest.param("cards.yaml", ("- id: 2\n", "- id: 1\n"), 1, "id", "duplicate id", id="duplicate card id"),
    pytest.param(
        "board.yaml",
        ("{id: 2, kind: tower", "{id: 1, kind: tower"),
        1,
        "id",
        "duplicate id",
        id="duplicate space id",
    ),
    pytest.param(
        "cards.yaml",
        ("{pay: {wood: 1, stone: 3}}", "{pay: {wood: -1, stone: 3}}"),
        25,
        "costs[0].pay.wood",
        "greater than or equal to 0",
        id="negative cost",
    ),
    pytest.param(
        "cards.yaml",
        swap("  - {gain: {wood: 1}}\n  harvest: {value: 2", "wood", "timber"),
        2,
        "immediate[0].gain.timber",
        "Extra inputs",
        id="unknown good",
    ),
    pytest.param(
        "board.yaml",
        swap("bonus: {privileges: 2}", "2", "6"),
        20,
        "bonus.privileges",
        "less than or equal to 5",
        id="more privileges than there are",
    ),
    pytest.param(
        "cards.yaml",
        swap("harvest: {value: 6, gain: {stone: 1, faith: 1}}", "6", "7"),
        6,
        "harvest.value",
        "less than or equal to 6",
        id="activation value above 6",
    ),
    pytest.param(
        "cards.yaml",
        ("  costs:\n  - {pay: {wood: 1, stone: 3}}\n", ""),
        25,
        "costs",
        "only territories are free",
        id="a free building",
    ),
    pytest.param(
        "cards.yaml",
        swap("  - {gain: {wood: 1}}\n  harvest: {value: 2", "}}", "}, harvest: 2}"),
        2,
        "immediate[0]",
        "an immediate effect is one of",
        id="two effects in one",
    ),
    pytest.param(
        "cards.yaml",
        ("gain_per_card: {coins: 1}, per: building", "per: building"),
        25,
        "production.per",
        "gain_per_card and per go together",
        id="per without gain_per_card",
    ),
    pytest.param(
        "leaders.yaml",
        ("ability: {kind: harvest, value: 1}", "ability: {kind: harvest}"),
        1,
        "ability",
        "harvest needs value",
        id="ability missing its value",
    ),
    pytest.param(
        "excommunications.yaml",
        ("{kind: servant_rate, value: 2}", "{kind: servant_rate, every: 2}"),
        13,
        "penalty",
        "servant_rate needs value; takes no every",
        id="penalty with the wrong key",
    ),
    pytest.param(
        "leaders.yaml",
        ("requires: {cards: {venture: 5}}", "requires: {cards: {ventures: 5}}"),
        1,
        "requires.cards.ventures",
        "Extra inputs",
        id="unknown card type in a requirement",
    ),
    pytest.param(
        "board.yaml",
        ("{id: 1, kind: tower, tower: territory,", "{id: 1, kind: tower,"),
        1,
        "tower",
        "a tower space names its tower",
        id="tower space without its tower",
    ),
    pytest.param(
        "board.yaml",
        ("{id: 18, kind: market,", "{id: 18, kind: market, tower: venture,"),
        18,
        "tower",
        "only tower spaces name a tower",
        id="market naming a tower",
    ),
    pytest.param(
        "board.yaml",
        ("- {coins: 2}\n", "- {coinz: 2}\n"),
        "#2",
        "coinz",
        "Extra inputs",
        id="privilege without id: its index",
    ),
]


@pytest.mark.parametrize(("file", "change", "entry", "field", "words"), BROKEN)
def test_a_broken_entry_is_named_by_file_entry_and_field(
    tmp_path: Path, file: str, change: tuple[str, str], entry: object, field: str, words: str
) -> None:
    error = _error(tmp_path, file, change)
    assert (error.file, error.entry, error.field) == (file, entry, field)
    assert words in error.problem
    assert str(error).startswith(f"{file}: entry {entry}: field {field}: ")


# (file, (old, new), field, words): problems above any entry name the file and the field only.
BROKEN_LISTS = [
    pytest.param(
        "cards.yaml",
        swap(WOODS, "1", "2"),
        "cards",
        "territory cards of period 1: 7, not 8",
        id="a period's deck one card short",
    ),
    pytest.param(
        "leaders.yaml", (COLLEONI, f"# {COLLEONI}"), "leaders", "at least 20 items", id="a leader missing"
    ),
    pytest.param(
        "board.yaml", ("- {faith: 1}\n", ""), "privileges", "at least 5 items", id="four privileges"
    ),
    pytest.param(
        "board.yaml",
        swap("vatican_faith_required: [3, 4, 5]", ", 5", ""),
        "vatican_faith_required",
        "2 values where periods 3 needs 3",
        id="a Vatican threshold missing",
    ),
    pytest.param(
        "board.yaml",
        swap("territory_slot_military: [0, 0, 3, 7, 12, 18]", ", 18", ""),
        "territory_slot_military",
        "needs 6",
        id="a territory slot without requirement",
    ),
    pytest.param(
        "board.yaml",
        swap("character_victory: [0, 1, 3, 6, 10, 15, 21]", ", 21", ""),
        "end_game",
        "character_victory: 6 values",
        id="end-game table one short",
    ),
    pytest.param(
        "board.yaml",
        swap("coins_by_turn_order: [5, 6, 7, 8]", "7", "x"),
        "setup.coins_by_turn_order[2]",
        "valid integer",
        id="a setup value not a number",
    ),
    pytest.param(
        "board.yaml",
        swap("occupied_tower_fee: 3", "3", "-3"),
        "occupied_tower_fee",
        "greater than or equal to 0",
        id="negative tower fee",
    ),
]


@pytest.mark.parametrize(("file", "change", "field", "words"), BROKEN_LISTS)
def test_a_broken_list_or_setting_is_named_by_file_and_field(
    tmp_path: Path, file: str, change: tuple[str, str], field: str, words: str
) -> None:
    error = _error(tmp_path, file, change)
    assert (error.file, error.entry, error.field) == (file, None, field)
    assert words in error.problem


def test_every_problem_of_a_file_is_listed(tmp_path: Path) -> None:
    error = _error(
        tmp_path,
        "cards.yaml",
        ("{pay: {wood: 1, stone: 3}}", "{pay: {wood: -1, stone: 3}}"),
        ("name: 'Woods'\n  type: territory", "name: 'Woods'\n  type: castle"),
        ("  name: 'Village'\n", ""),
    )
    where = [(p.file, p.entry, p.field) for p in error.problems]
    assert where == [
        ("cards.yaml", 2, "type"),
        ("cards.yaml", 3, "name"),
        ("cards.yaml", 25, "costs[0].pay.wood"),
    ]
    assert (error.entry, error.field) == (2, "type")  # the first one
    assert len(str(error).splitlines()) == 3


def test_duplicate_ids_are_each_named(tmp_path: Path) -> None:
    error = _error(
        tmp_path,
        "bonus_tiles.yaml",
        ("- {id: 4, name: C", "- {id: 2, name: C"),
        ("- {id: 5, name: D", "- {id: 3, name: D"),
    )
    assert [(p.entry, p.field) for p in error.problems] == [(2, "id"), (3, "id")]
    assert "also entry #1" in error.problems[0].problem


def test_invalid_yaml_is_a_content_error(tmp_path: Path) -> None:
    error = _error(tmp_path, "leaders.yaml", ("leaders:", "leaders: [\n"))
    assert (error.file, error.entry, error.field) == ("leaders.yaml", None, "")
    assert error.problem.startswith("not valid YAML")
