"""Florenza's typed content for front-ends (GetContent): the records say what the validated content
says, the project-defined values say so, and the English texts are worded from the same numbers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TypeVar

from services.florenza.content import is_project_defined, load_content, provenance
from services.florenza.rules.content_types import (
    Area,
    Artist,
    ArtWork,
    Board,
    EffectKind,
    Face,
    LifeCard,
    Preacher,
    Reward,
    Workshop,
)
from services.florenza.rules.goods import Resource
from services.florenza.rules.model import Trade
from services.florenza.texts import (
    BuildingInfo,
    IncomeDieFaceInfo,
    MarketTradeInfo,
    TrackInfo,
    content_message,
    packaged_content_message,
)
from services.games import load_game
from shared.core.codec import to_proto

Described = (
    Workshop | Artist | Preacher | ArtWork | LifeCard | MarketTradeInfo | IncomeDieFaceInfo | TrackInfo
    | BuildingInfo | Board
)  # fmt: skip
T = TypeVar("T")
CONTENT = load_content()
API = packaged_content_message()


def reward(r: Reward) -> tuple[object, ...]:
    return (r.goods, r.prestige, r.church, r.workers)


def faces(rows: Iterable[Face]) -> list[tuple[int, int]]:
    return [(f.prestige, f.church) for f in rows]


def workshop_facts(w: Any) -> tuple[Any, ...]:
    """A workshop's facts, from the catalog's record or the content's."""
    facts = (w.id, w.name, w.copies, w.starting, w.cost, w.build_prestige, w.effect)
    return (*facts, reward(w.gain), reward(w.pay))


def test_every_record_carries_the_contents_facts() -> None:
    assert [workshop_facts(w) for w in API.workshops] == [workshop_facts(w) for w in CONTENT.workshops]
    assert [(a.id, a.name, a.mark, a.anonymous) for a in API.artists] == [
        (a.id, a.name, a.mark, a.anonymous) for a in CONTENT.artists
    ]
    assert [
        [(t.skill, t.fee, faces(t.faces), tuple(t.masterpiece_faces), t.masterpiece) for t in a.talents]
        for a in API.artists
    ] == [
        [(r.skill, r.fee, faces(r.faces), r.masterpiece_faces, r.masterpiece) for r in a.talents]
        for a in CONTENT.artists
    ]
    assert [(p.id, p.name, p.mark, p.anonymous, p.offering, tuple(p.faces)) for p in API.preachers] == [
        (p.id, p.name, p.mark, p.anonymous, p.offering, p.faces) for p in CONTENT.preachers
    ]
    assert [
        (w.id, w.name, w.area, w.building, tuple(w.skills), w.cost, reward(w.reward), reward(w.income))
        for w in API.works
    ] == [
        (w.id, w.name, w.area, w.building, w.skills, w.cost, reward(w.reward), reward(w.income))
        for w in CONTENT.works
    ]
    assert all(w.failure_penalty == CONTENT.board.failure(w.area) for w in API.works)
    assert [(c.number, c.name, tuple(c.anonymous)) for c in API.life] == [
        (c.number, c.name, c.anonymous) for c in CONTENT.life
    ]
    assert [(f.face, f.resource) for f in API.income_die] == list(
        enumerate(CONTENT.board.income_die, start=1)
    )
    city: dict[str, list[int]] = {}
    for w in CONTENT.works:
        if w.area is Area.CITY:
            city.setdefault(w.building, []).append(w.id)
    assert {b.name: list(b.works) for b in API.buildings} == city
    b, info = CONTENT.board, API.board
    assert info is not None
    assert (info.families, info.rounds, info.starting_money, info.starting_resources, info.supply) == (
        b.families, b.rounds, b.starting_money, b.starting_resources, b.supply,
    )  # fmt: skip
    assert (info.bag_draws, info.empty_area_penalty, info.cardinal_church) == (
        b.bag_draws, b.empty_area_penalty, b.cardinal_church,
    )  # fmt: skip


def test_market_trades_and_tracks_come_from_the_boards_numbers() -> None:
    b = CONTENT.board
    trades = {t.trade: (t.pay_money, t.pay_cubes, t.get_money, t.get_cubes) for t in API.trades}
    assert trades == {
        Trade.SELL: (0, 1, b.market_sell, 0),
        Trade.BUY: (b.market_buy, 0, 0, 1),
        Trade.EXCHANGE: (0, b.market_exchange_give, 0, 1),
    }
    assert [(t.name, t.flip) for t in API.tracks] == [
        ("prestige", b.prestige_flip),
        ("church influence", b.church_flip),
    ]


