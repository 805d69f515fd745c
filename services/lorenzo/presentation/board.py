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
from services.lorenzo.presentation.labels import Labels
from services.lorenzo.rules.content_types import CardType, SpaceKind
from services.lorenzo.rules.model import Member
from services.lorenzo.texts import Words
from shared.core.describe import enum_label

Msg = Any

GOODS_COLUMNS = ("coins", "wood", "stone", "servants", "military", "faith", "victory")
CARD_COLUMNS = ("territories", "characters", "buildings", "ventures")
DICE = ("black", "white", "orange")  # LorenzoView.dice, in order
MEMBERS = (Member.BLACK, Member.WHITE, Member.ORANGE)
MEMBER_STYLE = {"black": "bold", "white": "bold white", "orange": "bold dark_orange", "neutral": "dim"}


def _enum(message: Msg, field: str) -> str:
    """The English label of an enum field (``black``), as the styles and the dice are keyed."""
    return enum_label(message.DESCRIPTOR.fields_by_name[field].enum_type, getattr(message, field))


def _word(labels: Labels, message: Msg, field: str) -> str:
    """An enum field's value in the labels' locale."""
    enum = message.DESCRIPTOR.fields_by_name[field].enum_type
    return labels.words.enum(enum.name, enum_label(enum, getattr(message, field)))


def seat_name(labels: Labels, names: Sequence[str], seat: int) -> str:
    """The seat's display name, or ``seat N`` (in the locale) when it has none."""
    return names[seat] if 0 <= seat < len(names) and names[seat] else labels.t("describe.seat", seat=seat)


def _occupants(view: Msg, labels: Labels, names: Sequence[str]) -> dict[int, list[Text]]:
    out: dict[int, list[Text]] = {}
    for occ in view.occupants:
        colour = _enum(occ, "member")
        who = Text(
            f"{seat_name(labels, names, occ.seat)} {_word(labels, occ, 'member')}",
            style=MEMBER_STYLE.get(colour, ""),
        )
        out.setdefault(occ.space, []).append(who)
    return out


def header(view: Msg, version: int, describer: LorenzoDescriber, match_id: str = "") -> Text:
    labels, names = describer.labels, describer.names
    t, phase = labels.t, _enum(view, "phase")
    colours = [labels.words.enum("Member", c) for c in DICE]
    text = Text()
    text.append(t("board.title"), style="bold")
    if match_id:
        text.append(t("board.match", match=match_id))
    text.append(t("board.version", version=version))
    when = t("board.when", period=view.period, round=view.round) if view.period else t("board.setup")
    text.append(t("board.phase", when=when, phase=_word(labels, view, "phase")), style="bold cyan")
    if view.active_seat >= 0 and phase == "actions":
        text.append(t("board.turn", seat=seat_name(labels, names, view.active_seat)), style="bold yellow")
    if len(view.dice) == 3:
        dice = "  ".join(t("board.die", colour=c, value=d) for c, d in zip(colours, view.dice, strict=True))
        text.append(t("board.dice", dice=dice))
        worth = [describer.worth(view, m) for m in MEMBERS]
        if any(w is not None and w != d for w, d in zip(worth, view.dice, strict=True)):
            mine = t("list.comma").join(
                t("board.die", colour=c, value=w) for c, w in zip(colours, worth, strict=True)
            )
            text.append(t("board.worth", worth=mine))
    if view.turn_order:
        order = t("list.comma").join(seat_name(labels, names, s) for s in view.turn_order)
        text.append(t("board.turn_order", order=order))
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
    occupants = _occupants(view, labels, names)
    towers = list(view.towers)
    t = labels.t
    table = Table(title=t("board.towers"), box=box.SIMPLE_HEAVY, show_lines=True, expand=False)
    table.add_column(t("board.floor"), justify="right")
    for tower in by_tower:
        table.add_column(t(f"board.tower.{tower.name.lower()}"))
    for floor in floors:
        row: list[RenderableType] = [str(floor)]
        for spaces in by_tower.values():
            space_id = spaces.get(floor, 0)
            card = towers[space_id - 1] if 0 < space_id <= len(towers) else 0
            cell = Text(labels.card(card) if card else t("board.empty"), style="bold" if card else "dim")
            cell.append(t("board.floor_value", space=space_id, value=values.get(space_id, "?")), style="dim")
            bonus = labels.floor_bonus(space_id)
            if bonus:
                cell.append(t("board.floor_bonus", bonus=bonus), style="dim")
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
    t = labels.t
    table = Table(title=t("board.spaces"), box=box.SIMPLE)
    table.add_column("#", justify="right")
    table.add_column(t("board.space"))
    table.add_column(t("board.occupied_by"))
    occupants = _occupants(view, labels, names)
    for space in labels.spaces():
        if space.kind is SpaceKind.TOWER or space.min_players > len(view.players):
            continue
        who = occupants.get(space.id, [])
        table.add_row(
            str(space.id), labels.space(space.id), Text(", ").join(who) if who else Text("-", "dim")
        )
    return table


