"""Stable wire numbers for the rules' dataclasses: ``@message`` and ``pb(n)``.

Stored events are forever (ARCHITECTURE, rule 6), so the protobuf field number of every field
is written next to the field and never derived from its position::

    @message(tag=7, reserved=(3, "amount"))
    class ResourcesGained:
        \"\"\"A seat gained goods.\"\"\"   # -> the message's comment in the .proto

        seat: int = pb(1)  # who gained them       (-> the field's comment)
        goods: Goods = pb(2)
        source: Source = pb(4, default=Source.ACTION)

``@message`` is ``@dataclass(frozen=True, slots=True)`` plus the wire facts:

* ``tag``: the member's stable number in the game's ``Command`` or ``Event`` oneof
  (commands and events only; other messages leave it out),
* ``reserved``: numbers and names of removed fields, never to be used again (``buf breaking``
  wants both: the number for stored bytes, the name for JSON),
* ``schema``: the payload's schema version, raised when a field's *meaning* changes; stored
  events of an older version are upcast on read (``shared.core.codec`` ``Upcaster``).

This module is pure (no protobuf import) so rules packages may use it.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import io
import textwrap
import tokenize
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, dataclass_transform, overload

from shared.core.form import FORM, checked
from shared.core.records import record

T = TypeVar("T")
_MISSING: Any = dataclasses.MISSING

NUMBER = "pb"  # dataclasses.Field.metadata key of the field number


@dataclasses.dataclass(frozen=True, slots=True)
class Wire:
    """What ``@message`` records on a class (as ``__wire__``)."""

    tag: int | None
    reserved: tuple[int | str, ...]  # numbers and names of removed fields
    schema: int
    name: str = ""  # the message's name in the .proto when it differs from the class's


@overload
def pb(number: int, *, default: T, **form: Any) -> T: ...
@overload
def pb(number: int, *, default_factory: Callable[[], T], **form: Any) -> T: ...
@overload
def pb(number: int, **form: Any) -> Any: ...
def pb(number: int, *, default: Any = _MISSING, default_factory: Any = _MISSING, **form: Any) -> Any:
    """A dataclass field with protobuf field number ``number`` (1..536870911, never reused).

    ``form`` says how a content file writes the field (``shared.core.form``: ``key="type"``, ``ge=0``).
    """
    if not 1 <= number <= 536_870_911 or 19_000 <= number <= 19_999:
        raise ValueError(f"protobuf field number {number} is out of range or reserved by protobuf")
    metadata: dict[str, Any] = {NUMBER: number} | ({FORM: checked(form)} if form else {})
    return dataclasses.field(default=default, default_factory=default_factory, metadata=metadata)


@overload
def message(cls: type[T], /) -> type[T]: ...
@overload
def message(
    *, tag: int | None = None, reserved: tuple[int | str, ...] = (), schema: int = 1, name: str = ""
) -> Callable[[type[T]], type[T]]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(pb, dataclasses.field))
def message(
    cls: type[T] | None = None,
    /,
    *,
    tag: int | None = None,
    reserved: tuple[int | str, ...] = (),
    schema: int = 1,
    name: str = "",
) -> Any:
    """A frozen, slotted dataclass whose fields all carry ``pb(n)`` numbers (checked here).

    ``name``: the message's name in the ``.proto`` when it differs from the class's (a record the
    rules name ``Card`` that clients have always known as ``CardInfo``)."""

    def wrap(klass: type[T]) -> type[T]:
        out: Any = record(klass)  # frozen, slotted, with a fast __init__ (shared.core.records)
        numbers: dict[int, str] = {}
        for f in dataclasses.fields(out):
            number = f.metadata.get(NUMBER)
            if number is None:
                raise TypeError(f"{klass.__name__}.{f.name}: every field needs a number, pb(n)")
            if number in numbers:
                raise TypeError(f"{klass.__name__}: {f.name} and {numbers[number]} share number {number}")
            if number in reserved or f.name in reserved:
                raise TypeError(f"{klass.__name__}.{f.name}: number {number} or the name is reserved")
            numbers[number] = f.name
        if tag is not None and tag < 1:
            raise TypeError(f"{klass.__name__}: oneof tag must be >= 1")
        out.__wire__ = Wire(tag, tuple(reserved), schema, name)
        klass_out: type[T] = out
        return klass_out

    return wrap if cls is None else wrap(cls)


def wire_of(cls: type) -> Wire | None:
    """The wire facts of a ``@message`` class; None for a plain dataclass."""
    found = cls.__dict__.get("__wire__")
    return found if isinstance(found, Wire) else None


def proto_name(cls: type) -> str:
    """The name of ``cls`` in a ``.proto``."""
    wire = wire_of(cls)
    return (wire.name if wire is not None else "") or cls.__name__


def field_number(f: dataclasses.Field[Any]) -> int | None:
    number = f.metadata.get(NUMBER)
    return int(number) if number is not None else None


def schema_of(cls: type) -> int:
    """The schema version a payload of ``cls`` is written with (1 for a plain dataclass)."""
    wire = wire_of(cls)
    return wire.schema if wire is not None else 1


# ---------------------------------------------------------------- comments for the .proto


@dataclasses.dataclass(frozen=True, slots=True)
class Comments:
    """What the source says about a class: its docstring and one comment per field or member."""

    doc: str
    fields: Mapping[str, str]


_NO_COMMENTS = Comments("", {})
_TOOL_COMMENTS = ("noqa", "type:", "pragma", "fmt:")


@functools.cache
def comments_of(cls: type) -> Comments:
    """The class docstring and, per field (or enum member), its trailing ``# comment`` or else the
    comment lines directly above it. Empty for a class whose source cannot be read (built in a REPL,
    from a zip without sources): comments are documentation, never needed to encode."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
        node = ast.parse(source).body[0]
        comments = _line_comments(source)
    except (OSError, TypeError, SyntaxError, IndexError, tokenize.TokenError):
        return _NO_COMMENTS
    if not isinstance(node, ast.ClassDef):
        return _NO_COMMENTS
    # A class without a docstring gets dataclasses' generated signature as __doc__: read the source.
    doc = ast.get_docstring(node) or ""
    fields: dict[str, str] = {}
    for stmt in node.body:
        target: ast.expr | None = stmt.target if isinstance(stmt, ast.AnnAssign) else None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
        if isinstance(target, ast.Name):
            text = _field_comment(comments, stmt.lineno, stmt.end_lineno or stmt.lineno)
            if text:
                fields[target.id] = text
    return Comments(doc, fields)


def _line_comments(source: str) -> dict[int, tuple[str, bool]]:
    """Line number -> (comment text, whether the comment is the whole line)."""
    lines = source.splitlines()
    out: dict[int, tuple[str, bool]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            text = tok.string.lstrip("#").strip()
            if not text.startswith(_TOOL_COMMENTS):
                out[row] = (text, not lines[row - 1][:col].strip())
    return out


def _field_comment(comments: Mapping[int, tuple[str, bool]], first: int, last: int) -> str:
    trailing = [comments[n][0] for n in range(first, last + 1) if n in comments and not comments[n][1]]
    if trailing:
        return " ".join(trailing)
    above: list[str] = []
    line = first - 1
    while line in comments and comments[line][1]:
        above.insert(0, comments[line][0])
        line -= 1
    return "\n".join(above)
