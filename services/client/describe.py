"""Readable one-line descriptions of commands and events, driven by the proto descriptors.

Every game's ``Command`` and ``Event`` are oneof wrappers of plain messages. A description is
the member's message name in words (``PlaceFamilyMember`` -> ``Place family member``) and its
fields: enums by value name without the enum prefix (``MEMBER_BLACK`` -> ``black``), nested
``Goods`` as goods, ids through the game's :class:`~services.client.labels.Labels` by field name
(``space``, ``card``, ``leader``, ``tile``, ``seat`` ...). With a view, a family member shows its
die and a tower space the card standing on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from services.client.labels import Labels, goods_text

# Messages of a game's generated module (dynamically imported, so untyped here).
Msg = Any

# The die of each coloured member in LorenzoView.dice (black, white, orange).
_DICE_INDEX = {"black": 0, "white": 1, "orange": 2}


def words(name: str) -> str:
    """``PlaceFamilyMember`` -> ``Place family member``; ``copy_of`` -> ``copy of``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").strip()
    return spaced[:1].upper() + spaced[1:].lower()


def enum_label(enum: Any, number: int) -> str:
    """``MEMBER_BLACK`` -> ``black`` (the enum's prefix stripped, lower case)."""
    value = enum.values_by_number.get(number)
    if value is None:
        return str(number)
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"
    name = value.name.removeprefix(prefix)
    return str(name).replace("_", " ").lower()


def union_member(wrapper: Msg) -> Msg:  # None when no member is set
    """The set member of a oneof wrapper (``Command``, ``Event``), or None."""
    oneofs = wrapper.DESCRIPTOR.oneofs
    if not oneofs:
        return None
    which = wrapper.WhichOneof(oneofs[0].name)
    if which is None:
        return None
    member: Msg = getattr(wrapper, which)
    return member


def _is_set(message: Msg, fd: Any) -> bool:
    if _is_repeated(fd):
        return len(getattr(message, fd.name)) > 0
    if fd.has_presence:
        return bool(message.HasField(fd.name))
    return bool(getattr(message, fd.name))


def _is_repeated(fd: Any) -> bool:
    return bool(fd.is_repeated)


def _goods_of(message: Msg) -> dict[str, Any]:
    return {fd.name: getattr(message, fd.name) for fd in message.DESCRIPTOR.fields}


