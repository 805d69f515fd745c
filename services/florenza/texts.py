"""Florenza's components for front-ends, typed, with their texts: what ``GetContent`` answers; and
``TEXTS``, every word the package shows in English, Simplified Chinese and Brazilian Portuguese.

:func:`content_message` is the content's own records (``rules/content_types.py``) with their texts
and their project-defined fields filled in, plus what the board's numbers make: the market trades,
the income die's faces, the tracks and the city buildings. Views, commands and events name
components by id (workshops, characters, works, cards) or by enum (trades, resources); these
records say what each one is. Every ``text`` is worded by the terminal client's labels
(``presentation/labels.py``) from the same numbers, so it never disagrees with them.

The texts are worded in the locale asked for (``packaged_content_message(locale)``) from ``TEXTS``:
the fixed words of ``words.py``, the components' names (``workshop.3.name`` ...) and the rules'
refusals (``reason.<code>: <template>``); the translations are ``locales/zh-CN.yaml`` and
``locales/pt-BR.yaml`` (docs/rules/florenza.md, "Terms in Chinese and Portuguese").

Much of Florenza's content is designed by the project where the seed prints no value
(docs/rules/florenza.md, "Designed values"): each record's ``project_defined`` lists the content
file's fields (as the YAML names them, ``skills[0].fee`` for a talent's fee) whose value is
project-defined rather than printed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from services.florenza.presentation.labels import Labels, building_key
from services.florenza.rules.content_types import (
    Area,
    Artist,
    ArtWork,
    Board,
    Content,
    LifeCard,
    Preacher,
    Reward,
    SkillRow,
    Workshop,
)
from services.florenza.rules.goods import Resource
from services.florenza.rules.model import Trade
from services.florenza.words import WORDS
from shared.core.i18n import Texts
from shared.core.manifest import manifest_texts
from shared.core.reasons import rule_reason_texts
from shared.core.wire import message, pb

Provenance = Iterable[tuple[str, object, str, str]]
# (file, entry) -> the fields whose value is project-defined; board.yaml's entry is None
Designed = Mapping[tuple[str, object], tuple[str, ...]]


@message
class MarketTradeInfo:
    """A market trade (`MarketTraded.trade`) with what it takes and gives; each once per visit."""

    trade: Trade = pb(1)
    pay_money: int = pb(2, default=0)
    pay_cubes: int = pb(3, default=0)  # resource cubes given (EXCHANGE: all of one kind)
    get_money: int = pb(4, default=0)
    get_cubes: int = pb(5, default=0)  # resource cubes received (EXCHANGE: of another kind)
    text: str = pb(6, default="")
    project_defined: tuple[str, ...] = pb(7, default=())  # content fields the project designed


@message
class IncomeDieFaceInfo:
    """A face of the income die (`IncomeDieRolled.face`): the resource every family takes."""

    face: int = pb(1)
    resource: Resource = pb(2)
    compensation: int = pb(3, default=0)  # fiorini instead, for a family the supply cannot serve
    text: str = pb(4, default="")
    project_defined: tuple[str, ...] = pb(5, default=())  # content fields the project designed


@message
class TrackInfo:
    """A track of the progress board; the engine keeps plain integers, the board flips its marker."""

    name: str = pb(1)  # "prestige" or "church influence"
    flip: int = pb(2, default=0)  # above this the marker shows its other side
    text: str = pb(3, default="")
    project_defined: tuple[str, ...] = pb(4, default=())  # content fields the project designed


@message
class BuildingInfo:
    """A city building of the main board and its art works (`ArtWorkInfo.building`)."""

    name: str = pb(1)
    works: tuple[int, ...] = pb(2, default=())
    text: str = pb(3, default="")


@message
class FlorenzaContent:
    """Every component of Florenza, as the rules read it, with names and texts in one locale (GetContent:
    the call's)."""

    workshops: tuple[Workshop, ...] = pb(1, default=())
    artists: tuple[Artist, ...] = pb(2, default=())
    preachers: tuple[Preacher, ...] = pb(3, default=())
    works: tuple[ArtWork, ...] = pb(4, default=())
    life: tuple[LifeCard, ...] = pb(5, default=())
    trades: tuple[MarketTradeInfo, ...] = pb(6, default=())
    income_die: tuple[IncomeDieFaceInfo, ...] = pb(7, default=())
    tracks: tuple[TrackInfo, ...] = pb(8, default=())
    buildings: tuple[BuildingInfo, ...] = pb(9, default=())
    board: Board | None = pb(10, default=None)


def designed(provenance: Provenance) -> Designed:
    """The project-defined fields of every entry, in the files' order."""
    from services.florenza.content import is_project_defined

    out: dict[tuple[str, object], tuple[str, ...]] = {}
    for file, entry, field, source in provenance:
        if is_project_defined(source):
            out[file, entry] = (*out.get((file, entry), ()), field)
    return out


def content_message(content: Content, provenance: Provenance, locale: str = "en") -> FlorenzaContent:
    """The content's records with their names and texts in ``locale`` and their project-defined fields
    filled in."""
    labels, ours = Labels(content, TEXTS.catalog(locale)), designed(provenance)
    board = ours.get(("board.yaml", None), ())
    return FlorenzaContent(
        workshops=tuple(
            workshop(w, labels, ours.get(("workshops.yaml", w.id), ())) for w in content.workshops
        ),
        artists=tuple(artist(a, labels, ours.get(("artists.yaml", a.id), ())) for a in content.artists),
        preachers=tuple(
            preacher(p, labels, ours.get(("preachers.yaml", p.id), ())) for p in content.preachers
        ),
        works=tuple(work(w, labels, ours.get(("artworks.yaml", w.id), ())) for w in content.works),
        life=tuple(life(c, labels, ours.get(("life.yaml", c.number), ())) for c in content.life),
        trades=trades(content.board, board, labels),
        income_die=income_die(content.board, board, labels),
        tracks=tracks(content.board, board, labels),
        buildings=buildings(content, labels),
        board=board_info(content.board, board, labels),
    )


RULES = "services/florenza/rules"  # the rules' source, whose refusals are texts too


def workshop(w: Workshop, labels: Labels, ours: tuple[str, ...]) -> Workshop:
    say = labels.say
    tiles = labels.t.plural("content.tiles", w.copies) + (say("content.starting_tile") if w.starting else "")
    text = say("content.workshop", id=w.id, workshop=labels.workshop_text(w.id), tiles=tiles)
    return replace(w, name=labels.workshop(w.id), text=text, project_defined=ours)


def talent(r: SkillRow, anonymous: bool, labels: Labels) -> SkillRow:
    say, skill = labels.say, labels.skill(r.skill)
    if anonymous:
        return replace(r, text=say("content.talent_anonymous", talent=skill))
    rolls = labels.sep().join(
        say("content.roll_church", prestige=f.prestige, church=f.church) if f.church else str(f.prestige)
        for f in r.faces
    )
    best = labels.sep().join(str(n) for n in r.masterpiece_faces)
    text = say("content.talent", talent=skill, fee=r.fee, rolls=rolls, masterpiece=r.masterpiece, faces=best)
    return replace(r, text=text)


def artist(a: Artist, labels: Labels, ours: tuple[str, ...]) -> Artist:
    talents = tuple(talent(r, a.anonymous, labels) for r in a.talents)
    if a.anonymous:
        where = anonymous_card(a.id, labels)
    else:
        where = labels.say("content.drawn", card=labels.life(a.mark))
    text = labels.say(
        "content.artist",
        artist=labels.artist_text(a.id),
        where=where,
        talents=labels.say("content.talent_sep").join(t.text for t in talents),
    )
    return replace(a, name=labels.character(a.id), talents=talents, text=text, project_defined=ours)


def anonymous_card(character: int, labels: Labels) -> str:
    card = next((c.number for c in labels.content.life if character in c.anonymous), 0)
    return labels.say("content.anonymous_card", card=labels.life(card))


def preacher(p: Preacher, labels: Labels, ours: tuple[str, ...]) -> Preacher:
    if p.anonymous:
        where = anonymous_card(p.id, labels)
    else:
        where = labels.say("content.drawn", card=labels.life(p.mark))
    text = labels.say("content.preacher", preacher=labels.preacher_text(p.id), where=where)
    return replace(p, name=labels.character(p.id), text=text, project_defined=ours)


def work(w: ArtWork, labels: Labels, ours: tuple[str, ...]) -> ArtWork:
    penalty = labels.content.board.failure(w.area)
    key = "content.work_district" if w.in_district else "content.work"
    text = labels.say(key, work=labels.work_text(w.id), penalty=penalty)
    return replace(w, name=labels.work_name(w.id), failure_penalty=penalty, text=text, project_defined=ours)


def life(c: LifeCard, labels: Labels, ours: tuple[str, ...]) -> LifeCard:
    named = [x for x in labels.content.named_characters if labels.content.mark(x) == c.number]
    name = labels.t.get(f"life.{c.number}.name", c.name)
    text = labels.t.plural("content.life", len(named), name=name)
    if c.anonymous:
        pictured = labels.say("label.and").join(
            labels.say("content.pictured", character=labels.character(x), id=x) for x in c.anonymous
        )
        text += labels.say("content.life_pictures", characters=pictured)
    return replace(c, name=name, text=text + labels.say("content.end"), project_defined=ours)


def trades(b: Board, ours: tuple[str, ...], labels: Labels) -> tuple[MarketTradeInfo, ...]:
    def mine(*fields: str) -> tuple[str, ...]:
        return tuple(f for f in fields if f in ours)

    give, say = b.market_exchange_give, labels.say
    return (
        MarketTradeInfo(
            Trade.SELL, get_money=b.market_sell, pay_cubes=1, project_defined=mine("market_sell"),
            text=say("content.trade.sell", money=b.market_sell),
        ),
        MarketTradeInfo(
            Trade.BUY, pay_money=b.market_buy, get_cubes=1, project_defined=mine("market_buy"),
            text=say("content.trade.buy", money=b.market_buy),
        ),
        MarketTradeInfo(
            Trade.EXCHANGE, pay_cubes=give, get_cubes=1, project_defined=mine("market_exchange_give"),
            text=say("content.trade.exchange", give=give),
        ),
    )  # fmt: skip


def income_die(b: Board, ours: tuple[str, ...], labels: Labels) -> tuple[IncomeDieFaceInfo, ...]:
    fields = tuple(f for f in ("income_die", "die_compensation") if f in ours)
    return tuple(
        IncomeDieFaceInfo(
            face,
            resource,
            b.die_compensation,
            labels.say(
                "content.income_die",
                face=face,
                resource=labels.say(f"enum.resource.{resource.name.lower()}"),
                money=b.die_compensation,
            ),
            fields,
        )
        for face, resource in enumerate(b.income_die, start=1)
    )


def tracks(b: Board, ours: tuple[str, ...], labels: Labels) -> tuple[TrackInfo, ...]:
    prestige = labels.say(
        "content.track.prestige", fee=b.opponent_workshop_fee, floor=b.prestige_floor, flip=b.prestige_flip
    )
    church = labels.say(
        "content.track.church",
        bishop=b.bishop_min_church,
        cardinal=b.cardinal_church,
        cardinal_prestige=b.cardinal_prestige,
        flip=b.church_flip,
    )
    return (
        TrackInfo("prestige", b.prestige_flip, prestige, tuple(f for f in ("prestige_flip",) if f in ours)),
        TrackInfo("church influence", b.church_flip, church, tuple(f for f in ("church_flip",) if f in ours)),
    )


def buildings(content: Content, labels: Labels) -> tuple[BuildingInfo, ...]:
    names = dict.fromkeys(w.building for w in content.works if w.area is Area.CITY)
    out = []
    for name in names:
        works = tuple(w.id for w in content.works if w.area is Area.CITY and w.building == name)
        listed = labels.say("label.and").join(labels.work(w) for w in works)
        out.append(
            BuildingInfo(
                name, works, labels.say("content.building", building=labels.building(name), works=listed)
            )
        )
    return tuple(out)


def board_info(b: Board, ours: tuple[str, ...], labels: Labels) -> Board:
    draws = labels.sep().join(
        labels.say("content.draw", count=n, seats=seats) for seats, n in enumerate(b.bag_draws, start=2)
    )
    text = labels.say(
        "content.board",
        rounds=b.rounds,
        most=len(b.families),
        families=labels.sep().join(b.families),
        money=b.starting_money,
        resources=labels.goods(b.starting_resources),
        workers=b.starting_workers,
        workers_per_family=b.workers_per_family,
        workshops=b.starting_workshops,
        spaces=b.district_slots,
        income=labels.reward(Reward(b.income, workers=b.income_workers)),
        draws=draws,
        resources_per_point=b.resources_per_point,
        money_per_point=b.money_per_point,
        title_points=b.title_final_points,
        workshop_penalty=b.unfinished_workshop_penalty,
        work_penalty=b.incomplete_work_penalty,
        area_penalty=b.empty_area_penalty,
    )
    return replace(b, text=text, project_defined=ours)


@functools.cache
def packaged_content_message(locale: str = "en") -> FlorenzaContent:
    """:func:`content_message` of the packaged content and its provenance in ``locale``, made once per
    process and locale."""
    from services.florenza.content import load_content, provenance

    return content_message(load_content(), provenance(), locale)


# ---------------------------------------------------------------- every text, in three languages


def component_names(content: Content) -> dict[str, str]:
    """The components' names as the content has them, by key (``workshop.3.name``: ``Boscaiuolo``)."""
    out: dict[str, str] = {}
    out |= {f"workshop.{w.id}.name": w.name for w in content.workshops}
    out |= {f"artist.{a.id}.name": a.name for a in content.artists}
    out |= {f"preacher.{p.id}.name": p.name for p in content.preachers}
    out |= {f"work.{w.id}.name": w.name for w in content.works}
    out |= {f"life.{c.number}.name": c.name for c in content.life}
    out |= {
        f"building.{building_key(w.building)}.name": w.building for w in content.works if w.area is Area.CITY
    }
    return out


def english() -> dict[str, str]:
    """Every English text of the package: the fixed words, the components' names, the refusals."""
    from services.florenza.content import load_content
    from services.florenza.manifest import MANIFEST

    # the manifest's title, description and options' descriptions first
    return {
        **manifest_texts(MANIFEST),
        **WORDS,
        **component_names(load_content()),
        **rule_reason_texts(RULES),
    }


TEXTS = Texts("florenza", Path(__file__).parent, english)
"""Florenza's texts: English here, Simplified Chinese and Brazilian Portuguese in ``locales/``."""
