"""Lorenzo's commands and events in words: the generic descriptor-driven text with Lorenzo's ids named.

:class:`LorenzoDescriber` extends :class:`shared.core.describe.Describer`: id fields are named by their
field name (``space``, ``card``, ``leader``, ``tile`` ...; an excommunication's ``tile`` is an
excommunication tile), ``Goods`` read as goods, and the commands a player chooses between get
richer wording: a family member shows its die, a tower space the card on it and the cost
alternative paid, an exchange what it pays and gains, a leader what it needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from services.lorenzo.presentation.labels import Labels
from services.lorenzo.rules.model import Member
from services.lorenzo.rules.queries import die_value
from services.lorenzo.rules.view import PlayerView
from shared.core.codec import from_proto
from shared.core.describe import LabelledDescriber, enum_label, is_id, words

Msg = Any

# The die of each coloured member in LorenzoView.dice (black, white, orange).
DICE_INDEX = {"black": 0, "white": 1, "orange": 2}
LEADER_COMMANDS = ("DraftLeader", "DiscardLeader", "PlayLeader")
SEAT_LISTS = ("turn_order", "turn_queue", "pickers")  # repeated fields of seats


class LorenzoDescriber(LabelledDescriber):
    """Lorenzo's commands and events in the labels' locale: titles, field names and enum values
    through the game's texts (``command.*``, ``event.*``, ``field.*``, ``enum.*``)."""

    labels: Labels

    def t(self, key: str, **values: Any) -> str:
        return self.labels.words.t(key, **values)

    def word(self, kind: str, name: str, english: str) -> str:
        return self.labels.words.catalog.get(f"{kind}.{name}", english)

    def enum(self, fd: FieldDescriptor, number: int) -> str:
        """An enum value's word in the locale (``black`` for ``MEMBER_BLACK``)."""
        enum = fd.enum_type
        assert enum is not None, "an enum field"
        return self.labels.words.enum(enum.name, enum_label(enum, number))

    # ------------------------------------------------------------ the generic wording, in the locale
    def seat(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.t("describe.seat_named", name=self.names[seat], seat=seat)
        return self.t("describe.seat", seat=seat)

    def value(self, fd: FieldDescriptor, raw: Any, context: str = "") -> str:
        if self.label(fd, raw, context) is None:
            if fd.type == FieldDescriptor.TYPE_ENUM and fd.enum_type is not None:
                return self.enum(fd, int(raw))
            if fd.type == FieldDescriptor.TYPE_BOOL:
                return self.t("describe.yes") if raw else self.t("describe.no")
        return super().value(fd, raw, context)

    def field_label(self, name: str) -> str:
        return self.word("field", name, words(name).lower())

    def titled(self, label: str, text: str) -> str:
        return self.t("describe.titled", title=label, text=text)

    @property
    def comma(self) -> str:
        return self.t("list.comma")

    @property
    def semicolon(self) -> str:
        return self.t("list.semicolon")

    def title(self, kind: str, member: Msg) -> str:
        name = member.DESCRIPTOR.name
        return self.word(kind, re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower(), words(name))

    def command(self, member: Msg, view: Msg | None = None) -> str:
        title = self.title("command", member)
        special = self.special(member, view)
        if special is not None:
            return self.t("describe.titled", title=title, text=special) if special else title
        rest = self.fields(member)
        if not rest and len(member.DESCRIPTOR.fields) == 1:  # a lone bool left at its default
            fd = member.DESCRIPTOR.fields[0]
            rest = f"{self.field_label(fd.name)} {self.value(fd, getattr(member, fd.name))}"
        return self.t("describe.titled", title=title, text=rest) if rest else title

    # ------------------------------------------------------------ values
    def id_names(self) -> dict[str, Callable[[int], str]]:
        lab = self.labels
        return {
            "space": lab.space,
            "card": lab.card,
            "cards": lab.card,
            "leader": lab.leader,
            "leaders": lab.leader,
            "copy_of": lab.leader,
            "copied": lab.leader,
            "tile": lab.bonus_tile,
            "bonus_tile": lab.bonus_tile,
        }

    def label(self, fd: FieldDescriptor, raw: Any, context: str) -> str | None:
        if fd.type == FieldDescriptor.TYPE_MESSAGE and raw.DESCRIPTOR.name == "Goods":
            return self.labels.words.amounts_text(
                {f.name: getattr(raw, f.name) for f in raw.DESCRIPTOR.fields}
            )
        if is_id(fd, raw) and fd.name in SEAT_LISTS:
            return self.seat_alone(raw)
        if is_id(fd, raw) and context.startswith("Excommunicat") and fd.name in ("tile", "tiles"):
            return self.labels.excommunication(raw)
        return super().label(fd, raw, context)

    # ------------------------------------------------------------ commands
    def member_text(self, member: Msg, view: Msg | None) -> str:
        """``black member (die 5)``; ``(die 5, worth 4)`` when the rules count it otherwise (an
        excommunication's -1, a leader's fixed value)."""
        fd = member.DESCRIPTOR.fields_by_name["member"]
        english = enum_label(fd.enum_type, member.member)
        colour = self.enum(fd, member.member)
        dice = list(getattr(view, "dice", []) or [])
        if english in DICE_INDEX and DICE_INDEX[english] < len(dice):
            die = dice[DICE_INDEX[english]]
            worth = self.worth(view, member.member)
            if worth in (None, die):
                return self.t("describe.member_die", colour=colour, die=die)
            return self.t("describe.member_worth", colour=colour, die=die, worth=worth)
        return self.t("describe.member", colour=colour)

    def worth(self, view: Msg | None, member: int, seat: int | None = None) -> int | None:
        """What ``seat``'s (default: the viewer's) ``member`` is worth by the rules before servants:
        the die, a leader's value, the excommunications' modifiers. None without the dice or the seat."""
        seat = view.viewer_seat if seat is None and view is not None else seat
        players = list(getattr(view, "players", []) or [])
        holder = next((p for p in players if p.seat == seat), None)
        dice = list(getattr(view, "dice", []) or [])
        if holder is None or len(dice) != len(DICE_INDEX):
            return None
        typed: PlayerView = from_proto(PlayerView, holder)
        return die_value(self.labels.content, dice, typed, Member(member))

    def decision(self, d: Msg) -> str:
        """A pending decision in words: ``choose 2 different council privileges``."""
        kind_fd = d.DESCRIPTOR.fields_by_name["kind"]
        kind = enum_label(kind_fd.enum_type, d.kind)
        if kind == "privileges":
            return self.t(f"describe.privileges.{'one' if d.count == 1 else 'other'}", count=d.count)
        if kind == "exchange":
            return self.t("describe.exchange_of", card=self.labels.card(d.card))
        if kind == "take card":
            fd = d.DESCRIPTOR.fields_by_name["card_type"]
            which = self.enum(fd, d.card_type) if d.HasField("card_type") else self.t("card_type.any")
            if not any(getattr(d.discount, f.name) for f in d.discount.DESCRIPTOR.fields):
                return self.t("describe.take_card", type=which, value=d.value)
            discount = self.labels.words.amounts_text(
                {f.name: getattr(d.discount, f.name) for f in d.discount.DESCRIPTOR.fields}
            )
            return self.t("describe.take_card_discount", type=which, value=d.value, discount=discount)
        key = "describe.action_servants" if d.servants_only else "describe.action"
        return self.t(key, kind=self.enum(kind_fd, d.kind), value=d.value)

    def _card_parts(self, member: Msg, view: Msg | None) -> list[str]:
        """The card on a tower space (with the chosen cost when it has alternatives)."""
        parts: list[str] = []
        towers = list(getattr(view, "towers", []) or [])
        space = int(member.space)
        card = towers[space - 1] if self.labels.tower_space(space) and 0 < space <= len(towers) else 0
        if card:
            costs = self.labels.costs(card)
            text = self.labels.card(card)
            if costs and 0 <= member.cost_option < len(costs):
                text = self.t("describe.pay", card=text, cost=costs[member.cost_option])
            parts.append(text)
        elif member.cost_option:
            parts.append(self.t("describe.cost_alternative", number=member.cost_option + 1))
        if member.discount_option:
            parts.append(self.t("describe.discount_alternative", number=member.discount_option + 1))
        return parts

    def special(self, member: Msg, view: Msg | None) -> str | None:
        """Richer wording for the commands that carry ids, e.g. ``Place family member: black member (die 5)
        on character tower floor 2 (3); Abbess``; None: the generic fields."""
        name = member.DESCRIPTOR.name
        servants = int(getattr(member, "servants", 0))
        plural = "one" if servants == 1 else "other"
        extra = [self.t(f"describe.servants.{plural}", count=servants)] if servants else []
        if name == "PlaceFamilyMember":
            where = self.t(
                "describe.on", member=self.member_text(member, view), space=self.labels.space(member.space)
            )
            return self.t("list.semicolon").join([where, *self._card_parts(member, view), *extra])
        if name == "TakeBonusCard":
            where = self.t("describe.from", space=self.labels.space(member.space))
            return self.t("list.semicolon").join([where, *self._card_parts(member, view), *extra])
        if name == "PerformBonusAction":
            return self.t("list.semicolon").join(extra)
        if name == "ChooseExchange":
            card = self.labels.card(member.card)
            if member.option == 0:
                return self.t("describe.skip_exchange", card=card)
            return self.t(
                "describe.exchange", card=card, exchange=self.labels.exchange(member.card, member.option)
            )
        if name == "ChooseCouncilPrivileges":
            fd = member.DESCRIPTOR.fields_by_name["privileges"]
            return self.labels.words.t("list.comma").join(
                self.t("describe.privilege", privilege=self.enum(fd, p), goods=self.labels.privilege(p))
                for p in member.privileges
            )
        if name == "ChooseBonusTile":
            return self.labels.bonus_tile(member.tile)
        if name in LEADER_COMMANDS:
            return self._leader_text(member)
        if name == "ActivateLeader":
            text = self.labels.leader(member.leader)
            if member.HasField("member"):
                fd = member.DESCRIPTOR.fields_by_name["member"]
                text = self.t("describe.on_member", leader=text, colour=self.enum(fd, member.member))
            return text
        if name == "AnswerVaticanReport":
            return self.t("describe.support") if member.support else self.t("describe.no_support")
        return None

    def _leader_text(self, member: Msg) -> str:
        name = member.DESCRIPTOR.name
        text = self.labels.leader(member.leader)
        requirement = self.labels.requirement(member.leader)
        if name == "DiscardLeader":
            return self.t("describe.discard", leader=text)
        if requirement:
            text = self.t("describe.needs", leader=text, requirement=requirement)
        if name == "PlayLeader" and member.HasField("copy_of"):
            text = self.t("describe.copying", leader=text, copied=self.labels.leader(member.copy_of))
        return text

    # ------------------------------------------------------------ events
    def event(self, member: Msg) -> str:
        """An event; a shuffle is named only (its deck orders are the server's secret anyway)."""
        name = member.DESCRIPTOR.name
        if name == "DecksShuffled":
            return self.title("event", member)
        if name == "RoundStarted":
            order = self.t("list.comma").join(self.seat_alone(s) for s in dict.fromkeys(member.turn_queue))
            return self.t("describe.round_started", round=member.round, order=order)
        if name == "DecisionsQueued":
            decisions = self.t("list.then").join(self.decision(d) for d in member.decisions)
            return self.t("describe.must", seat=self.seat_alone(member.seat), decisions=decisions)
        title, body = self.title("event", member), self.fields(member)
        return self.t("describe.titled", title=title, text=body) if body else title

    def seat_alone(self, seat: int) -> str:
        """A seat by its player's name (``Ada``), ``seat N`` without one."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.t("describe.seat", seat=seat)
