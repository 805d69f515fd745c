"""Lorenzo's board in the terminal: towers, action spaces, personal boards, your hand, final scoring.

Pure functions from a ``LorenzoView`` message (and the content's :class:`Labels`) to rich
renderables, so they are tested without a server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from services.lorenzo.presentation.describe import LorenzoDescriber
from services.lorenzo.presentation.labels import Labels, lower
from services.lorenzo.rules.content_types import CardType, SpaceKind
from services.lorenzo.rules.model import Member
from shared.core.describe import enum_label, seat_name

Msg = Any

GOODS_COLUMNS = ("coins", "wood", "stone", "servants", "military", "faith", "victory")
CARD_COLUMNS = ("territories", "characters", "buildings", "ventures")
DICE = ("black", "white", "orange")  # LorenzoView.dice, in order
MEMBERS = (Member.BLACK, Member.WHITE, Member.ORANGE)
MEMBER_STYLE = {"black": "bold", "white": "bold white", "orange": "bold dark_orange", "neutral": "dim"}


def _enum(message: Msg, field: str) -> str:
    return enum_label(message.DESCRIPTOR.fields_by_name[field].enum_type, getattr(message, field))


def _occupants(view: Msg, names: Sequence[str]) -> dict[int, list[Text]]:
    out: dict[int, list[Text]] = {}
    for occ in view.occupants:
        colour = _enum(occ, "member")
        who = Text(f"{seat_name(names, occ.seat)} {colour}", style=MEMBER_STYLE.get(colour, ""))
        out.setdefault(occ.space, []).append(who)
    return out


def header(view: Msg, version: int, describer: LorenzoDescriber, match_id: str = "") -> Text:
    phase, names = _enum(view, "phase"), describer.names
    text = Text()
    text.append("Lorenzo il Magnifico", style="bold")
    if match_id:
        text.append(f"  match {match_id}")
    text.append(f"  v{version}\n")
    when = f"Period {view.period}  Round {view.round}" if view.period else "Setup"
    text.append(f"{when}  Phase: {phase}", style="bold cyan")
    if view.active_seat >= 0 and phase == "actions":
        text.append(f"  Turn: {seat_name(names, view.active_seat)}", style="bold yellow")
    if len(view.dice) == 3:
        text.append("\nDice: " + "  ".join(f"{c} {d}" for c, d in zip(DICE, view.dice, strict=True)))
        worth = [describer.worth(view, m) for m in MEMBERS]
        if any(w is not None and w != d for w, d in zip(worth, view.dice, strict=True)):
            mine = ", ".join(f"{c} {w}" for c, w in zip(DICE, worth, strict=True))
            text.append(f"  (your members are worth {mine}: your leaders and excommunications)")
    if view.turn_order:
        text.append("\nTurn order: " + ", ".join(seat_name(names, s) for s in view.turn_order))
    return text


def towers_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """The four towers in board order, top floor first: each card, its space and value, who stands there."""
    by_tower: dict[CardType, dict[int, int]] = {}  # tower -> floor -> space id
    values: dict[int, int] = {}
    for space in labels.spaces():
        if space.kind is SpaceKind.TOWER and space.tower is not None:
            by_tower.setdefault(space.tower, {})[space.floor] = space.id
            values[space.id] = space.value
    floors = sorted({f for spaces in by_tower.values() for f in spaces}, reverse=True)
    occupants = _occupants(view, names)
    towers = list(view.towers)
    table = Table(title="Towers", box=box.SIMPLE_HEAVY, show_lines=True, expand=False)
    table.add_column("floor", justify="right")
    for tower in by_tower:
        table.add_column(lower(tower).capitalize())
    for floor in floors:
        row: list[RenderableType] = [str(floor)]
        for spaces in by_tower.values():
            space_id = spaces.get(floor, 0)
            card = towers[space_id - 1] if 0 < space_id <= len(towers) else 0
            cell = Text(labels.card(card) if card else "(empty)", style="bold" if card else "dim")
            cell.append(f"  [{space_id}] value {values.get(space_id, '?')}", style="dim")
            bonus = labels.floor_bonus(space_id)
            if bonus:
                cell.append(f", bonus {bonus}", style="dim")
            if card and labels.card_effects(card):
                cell.append(f"\n{labels.card_effects(card)}", style="italic")
            for who in occupants.get(space_id, []):
                cell.append("\n  @ ")
                cell.append_text(who)
            row.append(cell)
        table.add_row(*row)
    return table


def spaces_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    """Market, council palace, harvest and production spaces with their occupants; the spaces that
    are covered with fewer players (rulebook: the 4-player market spaces, the large work spaces at 2)
    are left out."""
    table = Table(title="Action spaces", box=box.SIMPLE)
    table.add_column("#", justify="right")
    table.add_column("space")
    table.add_column("occupied by")
    occupants = _occupants(view, names)
    for space in labels.spaces():
        if space.kind is SpaceKind.TOWER or space.min_players > len(view.players):
            continue
        who = occupants.get(space.id, [])
        table.add_row(
            str(space.id), labels.space(space.id), Text(", ").join(who) if who else Text("-", "dim")
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
        placed_enum = p.DESCRIPTOR.fields_by_name["placed"].enum_type
        placed = ", ".join(enum_label(placed_enum, m) for m in p.placed)
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
        extra += [labels.excommunication_name(x) for x in p.excommunications]
        table.add_row(
            seat_name(names, p.seat),
            *("\n".join(labels.card(c) for c in getattr(p, column)) or "-" for column in CARD_COLUMNS),
            "\n".join(extra) or "-",
        )
    return table


def hand_panel(view: Msg, describer: LorenzoDescriber) -> Panel | None:
    """The viewer's leaders in hand (and draft hand), pending decisions, tiles still to choose."""
    me = next((p for p in view.players if p.seat == view.viewer_seat), None)
    if me is None:
        return None
    labels = describer.labels
    lines = Text()
    lines.append("Your leaders in hand: ", style="bold")
    for leader in me.hand:
        lines.append(f"\n  {labels.leader_text(leader)}")
    if not me.hand:
        lines.append("none")
    if me.draft_hand:
        lines.append("\nDraft hand (keep one, pass the rest):", style="bold")
        for leader in me.draft_hand:
            lines.append(f"\n  {labels.leader_text(leader)}")
    if view.pending and view.active_seat == view.viewer_seat:
        lines.append("\nPending: ", style="bold")
        lines.append("; then ".join(describer.decision(d) for d in view.pending))
    if view.excommunication_tiles:
        lines.append("\nExcommunications of this match (period I, II, III):", style="bold")
        for tile in view.excommunication_tiles:
            lines.append(f"\n  {labels.excommunication(tile)}")
    if view.bonus_tiles_left and view.tile_pickers:
        lines.append("\nPersonal bonus tiles left:", style="bold")
        for tile in view.bonus_tiles_left:
            lines.append(f"\n  {labels.bonus_tile_text(tile)}")
    return Panel(lines, title=f"{seat_name(describer.names, view.viewer_seat)} (you)", expand=False)


def board(view: Msg, labels: Labels, names: Sequence[str], version: int, match_id: str) -> RenderableType:
    """The whole table as a player (or a spectator, ``viewer_seat`` -1) sees it."""
    parts: list[RenderableType] = [
        header(view, version, LorenzoDescriber(labels, names), match_id),
        towers_table(view, labels, names),
        spaces_table(view, labels, names),
        players_table(view, labels, names),
        cards_table(view, labels, names),
    ]
    hand = hand_panel(view, LorenzoDescriber(labels, names))
    if hand is not None:
        parts.append(hand)
    return Group(*parts)


def final_table(view: Msg, names: Sequence[str]) -> Table | None:
    """The final scoring breakdown per seat (None before the game ends)."""
    if not view.final:
        return None
    table = Table(title="Final scoring", box=box.SIMPLE_HEAVY)
    fields = [fd.name for fd in view.final[0].DESCRIPTOR.fields if fd.name != "seat"]
    table.add_column("player")
    for name in fields:
        table.add_column(name, justify="right")
    for score in view.final:
        table.add_row(seat_name(names, score.seat), *(str(getattr(score, f)) for f in fields))
    return table
