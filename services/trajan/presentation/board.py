"""Trajan's board in the terminal: the time track, every player's action circle (bowls, markers, Trajan
tiles, arch), the supply (Trajan stacks, forum, senate, ships, commodity piles, demands), the provinces
and legionnaires, the construction grid, the players, your hand, and the final scoring.

Pure functions from a typed ``TrajanView`` (and the content's :class:`Labels`) to rich renderables, so
they are tested without a server.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from services.trajan.presentation.describe import ordinal
from services.trajan.presentation.labels import (
    COLOUR_LETTER,
    COLOUR_STYLE,
    NUMERALS,
    Labels,
    colours,
    commodities,
    lower,
    phase,
)
from services.trajan.rules.content_types import Colour
from services.trajan.rules.model import Phase
from services.trajan.rules.view import PlayerView, TrajanView
from shared.core.describe import seat_name

SEAT_STYLE = ("bold red", "bold green", "bold blue", "bold orange4")  # the seed's red, green, blue, brown


def who(names: Sequence[str], seat: int) -> Text:
    return Text(seat_name(names, seat), style=SEAT_STYLE[seat % len(SEAT_STYLE)])


def markers_text(markers: Sequence[Colour]) -> Text:
    """Coloured letters, one per marker (``Y O P``); a dash for an empty bowl."""
    if not markers:
        return Text("-", style="dim")
    return Text(" ").join(Text(COLOUR_LETTER[m], style=COLOUR_STYLE[m]) for m in markers)


def legend() -> Text:
    text = Text("markers: ", style="dim")
    return text + Text(", ").join(
        Text(f"{COLOUR_LETTER[c]} {lower(c)}", style=COLOUR_STYLE[c]) for c in Colour
    )


def header(view: TrajanView, labels: Labels, names: Sequence[str], version: int, match_id: str) -> Text:
    text = Text()
    text.append("Trajan", style="bold")
    if match_id:
        text.append(f"  match {match_id}")
    text.append(f"  v{version}\n")
    rounds = labels.content.board.rounds_per_quarter * labels.content.board.quarters
    text.append(
        f"Quarter {view.quarter} of {labels.content.board.quarters}  Round {view.round} of {rounds}  "
        f"Phase: {phase(view.phase)}",
        style="bold cyan",
    )
    if view.active_seat >= 0:
        text.append("  Turn: ", style="bold yellow")
        text.append_text(who(names, view.active_seat))
    if view.lap:
        track = "".join("●" if i == view.time_space else ("S" if i == 0 else "·") for i in range(view.lap))
        text.append(f"\nTime track: {track}  space {view.time_space} of {view.lap}")
        text.append(" (the round ends after the turn that reaches or passes S)", style="dim")
    demands = ", ".join(labels.demand(d) for d in view.demands) or "none yet"
    text.append(f"\nDemands revealed: {demands}  ({view.demand_pool_size} demand tiles face down)")
    return text


def _slot_text(p: PlayerView, slot: int, labels: Labels) -> Text:
    tile = p.slots[slot - 1] if slot <= len(p.slots) else 0
    text = Text()
    if tile:
        spec = labels.content.trajan_tile[tile]
        text.append(f"T{tile} ", style="bold")
        text.append(f"{spec.vp} VP")
        effect = labels.trajan_effect(tile)
        if effect:
            text.append(f" + {effect}")
        text.append(" [")
        text.append_text(markers_text(spec.colours))
        text.append("]")
    else:
        text.append("(no tile)", style="dim")
    if p.arch == slot:
        text.append("\n⌂ arch", style="bold magenta")
    return text


def circles_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    """Each player's action circle: the markers in bowls I..VI and the Trajan tile beside each."""
    table = Table(
        title="Action circles (markers in each bowl; the Trajan tile beside it)", box=box.SIMPLE_HEAVY
    )
    table.add_column("player")
    for bowl in range(1, len(labels.content.board.bowls) + 1):
        table.add_column(labels.bowl(bowl).removeprefix("bowl "))
    for p in view.players:
        name = who(names, p.seat)
        if p.seat == view.viewer_seat:
            name.append(" (you)")
        if p.arch == 0:
            name.append("\n⌂ arch off the mat", style="magenta")
        if p.seat == view.active_seat and view.in_hand:
            name.append("\nsowing: ")
            name.append_text(markers_text(view.in_hand))
            name.append(f" → {NUMERALS[view.next_bowl]}")
        cells: list[RenderableType] = [name]
        for bowl, markers in enumerate(p.bowls, start=1):
            cell = markers_text(markers.markers)
            if p.seat == view.active_seat and bowl == view.target and not view.in_hand:
                cell.append("  ◀ target", style="bold yellow")
            cell.append("\n")
            cell.append_text(_slot_text(p, bowl, labels))
            cells.append(cell)
        table.add_row(*cells)
    table.caption = legend()
    return table


