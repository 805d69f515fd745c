"""Trajan's board in the terminal: the time track, every player's action circle (bowls, markers, Trajan
tiles, arch), the supply (Trajan stacks, forum, senate, ships, commodity piles, demands), the provinces
and legionnaires, the construction grid, the players, your hand, and the final scoring.

Pure functions from a typed ``TrajanView`` (and the content's :class:`Labels`, whose catalog words the
board in its locale) to rich renderables, so they are tested without a server. :data:`WORDS` is the
English of the board's keys.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from services.trajan.presentation.describe import TrajanDescriber
from services.trajan.presentation.labels import COLOUR_LETTER, COLOUR_STYLE, NUMERALS, Labels
from services.trajan.rules.content_types import Colour
from services.trajan.rules.model import Phase
from services.trajan.rules.view import PlayerView, TrajanView
from shared.core.describe import seat_name

SEAT_STYLE = ("bold red", "bold green", "bold blue", "bold orange4")  # the seed's red, green, blue, brown

FINAL_COLUMNS = (
    "before",
    "hand",
    "work_area",
    "camp",
    "trajan_tiles",
    "construction_sets",
    "bonus_tiles",
    "total",
)

WORDS: dict[str, str] = {
    "board.legend": "markers: ",
    "board.legend.one": "{letter} {colour}",
    "board.title": "Trajan",
    "board.match": "  match {match}",
    "board.status": "Quarter {quarter} of {quarters}  Round {round} of {rounds}  Phase: {phase}",
    "board.turn": "  Turn: ",
    "board.time": "\nTime track: {track}  space {space} of {lap}",
    "board.time.note": " (the round ends after the turn that reaches or passes S)",
    "board.demands": "\nDemands revealed: {demands}  ({pool} demand tiles face down)",
    "board.demands.none": "none yet",
    "board.no_tile": "(no tile)",
    "board.arch": "\n⌂ arch",
    "board.circles": "Action circles (markers in each bowl; the Trajan tile beside it)",
    "board.player": "player",
    "board.you": " (you)",
    "board.arch_off": "\n⌂ arch off the mat",
    "board.sowing": "\nsowing: ",
    "board.target": "  ◀ target",
    "board.tile_vp": "{vp} VP",
    "board.empty": "(empty)",
    "board.beneath": "+{count} beneath",
    "board.stacks": "Trajan stacks (top face up)",
    "board.face_down": "\nface down: {forum} forum tiles, {extra} extra action tiles",
    "board.forum": "Forum",
    "board.start": "start",
    "board.vp": "{vp} VP",
    "board.offer": "\nbonus tiles beside the senate:",
    "board.offer.none": " none",
    "board.in_bag": "\n{count} in the bag",
    "board.senate": "Senate",
    "board.yellow": "yellow",
    "board.grey": "grey",
    "board.ships": "Ships",
    "board.ship": "{kind} ship",
    "board.deck": "draw pile: {count} cards face down",
    "board.pile.left": "\nleft discard pile: {top} on top ({cards})",
    "board.pile.right": "\nright discard pile: {top} on top ({cards})",
    "board.pile.empty": "empty",
    "board.cards": "Commodity cards",
    "board.provinces": "Provinces",
    "board.column.province": "province",
    "board.column.vp": "VP",
    "board.column.forum_tile": "forum tile",
    "board.column.legionnaires": "legionnaires",
    "board.column.leaders": "leaders",
    "board.column.next_to": "next to",
    "board.camp": "military camp (legionnaires waiting)",
    "board.construction": "Construction area (workers move to orthogonal neighbours)",
    "board.column": "column {column}",
    "board.taken": "(taken)",
    "board.players": "Players",
    "board.column.senate_votes": "senate votes",
    "board.column.supply": "supply",
    "board.column.work_area": "work area",
    "board.column.camp": "camp",
    "board.column.leader_in": "leader in",
    "board.column.cards_in_hand": "cards in hand",
    "board.mats": "On the mats",
    "board.column.display": "display",
    "board.column.forum_tiles": "forum tiles",
    "board.column.kept": "kept Trajan tiles",
    "board.column.construction": "construction",
    "board.column.plus_two": "[+2]",
    "board.column.bonus_tiles": "bonus tiles",
    "board.bonus": "{bonus} ({side})",
    "board.kept": "T{tile} {effect}",
    "board.hand": "Your hand: ",
    "board.hand.none": "no cards",
    "board.to_do": "\nTo do: ",
    "board.to_sow": "\nMarkers to sow: ",
    "board.to_sow.next": " ({colours}), the next into {bowl}",
    "board.on_ship": "\nOn the ship: ",
    "board.on_ship.wild": " and {count} wild commodity tile(s)",
    "board.choose_demands": "\nChoose how to meet the demands: ",
    "board.hand.title": "{who} (you)",
    "board.final": "Final scoring",
    "board.column.place": "place",
    "final.before": "VP before",
    "final.hand": "cards in hand",
    "final.work_area": "work area",
    "final.camp": "camp",
    "final.trajan_tiles": "Trajan tiles",
    "final.construction_sets": "construction sets",
    "final.bonus_tiles": "bonus tiles",
    "final.total": "total",
}
"""The English of the board's keys."""


