"""Florenza's board in the terminal: the round and step, the tracks, every family's district, the city's
buildings and the Duomo, the market and the bank, Life in Florenza, the workshop supply, final scoring.

Pure functions from a ``FlorenzaView`` message (and the content's :class:`Labels`) to rich
renderables, so they are tested without a server. Every seat sees the same state (Florenza hides
nothing); ``viewer_seat`` only marks "(you)". Every word comes from the labels' catalog (``board.*``
keys of ``services/florenza/texts.py``'s ``TEXTS``, in the presentation's locale).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from services.florenza.presentation.describe import enum_of, enum_value
from services.florenza.presentation.labels import Labels, catalog, roman
from services.florenza.rules.content_types import Area
from services.florenza.rules.goods import RESOURCE_FIELDS
from shared.core.i18n import Catalog

Msg = Any
NO_SEAT = -1
# the phases whose step a seat acts in (the others are the board's): a turn is shown for these
SYSTEM_PHASES = ("income", "districts", "round end", "game end", "finished")
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold dark_orange")


def who(names: Sequence[str], seat: int, t: Catalog | None = None) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return (t or catalog()).text("label.seat", seat=seat)


def seat_text(names: Sequence[str], seat: int, t: Catalog | None = None) -> Text:
    if seat == NO_SEAT:
        return Text("-", style="dim")
    return Text(who(names, seat, t), style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def header(view: Msg, labels: Labels, version: int, names: Sequence[str], match_id: str) -> Text:
    g, t = view.game, labels.t
    phase = enum_of(g, "phase")  # English: the phase's key
    shown = enum_of(g, "phase", t)
    text = Text()
    text.append(t.text("board.title"), style="bold")
    if match_id:
        text.append(t.text("board.match", match=match_id))
    text.append(t.text("board.version", version=version) + "\n")
    step = t.get(f"board.step.{phase.replace(' ', '_')}", shown)
    text.append(t.text("board.round_phase", round=g.round, phase=shown, step=step), style="bold cyan")
    acting = g.pending.seat if g.HasField("pending") else g.active
    if acting != NO_SEAT and phase not in SYSTEM_PHASES:
        text.append(t.text("board.turn"))
        text.append_text(seat_text(names, acting, t))
    text.append("\n" + t.text("board.turn_order"))
    text.append_text(Text(t.text("list.sep")).join(seat_text(names, s, t) for s in g.turn_order))
    text.append(t.text("board.captain"))
    text.append_text(seat_text(names, g.captain, t))
    text.append(t.text("board.bishop"))
    text.append_text(seat_text(names, g.bishop, t))
    return text


TRACK_COLUMNS = ("player", "prestige", "certificates", "church", "fiorini", *RESOURCE_FIELDS, "workers")


def tracks_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """Every family: the prestige and church influence tracks, certificates ("?" while hidden from the
    viewer), money, cubes, workers."""
    g, t = view.game, labels.t
    table = Table(title=t.text("board.families"), box=box.SIMPLE_HEAVY, title_justify="left")
    for column in TRACK_COLUMNS:
        table.add_column(t.text(f"board.column.{column}"), justify="left" if column == "player" else "right")
    table.add_column(t.text("board.column.this_round"))
    hidden = set(view.hidden_certificates)  # other families' certificates, until the end (D24)
    for p in g.players:
        name = seat_text(names, p.seat, t)
        if p.seat == view.viewer_seat:
            name.append(t.text("board.you"))
        status = []
        if p.passed:
            status.append(t.text("board.passed"))
        if p.market:
            trades = t.plural("board.trades", len(p.trades)) if p.trades else ""
            status.append(t.text("board.at_market", trades=trades))
        table.add_row(
            name,
            str(p.prestige),
            "?" if p.seat in hidden else str(p.certificates),
            str(p.church),
            str(p.goods.money),
            *(str(getattr(p.goods, r)) for r in RESOURCE_FIELDS),
            t.text("board.workers", workers=p.workers, reserve=p.reserve),
            t.text("list.sep").join(status) or "-",
        )
    return table


def _work_status(spot: Msg, labels: Labels, names: Sequence[str]) -> Text:
    t = labels.t
    if spot.crest != NO_SEAT:
        return Text(t.text("board.completed_by")).append_text(seat_text(names, spot.crest, t))
    if spot.worker != NO_SEAT:
        return seat_text(names, spot.worker, t).append(
            t.text("board.hired", artist=labels.character(spot.artist))
        )
    return Text(t.text("board.open"), style="dim")


def district_panel(view: Msg, labels: Labels, names: Sequence[str], p: Msg) -> Panel:
    """One family board: its building spaces, its Palazzo and Chiesa works and its pulpit."""
    g, t = view.game, labels.t
    table = Table(box=box.SIMPLE, show_header=True, pad_edge=False)
    for column in (
        "#",
        t.text("board.column.workshop"),
        t.text("board.column.does"),
        t.text("board.column.worker"),
    ):
        table.add_column(column)
    for slot, x in enumerate(p.district, start=1):
        if not x.workshop:
            continue
        name = Text(labels.workshop(x.workshop), style="bold" if x.built else "italic")
        if not x.built:
            name.append(t.text("board.planned"), style="dim")
        worker = seat_text(names, x.worker, t) if x.worker != NO_SEAT else Text("-", style="dim")
        table.add_row(str(slot), name, labels.effect(x.workshop), worker)
    used = sum(1 for x in p.district if x.workshop)
    parts: list[RenderableType] = [table if used else Text(t.text("board.no_workshop"), style="dim")]
    works = Text()
    for area in (Area.PALAZZO, Area.CHIESA):
        mine = [w for w in g.works if w.district == p.seat and labels.content.work[w.work].area is area]
        done = sum(1 for w in mine if w.crest != NO_SEAT)
        works.append(
            t.text("board.area_works", area=labels.area(area), done=done, total=len(mine)), style="bold"
        )
        works.append_text(Text("; ").join(_district_work(w, labels, names) for w in mine))
        works.append("\n")
    pulpit = [x for x in g.pulpits if x.seat == p.seat and not x.duomo]
    works.append(t.text("board.pulpit"), style="bold")
    works.append(labels.character(pulpit[0].preacher) if pulpit else t.text("board.free"))
    parts.append(works)
    title = seat_text(names, p.seat, t).append(t.text("board.spaces", used=used, total=len(p.district)))
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def _district_work(spot: Msg, labels: Labels, names: Sequence[str]) -> Text:
    name, t = labels.work_name(spot.work), labels.t
    if spot.crest != NO_SEAT:
        return Text(t.text("board.work_done", work=name), style="green")
    if spot.worker != NO_SEAT:
        return Text(
            t.text("board.work_hired", work=name, artist=labels.character(spot.artist)), style="yellow"
        )
    return Text(name, style="dim")


def public_table(view: Msg, labels: Labels, names: Sequence[str], area: Area) -> Table:
    """The city buildings' works, or the Duomo's: talents, price, reward and who works on them."""
    t = labels.t
    title = t.text("board.city") if area is Area.CITY else t.text("board.duomo")
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    first = t.text("board.column.building") if area is Area.CITY else "#"
    table.add_column(first)
    for column in ("work", "talents", "price", "reward", "status"):
        table.add_column(t.text(f"board.column.{column}"))
    for spot in view.game.works:
        work = labels.content.work[spot.work]
        if work.area is not area:
            continue
        reward = labels.reward(work.reward)
        if not work.income.is_empty:
            reward += t.text("board.income_a_round", income=labels.reward(work.income))
        table.add_row(
            labels.building(work.building) if area is Area.CITY else str(spot.work),
            labels.work_name(spot.work),
            labels.talents(work.skills),
            labels.goods(work.cost),
            reward,
            _work_status(spot, labels, names),
        )
    if area is Area.DUOMO:
        duomo = [x for x in view.game.pulpits if x.duomo]
        if duomo:
            pulpit = t.text(
                "board.duomo_preacher",
                preacher=labels.character(duomo[0].preacher),
                who=who(names, duomo[0].seat, t),
            )
        else:
            pulpit = t.text("board.free")
        table.caption = t.text("board.duomo_pulpit", pulpit=pulpit)
    return table


def market_panel(view: Msg, labels: Labels, names: Sequence[str]) -> Panel:
    g, b, t = view.game, labels.content.board, labels.t
    text = Text()
    text.append(t.text("board.bank"), style="bold")
    text.append(
        t.text("list.sep").join(t.plural(f"goods.{r}", getattr(g.supply, r)) for r in RESOURCE_FIELDS)
    )
    text.append(
        "\n" + t.text("board.rates", sell=b.market_sell, buy=b.market_buy, give=b.market_exchange_give)
    )
    at = [p for p in g.players if p.market]
    text.append("\n" + t.text("board.at_the_market"), style="bold")
    if not at:
        text.append(t.text("label.nobody"), style="dim")
    for i, p in enumerate(at):
        text.append(t.text("list.sep") if i else "")
        text.append_text(seat_text(names, p.seat, t))
        if p.trades:
            done = t.text("list.sep").join(enum_of_value(p, "trades", x, t) for x in p.trades)
            text.append(t.text("board.trades_done", trades=done))
    return Panel(text, title=t.text("board.market"), title_align="left", expand=False)


def enum_of_value(message: Msg, field: str, value: int, t: Catalog | None = None) -> str:
    return enum_value(message.DESCRIPTOR.fields_by_name[field].enum_type, value, t)


def life_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """The seven Life in Florenza cards with the characters under each; VI holds what the Captain
    withheld; the anonymous pool, the bag and who left the game."""
    g, t = view.game, labels.t
    busy = {w.artist for w in g.works if w.artist} | {x.preacher for x in g.pulpits}
    table = Table(title=t.text("board.life"), box=box.SIMPLE_HEAVY, title_justify="left")
    for card in labels.content.life:
        table.add_column(roman(card.number))
    cells = []
    for card in labels.content.life:
        cell = Text()
        for x in (x for x in g.present if x.card == card.number):
            name = labels.character(x.character)
            style = (
                "dim strike"
                if x.character in busy
                else ("bold" if labels.is_artist(x.character) else "italic")
            )
            if x.character == g.expelled or x.character == g.withheld_artist:
                style = "red"
            cell.append(name + "\n", style=style)
        if card.number == 6 and (g.withheld_artist or g.withheld_worker != NO_SEAT):
            cell.append(t.text("board.withheld"), style="red")
            kept = [labels.character(g.withheld_artist)] if g.withheld_artist else []
            if g.withheld_worker != NO_SEAT:
                kept += [t.text("board.worker_of", who=who(names, g.withheld_worker, t))]
            cell.append(t.text("list.sep").join(kept), style="red")
        cells.append(cell)
    table.add_row(*cells)
    pool = Counter(labels.character(a.id) for a in labels.content.artists if a.anonymous and a.id not in busy)
    preachers = [p for p in labels.content.preachers if p.anonymous and p.id not in busy]
    free = t.text("list.sep").join(t.text("board.times", name=n, count=k) for n, k in pool.items())
    table.caption = t.text(
        "board.life_caption",
        anonymous=free or t.text("board.all_busy"),
        preachers=len(preachers),
        bag=len(g.bag),
        gone=len(g.departed),
    )
    if g.expelled:
        table.caption += t.text("board.expelled", preacher=labels.character(g.expelled))
    return table


def supply_text(view: Msg, labels: Labels) -> Text:
    g, t = view.game, labels.t
    text = Text()
    if g.starting_pool:
        text.append(t.text("board.starting_left"), style="bold")
        text.append(
            t.text("list.sep").join(labels.workshop_text(k) for k in sorted(set(g.starting_pool))) + "\n"
        )
    counts = Counter(g.workshop_supply)
    text.append(t.text("board.supply"), style="bold")
    text.append(
        t.text("list.sep").join(
            labels.workshop(k) + (t.text("board.copies", count=n) if n > 1 else "")
            for k, n in sorted(counts.items())
        )
    )
    return text


def pending_text(view: Msg, labels: Labels, names: Sequence[str]) -> Text | None:
    g, t = view.game, labels.t
    if not g.HasField("pending"):
        return None
    p = g.pending
    text = seat_text(names, p.seat, t)
    dice = t.text("label.and").join(str(d) for d in p.dice)
    text.append(
        t.text("board.pending", dice=dice, character=labels.character(p.character)), style="bold yellow"
    )
    return text


def board(view: Msg, labels: Labels, names: Sequence[str], version: int, match_id: str) -> RenderableType:
    """The whole table as a player or a spectator sees it."""
    g = view.game
    parts: list[RenderableType] = [header(view, labels, version, names, match_id)]
    pending = pending_text(view, labels, names)
    if pending is not None:
        parts.append(pending)
    parts += [
        tracks_table(view, labels, names),
        Columns([district_panel(view, labels, names, p) for p in g.players], equal=False),
        public_table(view, labels, names, Area.CITY),
        public_table(view, labels, names, Area.DUOMO),
        market_panel(view, labels, names),
        life_table(view, labels, names),
        supply_text(view, labels),
    ]
    return Group(*parts)


FINAL_COLUMNS = (
    "certificates",
    "prestige",
    "titles",
    "resources",
    "money",
    "unfinished_workshops",
    "incomplete_works",
    "empty_areas",
    "total",
)  # FinalScore's fields, each a column (``final.<field>``)


def final_table(view: Msg, names: Sequence[str], t: Catalog | None = None) -> Table | None:
    """The final scoring, line by line, best placing first (None before the game ends)."""
    g, t = view.game, t or catalog()
    if not g.final:
        return None
    table = Table(title=t.text("final.title"), box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column(t.text("final.place"), justify="right")
    table.add_column(t.text("final.player"))
    for field in FINAL_COLUMNS:
        table.add_column(t.text(f"final.{field}"), justify="right")
    table.add_column(t.text("final.tie_break"), justify="right")
    placings = list(g.placings)
    for f in sorted(g.final, key=lambda f: placings[f.seat] if f.seat < len(placings) else 0):
        place = str(placings[f.seat]) if f.seat < len(placings) else "-"
        cells = [str(getattr(f, field)) for field in FINAL_COLUMNS]
        table.add_row(place, seat_text(names, f.seat, t), *cells, f"{f.resource_count}, {f.money_left}")
    return table
