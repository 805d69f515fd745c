"""The ``.proto`` text of a game's types, rendered from the same field descriptions the codec uses.

Stored events are forever, so protobuf numbers are never derived from positions: every type in a
``.proto`` is a ``@message`` whose fields carry ``pb(n)`` and whose oneof members carry
``tag=N`` (``shared.core.wire``); rendering refuses anything else. A class docstring and a field's
trailing comment become comments in the ``.proto``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence

from shared.core.codec import CodecError, FieldSpec, fields_of, snake
from shared.core.wire import comments_of, proto_name, wire_of


def _collect(roots: Iterable[type]) -> tuple[list[type], list[type[enum.IntEnum]]]:
    """Every dataclass and enum reachable from ``roots``, dependencies first."""
    messages: list[type] = []
    enums: list[type[enum.IntEnum]] = []

    def visit(cls: type) -> None:
        if cls in messages:
            return
        for spec in fields_of(cls):
            if spec.kind == "message" and spec.target is not None and spec.target is not cls:
                visit(spec.target)
            if spec.kind == "enum" and spec.target is not None and spec.target not in enums:
                enums.append(spec.target)
        messages.append(cls)

    for root in roots:
        visit(root)
    return messages, enums


def _proto_type(spec: FieldSpec) -> str:
    if spec.target is not None:
        return proto_name(spec.target)
    return {"int": "int32", "bool": "bool", "str": "string"}[spec.kind]


def _comment(text: str, indent: str) -> list[str]:
    """``text`` as ``//`` lines (docstring ``code`` markup shown as `code`)."""
    return [f"{indent}// {line}".rstrip() for line in text.replace("``", "`").splitlines()]


def _render_enum(cls: type[enum.IntEnum]) -> list[str]:
    prefix = snake(cls.__name__).upper()
    if any(m.value == 0 for m in cls):
        raise CodecError(f"enum {cls.__name__}: value 0 is reserved for UNSPECIFIED")
    notes = comments_of(cls)
    lines = [*_comment(notes.doc, ""), f"enum {cls.__name__} {{", f"  {prefix}_UNSPECIFIED = 0;"]
    for m in cls:
        lines += [*_comment(notes.fields.get(m.name, ""), "  "), f"  {prefix}_{m.name} = {m.value};"]
    return [*lines, "}"]


def _reserved(reserved: Iterable[int | str]) -> list[str]:
    """``reserved`` lines: removed numbers, then removed names (``buf breaking`` wants both)."""
    numbers = sorted({r for r in reserved if isinstance(r, int)})
    names = sorted({f'"{r}"' for r in reserved if isinstance(r, str)})
    return [f"  reserved {', '.join(map(str, group))};" for group in (numbers, names) if group]


def _render_message(cls: type) -> list[str]:
    wire = wire_of(cls)
    if wire is None:
        raise CodecError(f"{cls.__name__}: a type in a .proto must be a @message (stable field numbers)")
    notes = comments_of(cls)
    lines = [*_comment(notes.doc, ""), f"message {proto_name(cls)} {{", *_reserved(wire.reserved)]
    for spec in sorted(fields_of(cls), key=lambda s: s.number or 0):
        if spec.number is None:  # not reachable through @message, which checks every field
            raise CodecError(f"{cls.__name__}.{spec.name}: the field has no number, pb(n)")
        label = "repeated " if spec.repeated else "optional " if spec.optional else ""
        lines += _comment(notes.fields.get(spec.name, ""), "  ")
        lines.append(f"  {label}{_proto_type(spec)} {spec.name} = {spec.number};")
    return [*lines, "}"]


def _union_tags(name: str, members: Sequence[type], reserved: Sequence[int | str]) -> dict[int, type]:
    """Tag -> member; every member needs its own ``@message(tag=N)``, never a reserved one."""
    tags: dict[int, type] = {}
    for m in members:
        wire = wire_of(m)
        if wire is None or wire.tag is None:
            raise CodecError(f"{name} member {m.__name__}: needs a stable tag, @message(tag=N)")
        if wire.tag in tags:
            raise CodecError(f"{name}: {m.__name__} and {tags[wire.tag].__name__} share tag {wire.tag}")
        if wire.tag in reserved or snake(m.__name__) in reserved:
            raise CodecError(
                f"{name} member {m.__name__}: tag {wire.tag} or its name is reserved (a removed member's)"
            )
        tags[wire.tag] = m
    return tags


def _render_union(name: str, members: Sequence[type], reserved: Sequence[int | str]) -> list[str]:
    tags = _union_tags(name, members, reserved)
    lines = [
        "// Exactly one member is set. A member's number is its stable tag: never changed, never reused.",
        f"message {name} {{",
        *_reserved(reserved),
        "  oneof kind {",
    ]
    lines += [f"    {tags[t].__name__} {snake(tags[t].__name__)} = {t};" for t in sorted(tags)]
    return [*lines, "  }", "}"]


def render_proto(
    package: str,
    roots: Sequence[type],
    unions: Mapping[str, Sequence[type]],
    header: str,
    reserved_tags: Mapping[str, Sequence[int | str]] | None = None,
) -> str:
    """The ``.proto`` text for every type reachable from ``roots`` plus oneof wrappers.

    Every message must be a ``@message`` and every union member carry a ``tag``; ``reserved_tags``
    names, per union, the tags and field names of removed members (rendered ``reserved``, never reused).
    """
    reserved_tags = reserved_tags or {}
    messages, enums = _collect([*roots, *(m for ms in unions.values() for m in ms)])
    out = [f"// {line}".rstrip() for line in header.strip().splitlines()]
    out += ["", 'syntax = "proto3";', "", f"package {package};", ""]
    for block in [*map(_render_enum, enums), *map(_render_message, messages)]:
        out += [*block, ""]
    for name, members in unions.items():
        out += [*_render_union(name, members, reserved_tags.get(name, ())), ""]
    return "\n".join(out).rstrip() + "\n"
