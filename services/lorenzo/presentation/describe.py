"""Lorenzo's commands and events in words: the generic descriptor-driven text with Lorenzo's ids named.

:class:`LorenzoDescriber` extends :class:`shared.core.describe.Describer`: id fields are named by their
field name (``space``, ``card``, ``leader``, ``tile`` ...; an excommunication's ``tile`` is an
excommunication tile), ``Goods`` read as goods, and the commands a player chooses between get
richer wording: a family member shows its die, a tower space the card on it and the cost
alternative paid, an exchange what it pays and gains, a leader what it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from services.lorenzo.presentation.labels import Labels, amounts_text
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


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class LorenzoDescriber(LabelledDescriber):
    labels: Labels

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
            return amounts_text({f.name: getattr(raw, f.name) for f in raw.DESCRIPTOR.fields})
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
        colour = enum_label(fd.enum_type, member.member)
        dice = list(getattr(view, "dice", []) or [])
        if colour in DICE_INDEX and DICE_INDEX[colour] < len(dice):
            die = dice[DICE_INDEX[colour]]
            worth = self.worth(view, member.member)
            return f"{colour} member (die {die}{f', worth {worth}' if worth not in (None, die) else ''})"
        return f"{colour} member"

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
        kind = enum_label(d.DESCRIPTOR.fields_by_name["kind"].enum_type, d.kind)
        if kind == "privileges":
            return f"choose {plural(d.count, 'council privilege')}{' (all different)' if d.count > 1 else ''}"
        if kind == "exchange":
            return f"choose the exchange of {self.labels.card(d.card)}"
        if kind == "take card":
            fd = d.DESCRIPTOR.fields_by_name["card_type"]
            which = enum_label(fd.enum_type, d.card_type) if d.HasField("card_type") else "any"
            discount = amounts_text(
                {f.name: getattr(d.discount, f.name) for f in d.discount.DESCRIPTOR.fields}
            )
            text = f"take a card ({which}) with action value {d.value}"
            return text + (f", {discount} off" if discount != "nothing" else "")
        only = " (servants only)" if d.servants_only else ""
        return f"take a {kind} action of value {d.value}{only}"

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
                text += f" (pay {costs[member.cost_option]})"
            parts.append(text)
        elif member.cost_option:
            parts.append(f"cost alternative {member.cost_option + 1}")
        if member.discount_option:
            parts.append(f"discount alternative {member.discount_option + 1}")
        return parts

    def special(self, member: Msg, view: Msg | None) -> str | None:
        """Richer wording for the commands that carry ids, e.g. ``Place family member: black member (die 5)
        on character tower floor 2 (3); Abbess``; None: the generic fields."""
        name = member.DESCRIPTOR.name
        servants = int(getattr(member, "servants", 0))
        extra = [f"+{servants} servant{'s' if servants != 1 else ''}"] if servants else []
        if name == "PlaceFamilyMember":
            where = f"{self.member_text(member, view)} on {self.labels.space(member.space)}"
            return "; ".join([where, *self._card_parts(member, view), *extra])
        if name == "TakeBonusCard":
            where = f"from {self.labels.space(member.space)}"
            return "; ".join([where, *self._card_parts(member, view), *extra])
        if name == "PerformBonusAction":
            return "; ".join(extra)
        if name == "ChooseExchange":
            card = self.labels.card(member.card)
            if member.option == 0:
                return f"skip the exchange of {card}"
            return f"{card}: {self.labels.exchange(member.card, member.option)}"
        if name == "ChooseCouncilPrivileges":
            fd = member.DESCRIPTOR.fields_by_name["privileges"]
            return ", ".join(
                f"{enum_label(fd.enum_type, p)} ({self.labels.privilege(p)})" for p in member.privileges
            )
        if name == "ChooseBonusTile":
            return self.labels.bonus_tile(member.tile)
        if name in LEADER_COMMANDS:
            return self._leader_text(member)
        if name == "ActivateLeader":
            text = self.labels.leader(member.leader)
            if member.HasField("member"):
                fd = member.DESCRIPTOR.fields_by_name["member"]
                text += f" on the {enum_label(fd.enum_type, member.member)} member"
            return text
        if name == "AnswerVaticanReport":
            return "support the Church" if member.support else "do not support (take the excommunication)"
        return None

    def _leader_text(self, member: Msg) -> str:
        name = member.DESCRIPTOR.name
        text = self.labels.leader(member.leader)
        requirement = self.labels.requirement(member.leader)
        if name == "DiscardLeader":
            return text + " (for a council privilege)"
        if requirement:
            text += f" (needs {requirement})"
        if name == "PlayLeader" and member.HasField("copy_of"):
            text += f", copying {self.labels.leader(member.copy_of)}"
        return text

    # ------------------------------------------------------------ events
    def event(self, member: Msg) -> str:
        """An event; a shuffle is named only (its deck orders are the server's secret anyway)."""
        name = member.DESCRIPTOR.name
        if name == "DecksShuffled":
            return words(name)
        if name == "RoundStarted":
            order = ", ".join(self.seat_alone(s) for s in dict.fromkeys(member.turn_queue))
            return f"Round {member.round} begins; turn order {order}"
        if name == "DecisionsQueued":
            return f"{self.seat_alone(member.seat)} must " + "; then ".join(
                self.decision(d) for d in member.decisions
            )
        return super().event(member)

    def seat_alone(self, seat: int) -> str:
        """A seat by its player's name (``Ada``), ``seat N`` without one."""
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"seat {seat}"