def players_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    t = labels.t
    table = Table(title=t("board.players"), box=box.SIMPLE_HEAVY)
    table.add_column(t("board.player"))
    for column in GOODS_COLUMNS:
        table.add_column(t(f"board.column.{column}"), justify="right")
    table.add_column(t("board.members_placed"))
    table.add_column(t("board.leaders"))
    for p in view.players:
        name = seat_name(labels, names, p.seat)
        style = "bold yellow" if p.seat == view.active_seat else ""
        placed_enum = p.DESCRIPTOR.fields_by_name["placed"].enum_type
        placed = t("list.comma").join(
            labels.words.enum(placed_enum.name, enum_label(placed_enum, m)) for m in p.placed
        )
        leaders = t("board.in_hand", count=p.hand_size)
        if p.played:
            leaders = t(
                "board.played",
                hand=leaders,
                leaders=t("list.comma").join(labels.leader(pl.leader) for pl in p.played),
            )
        table.add_row(
            Text(t("board.you", name=name) if p.seat == view.viewer_seat else name, style=style),
            *(str(getattr(p.goods, g)) for g in GOODS_COLUMNS),
            placed or "-",
            leaders,
        )
    return table


def cards_table(view: Msg, labels: Labels, names: Sequence[str]) -> Table:
    t = labels.t
    table = Table(title=t("board.cards"), box=box.SIMPLE)
    table.add_column(t("board.player"))
    for column in CARD_COLUMNS:
        table.add_column(t(f"board.column.{column}"))
    table.add_column(t("board.tiles"))
    for p in view.players:
        extra = [labels.bonus_tile(p.bonus_tile)] if p.bonus_tile else []
        extra += [labels.excommunication_name(x) for x in p.excommunications]
        table.add_row(
            seat_name(labels, names, p.seat),
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
    t = labels.t
    lines = Text()
    lines.append(t("board.hand"), style="bold")
    for leader in me.hand:
        lines.append(f"\n  {labels.leader_text(leader)}")
    if not me.hand:
        lines.append(t("board.none"))
    if me.draft_hand:
        lines.append(t("board.draft"), style="bold")
        for leader in me.draft_hand:
            lines.append(f"\n  {labels.leader_text(leader)}")
    if view.pending and view.active_seat == view.viewer_seat:
        lines.append(t("board.pending"), style="bold")
        lines.append(t("list.then").join(describer.decision(d) for d in view.pending))
    if view.excommunication_tiles:
        lines.append(t("board.excommunications"), style="bold")
        for tile in view.excommunication_tiles:
            lines.append(f"\n  {labels.excommunication(tile)}")
    if view.bonus_tiles_left and view.tile_pickers:
        lines.append(t("board.tiles_left"), style="bold")
        for tile in view.bonus_tiles_left:
            lines.append(f"\n  {labels.bonus_tile_text(tile)}")
    title = t("board.you", name=seat_name(labels, describer.names, view.viewer_seat))
    return Panel(lines, title=title, expand=False)


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


def final_table(view: Msg, names: Sequence[str], labels: Labels | None = None) -> Table | None:
    """The final scoring breakdown per seat (None before the game ends), in the labels' locale."""
    if not view.final:
        return None
    words = labels.words if labels is not None else Words.of()
    t = words.t
    table = Table(title=t("board.final"), box=box.SIMPLE_HEAVY)
    fields = [fd.name for fd in view.final[0].DESCRIPTOR.fields if fd.name != "seat"]
    table.add_column(t("board.player"))
    for name in fields:
        table.add_column(words.catalog.get(f"board.final.{name}", name), justify="right")
    for score in view.final:
        seat = (
            names[score.seat]
            if 0 <= score.seat < len(names) and names[score.seat]
            else t("describe.seat", seat=score.seat)
        )
        table.add_row(seat, *(str(getattr(score, f)) for f in fields))
    return table
