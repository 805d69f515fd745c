"""One generic codec for the rules' frozen dataclasses: plain JSON values, protobuf, .proto text.

Games write their commands, events, views and state as frozen dataclasses whose fields hold
only ``int``, ``bool``, ``str``, ``IntEnum`` (values from 1), ``tuple[T, ...]``, nested
dataclasses and ``T | None``. From that one description this module

* converts to and from plain JSON values (snapshots, exported logs),
* converts to and from protobuf messages with the same field names (event payloads, views),
* and describes the fields (:func:`fields_of`) from which ``shared.core.protorender`` renders the
  ``.proto`` file that typed clients generate their code from.

So the Python types are the single source of truth and the committed ``.proto`` is checked
against them by a test (``tabula proto --check``); nothing is mapped by hand. A payload stored
with an older ``schema`` is lifted by the game's upcasters on decode (:class:`MessageCodec`).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import operator
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import DecodeError, Message

from shared.core.records import builder, plain_record
from shared.core.wire import field_number, schema_of


class CodecError(ValueError):
    """A value or type that the codec cannot represent.

    ``field`` is the path of the offending field when the value came from a message (a client's
    command: ``place_family_member.member``, ``privileges[1]``), "" otherwise.
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    number: int | None  # the protobuf field number, ``pb(n)``; None on a plain dataclass (JSON only)
    kind: str  # "int" | "bool" | "str" | "enum" | "message"
    repeated: bool
    optional: bool
    target: type | None  # the enum or dataclass for "enum" / "message"


_SCALARS: dict[type, str] = {int: "int", bool: "bool", str: "str"}


