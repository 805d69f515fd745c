"""Lorenzo's typed content for front-ends (GetContent): the records say what the validated content
says, and the English texts are generated from the same data, for every kind of effect."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import replace
from typing import Any

from services.lorenzo.content import load_content
from services.lorenzo.rules.content_types import AbilityKind, ImmediateKind, PenaltyKind
from services.lorenzo.texts import packaged_content_message
from shared.core.form import form_of

CONTENT = load_content()
API = packaged_content_message()


def card(name: str) -> str:
    return next(c.text for c in API.cards if c.name == name)


def leader(name: str) -> str:
    return next(x.text for x in API.leaders if x.name == name)


def tile(code: str) -> str:
    return next(t.text for t in API.excommunications if t.code == code)


def test_every_record_carries_the_contents_facts() -> None:
    for record, source in zip(API.cards, CONTENT.cards, strict=True):
        assert (record.id, record.name, record.card_type, record.period) == (
            source.id,
            source.name,
            source.card_type,
            source.period,
        )
        assert [(c.pay, c.require_military) for c in record.costs] == [
            (c.pay, c.require_military) for c in source.costs
        ]
        assert [e.kind for e in record.immediate] == [e.kind for e in source.immediate]
        assert (record.harvest is None) == (source.harvest is None)
        assert (record.production.value if record.production else None) == (
            source.production.value if source.production else None
        )
        assert record.end_victory == source.end_victory
    assert [(x.id, x.ability, x.once_per_round) for x in API.leaders] == [
        (x.id, x.ability, x.once_per_round) for x in CONTENT.leaders
    ]
    assert [(t.code, t.penalty, t.value) for t in API.excommunications] == [
        (t.code, t.penalty, t.value) for t in CONTENT.excommunications
    ]
    assert [p.goods for p in API.privileges] == list(CONTENT.board.privileges)
    assert API.board is not None and API.board.faith_victory == CONTENT.board.faith_victory


def test_every_text_is_filled_in_and_names_its_component() -> None:
    texts = [
        *(c.text for c in API.cards),
        *(x.text for x in API.leaders),
        *(t.text for t in API.excommunications),
        *(t.text for t in API.bonus_tiles),
        *(s.text for s in API.spaces),
        *(p.text for p in API.privileges),
    ]
    assert all(t and t.endswith(".") and not re.search(r"[{}]|None|\bnothing\b", t) for t in texts), [
        t for t in texts if not t.endswith(".") or re.search(r"[{}]|None|\bnothing\b", t)
    ]
    assert all(c.text.startswith(f"{c.name}: ") for c in API.cards)
    assert all(x.text.startswith(f"{x.name}: to play it you must own ") for x in API.leaders)


def test_the_content_uses_every_kind_of_effect_the_texts_word() -> None:
    assert {e.kind for c in CONTENT.cards for e in c.immediate} == set(ImmediateKind)
    assert {x.ability for x in CONTENT.leaders} == set(AbilityKind)
    assert {t.penalty for t in CONTENT.excommunications} == set(PenaltyKind)


def test_cards_read_as_the_rules_apply_them() -> None:
    assert card("Support to the Bishop") == (
        "Support to the Bishop: venture card, period 1. Cost: 2 coins, 1 wood and 1 stone; "
        "or 2 military (you must own 4 military). When taken: gain 3 faith. End of the game: 1 VP."
    )
    assert "gain 2 VP for each character card you own, this one included" in card("Paramour")
    assert "gain 2 VP for each territory card you own." in card("Noble")  # a noble is no territory
    assert "gain 1 VP for every 2 military you own" in card("General")
    assert "and pay 1 wood or 1 stone less for the card" in card("Stonemason")
    assert "take a card of any type with a value 4 action, no family member needed" in card("Abbess")
    assert "you may do one: pay 1 wood for 3 coins or pay 2 wood for 5 coins" in card("Carpenter's Shop")
    assert "Permanent: you take no bonus from tower spaces, also in card actions." in card("Preacher")
    assert "gain 3 privileges (different ones)" in card("Royal Messenger")


def test_leaders_tiles_and_spaces_read_as_the_rules_apply_them() -> None:
    assert leader("Cesare Borgia").startswith(
        "Cesare Borgia: to play it you must own 3 building cards, 12 coins and 2 faith."
    )
    assert leader("Lucrezia Borgia").endswith(
        "Permanent, once played: your coloured family members get +2 value."
    )
    assert "Once per round (activate it): perform a production action of value 0" in leader(
        "Leonardo da Vinci"
    )
    assert tile("2_6").endswith("you need 2 servants to raise an action value by 1.")
    assert tile("3_5").endswith("lose 1 VP for each military point you own.")
    assert tile("1_4").endswith(
        "each time you gain wood or stone, you gain 1 wood and 1 stone less (per source)."
    )
    large = next(s.text for s in API.spaces if s.id == 23)
    assert large == (
        "Harvest (large, -3). Action value 1 or more; perform a harvest action; -3 to the action's value; "
        "any number of family members; only with 3 or more players."
    )


def _without_texts(value: Any) -> Any:
    """``value`` with every field the files never hold (texts, labels) back to its default."""
    if isinstance(value, tuple):
        return tuple(_without_texts(v) for v in value)
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    fields = dataclasses.fields(value)
    return type(value)(
        **{
            f.name: f.default if form_of(f).get("skip") else _without_texts(getattr(value, f.name))
            for f in fields
        }
    )


def test_getcontent_serves_the_rules_own_records_with_their_texts() -> None:
    assert _without_texts(API.cards) == CONTENT.cards
    assert _without_texts(API.leaders) == CONTENT.leaders
    assert _without_texts(API.excommunications) == CONTENT.excommunications
    assert _without_texts(API.bonus_tiles) == CONTENT.bonus_tiles
    assert _without_texts(API.spaces) == CONTENT.board.spaces
    assert API.board is not None and _without_texts(API.board) == replace(
        CONTENT.board, spaces=(), privileges=()
    )