def who(names: Sequence[str], seat: int) -> Text:
    return Text(seat_name(names, seat), style=SEAT_STYLE[seat % len(SEAT_STYLE)])


def markers_text(markers: Sequence[Colour]) -> Text:
    """Coloured letters, one per marker (``Y O P``); a dash for an empty bowl."""
    if not markers:
        return Text("-", style="dim")
    return Text(" ").join(Text(COLOUR_LETTER[m], style=COLOUR_STYLE[m]) for m in markers)


def legend(labels: Labels) -> Text:
    text = Text(labels.t("board.legend"), style="dim")
    return text + Text(labels.t("sep.list")).join(
        Text(
            labels.t("board.legend.one", letter=COLOUR_LETTER[c], colour=labels.word(c)),
            style=COLOUR_STYLE[c],
        )
        for c in Colour
    )


def header(view: TrajanView, labels: Labels, names: Sequence[str], version: int, match_id: str) -> Text:
    t = labels.t
    text = Text()
    text.append(t("board.title"), style="bold")
    if match_id:
        text.append(t("board.match", match=match_id))
    text.append(f"  v{version}\n")
    board_ = labels.content.board
    text.append(
        t(
            "board.status",
            quarter=view.quarter,
            quarters=board_.quarters,
            round=view.round,
            rounds=board_.rounds_per_quarter * board_.quarters,
            phase=labels.word(view.phase),
        ),
        style="bold cyan",
    )
    if view.active_seat >= 0:
        text.append(t("board.turn"), style="bold yellow")
        text.append_text(who(names, view.active_seat))
    if view.lap:
        track = "".join("●" if i == view.time_space else ("S" if i == 0 else "·") for i in range(view.lap))
        text.append(t("board.time", track=track, space=view.time_space, lap=view.lap))
        text.append(t("board.time.note"), style="dim")
    demands = labels.listed(labels.demand(d) for d in view.demands) or t("board.demands.none")
    text.append(t("board.demands", demands=demands, pool=view.demand_pool_size))
    return text


def _slot_text(p: PlayerView, slot: int, labels: Labels) -> Text:
    tile = p.slots[slot - 1] if slot <= len(p.slots) else 0
    text = Text()
    if tile:
        spec = labels.content.trajan_tile[tile]
        text.append(f"T{tile} ", style="bold")
        text.append(labels.t("board.tile_vp", vp=spec.vp))
        effect = labels.trajan_effect(tile)
        if effect:
            text.append(f" + {effect}")
        text.append(" [")
        text.append_text(markers_text(spec.colours))
        text.append("]")
    else:
        text.append(labels.t("board.no_tile"), style="dim")
    if p.arch == slot:
        text.append(labels.t("board.arch"), style="bold magenta")
    return text


def circles_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    """Each player's action circle: the markers in bowls I..VI and the Trajan tile beside each."""
    t = labels.t
    table = Table(title=t("board.circles"), box=box.SIMPLE_HEAVY)
    table.add_column(t("board.player"))
    for bowl, action in enumerate(labels.content.board.bowls, start=1):
        table.add_column(f"{NUMERALS[bowl]} ({labels.action(action)})")
    for p in view.players:
        name = who(names, p.seat)
        if p.seat == view.viewer_seat:
            name.append(t("board.you"))
        if p.arch == 0:
            name.append(t("board.arch_off"), style="magenta")
        if p.seat == view.active_seat and view.in_hand:
            name.append(t("board.sowing"))
            name.append_text(markers_text(view.in_hand))
            name.append(f" → {NUMERALS[view.next_bowl]}")
        cells: list[RenderableType] = [name]
        for bowl, markers in enumerate(p.bowls, start=1):
            cell = markers_text(markers.markers)
            if p.seat == view.active_seat and bowl == view.target and not view.in_hand:
                cell.append(t("board.target"), style="bold yellow")
            cell.append("\n")
            cell.append_text(_slot_text(p, bowl, labels))
            cells.append(cell)
        table.add_row(*cells)
    table.caption = legend(labels)
    return table