def stacks_panel(view: TrajanView, labels: Labels) -> Panel:
    grid = Table.grid(padding=(0, 1))
    for stack, s in enumerate(view.trajan_stacks, start=1):
        top = f"T{s.top} {labels.trajan_tile(s.top)}" if s.top else "(empty)"
        grid.add_row(
            Text(labels.trajan_stack(stack), style="dim"), top, Text(f"+{s.beneath} beneath", style="dim")
        )
    return Panel(grid, title="Trajan stacks (top face up)", expand=False)


def forum_panel(view: TrajanView, labels: Labels) -> Panel:
    text = Text(labels.forum_tiles(view.forum) if view.forum else "(empty)")
    text.append(
        f"\nface down: {view.forum_stack_size} forum tiles, {view.extra_stack_size} extra action tiles",
        style="dim",
    )
    return Panel(text, title="Forum", expand=False)


def senate_panel(view: TrajanView, labels: Labels, names: Sequence[str]) -> Panel:
    """The senate track (discs on each space, top of a stack first) and the bonus tiles beside it."""
    height = {seat: i for i, seat in enumerate(view.senate_order)}
    grid = Table.grid(padding=(0, 1))
    for space, votes in enumerate(labels.content.board.senate_track):
        here = sorted((p.seat for p in view.players if p.senate == space), key=lambda s: -height.get(s, 0))
        label = "start" if space == 0 else f"{votes} VP"
        grid.add_row(
            Text(label, style="dim"), Text(", ").join(who(names, s) for s in here) or Text("-", "dim")
        )
    offer = Text("\nbonus tiles beside the senate:", style="bold")
    for t in view.senate_offer:
        offer.append(f"\n{t}: {labels.bonus_tile(t)}")
    if not view.senate_offer:
        offer.append(" none")
    offer.append(f"\n{view.bonus_bag_size} in the bag", style="dim")
    return Panel(Group(grid, offer), title="Senate", expand=False)


def ships_panel(view: TrajanView, labels: Labels) -> Panel:
    grid = Table.grid(padding=(0, 1))
    for ship, yellow in enumerate(view.ships_yellow, start=1):
        side = Text("yellow", style="bold yellow") if yellow else Text("grey", style="dim")
        grid.add_row(labels.ship(ship).removeprefix("the "), side, labels.ship_values(ship, yellow))
    return Panel(grid, title="Ships", expand=False)


def cards_panel(view: TrajanView) -> Panel:
    text = Text(f"draw pile: {view.deck_size} cards face down")
    for name, pile in (("left", view.left_pile), ("right", view.right_pile)):
        top = lower(pile[-1]) if pile else "empty"
        text.append(f"\n{name} discard pile: {top} on top ({len(pile)} card{'' if len(pile) == 1 else 's'})")
    return Panel(text, title="Commodity cards", expand=False)


def supply(view: TrajanView, labels: Labels, names: Sequence[str]) -> Columns:
    return Columns(
        [
            stacks_panel(view, labels),
            forum_panel(view, labels),
            senate_panel(view, labels, names),
            ships_panel(view, labels),
            cards_panel(view),
        ]
    )


def provinces_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    table = Table(title="Provinces", box=box.SIMPLE)
    for column in ("province", "VP", "forum tile", "legionnaires", "leaders", "next to"):
        table.add_column(column, justify="right" if column == "VP" else "left")
    camp = [p.seat for p in view.players if p.leader == 0]
    in_camp = Text(", ").join(who(names, p.seat) + Text(f" {p.camp}") for p in view.players)
    table.add_row(
        "military camp (legionnaires waiting)",
        "",
        "",
        in_camp,
        Text(", ").join(who(names, s) for s in camp) or Text("-", "dim"),
        ", ".join(labels.province(x) for x in labels.content.board.camp_exits),
    )
    for x in view.provinces:
        spec = labels.content.province[x.province]
        leaders = [p.seat for p in view.players if p.leader == x.province]
        table.add_row(
            spec.name,
            str(spec.vp),
            labels.forum_tile(x.tile) if x.tile is not None else Text("-", "dim"),
            Text(", ").join(who(names, s) for s in x.legionnaires) or Text("-", "dim"),
            Text(", ").join(who(names, s) for s in leaders) or Text("-", "dim"),
            ", ".join(labels.province(a) for a in spec.adjacent),
        )
    return table


