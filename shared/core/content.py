"""Game content files (YAML) validated by pydantic, with errors that name file, entry and field.

A game describes each of its content files with a pydantic model (or a ``TypeAdapter``) and loads
it with :func:`load`. Everything pydantic finds wrong comes back as one :class:`ContentError` that
lists every problem as a :class:`Problem`: the file's name, the *entry* (the ``id`` of the failing
list item, else ``#index``) and the dotted field path inside it::

    cards.yaml: entry 25: field costs[0].pay.wood: Input should be greater than or equal to 0

The entry is the first list item on the error's path that is a mapping (a record such as a card or
a board space); errors above any record (a top-level setting, a whole list) have entry ``None`` and
the full path as their field. Two helpers cover what plain field constraints cannot:

* :func:`by_name`: enums written in YAML by their lower-case member name (``type: territory``),
* :data:`UNIQUE_IDS`: a list of records whose ``id`` values must differ; each repeat is reported
  at its own entry.

Checks across fields are ordinary pydantic validators: a ``field_validator`` reading
``info.data`` (fields declared above it) reports at its own field; cross-references to other
files arrive as ``info.context`` (see :func:`load`). As always in pydantic, a validator of a
list or model runs only once its items are valid, so duplicate ids or counts are reported after
the entries' own problems are fixed.

Models use ``model_config = CONTENT_CONFIG``: unknown keys refused, no coercion (``"3"`` is not
an integer, ``1`` is not ``true``), so YAML lists are validated as ``list`` fields.
This module never imports a game: it only knows YAML and pydantic.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, PlainValidator, TypeAdapter, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)
Loc = tuple[str | int, ...]

CONTENT_CONFIG = ConfigDict(extra="forbid", strict=True, frozen=True)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a content file."""

    file: str  # the file's name, e.g. "cards.yaml"
    entry: object  # the failing record's id, "#index" when it has none, None above any record
    field: str  # dotted path inside the entry ("costs[0].pay.wood"), "" for the whole entry or file
    problem: str  # pydantic's message, or the validator's

    def __str__(self) -> str:
        where = [self.file]
        if self.entry is not None:
            where.append(f"entry {self.entry}")
        if self.field:
            where.append(f"field {self.field}")
        return f"{': '.join(where)}: {self.problem}"


class ContentError(ValueError):
    """Malformed content. ``file``, ``entry``, ``field`` and ``problem`` describe the first problem;
    ``problems`` holds every one (the message lists them one per line)."""

    def __init__(
        self, file: str, entry: object, field: str, problem: str, more: Sequence[Problem] = ()
    ) -> None:
        self.problems = (Problem(file, entry, field, problem), *more)
        self.file, self.entry, self.field, self.problem = file, entry, field, problem
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def of(cls, problems: Sequence[Problem]) -> ContentError:
        """One error listing ``problems`` (at least one)."""
        first = problems[0]
        return cls(first.file, first.entry, first.field, first.problem, problems[1:])


def load(path: Path, schema: type[M] | TypeAdapter[T], context: Mapping[str, Any] | None = None) -> M | T:
    """The YAML file at ``path`` validated by ``schema`` (a model class or a ``TypeAdapter``).

    ``context`` reaches validators as ``info.context`` (cross-references to files loaded
    before). Raises :class:`ContentError` for unreadable YAML and for every validation problem.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ContentError(path.name, None, "", f"not valid YAML: {e}") from None
    try:
        if isinstance(schema, TypeAdapter):
            return schema.validate_python(data, context=context)
        return schema.model_validate(data, context=context)
    except ValidationError as e:
        raise ContentError.of([_problem(path.name, data, err) for err in e.errors()]) from None


def _problem(file: str, data: Any, error: Mapping[str, Any]) -> Problem:
    """Split an error's location into the record it falls in and the field path inside it."""
    loc: Loc = tuple(error["loc"])
    node, entry, start = data, None, 0
    for i, part in enumerate(loc):
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            node = node[part]
            if isinstance(node, dict):
                ident = node.get("id")
                entry, start = (f"#{part}" if ident is None else ident), i + 1
                break
        elif isinstance(part, str) and isinstance(node, dict):
            node = node.get(part)
        else:
            break
    message = str(error["msg"])
    if error["type"] == "value_error":  # a validator's ValueError: its own words, without "Value error, "
        message = str(error["ctx"]["error"])
    return Problem(file, entry, _dotted(loc[start:]), message)


def _dotted(loc: Loc) -> str:
    """``("costs", 0, "pay")`` -> ``"costs[0].pay"``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def by_name(kind: type[E], **extra: object) -> PlainValidator:
    """Validator for ``Annotated[Kind, by_name(Kind)]``: YAML names a member in lower case.

    ``extra`` adds names for other values, e.g. ``by_name(CardType, any=None)``. A member itself
    is accepted too (models built in Python).
    """
    names: dict[str, object] = {m.name.lower(): m for m in kind} | extra

    def parse(value: object) -> object:
        if isinstance(value, kind):
            return value
        if isinstance(value, str) and value in names:
            return names[value]
        context = {"value": repr(value), "names": ", ".join(names)}
        raise PydanticCustomError("enum_name", "unknown name {value}; expected one of: {names}", context)

    return PlainValidator(parse)


def _unique_ids(entries: list[Any]) -> list[Any]:
    """Every repeated id is reported at its entry's ``id`` field (a validation error raised in a
    validator is nested by pydantic below the validated value's location)."""
    seen: dict[object, int] = {}
    duplicates = []
    for i, item in enumerate(entries):
        if item.id in seen:
            error = PydanticCustomError("duplicate_id", f"duplicate id, also entry #{seen[item.id]}")
            duplicates.append(InitErrorDetails(type=error, loc=(i, "id"), input=item.id))
        seen.setdefault(item.id, i)
    if duplicates:
        raise ValidationError.from_exception_data("content", duplicates)
    return entries


# ``Annotated[list[Record], UNIQUE_IDS]``: records (anything with an ``id``) whose ids all differ.
UNIQUE_IDS = AfterValidator(_unique_ids)

__all__ = ["CONTENT_CONFIG", "UNIQUE_IDS", "ContentError", "Problem", "by_name", "load"]
