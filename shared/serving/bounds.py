"""Bounds on what clients send, and the one generic check of a request against them.

Every string, bytes, repeated and map field of every request is bounded, so no request makes a
service store, log or echo something unbounded; and every enum must hold a number its ``.proto``
defines (proto3 lets unknown numbers through). This is the floor under every RPC: the services
then check their own fields more tightly (ids, names, versions; docs/platform.md lists them all).
Each refusal is an :class:`~shared.serving.errors.InvalidArgument` naming the field's path.
"""

from __future__ import annotations

import re
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from shared.serving.errors import InvalidArgument, clip

MAX_TEXT = 256  # characters of any string (or bytes) field without a tighter bound
MAX_ITEMS = 64  # entries of any repeated or map field without a tighter bound
MAX_COMMAND_ID = 128  # the store's own limit
MAX_VERSION = 2**53  # versions are dense from 1; anything larger is no version of a match
# The store's rule for a match id (shared/store/base.py check_append): it becomes part of Redis keys.
MATCH_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def parse(message_type: type[Message], raw: bytes) -> Message:
    """The request message of ``raw`` bytes; bytes that are not one are a ``malformed_request``."""
    message = message_type()
    try:
        message.ParseFromString(raw)
    except (DecodeError, RuntimeError, ValueError) as err:  # RuntimeError: nested too deeply
        name = message.DESCRIPTOR.full_name
        raise InvalidArgument(
            "the request is not a valid {name}: {err}", "", "malformed_request", name=name, err=err
        ) from None
    return message


def check_request(message: Message, path: str = "") -> None:
    """Every set field of ``message`` (recursively) within :data:`MAX_TEXT` / :data:`MAX_ITEMS`,
    every enum a defined value."""
    for field, value in message.ListFields():
        where = f"{path}.{field.name}" if path else field.name
        if _is_map(field):
            _check_map(field, value, where)
        elif field.is_repeated:
            if len(value) > MAX_ITEMS:
                raise InvalidArgument(
                    "{where}: at most {most} items, not {count}",
                    where,
                    where=where,
                    most=MAX_ITEMS,
                    count=len(value),
                )
            for i, item in enumerate(value):
                _check_value(field, item, f"{where}[{i}]")
        else:
            _check_value(field, value, where)


def _is_map(field: FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _check_map(field: FieldDescriptor, entries: Any, where: str) -> None:
    if len(entries) > MAX_ITEMS:
        raise InvalidArgument(
            "{where}: at most {most} entries, not {count}",
            where,
            where=where,
            most=MAX_ITEMS,
            count=len(entries),
        )
    entry = field.message_type
    assert entry is not None  # _is_map: the generated entry message
    key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
    for key, value in entries.items():
        _check_value(key_field, key, where)
        _check_value(value_field, value, f"{where}[{clip(repr(key), 40)}]")


def _check_value(field: FieldDescriptor, value: Any, where: str) -> None:
    kind = field.type
    if kind in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES) and len(value) > MAX_TEXT:
        raise InvalidArgument(
            "{where}: at most {most} characters, not {count}",
            where,
            where=where,
            most=MAX_TEXT,
            count=len(value),
        )
    enum_type = field.enum_type
    if enum_type is not None and value not in enum_type.values_by_number:
        raise InvalidArgument(
            "{where}: {value} is not a {name} value", where, where=where, value=value, name=enum_type.name
        )
    if kind == FieldDescriptor.TYPE_MESSAGE:
        check_request(value, where)


def match_id(value: str, field: str = "match_id") -> str:
    """A match id as the store accepts it: 1 to 64 letters, digits, '.', '_' or '-'."""
    if not value:
        raise InvalidArgument("{field_name} is required", field, field_name=field)
    if not MATCH_ID.fullmatch(value):
        raise InvalidArgument(
            "{field_name} must be 1 to 64 letters, digits, '.', '_' or '-'", field, field_name=field
        )
    return value


def command_id(value: str, field: str = "command_id") -> str:
    """1 to 128 printable characters; a retry of the command reuses it."""
    if not value:
        raise InvalidArgument("{field_name} is required (a retry reuses it)", field, field_name=field)
    if len(value) > MAX_COMMAND_ID or not value.isprintable():
        raise InvalidArgument(
            "{field_name} must be 1 to {most} printable characters",
            field,
            field_name=field,
            most=MAX_COMMAND_ID,
        )
    return value


def count(value: int, field: str, most: int = MAX_VERSION) -> int:
    """A version, seed, seat or number of seconds: 0 to ``most``."""
    if not 0 <= value <= most:
        raise InvalidArgument(
            "{field_name} must be between 0 and {most}, not {value}",
            field,
            field_name=field,
            most=most,
            value=value,
        )
    return value
