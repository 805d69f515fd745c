"""Rich renderables from protobuf messages: the board, the players, the legal commands, the result.

Pure functions (messages in, renderables out), so they are tested without a server. The board
layout is Lorenzo's (towers, action spaces, personal boards); a game without a renderer here
gets its view printed field by field (:func:`render_generic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.protobuf import text_format
from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from services.client.describe import Describer, enum_label, union_member
from services.client.labels import Labels

# Messages of a game's generated module (dynamically imported, so untyped here).
Msg = Any

GOODS_COLUMNS = ("coins", "wood", "stone", "servants", "military", "faith", "victory")
CARD_COLUMNS = ("territories", "characters", "buildings", "ventures")
TOWERS = ("territory", "character", "building", "venture")
MEMBER_STYLE = {"black": "bold", "white": "bold white", "orange": "bold dark_orange", "neutral": "dim"}


def _enum(message: Msg, field: str) -> str:
    fd = message.DESCRIPTOR.fields_by_name[field]
    return enum_label(fd.enum_type, getattr(message, field))


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


def _occupants(view: Msg, names: Sequence[str]) -> dict[int, list[Text]]:
    out: dict[int, list[Text]] = {}
    for occ in view.occupants:
        colour = _enum(occ, "member")
        out.setdefault(occ.space, []).append(
            Text(f"{seat_name(names, occ.seat)} {colour}", style=MEMBER_STYLE.get(colour, ""))
        )
    return out


def header(view: Msg, version: int, names: Sequence[str], match_id: str = "") -> Text:
    phase = _enum(view, "phase")
    text = Text()
    text.append("Lorenzo il Magnifico", style="bold")
    if match_id:
        text.append(f"  match {match_id}")
    text.append(f"  v{version}\n")
    text.append(f"Period {view.period}  Round {view.round}  Phase: {phase}", style="bold cyan")
    if view.active_seat >= 0 and phase == "actions":
        text.append(f"  Turn: {seat_name(names, view.active_seat)}", style="bold yellow")
    if len(view.dice) == 3:
        black, white, orange = view.dice
        text.append(f"\nDice: black {black}  white {white}  orange {orange}")
    if view.turn_order:
        text.append("\nTurn order: " + ", ".join(seat_name(names, s) for s in view.turn_order))
    return text


def towers_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """The four towers, top floor first: the card on each space, its value and who stands there."""
    table = Table(title="Towers", box=box.SIMPLE_HEAVY, show_lines=True, expand=False)
    by_tower: dict[str, dict[int, int]] = {t: {} for t in TOWERS}
    for space_id in sorted(labels.spaces):
        where = labels.tower_space(space_id)
        if where is not None and where[0] in by_tower:
            by_tower[where[0]][where[1]] = space_id
    floors = sorted({f for spaces in by_tower.values() for f in spaces}, reverse=True) or [4, 3, 2, 1]
    occupants = _occupants(view, names)
    table.add_column("floor", justify="right")
    for tower in TOWERS:
        table.add_column(tower.capitalize())
    towers = list(view.towers)
    for floor in floors:
        row: list[RenderableType] = [str(floor)]
        for tower in TOWERS:
            space = by_tower[tower].get(floor, 0)
            card = towers[space - 1] if 0 < space <= len(towers) else 0
            record = labels.spaces.get(space, {})
            cell = Text(labels.card(card) if card else "(empty)", style="bold" if card else "dim")
            cell.append(f"  [{space}] value {record.get('value', '?')}", style="dim")
            for who in occupants.get(space, []):
                cell.append("\n  @ ")
                cell.append_text(who)
            row.append(cell)
        table.add_row(*row)
    return table


def spaces_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """Market, council palace, harvest and production spaces with their occupants."""
    table = Table(title="Action spaces", box=box.SIMPLE)
    table.add_column("#", justify="right")
    table.add_column("space")
    table.add_column("occupied by")
    occupants = _occupants(view, names)
    for space_id in sorted(labels.spaces):
        if labels.tower_space(space_id) is not None:
            continue
        who = occupants.get(space_id, [])
        table.add_row(
            str(space_id), labels.space(space_id), Text(", ").join(who) if who else Text("-", "dim")
        )
    return table


def players_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    table = Table(title="Players", box=box.SIMPLE_HEAVY)
    table.add_column("player")
    for column in GOODS_COLUMNS:
        table.add_column("VP" if column == "victory" else column, justify="right")
    table.add_column("members placed")
    table.add_column("leaders")
    for p in view.players:
        you = " (you)" if p.seat == view.viewer_seat else ""
        style = "bold yellow" if p.seat == view.active_seat else ""
        placed = ", ".join(enum_label(p.DESCRIPTOR.fields_by_name["placed"].enum_type, m) for m in p.placed)
        leaders = f"{p.hand_size} in hand"
        if p.played:
            leaders += "; played: " + ", ".join(labels.leader(pl.leader) for pl in p.played)
        table.add_row(
            Text(f"{seat_name(names, p.seat)}{you}", style=style),
            *(str(getattr(p.goods, g)) for g in GOODS_COLUMNS),
            placed or "-",
            leaders,
        )
    return table


def cards_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    table = Table(title="Cards", box=box.SIMPLE)
    table.add_column("player")
    for column in CARD_COLUMNS:
        table.add_column(column)
    table.add_column("bonus tile / excommunications")
    for p in view.players:
        extra = [labels.bonus_tile(p.bonus_tile)] if p.bonus_tile else []
        extra += [labels.excommunication(x) for x in p.excommunications]
        table.add_row(
            seat_name(names, p.seat),
            *("\n".join(labels.card(c) for c in getattr(p, column)) or "-" for column in CARD_COLUMNS),
            "\n".join(extra) or "-",
        )
    return table


def hand_panel(view: Msg, labels: Labels, describer: Describer) -> Panel | None:
    """The viewer's leaders in hand (and draft hand), pending decisions and exchange budget."""
    me = next((p for p in view.players if p.seat == view.viewer_seat), None)
    if me is None:
        return None
    lines = Text()
    lines.append("Your leaders in hand: ", style="bold")
    if me.hand:
        for leader in me.hand:
            requirement = labels.requirement(leader)
            lines.append(f"\n  {labels.leader(leader)}" + (f"  (needs {requirement})" if requirement else ""))
    else:
        lines.append("none")
    if me.draft_hand:
        lines.append("\nDraft hand: ", style="bold")
        lines.append(", ".join(labels.leader(x) for x in me.draft_hand))
    if view.pending and view.active_seat == view.viewer_seat:
        lines.append("\nPending: ", style="bold")
        lines.append(
            "; ".join(f"{_enum(d, 'kind')} ({describer.fields(d, skip=('kind',))})" for d in view.pending)
        )
    if view.excommunication_tiles:
        lines.append("\nExcommunication tiles: ", style="bold")
        lines.append(", ".join(labels.excommunication(t) for t in view.excommunication_tiles))
    if view.bonus_tiles_left and view.tile_pickers:
        lines.append("\nBonus tiles left: ", style="bold")
        lines.append(", ".join(labels.bonus_tile(t) for t in view.bonus_tiles_left))
    return Panel(lines, title=f"{seat_name(describer.names, view.viewer_seat)} (you)", expand=False)


