"""Readable one-line text for any game's protobuf messages, driven by their descriptors.

Every game's ``Command`` and ``Event`` are oneof wrappers of plain messages. A description is the
member's message name in words (``PlaceFamilyMember`` -> ``Place family member``) and its fields:
enums by value name without the enum prefix (``MEMBER_BLACK`` -> ``black``), booleans as yes / no,
nested messages in parentheses, a ``seat`` field by the seat's display name.

It lives in ``shared`` because two sides use it: the terminal client describes a game that has
no presentation of its own with :class:`Describer` as it is, and a game's presentation (in its own
package, which the client must not be imported by) subclasses :class:`LabelledDescriber` to name its
ids over its labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor

# Messages of a game's generated module (imported by name at run time, so untyped here).
Msg = Any


def words(name: str) -> str:
    """``PlaceFamilyMember`` -> ``Place family member``; ``copy_of`` -> ``Copy of``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").strip()
    return spaced[:1].upper() + spaced[1:].lower()


def enum_label(enum: EnumDescriptor, number: int) -> str:
    """``MEMBER_BLACK`` -> ``black`` (the enum's prefix stripped, lower case); unknown -> the number."""
    value = enum.values_by_number.get(number)
    if value is None:
        return str(number)
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"
    return str(value.name).removeprefix(prefix).replace("_", " ").lower()


def union_member(wrapper: Msg) -> Msg:
    """The set member of a oneof wrapper (``Command``, ``Event``), or None."""
    oneofs = wrapper.DESCRIPTOR.oneofs
    if not oneofs:
        return None
    which = wrapper.WhichOneof(oneofs[0].name)
    return None if which is None else getattr(wrapper, which)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The seat's display name, or ``seat N`` when it has none."""
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


def is_set(message: Msg, fd: FieldDescriptor) -> bool:
    """A repeated field with items, an optional field present, or a scalar off its zero value."""
    if fd.is_repeated:
        return len(getattr(message, fd.name)) > 0
    if fd.has_presence:
        return bool(message.HasField(fd.name))
    return bool(getattr(message, fd.name))


class Describer:
    """Commands and events of any game in words; ``names`` are the seats' display names.

    A subclass names a game's ids by overriding :meth:`label` and may word a whole command its own
    way in :meth:`special`.
    """

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.names = list(names)

    def seat(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return f"{self.names[seat]} (seat {seat})"
        return f"seat {seat}"

    def label(self, fd: FieldDescriptor, raw: Any, context: str) -> str | None:
        """A game's name for the value ``raw`` of field ``fd`` in message ``context``; None: no name."""
        return None

    def value(self, fd: FieldDescriptor, raw: Any, context: str = "") -> str:
        """One value (one item of a repeated field) as text."""
        named = self.label(fd, raw, context)
        if named is not None:
            return named
        if fd.type == FieldDescriptor.TYPE_ENUM and fd.enum_type is not None:
            return enum_label(fd.enum_type, int(raw))
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            return f"({self.fields(raw)})"
        if fd.type == FieldDescriptor.TYPE_BOOL:
            return "yes" if raw else "no"
        if fd.name == "seat" and isinstance(raw, int):
            return self.seat(raw)
        return str(raw)

    def fields(self, message: Msg, skip: tuple[str, ...] = ()) -> str:
        """``seat 1; goods (coins 5); source market``: the set fields, in declaration order."""
        parts = []
        context = message.DESCRIPTOR.name
        for fd in message.DESCRIPTOR.fields:
            if fd.name in skip:
                continue
            raw = getattr(message, fd.name)
            if fd.name == "seat" and not fd.is_repeated:  # seat 0 is a seat, not "unset"
                parts.append(self.seat(int(raw)))
                continue
            if not is_set(message, fd):
                continue
            if fd.type == FieldDescriptor.TYPE_MESSAGE and not fd.is_repeated and not raw.ListFields():
                continue  # an empty nested message says nothing
            label = self.field_label(fd.name)
            if fd.is_repeated:
                items = self.comma.join(self.value(fd, item, context) for item in raw)
                parts.append(self.titled(label, items))
            else:
                text = self.value(fd, raw, context)
                parts.append(text if text.lower().startswith(label) else f"{label} {text}")
        return self.semicolon.join(parts)

    # the words of :meth:`fields`, for a describer in another language to override
    @property
    def comma(self) -> str:
        return ", "

    @property
    def semicolon(self) -> str:
        return "; "

    def field_label(self, name: str) -> str:
        """A field's name in words (``source_market`` -> ``source market``)."""
        return words(name).lower()

    def titled(self, label: str, text: str) -> str:
        """A repeated field: ``label: a, b``."""
        return f"{label}: {text}"

    def special(self, member: Msg, view: Msg | None) -> str | None:
        """A game's own words for a command after its title (``""``: the title alone); None: the
        fields' words."""
        return None

    def command(self, member: Msg, view: Msg | None = None) -> str:
        """One command (the member of the ``Command`` oneof), e.g. ``Move: from 3; to 5``."""
        title = words(member.DESCRIPTOR.name)
        special = self.special(member, view)
        if special is not None:
            return f"{title}: {special}" if special else title
        rest = self.fields(member)
        if not rest and len(member.DESCRIPTOR.fields) == 1:  # a lone bool left at its default
            fd = member.DESCRIPTOR.fields[0]
            rest = f"{words(fd.name).lower()} {self.value(fd, getattr(member, fd.name))}"
        return f"{title}: {rest}" if rest else title

    def event(self, member: Msg) -> str:
        """One event (the member of the ``Event`` oneof), e.g. ``Die rolled: Ada (seat 0); value 4``."""
        title = words(member.DESCRIPTOR.name)
        body = self.fields(member)
        return f"{title}: {body}" if body else title


def is_id(fd: FieldDescriptor, raw: Any) -> bool:
    """Whether a value is an integer a game may name (a bool is an integer to Python, never an id)."""
    return fd.type == FieldDescriptor.TYPE_INT32 and not isinstance(raw, bool)


class LabelledDescriber(Describer):
    """A game's :class:`Describer` over its ``labels`` (the names of its validated content): an id is
    named by its field's name (:meth:`id_names`)."""

    def __init__(self, labels: Any, names: Sequence[str] = ()) -> None:
        super().__init__(names)
        self.labels = labels

    def id_names(self) -> Mapping[str, Callable[[int], str]]:
        """Field name -> the label of an id in that field."""
        return {}

    def label(self, fd: FieldDescriptor, raw: Any, context: str) -> str | None:
        name = self.id_names().get(fd.name) if is_id(fd, raw) else None
        return name(raw) if name is not None else None
