"""Fast copies and constructions of frozen, slotted dataclass records: the hot path of every fold.

``evolve`` returns a new state for every event, and most events change one or two fields of a
record with twenty; ``dataclasses.replace`` checks its arguments and calls ``__init__``, which sets
each field through ``object.__setattr__``. :func:`copier` generates, once per class (as
``dataclasses`` generates ``__init__``), a function that copies every slot through the slot's own
descriptor and then sets the changed ones: about half a loop's time and a third of ``replace``'s.
:func:`builder` does the same for a new record from its field values in order (every stored event
read and decoded is built so): about half of a frozen ``__init__``'s time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

R = TypeVar("R")

# copy(record, changes) -> a new record: every field of ``record``, then those of ``changes``
Copier = Callable[[R, dict[str, Any]], R]


def plain_record(cls: type) -> bool:
    """Whether ``cls`` is a dataclass with ``slots=True`` whose ``__init__`` only sets its fields
    (no ``__post_init__``, no init-only or keyword-only fields): one these functions may build."""
    return (
        is_dataclass(cls)
        and "__slots__" in cls.__dict__
        and not hasattr(cls, "__post_init__")
        and all(f.init and not f.kw_only for f in fields(cls))
    )


def copier(cls: type[R]) -> Copier[R]:
    """A copy function for ``cls``, a :func:`plain_record` (so a copy equals ``replace``'s). An
    unknown name in ``changes`` raises ``AttributeError``, as ``replace`` raises ``TypeError``."""
    names, scope = _scope(cls, "copier")
    body = "".join(f"    set_{i}(copy, record.{name})\n" for i, name in enumerate(names))
    source = (
        "def copy_record(record, changes):\n    copy = new(cls)\n"
        f"{body}"
        "    for name, value in changes.items():\n        set_attr(copy, name, value)\n"
        "    return copy\n"
    )
    exec(source, scope)  # built here from the class's own field names, nothing else
    copy: Copier[R] = scope["copy_record"]
    return copy


def builder(cls: type[R]) -> Callable[..., R]:
    """``cls(*values)`` for a :func:`plain_record` without its ``__init__``: the values are set in
    field order straight into the slots (no defaults: every field is given)."""
    names, scope = _scope(cls, "builder")
    body = "".join(f"    set_{i}(record, value_{i})\n" for i in range(len(names)))
    values = ", ".join(f"value_{i}" for i in range(len(names)))
    exec(f"def build({values}):\n    record = new(cls)\n{body}    return record\n", scope)
    build: Callable[..., R] = scope["build"]
    return build


def _scope(cls: type, what: str) -> tuple[list[str], dict[str, Any]]:
    if not plain_record(cls):
        raise TypeError(f"{cls.__name__}: {what}() takes a slotted dataclass without __post_init__")
    names = [f.name for f in fields(cls)]
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "set_attr": object.__setattr__}
    scope |= {f"set_{i}": cls.__dict__[name].__set__ for i, name in enumerate(names)}
    return names, scope  # the generated code names the fields' setters and values by position