def render_view(
    view: Msg, labels: Labels, names: Sequence[str] = (), version: int = 0, match_id: str = ""
) -> RenderableType:
    """The whole table as a player (or a spectator, ``viewer_seat`` -1) sees it."""
    if view.DESCRIPTOR.name != "LorenzoView":
        return render_generic(view, version)
    describer = Describer(labels, names)
    parts: list[RenderableType] = [
        header(view, version, names, match_id),
        towers_table(view, labels, names),
        spaces_table(view, labels, names),
        players_table(view, labels, names),
        cards_table(view, labels, names),
    ]
    hand = hand_panel(view, labels, describer)
    if hand is not None:
        parts.append(hand)
    if view.final:
        parts.append(final_table(view, names))
    return Group(*parts)


def render_generic(view: Msg, version: int = 0) -> RenderableType:
    return Panel(text_format.MessageToString(view), title=f"{view.DESCRIPTOR.name} v{version}")


def commands_table(commands: Sequence[Msg], describer: Describer, view: Msg | None) -> Table:
    """The legal commands, numbered from 1, described in words."""
    table = Table(title="Your legal commands", box=box.SIMPLE, title_style="bold green")
    table.add_column("#", justify="right", style="bold green")
    table.add_column("command")
    for n, command in enumerate(commands, start=1):
        table.add_row(str(n), describer.command(command, view))
    return table


def final_table(view: Msg, names: Sequence[str]) -> Table:
    """Lorenzo's final scoring breakdown per seat."""
    table = Table(title="Final scoring", box=box.SIMPLE_HEAVY)
    fields = [fd.name for fd in view.final[0].DESCRIPTOR.fields if fd.name != "seat"]
    table.add_column("player")
    for name in fields:
        table.add_column(name, justify="right")
    for score in view.final:
        table.add_row(seat_name(names, score.seat), *(str(getattr(score, f)) for f in fields))
    return table


def outcome_table(scores: Sequence[int], placings: Sequence[int], names: Sequence[str]) -> Table:
    """Final scores and placings (1 = first), best first."""
    table = Table(title="Final scores", box=box.DOUBLE_EDGE, title_style="bold magenta")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    order = sorted(range(len(scores)), key=lambda s: (placings[s] if s < len(placings) else 99, s))
    for seat in order:
        place = placings[seat] if seat < len(placings) else 0
        table.add_row(str(place), seat_name(names, seat), str(scores[seat]))
    return table


def event_line(match_event: Msg, describer: Describer) -> Text:
    """One event, coloured by who caused it."""
    actor = match_event.envelope.actor
    who = "system" if actor == "system" else actor
    parts = actor.split(":")  # "seat:N", "bot:N[:level]" or "system"
    if parts[0] in ("seat", "bot") and len(parts) > 1 and parts[1].isdigit():
        who = seat_name(describer.names, int(parts[1]))
    line = Text(f"[{who}] ", style="dim")
    line.append(describer.event(match_event))
    return line


def error_text(code: str, reason: str, message: str) -> Text:
    """A refused command: the gRPC code, the rule's reason code and its message."""
    text = Text("Refused: ", style="bold red")
    text.append(f"{reason or code}", style="red")
    if message:
        text.append(f" - {message}")
    return text


def first_member_name(wrapper: Msg) -> str:
    member = union_member(wrapper)
    return member.DESCRIPTOR.name if member is not None else ""
