"""Fast copies and constructions of frozen, slotted dataclass records: the hot path of every fold.

``evolve`` returns a new state for every event, and most events change one or two fields of a
record with twenty; ``dataclasses.replace`` checks its arguments and calls ``__init__``, which sets
each field through ``object.__setattr__``. :func:`copier` generates, once per class (as
``dataclasses`` generates ``__init__``), a function that builds the copy as a :func:`draft` (the
same slots, no frozen ``__setattr__``), copies every slot and sets the changed ones by plain
assignment, then gives it the record's class. :func:`builder` does the same for a new record from
its field values in order (every stored event read and decoded is built so). :func:`initializer` is
an ``__init__`` with the dataclass's own parameters and defaults that sets each slot through its
descriptor; ``shared.core.wire.message`` and :func:`record` give it to their classes, so commands, events
and states built by rules code are cheaper too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from functools import cache
from typing import Any, TypeVar, dataclass_transform

R = TypeVar("R")

# copy(record, changes) -> a new record: every field of ``record``, then those of ``changes``
Copier = Callable[[R, dict[str, Any]], R]


def plain_record(cls: type) -> bool:
    """Whether ``cls`` is a dataclass with ``slots=True`` whose ``__init__`` only sets its fields
    (no ``__post_init__``, no init-only or keyword-only fields) and which has a :func:`draft`: one
    these functions may build."""
    return (
        is_dataclass(cls)
        and "__slots__" in cls.__dict__
        and not hasattr(cls, "__post_init__")
        and all(f.init and not f.kw_only for f in fields(cls))
        and draft(cls) is not None
    )


@cache
def draft(cls: type) -> type | None:
    """A class with ``cls``'s slots and nothing else, or None where there can be none (a base class
    of its own). A record is built as a draft, its slots set by plain assignment (no frozen
    ``__setattr__``, no descriptor call: a third of the time), then made a ``cls`` by assigning its
    ``__class__``, which Python allows between classes of the same layout (checked here once)."""
    if cls.__bases__ != (object,) or not isinstance(cls.__dict__.get("__slots__"), tuple):
        return None
    made = type(f"{cls.__name__}Draft", (), {"__slots__": cls.__dict__["__slots__"]})
    probe: Any = object.__new__(made)
    try:
        probe.__class__ = cls
    except TypeError:
        return None
    return made


def copier(cls: type[R]) -> Copier[R]:
    """A copy function for ``cls``, a :func:`plain_record` (so a copy equals ``replace``'s). An
    unknown name in ``changes`` raises ``AttributeError``, as ``replace`` raises ``TypeError``."""
    names, scope = _scope(cls, "copier")
    body = "".join(f"    copy.{name} = record.{name}\n" for name in names)
    source = (
        "def copy_record(record, changes):\n    copy = new(draft)\n"
        f"{body}"
        "    for name, value in changes.items():\n        setattr(copy, name, value)\n"
        "    copy.__class__ = cls\n    return copy\n"
    )
    exec(source, scope)  # built here from the class's own field names, nothing else
    copy: Copier[R] = scope["copy_record"]
    return copy


def builder(cls: type[R]) -> Callable[..., R]:
    """``cls(*values)`` for a :func:`plain_record` without its ``__init__``: the values are set in
    field order straight into the slots (no defaults: every field is given)."""
    names, scope = _scope(cls, "builder")
    body = "".join(f"    record.{name} = value_{i}\n" for i, name in enumerate(names))
    values = ", ".join(f"value_{i}" for i in range(len(names)))
    source = f"def build({values}):\n    record = new(draft)\n{body}"
    source += "    record.__class__ = cls\n    return record\n"
    exec(source, scope)  # built here from the class's own field names, nothing else
    build: Callable[..., R] = scope["build"]
    return build


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[R]) -> type[R]:
    """``@dataclass(frozen=True, slots=True)`` with an :func:`initializer` ``__init__``: for records
    the rules build by the thousand that are not messages (a message gets the same from
    ``shared.core.wire.message``)."""
    out: Any = dataclass(frozen=True, slots=True)(cls)
    if plain_record(out):
        out.__init__ = initializer(out)
    built: type[R] = out
    return built


_UNSET = object()  # a default-factory field's parameter when the caller gave none


def initializer(cls: type) -> Callable[..., None]:
    """An ``__init__`` for a :func:`plain_record` that takes what the dataclass's own ``__init__``
    takes (positional or by name, the same defaults and default factories) and sets each field
    through its slot's descriptor instead of ``object.__setattr__``."""
    names, scope = _scope(cls, "initializer")
    # the generated names start with "__", which no dataclass field's name can (a class body mangles it)
    scope |= {"__unset": _UNSET} | {f"__set_{i}": cls.__dict__[name].__set__ for i, name in enumerate(names)}
    params, body = [], []
    for i, f in enumerate(fields(cls)):
        if f.default is not MISSING:
            scope[f"__default_{i}"] = f.default
            params.append(f"{f.name}=__default_{i}")
        elif f.default_factory is not MISSING:
            scope[f"__factory_{i}"] = f.default_factory
            params.append(f"{f.name}=__unset")
            body.append(f"    if {f.name} is __unset:\n        {f.name} = __factory_{i}()\n")
        else:
            params.append(f.name)
        body.append(f"    __set_{i}(self, {f.name})\n")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("".join(body) or "    pass\n")
    exec(source, scope)  # built here from the class's own field names, nothing else
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _scope(cls: type, what: str) -> tuple[list[str], dict[str, Any]]:
    if not plain_record(cls):
        raise TypeError(f"{cls.__name__}: {what}() takes a slotted dataclass without __post_init__")
    names = [f.name for f in fields(cls)]
    return names, {"new": object.__new__, "cls": cls, "draft": draft(cls)}