class Describer:
    """Describes one game's commands and events; ``names`` are the seats' display names."""

    def __init__(self, labels: Labels, names: Sequence[str] = ()) -> None:
        self.labels = labels
        self.names = list(names)

    # ------------------------------------------------------------ values
    def seat(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return f"{self.names[seat]} (seat {seat})"
        return f"seat {seat}"

    def _id_label(self, name: str) -> Callable[[int], str] | None:
        lab = self.labels
        table: dict[str, Callable[[int], str]] = {
            "space": lab.space,
            "card": lab.card,
            "leader": lab.leader,
            "copy_of": lab.leader,
            "copied": lab.leader,
            "tile": lab.bonus_tile if lab.bonus_tiles else lambda i: f"tile #{i}",
            "bonus_tile": lab.bonus_tile,
            "seat": self.seat,
            "cards": lab.card,
            "leaders": lab.leader,
        }
        return table.get(name)

    def value(self, fd: Any, raw: Any, context: str = "") -> str:
        if fd.type == FieldDescriptor.TYPE_ENUM:
            return enum_label(fd.enum_type, int(raw))
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            if fd.message_type.name == "Goods":
                return goods_text(_goods_of(raw))
            return f"({self.fields(raw)})"
        if fd.type == FieldDescriptor.TYPE_BOOL:
            return "yes" if raw else "no"
        if isinstance(raw, int) and not isinstance(raw, bool):
            if context.startswith("Excommunicat") and fd.name in ("tile", "tiles"):
                return self.labels.excommunication(raw)
            label = self._id_label(fd.name)
            if label is not None:
                return label(raw)
        return str(raw)

    def fields(self, message: Msg, skip: tuple[str, ...] = ()) -> str:
        parts = []
        context = message.DESCRIPTOR.name
        for fd in message.DESCRIPTOR.fields:
            if fd.name in skip:
                continue
            raw = getattr(message, fd.name)
            if fd.name == "seat" and not _is_repeated(fd):  # seat 0 is a seat, not "unset"
                parts.append(self.seat(int(raw)))
                continue
            if not _is_set(message, fd):
                continue
            if fd.type == FieldDescriptor.TYPE_MESSAGE and not _is_repeated(fd) and not raw.ListFields():
                continue  # an empty nested message (no discount, nothing paid)
            if _is_repeated(fd):
                text = ", ".join(self.value(fd, item, context) for item in raw)
                parts.append(f"{words(fd.name).lower()}: {text}")
            else:
                text = self.value(fd, raw, context)
                label = words(fd.name).lower()
                parts.append(text if text.lower().startswith(label) else f"{label} {text}")
        return "; ".join(parts)

    # ------------------------------------------------------------ commands
    def command(self, command: Msg, view: Msg | None = None) -> str:
        """One command (the ``Command`` wrapper or its member), e.g.
        ``Place family member: black (die 5) on character tower floor 2 (3): Abbess; 1 servant``."""
        member = union_member(command) if command.DESCRIPTOR.oneofs else command
        if member is None:
            return "(empty command)"
        title = words(member.DESCRIPTOR.name)
        special = self._lorenzo_parts(member, view)
        if special is not None:
            return f"{title}: {special}" if special else title
        rest = self.fields(member)
        if not rest and len(member.DESCRIPTOR.fields) == 1:  # a lone bool left at its default
            fd = member.DESCRIPTOR.fields[0]
            rest = f"{words(fd.name).lower()} {self.value(fd, getattr(member, fd.name))}"
        return f"{title}: {rest}" if rest else title

    def _member_text(self, member: Msg, view: Msg | None) -> str:
        fd = member.DESCRIPTOR.fields_by_name["member"]
        colour = enum_label(fd.enum_type, member.member)
        dice = list(getattr(view, "dice", []) or [])
        if colour in _DICE_INDEX and _DICE_INDEX[colour] < len(dice):
            return f"{colour} member (die {dice[_DICE_INDEX[colour]]})"
        return f"{colour} member"

    def _card_parts(self, member: Msg, view: Msg | None) -> list[str]:
        """The card on a tower space (with the chosen cost when it has alternatives)."""
        parts: list[str] = []
        towers = list(getattr(view, "towers", []) or [])
        space = int(getattr(member, "space", 0))
        card = towers[space - 1] if self.labels.tower_space(space) and 0 < space <= len(towers) else 0
        if card:
            costs = self.labels.costs(card)
            text = self.labels.card(card)
            option = int(getattr(member, "cost_option", 0))
            if costs and 0 <= option < len(costs):
                text += f" (pay {costs[option]})"
            parts.append(text)
        elif getattr(member, "cost_option", 0):
            parts.append(f"cost alternative {member.cost_option + 1}")
        if getattr(member, "discount_option", 0):
            parts.append(f"discount alternative {member.discount_option + 1}")
        return parts

    def _lorenzo_parts(self, member: Msg, view: Msg | None) -> str | None:
        """Richer wording for the Lorenzo commands that carry ids; None: use the generic fields."""
        name = member.DESCRIPTOR.name
        servants = int(getattr(member, "servants", 0))
        extra = [f"+{servants} servant{'s' if servants != 1 else ''}"] if servants else []
        if name == "PlaceFamilyMember":
            where = self.labels.space(member.space)
            return "; ".join(
                [f"{self._member_text(member, view)} on {where}", *self._card_parts(member, view), *extra]
            )
        if name == "TakeBonusCard":
            where = self.labels.space(member.space)
            return "; ".join([f"from {where}", *self._card_parts(member, view), *extra])
        if name == "PerformBonusAction":
            return "; ".join(extra)
        if name == "ChooseExchange":
            card = self.labels.card(member.card)
            if member.option == 0:
                return f"skip the exchange of {card}"
            return f"{card}: {self.labels.exchange(member.card, member.option)}"
        if name == "ChooseCouncilPrivileges":
            fd = member.DESCRIPTOR.fields_by_name["privileges"]
            chosen = [
                f"{enum_label(fd.enum_type, p)} ({self.labels.privilege(p)})"
                if self.labels.privileges
                else enum_label(fd.enum_type, p)
                for p in member.privileges
            ]
            return ", ".join(chosen)
        if name == "ChooseBonusTile":
            return self.labels.bonus_tile(member.tile)
        if name in ("DraftLeader", "DiscardLeader", "PlayLeader"):
            text = self.labels.leader(member.leader)
            requirement = self.labels.requirement(member.leader)
            if name != "DiscardLeader" and requirement:
                text += f" (needs {requirement})"
            if name == "DiscardLeader":
                text += " (for a council privilege)"
            if name == "PlayLeader" and member.HasField("copy_of"):
                text += f", copying {self.labels.leader(member.copy_of)}"
            return text
        if name == "ActivateLeader":
            text = self.labels.leader(member.leader)
            if member.HasField("member"):
                fd = member.DESCRIPTOR.fields_by_name["member"]
                text += f" on the {enum_label(fd.enum_type, member.member)} member"
            return text
        if name == "AnswerVaticanReport":
            return "support the Church" if member.support else "do not support (take the excommunication)"
        return None

    # ------------------------------------------------------------ events
    def event(self, match_event: Msg) -> str:
        """``v12 Ada (seat 0): Family member placed: black member ...`` for a ``MatchEvent``."""
        envelope = match_event.envelope
        member = union_member(match_event.event)
        if member is None:
            return f"v{envelope.version} {envelope.type}"
        title = words(member.DESCRIPTOR.name)
        body = "" if member.DESCRIPTOR.name == "DecksShuffled" else self.fields(member)
        return f"v{envelope.version} {title}" + (f": {body}" if body else "")