def stacks_panel(view: TrajanView, labels: Labels) -> Panel:
    grid = Table.grid(padding=(0, 1))
    for stack, s in enumerate(view.trajan_stacks, start=1):
        top = f"T{s.top} {labels.trajan_tile(s.top)}" if s.top else labels.t("board.empty")
        grid.add_row(
            Text(labels.trajan_stack(stack), style="dim"),
            top,
            Text(labels.t("board.beneath", count=s.beneath), style="dim"),
        )
    return Panel(grid, title=labels.t("board.stacks"), expand=False)


def forum_panel(view: TrajanView, labels: Labels) -> Panel:
    text = Text(labels.forum_tiles(view.forum) if view.forum else labels.t("board.empty"))
    text.append(
        labels.t("board.face_down", forum=view.forum_stack_size, extra=view.extra_stack_size),
        style="dim",
    )
    return Panel(text, title=labels.t("board.forum"), expand=False)


def senate_panel(view: TrajanView, labels: Labels, names: Sequence[str]) -> Panel:
    """The senate track (discs on each space, top of a stack first) and the bonus tiles beside it."""
    t = labels.t
    height = {seat: i for i, seat in enumerate(view.senate_order)}
    grid = Table.grid(padding=(0, 1))
    for space, votes in enumerate(labels.content.board.senate_track):
        here = sorted((p.seat for p in view.players if p.senate == space), key=lambda s: -height.get(s, 0))
        label = t("board.start") if space == 0 else t("board.vp", vp=votes)
        grid.add_row(
            Text(label, style="dim"), Text(", ").join(who(names, s) for s in here) or Text("-", "dim")
        )
    offer = Text(t("board.offer"), style="bold")
    for tile in view.senate_offer:
        offer.append(f"\n{tile}: {labels.bonus_tile(tile)}")
    if not view.senate_offer:
        offer.append(t("board.offer.none"))
    offer.append(t("board.in_bag", count=view.bonus_bag_size), style="dim")
    return Panel(Group(grid, offer), title=t("board.senate"), expand=False)


def ships_panel(view: TrajanView, labels: Labels) -> Panel:
    grid = Table.grid(padding=(0, 1))
    for ship, yellow in enumerate(view.ships_yellow, start=1):
        side = (
            Text(labels.t("board.yellow"), style="bold yellow")
            if yellow
            else Text(labels.t("board.grey"), style="dim")
        )
        spec = labels.content.ship.get(ship)
        name = labels.t("board.ship", kind=labels.word(spec.kind)) if spec is not None else labels.ship(ship)
        grid.add_row(name, side, labels.ship_values(ship, yellow))
    return Panel(grid, title=labels.t("board.ships"), expand=False)


def cards_panel(view: TrajanView, labels: Labels) -> Panel:
    d = TrajanDescriber(labels)
    text = Text(labels.t("board.deck", count=view.deck_size))
    for name, pile in (("left", view.left_pile), ("right", view.right_pile)):
        top = labels.word(pile[-1]) if pile else labels.t("board.pile.empty")
        text.append(labels.t(f"board.pile.{name}", top=top, cards=d.n("card", len(pile))))
    return Panel(text, title=labels.t("board.cards"), expand=False)


def supply(view: TrajanView, labels: Labels, names: Sequence[str]) -> Columns:
    return Columns(
        [
            stacks_panel(view, labels),
            forum_panel(view, labels),
            senate_panel(view, labels, names),
            ships_panel(view, labels),
            cards_panel(view, labels),
        ]
    )


def provinces_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    t = labels.t
    table = Table(title=t("board.provinces"), box=box.SIMPLE)
    for column in ("province", "vp", "forum_tile", "legionnaires", "leaders", "next_to"):
        table.add_column(t(f"board.column.{column}"), justify="right" if column == "vp" else "left")
    camp = [p.seat for p in view.players if p.leader == 0]
    in_camp = Text(", ").join(who(names, p.seat) + Text(f" {p.camp}") for p in view.players)
    table.add_row(
        t("board.camp"),
        "",
        "",
        in_camp,
        Text(", ").join(who(names, s) for s in camp) or Text("-", "dim"),
        labels.listed(labels.province(x) for x in labels.content.board.camp_exits),
    )
    for x in view.provinces:
        spec = labels.content.province[x.province]
        leaders = [p.seat for p in view.players if p.leader == x.province]
        table.add_row(
            labels.province(x.province),
            str(spec.vp),
            labels.forum_tile(x.tile) if x.tile is not None else Text("-", "dim"),
            Text(", ").join(who(names, s) for s in x.legionnaires) or Text("-", "dim"),
            Text(", ").join(who(names, s) for s in leaders) or Text("-", "dim"),
            labels.listed(labels.province(a) for a in spec.adjacent),
        )
    return table


