"""Lorenzo's public content tables: built from the validated content, in the YAML files' own terms."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
import yaml

from services.lorenzo.content import CONTENT_DIR, load_content, tables
from services.lorenzo.manifest import MANIFEST
from services.lorenzo.rules.content_types import Cost, Gain, Production
from services.lorenzo.rules.goods import Goods

FILES = {
    "board": ("spaces", "privileges"),
    "bonus_tiles": ("tiles",),
    "cards": ("cards",),
    "excommunications": ("tiles",),
    "leaders": ("leaders",),
}


def _yaml(file: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((CONTENT_DIR / f"{file}.yaml").read_text(encoding="utf-8"))
    return data


def _scalars(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if isinstance(v, str | int | float | bool)}


def test_tables_hold_every_file_and_list() -> None:
    assert {file: tuple(lists) for file, lists in MANIFEST.content_tables().items()} == FILES


@pytest.mark.parametrize(("file", "key"), [(f, k) for f, keys in FILES.items() for k in keys])
def test_every_record_reads_as_in_its_yaml_file(file: str, key: str) -> None:
    """Costs, exchanges, tile bonuses, requirements, penalties, privileges: the nested facts too."""
    assert MANIFEST.content_tables()[file][key] == _yaml(file)[key]


def test_scalar_fields_equal_the_tables_served_before() -> None:
    """What ``services.content_labels`` (now removed) served from raw YAML: for each list of records
    with an ``id`` in each file, the records' scalar fields. The tables give the same."""
    checked = []
    for path in sorted(CONTENT_DIR.glob("*.yaml")):
        for key, records in yaml.safe_load(path.read_text(encoding="utf-8")).items():
            if isinstance(records, list) and all(isinstance(r, dict) and "id" in r for r in records):
                mine = MANIFEST.content_tables()[path.stem][key]
                assert [_scalars(r) for r in mine] == [_scalars(r) for r in records], (path.stem, key)
                checked.append((path.stem, key))
    assert len(checked) == 5


def test_nested_facts_a_player_chooses_by() -> None:
    t = MANIFEST.content_tables()
    card = {c["id"]: c for c in t["cards"]["cards"]}
    assert card[1] == {
        "id": 1,
        "name": "Commercial Hub",
        "type": "territory",
        "period": 1,
        "harvest": {"value": 1, "gain": {"coins": 1}},
    }
    venture_costs = [
        c["costs"] for c in card.values() if any("require_military" in x for x in c.get("costs", []))
    ]
    assert {"pay": {"military": 2}, "require_military": 3} in [x for costs in venture_costs for x in costs]
    exchanges = [c["production"]["exchange"] for c in card.values() if "exchange" in c.get("production", {})]
    assert [{"pay": {"coins": 1}, "gain": {"privileges": 1}}] in exchanges
    leader = {x["id"]: x for x in t["leaders"]["leaders"]}
    assert leader[10]["requires"] == {"cards": {"territory": 2, "character": 4}}  # card-type order
    assert leader[10]["ability"] == {"kind": "production", "value": 0}
    assert leader[17]["requires"] == {"cards": {"building": 3}, "goods": {"coins": 12, "faith": 2}}
    tile = {x["id"]: x for x in t["excommunications"]["tiles"]}
    assert tile[5]["penalty"] == {"kind": "action_modifier", "action": "harvest", "value": -3}
    assert tile[18]["penalty"] == {"kind": "lose_per_victory", "every": 5}
    assert tile[12]["penalty"] == {"kind": "no_market"}
    bonus = {x["id"]: x for x in t["bonus_tiles"]["tiles"]}
    assert bonus[2]["production"] == {"coins": 1, "servants": 2}
    space = {x["id"]: x for x in t["board"]["spaces"]}
    assert space[21] == {
        "id": 21,
        "kind": "council",
        "value": 1,
        "bonus": {"coins": 1, "privileges": 1},
        "capacity": 0,
    }
    assert t["board"]["privileges"][0] == {"wood": 1, "stone": 1}


def test_tables_follow_the_content_they_are_given() -> None:
    content = load_content()
    woods = content.card[2]
    changed = replace(
        woods,
        name="Great Woods",
        costs=(Cost(Goods(coins=2), require_military=1),),
        production=Production(3, Gain(privileges=2), exchanges=()),
    )
    cards = tuple(changed if c.id == 2 else c for c in content.cards)
    record = tables(replace(content, cards=cards))["cards"]["cards"][1]
    assert record["name"] == "Great Woods"
    assert record["costs"] == [{"pay": {"coins": 2}, "require_military": 1}]
    assert record["production"] == {"value": 3, "gain": {"privileges": 2}}


def test_tables_are_plain_json() -> None:
    t = MANIFEST.content_tables()
    assert json.loads(json.dumps(t)) == t
