"""How a record is written in a game's content files: pure declarations the content loader reads.

A game's components are the rules' own frozen dataclasses. Where a content file writes a field
differently from the record, the field says so in its metadata (``pb(n, key="type")`` on a
``@message``, :func:`field` on a plain dataclass); ``shared.core.content`` reads these keys to
validate the files onto the records and to write the records back for front-ends:

* ``key``: the file's name for the field. ``"ability.kind"`` puts it in the ``ability`` mapping
  with the other fields named ``ability.*``; a tuple of keys gives alternatives, one of which the
  file writes (``("penalty.value", "penalty.every")``);
* ``inline``: a nested record whose fields the file writes in this record's own mapping;
* ``skip``: a field the files never hold (texts for front-ends, filled in later);
* ``names``: for an enum field, extra names and the values they stand for (``{"any": None}``);
* ``keys``: on a group's ``kind`` field, the other keys the group takes for each kind;
* ``by_key``: a tuple of two-field records written as a mapping from the first field (an enum, by
  name) to the second (``cards: {venture: 5}``), kept in the enum's order;
* ``ge``, ``le``, ``min_length``, ``max_length``: bounds on the value (or the list).

Checks across fields are the record's own ``__post_init__``: it raises :class:`Invalid` naming the
field at fault, and the loader reports it at that field of the file. A record that is not a
``@message`` and has such checks is a :func:`content_record` (``shared.core.records.record`` takes
none). This module imports nothing
but the standard library, so rules packages use it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar, dataclass_transform

FORM = "form"  # dataclasses.Field.metadata key of the form declarations
KEYS = frozenset({"key", "inline", "skip", "names", "keys", "by_key", "ge", "le", "min_length", "max_length"})
_MISSING: Any = dataclasses.MISSING
T = TypeVar("T")


class Invalid(ValueError):
    """A record that breaks a rule across its fields: ``field`` is the field at fault."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field, self.problem = field, problem


def checked(form: Mapping[str, Any]) -> dict[str, Any]:
    """``form`` with its keys checked (a typo must not silently drop a bound)."""
    unknown = sorted(set(form) - KEYS)
    if unknown:
        raise TypeError(f"unknown content form key(s): {', '.join(unknown)}")
    return dict(form)


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, **form: Any) -> Any:
    """A plain dataclass field with form declarations (a ``@message`` field takes them in ``pb``)."""
    return dataclasses.field(default=default, default_factory=default_factory, metadata={FORM: checked(form)})


@dataclass_transform(frozen_default=True, field_specifiers=(field, dataclasses.field))
def content_record(cls: type[T]) -> type[T]:
    """A frozen, slotted dataclass whose fields may carry form declarations (:func:`field`): a record
    of the content that is not a ``@message`` (never sent as it is)."""
    return dataclasses.dataclass(frozen=True, slots=True)(cls)


def form_of(f: dataclasses.Field[Any]) -> Mapping[str, Any]:
    """The form declarations of a dataclass field (empty: written as it is named)."""
    found: Mapping[str, Any] = f.metadata.get(FORM, {})
    return found


__all__ = ["FORM", "Invalid", "checked", "content_record", "field", "form_of"]
