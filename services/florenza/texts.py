"""Florenza's components for front-ends, typed, with English texts: what ``GetContent`` answers.

:func:`content_message` is the content's own records (``rules/content_types.py``) with their texts
and their project-defined fields filled in, plus what the board's numbers make: the market trades,
the income die's faces, the tracks and the city buildings. Views, commands and events name
components by id (workshops, characters, works, cards) or by enum (trades, resources); these
records say what each one is. Every ``text`` is worded by the terminal client's labels
(``presentation/labels.py``) from the same numbers, so it never disagrees with them.

Much of Florenza's content is designed by the project where the seed prints no value
(docs/rules/florenza.md, "Designed values"): each record's ``project_defined`` lists the content
file's fields (as the YAML names them, ``skills[0].fee`` for a talent's fee) whose value is
project-defined rather than printed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import replace

from services.florenza.presentation.labels import Labels, goods_text, reward_text, skill_name
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
    """Every component of Florenza, as the rules read it, with English texts."""

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


def content_message(content: Content, provenance: Provenance) -> FlorenzaContent:
    """The content's records with their texts and project-defined fields filled in."""
    labels, ours = Labels(content), designed(provenance)
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
        trades=trades(content.board, board),
        income_die=income_die(content.board, board),
        tracks=tracks(content.board, board),
        buildings=buildings(content, labels),
        board=board_info(content.board, board),
    )


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def workshop(w: Workshop, labels: Labels, ours: tuple[str, ...]) -> Workshop:
    tiles = plural(w.copies, "tile") + (", one set aside for the starting choice" if w.starting else "")
    return replace(w, text=f"Workshop {w.id}, {labels.workshop_text(w.id)} ({tiles}).", project_defined=ours)


def talent(r: SkillRow, anonymous: bool) -> SkillRow:
    if anonymous:
        return replace(r, text=f"{skill_name(r.skill)}: no fee, no bonus die")
    rolls = ", ".join(
        f"{f.prestige}" + (f" and {f.church} church influence" if f.church else "") for f in r.faces
    )
    best = ", ".join(str(n) for n in r.masterpiece_faces)
    return replace(
        r,
        text=f"{skill_name(r.skill)}: fee {r.fee} fiorini; bonus die {rolls} prestige; "
        f"a masterpiece of {r.masterpiece} prestige on {best}",
    )


def artist(a: Artist, labels: Labels, ours: tuple[str, ...]) -> Artist:
    talents = tuple(talent(r, a.anonymous) for r in a.talents)
    where = anonymous_card(a.id, labels) if a.anonymous else f"drawn, goes under {labels.life(a.mark)}"
    text = f"{labels.artist_text(a.id)}, {where}: " + "; ".join(t.text for t in talents) + "."
    return replace(a, talents=talents, text=text, project_defined=ours)


def anonymous_card(character: int, labels: Labels) -> str:
    card = next((c.number for c in labels.content.life if character in c.anonymous), 0)
    return f"always in Florence, pictured on {labels.life(card)}"


def preacher(p: Preacher, labels: Labels, ours: tuple[str, ...]) -> Preacher:
    where = anonymous_card(p.id, labels) if p.anonymous else f"drawn, goes under {labels.life(p.mark)}"
    return replace(p, text=f"{labels.preacher_text(p.id)}, {where}.", project_defined=ours)


def work(w: ArtWork, labels: Labels, ours: tuple[str, ...]) -> ArtWork:
    penalty = labels.content.board.failure(w.area)
    where = "one in every family's district; " if w.in_district else ""
    text = f"{labels.work_text(w.id)}; {where}{penalty} prestige lost if it cannot be paid for."
    return replace(w, failure_penalty=penalty, text=text, project_defined=ours)


def life(c: LifeCard, labels: Labels, ours: tuple[str, ...]) -> LifeCard:
    named = [x for x in labels.content.named_characters if labels.content.mark(x) == c.number]
    goes = "goes" if len(named) == 1 else "go"
    text = f"{c.name}: {plural(len(named), 'named character')} {goes} under it when drawn"
    if c.anonymous:
        text += "; pictures " + " and ".join(f"{labels.character(x)} {x}" for x in c.anonymous)
    return replace(c, text=text + ".", project_defined=ours)