def construction_grid(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    sites = {s.id: s for s in labels.content.board.sites}
    rows = max(s.row for s in sites.values())
    columns = max(s.column for s in sites.values())
    table = Table(
        title="Construction area (workers move to orthogonal neighbours)", box=box.SQUARE, show_lines=True
    )
    for column in range(1, columns + 1):
        table.add_column(f"column {column}")
    by_place = {(sites[x.site].row, sites[x.site].column): x for x in view.sites}
    for row in range(1, rows + 1):
        cells = []
        for column in range(1, columns + 1):
            x = by_place.get((row, column))
            if x is None:
                cells.append(Text(""))
                continue
            cell = Text(f"{x.site}: ", style="dim")
            cell.append(
                labels.construction_tile(x.tile) if x.tile else "(taken)", style="" if x.tile else "dim"
            )
            for seat in x.workers:
                cell.append("\n")
                cell.append_text(who(names, seat))
            cells.append(cell)
        table.add_row(*cells)
    return table


def players_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    table = Table(title="Players", box=box.SIMPLE_HEAVY)
    for column in (
        "player",
        "VP",
        "senate votes",
        "supply",
        "work area",
        "camp",
        "leader in",
        "cards in hand",
    ):
        table.add_column(column, justify="left" if column in ("player", "leader in") else "right")
    for p in view.players:
        name = who(names, p.seat)
        if p.seat == view.viewer_seat:
            name.append(" (you)")
        votes = labels.content.board.senate_track[p.senate] + sum(
            labels.content.forum_tile[t].votes for t in p.forum_tiles
        )
        table.add_row(
            name,
            str(p.vp),
            str(votes),
            str(p.supply),
            str(p.work_area),
            str(p.camp),
            labels.province(p.leader),
            str(p.hand_size),
        )
    return table


def tiles_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    table = Table(title="On the mats", box=box.SIMPLE)
    for column in (
        "player",
        "display",
        "forum tiles",
        "kept Trajan tiles",
        "construction",
        "[+2]",
        "bonus tiles",
    ):
        table.add_column(column)
    for p in view.players:
        bonus = ", ".join(
            f"{labels.bonus_short(b.tile)} ({'yellow' if b.yellow else 'grey'})" for b in p.bonus_tiles
        )
        table.add_row(
            who(names, p.seat),
            commodities(p.display) if p.display else "-",
            labels.forum_tiles(p.forum_tiles) if p.forum_tiles else "-",
            ", ".join(f"T{t} {labels.trajan_effect(t)}" for t in p.demand_tiles) or "-",
            ", ".join(labels.construction_tile(t) for t in p.construction) or "-",
            ", ".join(labels.action(a) for a in p.plus_two) or "-",
            bonus or "-",
        )
    return table


def hand_panel(view: TrajanView, labels: Labels, names: Sequence[str]) -> Panel | None:
    """The viewer's hand and what the viewer owes now."""
    me = next((p for p in view.players if p.seat == view.viewer_seat), None)
    if me is None:
        return None
    text = Text("Your hand: ", style="bold")
    text.append(commodities(me.hand) if me.hand else "no cards")
    if view.active_seat == me.seat and view.pending:
        text.append("\nTo do: ", style="bold")
        text.append(", then ".join(labels.step(s.kind, s.action) for s in view.pending))
    if view.active_seat == me.seat and view.in_hand:
        text.append("\nMarkers to sow: ", style="bold")
        text.append_text(markers_text(view.in_hand))
        text.append(f" ({colours(view.in_hand)}), the next into {labels.bowl(view.next_bowl)}")
    if view.active_seat == me.seat and (view.cargo or view.cargo_wilds):
        text.append("\nOn the ship: ", style="bold")
        text.append(commodities(view.cargo) if view.cargo else "no cards")
        if view.cargo_wilds:
            text.append(f" and {view.cargo_wilds} wild commodity tile(s)")
    if view.phase is Phase.DEMANDS and me.seat in view.demand_choosers:
        text.append("\nChoose how to meet the demands: ", style="bold")
        text.append(", ".join(labels.demand(d) for d in view.demands))
    return Panel(text, title=f"{seat_name(names, me.seat)} (you)", expand=False)


def board(
    view: TrajanView, labels: Labels, names: Sequence[str], version: int, match_id: str
) -> RenderableType:
    """The whole table as a player (or a spectator, ``viewer_seat`` -1) sees it."""
    parts: list[RenderableType] = [
        header(view, labels, names, version, match_id),
        circles_table(view, labels, names),
        supply(view, labels, names),
        provinces_table(view, labels, names),
        construction_grid(view, labels, names),
        players_table(view, labels, names),
        tiles_table(view, labels, names),
    ]
    hand = hand_panel(view, labels, names)
    if hand is not None:
        parts.append(hand)
    return Group(*parts)


FINAL_COLUMNS = (
    ("before", "VP before"),
    ("hand", "cards in hand"),
    ("work_area", "work area"),
    ("camp", "camp"),
    ("trajan_tiles", "Trajan tiles"),
    ("construction_sets", "construction sets"),
    ("bonus_tiles", "bonus tiles"),
    ("total", "total"),
)


def final_table(view: TrajanView, names: Sequence[str]) -> Table | None:
    """The final scoring breakdown per seat, best first (None before the game ends)."""
    if not view.final:
        return None
    table = Table(title="Final scoring", box=box.SIMPLE_HEAVY)
    table.add_column("place", justify="right")
    table.add_column("player")
    for _, title in FINAL_COLUMNS:
        table.add_column(title, justify="right")
    place = {seat: n for seat, n in enumerate(view.placings)}
    for f in sorted(view.final, key=lambda f: place.get(f.seat, 99)):
        placing = ordinal(place[f.seat]) if f.seat in place else "-"
        table.add_row(placing, who(names, f.seat), *(str(getattr(f, key)) for key, _ in FINAL_COLUMNS))
    return table