def _spec(f: dataclasses.Field[Any], hint: Any) -> FieldSpec:
    name, number = f.name, field_number(f)
    optional = repeated = False
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(members) != 1:
            raise CodecError(f"field {name}: only 'X | None' unions are allowed")
        optional, hint = True, members[0]
        origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis or optional:
            raise CodecError(f"field {name}: use tuple[T, ...] (not optional)")
        repeated, hint = True, args[0]
    if hint in _SCALARS:
        return FieldSpec(name, number, _SCALARS[hint], repeated, optional, None)
    if isinstance(hint, type) and issubclass(hint, enum.IntEnum):
        return FieldSpec(name, number, "enum", repeated, optional, hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return FieldSpec(name, number, "message", repeated, optional, hint)
    raise CodecError(f"field {name}: unsupported type {hint!r}")


_FIELDS: dict[type, tuple[FieldSpec, ...]] = {}


def fields_of(cls: type) -> tuple[FieldSpec, ...]:
    """The codec's view of a dataclass, computed once per class."""
    cached = _FIELDS.get(cls)
    if cached is None:
        if not dataclasses.is_dataclass(cls):
            raise CodecError(f"{cls!r} is not a dataclass")
        hints = typing.get_type_hints(cls)
        cached = _FIELDS[cls] = tuple(_spec(f, hints[f.name]) for f in dataclasses.fields(cls))
    return cached


# ---------------------------------------------------------------- plain JSON values


def to_plain(obj: Any) -> Any:
    """A dataclass as JSON-ready dicts, lists, ints, bools and strings."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_plain(getattr(obj, f.name)) for f in fields_of(type(obj))}
    if isinstance(obj, tuple):
        return [to_plain(x) for x in obj]
    if isinstance(obj, enum.IntEnum):
        return int(obj)
    return obj


def _scalar_from_plain(spec: FieldSpec, value: Any) -> Any:
    if spec.kind == "message":
        assert spec.target is not None
        return from_plain(spec.target, value)
    if spec.kind == "enum":
        assert spec.target is not None
        return spec.target(value)
    expected = {"int": int, "bool": bool, "str": str}[spec.kind]
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise CodecError(f"field {spec.name}: expected {spec.kind}, got {value!r}")
    return value


def from_plain(cls: type[Any], data: Any) -> Any:
    """Rebuild a dataclass from :func:`to_plain` output; raises CodecError on bad input."""
    if not isinstance(data, dict):
        raise CodecError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
    kwargs: dict[str, Any] = {}
    for spec in fields_of(cls):
        if spec.name not in data:
            raise CodecError(f"{cls.__name__}: missing field {spec.name}")
        value = data[spec.name]
        if spec.repeated:
            kwargs[spec.name] = tuple(_scalar_from_plain(spec, v) for v in value)
        elif value is None and spec.optional:
            kwargs[spec.name] = None
        else:
            kwargs[spec.name] = _scalar_from_plain(spec, value)
    return cls(**kwargs)


# ---------------------------------------------------------------- protobuf


def to_proto(obj: Any, message: Message) -> Message:
    """Fill ``message`` (a class with the same field names) from dataclass ``obj``."""
    for spec in fields_of(type(obj)):
        value = getattr(obj, spec.name)
        if value is None:
            continue
        if spec.kind == "message":
            if spec.repeated:
                target = getattr(message, spec.name)
                for item in value:
                    to_proto(item, target.add())
            else:
                to_proto(value, getattr(message, spec.name))
                getattr(message, spec.name).SetInParent()
        elif spec.repeated:
            getattr(message, spec.name).extend(int(v) if spec.kind == "enum" else v for v in value)
        else:
            setattr(message, spec.name, int(value) if spec.kind == "enum" else value)
    return message


def from_proto(cls: type[Any], message: Message, path: str = "") -> Any:
    """Rebuild a dataclass from a protobuf message with the same field names.

    Checks what protobuf lets through: every enum value must be a defined member (0, "unspecified",
    and unknown numbers are refused), so a client's command is either a well-typed dataclass or a
    :class:`CodecError` naming the field (``path`` prefixes it: ``command.place_family_member``).
    """
    decoder = _DECODERS.get(cls)
    if decoder is None:
        decoder = _DECODERS[cls] = _decoder(cls)
    return decoder(message, path)


# (message, path) -> the dataclass; one per class, built on first use: every event read is decoded
_Decoder = Callable[[Message, str], Any]
# (message, the field's raw value, path) -> its dataclass value
_Convert = Callable[[Message, Any, str], Any]
_DECODERS: dict[type, _Decoder] = {}


def _decoder(cls: type[Any]) -> _Decoder:
    """The fields' raw values in one ``attrgetter`` call, then a conversion for each field that is
    not a plain scalar (enums checked, messages and repeated fields rebuilt, unset optionals None)."""
    specs = fields_of(cls)
    if any(f.kw_only for f in dataclasses.fields(cls)):
        raise CodecError(f"{cls.__name__}: keyword-only fields are not supported")
    names = [spec.name for spec in specs]
    getter = _values_of(names)
    converts = [(i, convert) for i, spec in enumerate(specs) if (convert := _converter(spec)) is not None]
    build = builder(cls) if plain_record(cls) else cls  # the former without ``__init__``'s frozen sets

    def decode(message: Message, path: str) -> Any:
        if not converts:
            return build(*getter(message))
        values = list(getter(message))
        for i, convert in converts:
            values[i] = convert(message, values[i], path)
        return build(*values)

    return decode


def _values_of(names: list[str]) -> Callable[[Message], tuple[Any, ...]]:
    """The raw values of ``names`` in a message, as a tuple (``attrgetter`` returns a bare value for one)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda message: (one(message),)
    return lambda message: ()


def _converter(spec: FieldSpec) -> _Convert | None:
    """How one field's raw value becomes the dataclass's; None: as it is (a plain scalar)."""
    name = spec.name
    convert: _Convert | None = None
    if spec.kind == "message":
        assert spec.target is not None
        target = spec.target
        if spec.repeated:

            def convert(m: Message, raw: Any, path: str) -> Any:
                where = _path(path, name)
                return tuple(from_proto(target, item, f"{where}[{i}]") for i, item in enumerate(raw))
        else:

            def convert(m: Message, raw: Any, path: str) -> Any:
                return from_proto(target, raw, _path(path, name))
    elif spec.kind == "enum":
        assert spec.target is not None
        enum_cls = typing.cast(type[enum.IntEnum], spec.target)
        members = {int(member): member for member in enum_cls}
        if spec.repeated:

            def convert(m: Message, raw: Any, path: str) -> Any:
                return tuple(
                    members[v] if v in members else _member(enum_cls, v, path, name, i)
                    for i, v in enumerate(raw)
                )
        else:

            def convert(m: Message, raw: Any, path: str) -> Any:
                return members[raw] if raw in members else _member(enum_cls, raw, path, name)
    elif spec.repeated:

        def convert(m: Message, raw: Any, path: str) -> Any:
            return tuple(raw)

    if not spec.optional:
        return convert
    inner = convert

    def optional(m: Message, raw: Any, path: str) -> Any:
        if not m.HasField(name):
            return None
        return raw if inner is None else inner(m, raw, path)

    return optional


def _path(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _member(
    enum_cls: type[enum.IntEnum], value: int, path: str, name: str, index: int | None = None
) -> enum.IntEnum:
    try:
        return enum_cls(value)
    except ValueError:
        where = _path(path, name) if index is None else f"{_path(path, name)}[{index}]"
        known = ", ".join(f"{m.value} ({m.name})" for m in enum_cls)
        raise CodecError(f"{where}: {value} is not a {enum_cls.__name__}; one of {known}", where) from None


def plain_from_proto(cls: type[Any], message: Message) -> dict[str, Any]:
    """A protobuf message as the plain values :func:`from_plain` reads (what upcasters work on)."""
    out: dict[str, Any] = {}
    for spec in fields_of(cls):
        raw = getattr(message, spec.name)
        if spec.optional and not message.HasField(spec.name):
            out[spec.name] = None
        elif spec.kind == "message":
            assert spec.target is not None
            target = spec.target
            out[spec.name] = (
                [plain_from_proto(target, m) for m in raw] if spec.repeated else plain_from_proto(target, raw)
            )
        else:
            out[spec.name] = list(raw) if spec.repeated else raw
    return out


# Decoded payloads a codec keeps (MessageCodec.decode): a few MB at most, events being small.
DECODED_KEPT = 4096

# One step of a stored payload's schema: the plain values of schema N -> those of schema N + 1.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class MessageCodec:
    """Encodes a game's dataclasses as the protobuf messages of its generated module.

    ``upcasters`` maps (type name, schema version) to the step that lifts a payload stored with
    that schema to the next one; :meth:`decode` chains them up to the class's ``@message(schema=N)``.
    """

    def __init__(
        self,
        pb2_module: types.ModuleType,
        classes: Iterable[type],
        upcasters: Mapping[tuple[str, int], Upcaster] | None = None,
    ) -> None:
        self._module = pb2_module
        self._by_name = {cls.__name__: cls for cls in classes}
        self._upcasters = dict(upcasters or {})
        # type name -> (dataclass, message class, current schema): one lookup per decoded payload
        self._types: dict[str, tuple[type, type[Message], int]] = {}
        # (type name, payload, schema) -> its dataclass, see decode
        self._decoded: dict[tuple[str, bytes, int | None], Any] = {}

    def message_class(self, name: str) -> type[Message]:
        cls: type[Message] = getattr(self._module, name)
        return cls

    def to_message(self, obj: Any) -> Message:
        return to_proto(obj, self.message_class(type(obj).__name__)())

    def encode(self, obj: Any) -> tuple[str, bytes]:
        """The type name and payload bytes stored in an event envelope (schema: ``schema_of``)."""
        return type(obj).__name__, self.to_message(obj).SerializeToString()

    def decode(self, type_name: str, payload: bytes, schema_version: int | None = None) -> Any:
        """The dataclass of a stored payload; ``schema_version`` (None: the current one) is the
        schema it was written with, and an older one is upcast step by step first.

        The same payload decodes to the same immutable value, and a match's log repeats many (a turn
        ended by the same seat, the same goods gained): up to :data:`DECODED_KEPT` are kept (all let go
        when full), so a fold parses each about once (a refused payload is not kept: it raises every
        time)."""
        key = (type_name, payload, schema_version)
        found = self._decoded.get(key)
        if found is None:
            found = self._decode(type_name, payload, schema_version)
            if len(self._decoded) >= DECODED_KEPT:
                self._decoded.clear()  # thread-safe under the GIL, unlike evicting the oldest
            self._decoded[key] = found
        return found

    def _decode(self, type_name: str, payload: bytes, schema_version: int | None) -> Any:
        known = self._types.get(type_name)
        if known is None:
            cls = self._by_name.get(type_name)
            if cls is None:
                raise CodecError(f"unknown type {type_name!r}")
            known = self._types[type_name] = (cls, self.message_class(type_name), schema_of(cls))
        cls, message_class, current = known
        message = message_class()
        try:
            message.ParseFromString(payload)
        except DecodeError as err:
            raise CodecError(f"{type_name}: payload is not a valid message: {err}") from err
        stored = current if schema_version is None else schema_version
        if stored == current:
            return from_proto(cls, message)
        if stored > current:
            raise CodecError(f"{type_name}: stored with schema {stored}, newer than these rules' {current}")
        plain = plain_from_proto(cls, message)
        for version in range(stored, current):
            upcast = self._upcasters.get((type_name, version))
            if upcast is None:
                raise CodecError(f"{type_name}: no upcaster from schema {version} to {version + 1}")
            plain = upcast(plain)
        return from_plain(cls, plain)

    def stored_message(self, type_name: str, payload: bytes, schema_version: int) -> Message | None:
        """A stored payload as its message, parsed as it is when it was written with the class's
        current schema (it is that message's bytes: no round trip through the dataclass); None
        when it needs :meth:`decode` (an older schema to upcast, or an unknown type)."""
        cls = self._by_name.get(type_name)
        if cls is None or schema_version != schema_of(cls):
            return None
        message = self.message_class(type_name)()
        try:
            message.ParseFromString(payload)
        except DecodeError as err:
            raise CodecError(f"{type_name}: payload is not a valid message: {err}") from err
        return message

    def fill_union(self, wrapper: Message, obj: Any) -> Message:
        """``wrapper`` (a oneof wrapper: ``Command``, ``Event``) with ``obj`` as its member, built in
        place: :func:`wrap_union` of :meth:`to_message` without the copy."""
        member = getattr(wrapper, snake(type(obj).__name__))
        to_proto(obj, member)
        member.SetInParent()
        return wrapper

    def from_message(self, message: Message, path: str = "") -> Any:
        """The dataclass of a message (a client's command); ``path`` prefixes field paths in errors."""
        name = message.DESCRIPTOR.name
        cls = self._by_name.get(name)
        if cls is None:
            raise CodecError(f"unknown message {name!r}", path)
        return from_proto(cls, message, path)


# ---------------------------------------------------------------- oneof wrappers


@functools.cache
def snake(name: str) -> str:
    """A type's name as its oneof member's: ``PlaceFamilyMember`` -> ``place_family_member``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def union_field(message: Message, path: str = "") -> Message:
    """The set member of a oneof wrapper (``shared.core.protorender.render_proto``; ``path``: the wrapper's
    field in the request, named by the error when no member is set)."""
    which = message.WhichOneof("kind")
    if which is None:
        raise CodecError(f"{path or message.DESCRIPTOR.name}: no member set", path)
    member: Message = getattr(message, which)
    return member


def wrap_union(wrapper: Message, member: Message) -> Message:
    getattr(wrapper, snake(member.DESCRIPTOR.name)).CopyFrom(member)
    return wrapper