def test_project_defined_values_keep_their_marker() -> None:
    designed = {
        (file, entry, field) for file, entry, field, source in provenance() if is_project_defined(source)
    }
    boscaiuolo = next(w for w in API.workshops if w.name == "Boscaiuolo")
    assert "starting" not in boscaiuolo.project_defined  # printed in the seed
    assert set(boscaiuolo.project_defined) == {
        f for file, e, f in designed if (file, e) == ("workshops.yaml", 3)
    }
    alberti = API.artists[0]
    assert "skills[0].fee" in alberti.project_defined and "name" not in alberti.project_defined
    assert all(f.project_defined == ("income_die",) for f in API.income_die)
    assert API.board is not None and "income_die" in API.board.project_defined
    assert "rounds" not in API.board.project_defined
    # the marker follows the data: a printed value loses it
    printed = [
        (f, e, field, "printed (test)" if field == "fee" or field.endswith(".fee") else s)
        for f, e, field, s in provenance()
    ]
    again = content_message(CONTENT, printed)
    assert not any(f.endswith("fee") for a in again.artists for f in a.project_defined)


def test_the_areas_go_on_the_wire_by_name() -> None:
    message = to_proto(API, load_game("florenza").modules.pb2.FlorenzaContent())
    assert message.works[0].area == load_game("florenza").modules.pb2.AREA_PALAZZO


def test_every_text_is_filled_in_and_worded_from_its_numbers() -> None:
    assert API.board is not None
    records: list[Described] = [
        *API.workshops,
        *API.artists,
        *API.preachers,
        *API.works,
        *API.life,
        *API.trades,
        *API.income_die,
        *API.tracks,
        *API.buildings,
        API.board,
    ]
    bad = [r.text for r in records if not r.text.endswith(".") or re.search(r"[{}#]|None", r.text)]
    assert not bad, bad
    assert all(t.text for a in API.artists for t in a.talents)
    for w in API.workshops:
        assert w.text.startswith(f"Workshop {w.id}, {w.name}: costs ")
        if w.effect is EffectKind.INCOME:
            assert "income " in w.text
    giotto = next(a for a in API.artists if a.name == "Giotto")
    row = giotto.talents[0]
    faces = ", ".join(str(f.prestige) for f in row.faces)
    assert f"fee {row.fee} fiorini; bonus die {faces} prestige" in giotto.text
    assert f"masterpiece of {row.masterpiece} prestige" in giotto.text
    savonarola = next(p for p in API.preachers if p.name == "Girolamo Savonarola")
    faces = ",".join(str(n) for n in savonarola.faces)
    assert savonarola.text.startswith(
        f"Girolamo Savonarola (offering {savonarola.offering}; workers by die {faces})"
    )
    sell = next(t for t in API.trades if t.trade is Trade.SELL)
    assert sell.text == f"Sell: 1 resource to the bank for {sell.get_money} fiorini, once per visit."
    face = API.income_die[0]
    assert face.resource is Resource.MARBLE and face.text.startswith(
        "Income die 1: every family takes 1 marble"
    )
    duomo = next(w for w in API.works if w.area is Area.DUOMO)
    assert duomo.text.endswith(f"; {duomo.failure_penalty} prestige lost if it cannot be paid for.")
    second = API.life[1]
    named = sum(1 for x in CONTENT.named_characters if CONTENT.mark(x) == 2)
    assert second.text.startswith(f"{second.name}: {named} named characters go under it when drawn")


def test_the_records_served_are_the_contents_own_with_their_texts() -> None:
    def bare(r: T) -> T:
        return replace(r, text="", project_defined=())  # type: ignore[type-var]

    assert [bare(w) for w in API.workshops] == list(CONTENT.workshops)
    talents = [replace(bare(a), talents=tuple(replace(t, text="") for t in a.talents)) for a in API.artists]
    assert talents == list(CONTENT.artists)
    assert [bare(p) for p in API.preachers] == list(CONTENT.preachers)
    assert [replace(bare(w), failure_penalty=0) for w in API.works] == list(CONTENT.works)
    assert [bare(c) for c in API.life] == list(CONTENT.life)
    assert API.board is not None and bare(API.board) == CONTENT.board
