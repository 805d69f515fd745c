"""Lorenzo's words for the terminal client's step-by-step choice (services/client/steps.py).

The client splits the legal commands by their fields (the family member, then the space, then
the servants ...); this module names each step as a question and each value as what it means on
the board: a member with its die, a tower space with the card on it and what that card costs and
does, a cost alternative in goods, a leader with what it needs and gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.lorenzo.presentation.describe import LorenzoDescriber
from services.lorenzo.presentation.labels import Labels
from shared.core.describe import enum_label

Msg = Any

TITLES = {
    ("", ""): "What do you do?",
    ("", "member"): "Which family member?",
    ("PlaceFamilyMember", "space"): "Where do you place it?",
    ("TakeBonusCard", "space"): "Which card do you take?",
    ("", "servants"): "How many servants do you add?",
    ("", "cost_option"): "Which cost do you pay?",
    ("", "discount_option"): "Which discount do you use?",
    ("ChooseCouncilPrivileges", "privileges"): "Which council privileges?",
    ("ChooseExchange", "card"): "Which building's exchange?",
    ("ChooseExchange", "option"): "Which exchange?",
    ("ChooseBonusTile", "tile"): "Which personal bonus tile?",
    ("DraftLeader", "leader"): "Which leader do you keep?",
    ("PlayLeader", "leader"): "Which leader do you play?",
    ("PlayLeader", "copy_of"): "Which played leader does it copy?",
    ("DiscardLeader", "leader"): "Which leader do you discard (for a council privilege)?",
    ("ActivateLeader", "leader"): "Whose ability do you use?",
    ("ActivateLeader", "member"): "Which coloured member becomes 6?",
    ("AnswerVaticanReport", "support"): "Do you support the Church?",
}


def step_title(command: str, field: str) -> str | None:
    return TITLES.get((command, field)) or TITLES.get(("", field))


def _tower_card(member: Msg, view: Msg | None, labels: Labels) -> int:
    towers = list(getattr(view, "towers", []) or [])
    space = int(member.space)
    return towers[space - 1] if labels.tower_space(space) and 0 < space <= len(towers) else 0


def option_text(
    labels: Labels, member: Msg, field: str, view: Msg | None, names: Sequence[str]
) -> str | None:
    """The value of ``field`` in ``member`` as the player weighs it; None: the client's default."""
    describer = LorenzoDescriber(labels, names)
    name = member.DESCRIPTOR.name
    if field == "member" and name != "ActivateLeader":
        return describer.member_text(member, view)
    if field == "space":
        card = _tower_card(member, view, labels)
        where = labels.space(member.space)
        bonus = labels.floor_bonus(member.space) if labels.tower_space(member.space) else ""
        where += f" (floor bonus {bonus})" if bonus else ""
        return f"{where}: {labels.card_text(card)}" if card else where
    if field == "servants":
        n = int(member.servants)
        return f"{n} servant{'s' if n != 1 else ''}" if n else "no servants"
    if field == "cost_option":
        costs = labels.costs(_tower_card(member, view, labels))
        chosen = int(member.cost_option)
        return f"pay {costs[chosen]}" if chosen < len(costs) else f"cost alternative {chosen + 1}"
    if field == "discount_option":
        return f"discount alternative {int(member.discount_option) + 1}"
    return _other(labels, member, field, view)


def _other(labels: Labels, member: Msg, field: str, view: Msg | None) -> str | None:
    name = member.DESCRIPTOR.name
    if field == "privileges":
        fd = member.DESCRIPTOR.fields_by_name["privileges"]
        return ", ".join(f"{enum_label(fd.enum_type, p)} ({labels.privilege(p)})" for p in member.privileges)
    if field in ("leader", "copy_of") and (field == "leader" or member.HasField("copy_of")):
        return labels.leader_text(getattr(member, field))
    if name == "ChooseBonusTile":
        return labels.bonus_tile_text(member.tile)
    if name == "ChooseExchange" and field == "card":
        return labels.card(member.card)
    if name == "ChooseExchange" and field == "option":
        return labels.exchange(member.card, member.option) if member.option else "skip this exchange"
    if name == "ActivateLeader" and field == "member" and member.HasField("member"):
        fd = member.DESCRIPTOR.fields_by_name["member"]
        return f"the {enum_label(fd.enum_type, member.member)} member"
    if name == "AnswerVaticanReport":
        return _vatican(labels, member.support, view)
    return None


def _vatican(labels: Labels, support: bool, view: Msg | None) -> str:
    """Support: score faith and go back to 0; refuse: this period's excommunication, named."""
    if support:
        return "yes: score your faith points and go back to 0"
    tiles = list(getattr(view, "excommunication_tiles", []) or [])
    period = int(getattr(view, "period", 0) or 0)
    tile = labels.excommunication(tiles[period - 1]) if 0 < period <= len(tiles) else "the excommunication"
    return f"no: keep your faith, take {tile}"
