"""Hypothesis strategies for any protobuf request, from its descriptor alone.

Well-typed messages with hostile values: strings empty, long, with control characters or not
UTF-8-safe text; integers at the edges of their type and negative; enums at 0, defined, and far
out of range; repeated and map fields empty, small or over the bounds; oneofs with one member
or none. ``nudged`` takes a real message (a legal command) and changes one field, so the
fuzzer also reaches the rules with commands that are almost right.
"""

from __future__ import annotations

import functools
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

MAX_DEPTH = 4
INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
TEXTS = st.one_of(
    st.sampled_from(["", "a", "race", "lorenzo", "x" * 65, "y" * 300, "a\n", "a b", "../x", "é" * 40]),
    st.text(max_size=12),
    st.text(alphabet="abcdef0123456789-_.", min_size=1, max_size=70),
)


def _integers(kind: int) -> st.SearchStrategy[int]:
    low, high = INT_RANGES[kind]
    edges = [v for v in (low, -1, 0, 1, 2, 3, 4, 5, 7, 64, 65, 99, high) if low <= v <= high]
    return st.one_of(
        st.sampled_from(edges), st.integers(max(low, -10), min(high, 120)), st.integers(low, high)
    )


def scalar(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    """Values of one (non-repeated) field's type."""
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        return TEXTS
    if kind == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=16)
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(width=32 if kind == FieldDescriptor.TYPE_FLOAT else 64)
    if kind == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        defined = sorted(field.enum_type.values_by_number)
        return st.one_of(st.sampled_from(defined), st.integers(-3, 40), st.integers(-(2**31), 2**31 - 1))
    if kind == FieldDescriptor.TYPE_MESSAGE:
        assert field.message_type is not None
        return messages(field.message_type, depth + 1)
    return _integers(kind)


def _values(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    """What to put in one field: a value, a list (repeated), a dict (map)."""
    entry = field.message_type
    if entry is not None and entry.GetOptions().map_entry:
        key, value = entry.fields_by_name["key"], entry.fields_by_name["value"]
        small = st.dictionaries(scalar(key, depth), scalar(value, depth), max_size=3)
        if value.type != FieldDescriptor.TYPE_STRING:
            return small
        string_keys = key.type == FieldDescriptor.TYPE_STRING
        big = st.integers(15, 70).map(lambda n: {(f"k{i}" if string_keys else i): "1" for i in range(n)})
        return st.one_of(small, big)
    if field.is_repeated:
        item = scalar(field, depth)
        return st.one_of(st.lists(item, max_size=4), st.lists(item, min_size=63, max_size=66))
    return scalar(field, depth)


def _fill(cls: type[Message], chosen: dict[str, Any]) -> Message:
    message = cls()
    for name, value in chosen.items():
        field = message.DESCRIPTOR.fields_by_name[name]
        target = getattr(message, name)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            for k, v in value.items():
                if isinstance(v, Message):
                    target[k].CopyFrom(v)
                else:
                    target[k] = v
        elif field.is_repeated:
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                for item in value:
                    target.add().CopyFrom(item)
            else:
                target.extend(value)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            target.CopyFrom(value)
        else:
            setattr(message, name, value)
    return message


@functools.cache
def messages(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[Message]:
    """Random well-typed messages of ``descriptor`` (at most one member of each oneof)."""
    cls = message_factory.GetMessageClass(descriptor)
    if depth >= MAX_DEPTH:
        return st.just(cls())
    # proto3 ``optional`` fields sit in synthetic oneofs named "_<field>": they are plain fields here
    real = [o for o in descriptor.oneofs if not o.name.startswith("_")]
    in_real = {f.name for o in real for f in o.fields}
    plain = {f.name: _values(f, depth) for f in descriptor.fields if f.name not in in_real}
    parts: list[st.SearchStrategy[dict[str, Any]]] = [st.fixed_dictionaries({}, optional=plain)]
    for oneof in real:
        members = [_values(f, depth).map(functools.partial(_one, f.name)) for f in oneof.fields]
        parts.append(st.one_of(st.just({}), *members))
    return st.tuples(*parts).map(
        lambda chosen: _fill(cls, {k: v for part in chosen for k, v in part.items()})
    )


def _one(name: str, value: Any) -> dict[str, Any]:
    return {name: value}


# Values for a field of a command that is otherwise legal: the edges of int32 and small numbers.
NUDGES = st.one_of(
    st.sampled_from([-(2**31), -100, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 20, 64, 99, 1000, 2**31 - 1]),
    st.integers(-(2**31), 2**31 - 1),
)


def nudged(original: Message, pick: int, value: int) -> Message:
    """``original`` (a oneof wrapper such as a Command) with field ``pick`` (modulo the count) of its
    member set to ``value``: an int or an enum as is, a bool as ``value != 0``, a string as its
    digits, a repeated field as ``[value]``; nested messages are left alone. Pure, so the draws
    of a test case never depend on the state of the match."""
    out = type(original)()
    out.CopyFrom(original)
    which = out.WhichOneof("kind")
    member = getattr(out, which) if which is not None else None
    if member is None or not member.DESCRIPTOR.fields:
        return out
    field = member.DESCRIPTOR.fields[pick % len(member.DESCRIPTOR.fields)]
    kind = field.type
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return out
    new: Any = (
        value != 0
        if kind == FieldDescriptor.TYPE_BOOL
        else str(value)
        if kind == FieldDescriptor.TYPE_STRING
        else value
    )
    if field.is_repeated:
        getattr(member, field.name)[:] = [new]
    else:
        setattr(member, field.name, new)
    return out
