"""Lorenzo's words for the terminal client's step-by-step choice (services/client/steps.py).

The client splits the legal commands by their fields (the family member, then the space, then
the servants ...); this module names each step as a question and each value as what it means on
the board: a member with its die, a tower space with the card on it and what that card costs and
does, a cost alternative in goods, a leader with what it needs and gives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.lorenzo.presentation.describe import LorenzoDescriber
from services.lorenzo.presentation.labels import Labels
from services.lorenzo.texts import Words
from shared.core.describe import enum_label

Msg = Any


@dataclass(frozen=True)
class StepWords:
    """The questions of the steps in one locale (``step.<command>.<field>``, else ``step.<field>``)."""

    words: Words

    def step_title(self, command: str, field: str) -> str | None:
        if not command and not field:
            return self.words.t("step.what")
        catalog = self.words.catalog
        own = f"step.{re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', command).lower()}.{field}"
        for key in (own, f"step.{field}"):
            if key in catalog.english:
                return catalog.text(key)
        return None

    def option_text(
        self, labels: Labels, member: Msg, field: str, view: Msg | None, names: Sequence[str]
    ) -> str | None:
        return option_text(labels, member, field, view, names)


def step_title(command: str, field: str) -> str | None:
    """:meth:`StepWords.step_title` in English."""
    return StepWords(Words.of()).step_title(command, field)


def _tower_card(member: Msg, view: Msg | None, labels: Labels) -> int:
    towers = list(getattr(view, "towers", []) or [])
    space = int(member.space)
    return towers[space - 1] if labels.tower_space(space) and 0 < space <= len(towers) else 0


def option_text(
    labels: Labels, member: Msg, field: str, view: Msg | None, names: Sequence[str]
) -> str | None:
    """The value of ``field`` in ``member`` as the player weighs it; None: the client's default."""
    describer = LorenzoDescriber(labels, names)
    t = labels.t
    name = member.DESCRIPTOR.name
    if field == "member" and name != "ActivateLeader":
        return describer.member_text(member, view)
    if field == "space":
        card = _tower_card(member, view, labels)
        where = labels.space(member.space)
        bonus = labels.floor_bonus(member.space) if labels.tower_space(member.space) else ""
        where = t("step.floor_bonus", space=where, bonus=bonus) if bonus else where
        return t("step.space_card", space=where, card=labels.card_text(card)) if card else where
    if field == "servants":
        n = int(member.servants)
        return t(f"step.servants.{'one' if n == 1 else 'other'}", count=n) if n else t("step.no_servants")
    if field == "cost_option":
        costs = labels.costs(_tower_card(member, view, labels))
        chosen = int(member.cost_option)
        if chosen < len(costs):
            return t("step.pay", cost=costs[chosen])
        return t("describe.cost_alternative", number=chosen + 1)
    if field == "discount_option":
        return t("describe.discount_alternative", number=int(member.discount_option) + 1)
    return _other(labels, member, field, view)


def _other(labels: Labels, member: Msg, field: str, view: Msg | None) -> str | None:
    name, t = member.DESCRIPTOR.name, labels.t
    if field == "privileges":
        fd = member.DESCRIPTOR.fields_by_name["privileges"]
        return t("list.comma").join(
            t("describe.privilege", privilege=_enum(labels, fd, p), goods=labels.privilege(p))
            for p in member.privileges
        )
    if field in ("leader", "copy_of") and (field == "leader" or member.HasField("copy_of")):
        return labels.leader_text(getattr(member, field))
    if name == "ChooseBonusTile":
        return labels.bonus_tile_text(member.tile)
    if name == "ChooseExchange" and field == "card":
        return labels.card(member.card)
    if name == "ChooseExchange" and field == "option":
        return labels.exchange(member.card, member.option) if member.option else t("step.skip_exchange")
    if name == "ActivateLeader" and field == "member" and member.HasField("member"):
        fd = member.DESCRIPTOR.fields_by_name["member"]
        return t("step.the_member", colour=_enum(labels, fd, member.member))
    if name == "AnswerVaticanReport":
        return _vatican(labels, member.support, view)
    return None


def _vatican(labels: Labels, support: bool, view: Msg | None) -> str:
    """Support: score faith and go back to 0; refuse: this period's excommunication, named."""
    if support:
        return labels.t("step.support")
    tiles = list(getattr(view, "excommunication_tiles", []) or [])
    period = int(getattr(view, "period", 0) or 0)
    if 0 < period <= len(tiles):
        tile = labels.excommunication(tiles[period - 1])
    else:
        tile = labels.t("step.the_excommunication")
    return labels.t("step.no_support", tile=tile)


def _enum(labels: Labels, fd: Any, number: int) -> str:
    return labels.words.enum(fd.enum_type.name, enum_label(fd.enum_type, number))