def construction_grid(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    sites = {s.id: s for s in labels.content.board.sites}
    rows = max(s.row for s in sites.values())
    columns = max(s.column for s in sites.values())
    table = Table(title=labels.t("board.construction"), box=box.SQUARE, show_lines=True)
    for column in range(1, columns + 1):
        table.add_column(labels.t("board.column", column=column))
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
                labels.construction_tile(x.tile) if x.tile else labels.t("board.taken"),
                style="" if x.tile else "dim",
            )
            for seat in x.workers:
                cell.append("\n")
                cell.append_text(who(names, seat))
            cells.append(cell)
        table.add_row(*cells)
    return table


def players_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table:
    t = labels.t
    table = Table(title=t("board.players"), box=box.SIMPLE_HEAVY)
    for column in (
        "player",
        "vp",
        "senate_votes",
        "supply",
        "work_area",
        "camp",
        "leader_in",
        "cards_in_hand",
    ):
        title = t("board.player") if column == "player" else t(f"board.column.{column}")
        table.add_column(title, justify="left" if column in ("player", "leader_in") else "right")
    for p in view.players:
        name = who(names, p.seat)
        if p.seat == view.viewer_seat:
            name.append(t("board.you"))
        votes = labels.content.board.senate_track[p.senate] + sum(
            labels.content.forum_tile[tile].votes for tile in p.forum_tiles
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
    t = labels.t
    table = Table(title=t("board.mats"), box=box.SIMPLE)
    for column in ("player", "display", "forum_tiles", "kept", "construction", "plus_two", "bonus_tiles"):
        table.add_column(t("board.player") if column == "player" else t(f"board.column.{column}"))
    for p in view.players:
        bonus = labels.listed(
            t(
                "board.bonus",
                bonus=labels.bonus_short(b.tile),
                side=t("board.yellow") if b.yellow else t("board.grey"),
            )
            for b in p.bonus_tiles
        )
        table.add_row(
            who(names, p.seat),
            labels.commodities(p.display) if p.display else "-",
            labels.forum_tiles(p.forum_tiles) if p.forum_tiles else "-",
            labels.listed(
                t("board.kept", tile=tile, effect=labels.trajan_effect(tile)) for tile in p.demand_tiles
            )
            or "-",
            labels.listed(labels.construction_tile(tile) for tile in p.construction) or "-",
            labels.listed(labels.action(a) for a in p.plus_two) or "-",
            bonus or "-",
        )
    return table


def hand_panel(view: TrajanView, labels: Labels, names: Sequence[str]) -> Panel | None:
    """The viewer's hand and what the viewer owes now."""
    t = labels.t
    me = next((p for p in view.players if p.seat == view.viewer_seat), None)
    if me is None:
        return None
    text = Text(t("board.hand"), style="bold")
    text.append(labels.commodities(me.hand) if me.hand else t("board.hand.none"))
    if view.active_seat == me.seat and view.pending:
        text.append(t("board.to_do"), style="bold")
        text.append(t("sep.then").join(labels.step(s.kind, s.action) for s in view.pending))
    if view.active_seat == me.seat and view.in_hand:
        text.append(t("board.to_sow"), style="bold")
        text.append_text(markers_text(view.in_hand))
        text.append(
            t("board.to_sow.next", colours=labels.colours(view.in_hand), bowl=labels.bowl(view.next_bowl))
        )
    if view.active_seat == me.seat and (view.cargo or view.cargo_wilds):
        text.append(t("board.on_ship"), style="bold")
        text.append(labels.commodities(view.cargo) if view.cargo else t("board.hand.none"))
        if view.cargo_wilds:
            text.append(t("board.on_ship.wild", count=view.cargo_wilds))
    if view.phase is Phase.DEMANDS and me.seat in view.demand_choosers:
        text.append(t("board.choose_demands"), style="bold")
        text.append(labels.listed(labels.demand(d) for d in view.demands))
    return Panel(text, title=t("board.hand.title", who=seat_name(names, me.seat)), expand=False)


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


def final_table(view: TrajanView, labels: Labels, names: Sequence[str]) -> Table | None:
    """The final scoring breakdown per seat, best first (None before the game ends)."""
    if not view.final:
        return None
    t, d = labels.t, TrajanDescriber(labels)
    table = Table(title=t("board.final"), box=box.SIMPLE_HEAVY)
    table.add_column(t("board.column.place"), justify="right")
    table.add_column(t("board.player"))
    for key in FINAL_COLUMNS:
        table.add_column(t(f"final.{key}"), justify="right")
    place = {seat: n for seat, n in enumerate(view.placings)}
    for f in sorted(view.final, key=lambda f: place.get(f.seat, 99)):
        placing = d.ordinal(place[f.seat]) if f.seat in place else "-"
        table.add_row(placing, who(names, f.seat), *(str(getattr(f, key)) for key in FINAL_COLUMNS))
    return table