def trades(b: Board, ours: tuple[str, ...]) -> tuple[MarketTradeInfo, ...]:
    def mine(*fields: str) -> tuple[str, ...]:
        return tuple(f for f in fields if f in ours)

    give = b.market_exchange_give
    return (
        MarketTradeInfo(
            Trade.SELL, get_money=b.market_sell, pay_cubes=1, project_defined=mine("market_sell"),
            text=f"Sell: 1 resource to the bank for {b.market_sell} fiorini, once per visit.",
        ),
        MarketTradeInfo(
            Trade.BUY, pay_money=b.market_buy, get_cubes=1, project_defined=mine("market_buy"),
            text=f"Buy: 1 resource from the bank for {b.market_buy} fiorini, once per visit.",
        ),
        MarketTradeInfo(
            Trade.EXCHANGE, pay_cubes=give, get_cubes=1, project_defined=mine("market_exchange_give"),
            text=f"Exchange: {give} identical resources for 1 of another kind, once per visit.",
        ),
    )  # fmt: skip


def income_die(b: Board, ours: tuple[str, ...]) -> tuple[IncomeDieFaceInfo, ...]:
    fields = tuple(f for f in ("income_die", "die_compensation") if f in ours)
    return tuple(
        IncomeDieFaceInfo(
            face,
            resource,
            b.die_compensation,
            f"Income die {face}: every family takes 1 {resource.name.lower()} "
            f"({b.die_compensation} fiorini instead when the bank has none left).",
            fields,
        )
        for face, resource in enumerate(b.income_die, start=1)
    )


def tracks(b: Board, ours: tuple[str, ...]) -> tuple[TrackInfo, ...]:
    prestige = (
        f"Prestige: working an opponent's workshop pays its owner {b.opponent_workshop_fee}; a family below "
        f"{b.prestige_floor} may not do it; "
        f"above {b.prestige_flip} the marker shows its +{b.prestige_flip} side."
    )
    church = (
        f"Church influence: the most, alone and at least {b.bishop_min_church}, elects the Bishop; "
        f"{b.cardinal_church} or more makes a Cardinal (+{b.cardinal_prestige} prestige); "
        f"above {b.church_flip} the marker shows its +{b.church_flip} side."
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
        text = f"{name}, a city building with " + " and ".join(labels.work(w) for w in works) + "."
        out.append(BuildingInfo(name, works, text))
    return tuple(out)


def board_info(b: Board, ours: tuple[str, ...]) -> Board:
    draws = ", ".join(f"{n} for {seats}" for seats, n in enumerate(b.bag_draws, start=2))
    text = (
        f"{b.rounds} rounds for 2 to {len(b.families)} families ({', '.join(b.families)}); each starts with "
        f"{b.starting_money} fiorini, {goods_text(b.starting_resources)}, "
        f"{b.starting_workers} of its {b.workers_per_family} workers and {b.starting_workshops} workshops, "
        f"in a district of {b.district_slots} spaces; "
        f"income {reward_text(Reward(b.income, workers=b.income_workers))}; "
        f"characters drawn a round: {draws} families. Final scoring: 1 point per {b.resources_per_point} "
        f"resources and per {b.money_per_point} fiorini, {b.title_final_points} per title; minus "
        f"{b.unfinished_workshop_penalty} per unbuilt workshop, {b.incomplete_work_penalty} per incomplete "
        f"work and {b.empty_area_penalty} per Palazzo or Chiesa without a completed work."
    )
    return replace(b, text=text, project_defined=ours)


@functools.cache
def packaged_content_message(locale: str = "en") -> FlorenzaContent:
    """:func:`content_message` of the packaged content and its provenance, made once per process."""
    from services.florenza.content import load_content, provenance

    return content_message(load_content(), provenance())
