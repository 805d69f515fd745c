"""Trajan's typed content for front-ends (GetContent): the records say what the validated content
says, and the English texts are worded from the same numbers."""

from __future__ import annotations

import re

from services.trajan.content import load_content
from services.trajan.rules.content_types import Action, TrajanEffect
from services.trajan.texts import packaged_content_message

CONTENT = load_content()
API = packaged_content_message()


def test_every_record_carries_the_contents_facts() -> None:
    assert [
        (t.id, t.stack, tuple(t.colours), t.vp, t.effect, t.amount, t.demand) for t in API.trajan_tiles
    ] == [(t.id, t.stack, t.colours, t.vp, t.effect, t.amount, t.demand) for t in CONTENT.trajan_tiles]
    assert [(t.tile, t.kind, t.count, t.votes, t.demand, t.action) for t in API.forum_tiles] == [
        (t.tile, t.kind, t.count, t.votes, t.demand, t.action) for t in CONTENT.forum_tiles
    ]
    extra = {t.action: t.extra_stack for t in API.forum_tiles if t.action is not None}
    assert extra == {t.action: t.count for t in CONTENT.extra_action_tiles}
    assert [(t.id, t.kind, t.vp) for t in API.construction_tiles] == [
        (t.id, t.kind, t.vp) for t in CONTENT.construction_tiles
    ]
    assert all(
        t.bonus_action == CONTENT.construction_kind[t.kind].bonus_action for t in API.construction_tiles
    )
    assert [(p.id, p.key, p.name, p.vp, tuple(p.adjacent)) for p in API.provinces] == [
        (p.id, p.key, p.name, p.vp, p.adjacent) for p in CONTENT.provinces
    ]
    assert [(s.id, s.row, s.column, tuple(s.adjacent)) for s in API.sites] == [
        (s.id, s.row, s.column, s.adjacent) for s in CONTENT.board.sites
    ]
    assert [(s.id, s.kind, tuple(s.yellow), tuple(s.grey)) for s in API.ships] == [
        (s.id, s.kind, s.yellow, s.grey) for s in CONTENT.ships
    ]
    bonus = [
        (t.id, t.kind, t.yellow, t.grey, t.per_units, t.demand, tuple(t.commodities)) for t in API.bonus_tiles
    ]
    assert bonus == [
        (t.id, t.kind, t.yellow, t.grey, t.per_units, t.demand, t.commodities) for t in CONTENT.bonus_tiles
    ]
    assert [(b.bowl, b.action) for b in API.bowls] == list(enumerate(CONTENT.board.bowls, start=1))


def test_every_text_is_filled_in_and_worded_from_its_numbers() -> None:
    records = [
        *API.trajan_tiles,
        *API.forum_tiles,
        *API.construction_tiles,
        *API.provinces,
        *API.sites,
        *API.ships,
        *API.bonus_tiles,
        *API.bowls,
    ]
    bad = [r.text for r in records if not r.text.endswith(".") or re.search(r"[{}#]|None", r.text)]
    assert not bad, bad
    for t in API.trajan_tiles:
        assert t.text.startswith(f"Trajan tile {t.id}, stack {t.stack} (") and f": {t.vp} VP" in t.text
        if t.effect in (TrajanEffect.DRAW_CARDS, TrajanEffect.WORKERS, TrajanEffect.LEGIONNAIRES):
            assert f"+ {'draw ' if t.effect is TrajanEffect.DRAW_CARDS else ''}{t.amount} " in t.text
    for p in API.provinces:
        assert p.text.startswith(f"{p.name}: {p.vp} VP for a legionnaire")
    senate = next(t for t in API.forum_tiles if t.votes == 3)
    assert senate.text == f"Forum tile senate 3 votes ({senate.count} among the forum tiles)."
    trajan = next(t for t in API.forum_tiles if t.action is Action.TRAJAN)
    assert trajan.text == (
        f"Forum tile extra Trajan action ({trajan.count} among the forum tiles, "
        f"{trajan.extra_stack} in the extra action stack)."
    )
    identical = API.ships[0]
    values = "/".join(str(v) for v in identical.yellow)
    assert identical.text.startswith(
        f"The identical goods ship: {values} VP for 1-{len(identical.yellow)} cards"
    )
    assert API.bowls[3].text == "Bowl IV (senate): sow from it, then take the senate action."
