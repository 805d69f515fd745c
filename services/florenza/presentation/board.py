"""Florenza's board in the terminal: the round and step, the tracks, every family's district, the city's
buildings and the Duomo, the market and the bank, Life in Florenza, the workshop supply, final scoring.

Pure functions from a ``FlorenzaView`` message (and the content's :class:`Labels`) to rich
renderables, so they are tested without a server. Every seat sees the same state (Florenza hides
nothing); ``viewer_seat`` only marks "(you)".
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

from services.florenza.presentation.describe import enum_of
from services.florenza.presentation.labels import Labels, goods_text, reward_text, roman, skill_name
from services.florenza.rules.content_types import Area
from services.florenza.rules.goods import RESOURCE_FIELDS

Msg = Any
NO_SEAT = -1
STEPS = {  # the phase's step number in the seed's round (游戏进程)
    "choose workshops": "setup 5",
    "income": "step 1",
    "captain": "step 2",
    "bishop": "step 3",
    "placement": "step 4",
    "market": "step 5",
    "districts": "step 6",
    "art works": "step 7",
    "round end": "steps 8-9",
    "game end": "final scoring",
    "finished": "game over",
}
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold dark_orange")


def who(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


def seat_text(names: Sequence[str], seat: int) -> Text:
    if seat == NO_SEAT:
        return Text("-", style="dim")
    return Text(who(names, seat), style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def header(view: Msg, version: int, names: Sequence[str], match_id: str) -> Text:
    g = view.game
    phase = enum_of(g, "phase")
    text = Text()
    text.append("Florenza", style="bold")
    if match_id:
        text.append(f"  match {match_id}")
    text.append(f"  v{version}\n")
    text.append(f"Round {g.round} of 8  Phase: {phase} ({STEPS.get(phase, phase)})", style="bold cyan")
    acting = g.pending.seat if g.HasField("pending") else g.active
    if acting != NO_SEAT and phase not in ("income", "districts", "round end", "game end", "finished"):
        text.append("  Turn: ")
        text.append_text(seat_text(names, acting))
    text.append("\nTurn order: ")
    text.append_text(Text(", ").join(seat_text(names, s) for s in g.turn_order))
    text.append("   Captain of the People: ")
    text.append_text(seat_text(names, g.captain))
    text.append("   Bishop: ")
    text.append_text(seat_text(names, g.bishop))
    return text


def tracks_table(view: Msg, names: Sequence[str]) -> Table:
    """Every family: the prestige and church influence tracks, certificates ("?" while hidden from the
    viewer), money, cubes, workers."""
    g = view.game
    table = Table(title="Families and tracks", box=box.SIMPLE_HEAVY, title_justify="left")
    for column in ("player", "prestige", "certificates", "church", "fiorini", *RESOURCE_FIELDS, "workers"):
        table.add_column(column, justify="left" if column == "player" else "right")
    table.add_column("this round")
    hidden = set(view.hidden_certificates)  # other families' certificates, until the end (D24)
    for p in g.players:
        name = seat_text(names, p.seat)
        if p.seat == view.viewer_seat:
            name.append(" (you)")
        status = []
        if p.passed:
            status.append("passed")
        if p.market:
            status.append("at the market" + (f" ({len(p.trades)} trades)" if p.trades else ""))
        table.add_row(
            name,
            str(p.prestige),
            "?" if p.seat in hidden else str(p.certificates),
            str(p.church),
            str(p.goods.money),
            *(str(getattr(p.goods, r)) for r in RESOURCE_FIELDS),
            f"{p.workers} + {p.reserve} in reserve",
            ", ".join(status) or "-",
        )
    return table


def _work_status(spot: Msg, labels: Labels, names: Sequence[str]) -> Text:
    if spot.crest != NO_SEAT:
        return Text("completed by ").append_text(seat_text(names, spot.crest))
    if spot.worker != NO_SEAT:
        return seat_text(names, spot.worker).append(f" hired {labels.character(spot.artist)}")
    return Text("open", style="dim")


def district_panel(view: Msg, labels: Labels, names: Sequence[str], p: Msg) -> Panel:
    """One family board: its building spaces, its Palazzo and Chiesa works and its pulpit."""
    g = view.game
    table = Table(box=box.SIMPLE, show_header=True, pad_edge=False)
    for column in ("#", "workshop", "does", "worker"):
        table.add_column(column)
    for slot, x in enumerate(p.district, start=1):
        if not x.workshop:
            continue
        name = Text(labels.workshop(x.workshop), style="bold" if x.built else "italic")
        if not x.built:
            name.append(" (planned)", style="dim")
        worker = seat_text(names, x.worker) if x.worker != NO_SEAT else Text("-", style="dim")
        table.add_row(str(slot), name, labels.effect(x.workshop), worker)
    used = sum(1 for x in p.district if x.workshop)
    parts: list[RenderableType] = [table if used else Text("no workshop yet", style="dim")]
    works = Text()
    for area in (Area.PALAZZO, Area.CHIESA):
        mine = [w for w in g.works if w.district == p.seat and labels.content.work[w.work].area is area]
        done = sum(1 for w in mine if w.crest != NO_SEAT)
        works.append(f"{'Palazzo' if area is Area.PALAZZO else 'Chiesa'} {done}/{len(mine)}: ", style="bold")
        works.append_text(Text("; ").join(_district_work(w, labels, names) for w in mine))
        works.append("\n")
    pulpit = [x for x in g.pulpits if x.seat == p.seat and not x.duomo]
    works.append("Pulpit: ", style="bold")
    works.append(labels.character(pulpit[0].preacher) if pulpit else "free")
    parts.append(works)
    title = seat_text(names, p.seat).append(f"  {used}/{len(p.district)} spaces")
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def _district_work(spot: Msg, labels: Labels, names: Sequence[str]) -> Text:
    name = labels.content.work[spot.work].name
    if spot.crest != NO_SEAT:
        return Text(f"{name} done", style="green")
    if spot.worker != NO_SEAT:
        return Text(f"{name} ({labels.character(spot.artist)})", style="yellow")
    return Text(name, style="dim")


def public_table(view: Msg, labels: Labels, names: Sequence[str], area: Area) -> Table:
    """The city buildings' works, or the Duomo's: talents, price, reward and who works on them."""
    title = "The city" if area is Area.CITY else "The Duomo"
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    for column in ("building" if area is Area.CITY else "#", "work", "talents", "price", "reward", "status"):
        table.add_column(column)
    for spot in view.game.works:
        work = labels.content.work[spot.work]
        if work.area is not area:
            continue
        reward = reward_text(work.reward)
        if not work.income.is_empty:
            reward += f"; {reward_text(work.income)} a round"
        table.add_row(
            work.building if area is Area.CITY else str(spot.work),
            work.name,
            "/".join(skill_name(k) for k in work.skills),
            goods_text(work.cost),
            reward,
            _work_status(spot, labels, names),
        )
    if area is Area.DUOMO:
        duomo = [x for x in view.game.pulpits if x.duomo]
        pulpit = f"{labels.character(duomo[0].preacher)} ({who(names, duomo[0].seat)})" if duomo else "free"
        table.caption = f"Duomo pulpit: {pulpit} (families with a crest in the Duomo)"
    return table


def market_panel(view: Msg, labels: Labels, names: Sequence[str]) -> Panel:
    g, b = view.game, labels.content.board
    text = Text()
    text.append("Bank: ", style="bold")
    text.append(", ".join(f"{getattr(g.supply, r)} {r}" for r in RESOURCE_FIELDS))
    text.append(
        f"\nSell one for {b.market_sell}, buy one for {b.market_buy}, "
        f"{b.market_exchange_give} identical for one of another kind (each once a visit)"
    )
    at = [p for p in g.players if p.market]
    text.append("\nAt the market: ", style="bold")
    if not at:
        text.append("nobody", style="dim")
    for i, p in enumerate(at):
        text.append(", " if i else "")
        text.append_text(seat_text(names, p.seat))
        if p.trades:
            text.append(" (" + ", ".join(enum_of_value(p, "trades", t) for t in p.trades) + " done)")
    return Panel(text, title="Market", title_align="left", expand=False)


def enum_of_value(message: Msg, field: str, value: int) -> str:
    enum = message.DESCRIPTOR.fields_by_name[field].enum_type
    found = enum.values_by_number.get(value)
    return str(found.name).split("_", 1)[-1].lower() if found is not None else str(value)


def life_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """The seven Life in Florenza cards with the characters under each; VI holds what the Captain
    withheld; the anonymous pool, the bag and who left the game."""
    g = view.game
    busy = {w.artist for w in g.works if w.artist} | {x.preacher for x in g.pulpits}
    table = Table(title="Life in Florenza", box=box.SIMPLE_HEAVY, title_justify="left")
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
            cell.append("withheld: ", style="red")
            kept = [labels.character(g.withheld_artist)] if g.withheld_artist else []
            kept += [f"a worker of {who(names, g.withheld_worker)}"] if g.withheld_worker != NO_SEAT else []
            cell.append(", ".join(kept), style="red")
        cells.append(cell)
    table.add_row(*cells)
    pool = Counter(labels.character(a.id) for a in labels.content.artists if a.anonymous and a.id not in busy)
    preachers = [p for p in labels.content.preachers if p.anonymous and p.id not in busy]
    table.caption = (
        f"Anonymous, free every round: {', '.join(f'{n} x{k}' for n, k in pool.items()) or 'all busy'}"
        f"; {len(preachers)} anonymous preacher(s). In the bag: {len(g.bag)}; gone: {len(g.departed)}."
    )
    if g.expelled:
        table.caption += f" Expelled this round: {labels.character(g.expelled)}."
    return table


def supply_text(view: Msg, labels: Labels) -> Text:
    g = view.game
    text = Text()
    if g.starting_pool:
        text.append("Starting workshops left: ", style="bold")
        text.append(", ".join(labels.workshop_text(k) for k in sorted(set(g.starting_pool))) + "\n")
    counts = Counter(g.workshop_supply)
    text.append("Workshop supply: ", style="bold")
    text.append(
        ", ".join(f"{labels.workshop(k)}{f' x{n}' if n > 1 else ''}" for k, n in sorted(counts.items()))
    )
    return text


def pending_text(view: Msg, labels: Labels, names: Sequence[str]) -> Text | None:
    g = view.game
    if not g.HasField("pending"):
        return None
    p = g.pending
    text = seat_text(names, p.seat)
    dice = " and ".join(str(d) for d in p.dice)
    text.append(
        f" rolled {dice} in the Duomo for {labels.character(p.character)}: keep one", style="bold yellow"
    )
    return text


def board(view: Msg, labels: Labels, names: Sequence[str], version: int, match_id: str) -> RenderableType:
    """The whole table as a player or a spectator sees it."""
    g = view.game
    parts: list[RenderableType] = [header(view, version, names, match_id)]
    pending = pending_text(view, labels, names)
    if pending is not None:
        parts.append(pending)
    parts += [
        tracks_table(view, names),
        Columns([district_panel(view, labels, names, p) for p in g.players], equal=False),
        public_table(view, labels, names, Area.CITY),
        public_table(view, labels, names, Area.DUOMO),
        market_panel(view, labels, names),
        life_table(view, labels, names),
        supply_text(view, labels),
    ]
    return Group(*parts)


FINAL_COLUMNS = (
    ("certificates", "certificates"),
    ("prestige", "prestige"),
    ("titles", "titles"),
    ("resources", "resources"),
    ("money", "fiorini"),
    ("unfinished_workshops", "unfinished workshops"),
    ("incomplete_works", "incomplete works"),
    ("empty_areas", "empty Palazzo/Chiesa"),
    ("total", "total"),
)


def final_table(view: Msg, names: Sequence[str]) -> Table | None:
    """The final scoring, line by line, best placing first (None before the game ends)."""
    g = view.game
    if not g.final:
        return None
    table = Table(title="Final scoring", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    for _, title in FINAL_COLUMNS:
        table.add_column(title, justify="right")
    table.add_column("tie-break (cubes, fiorini)", justify="right")
    placings = list(g.placings)
    for f in sorted(g.final, key=lambda f: placings[f.seat] if f.seat < len(placings) else 0):
        place = str(placings[f.seat]) if f.seat < len(placings) else "-"
        cells = [str(getattr(f, field)) for field, _ in FINAL_COLUMNS]
        table.add_row(place, seat_text(names, f.seat), *cells, f"{f.resource_count}, {f.money_left}")
    return table
