"""Game content files (YAML) validated by pydantic, with errors that name file, entry and field.

A game's components are the rules' own records (frozen dataclasses): a :class:`File` names a file,
its record class and its checks across records, and :func:`load_file` validates the file onto the
records, through the form each record class declares in its fields' metadata
(``shared.core.form``: keys, groups, bounds); :func:`dump` writes a record back as the files write
it (front-ends' tables). :func:`load` validates a file by any pydantic model or ``TypeAdapter``.

Everything pydantic finds wrong comes back as one :class:`ContentError` that lists every problem
as a :class:`Problem`: the file's name, the *entry* (the ``id`` of the failing list item, else
``#index``) and the dotted field path inside it::

    cards.yaml: entry 25: field costs[0].pay.wood: Input should be greater than or equal to 0

The entry is the first list item on the error's path that is a mapping (a record such as a card or
a board space); errors above any record (a top-level setting, a whole list) have entry ``None`` and
the full path as their field. Two helpers cover what plain field constraints cannot:

* :func:`by_name`: enums written in YAML by their lower-case member name (``type: territory``),
* :data:`UNIQUE_IDS`: a list of records whose ``id`` values must differ; each repeat is reported
  at its own entry.

Checks across fields are the record's ``__post_init__`` raising ``Invalid(field, problem)``
(reported at that field), or, in a hand-written model, ordinary pydantic validators; checks across
records and files are a :class:`File`'s ``check``, with the other files as context. Where a file
writes a value in terms of its own (another record's name for its id), a :class:`File`'s ``before``
turns the file's data into the records' terms before validation. As always in
pydantic, a validator of a list or model runs only once its items are valid, so duplicate ids,
counts and checks across fields are reported after the entries' own problems are fixed.

Models use ``model_config = CONTENT_CONFIG``: unknown keys refused, no coercion (``"3"`` is not
an integer, ``1`` is not ``true``), so YAML lists are validated as ``list`` fields.
This module never imports a game: it only knows YAML and pydantic.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetPydanticSchema,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    create_model,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from shared.core.form import Invalid, form_of

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


def _errors(found: Sequence[tuple[Loc, str]]) -> ValidationError:
    """One validation error per (location, problem), nested by pydantic below the validated value."""
    details = [
        InitErrorDetails(type=PydanticCustomError("content", _literal(problem)), loc=loc, input=None)
        for loc, problem in found
    ]
    return ValidationError.from_exception_data("content", details)


def _literal(text: str) -> str:
    """``text`` as a pydantic message template: its braces doubled, so they stay literal."""
    return text.replace("{", "{{").replace("}", "}}")


# ---------------------------------------------------------------- records validated in their files' form
#
# A record class's *form* is the pydantic type that validates what a content file writes for it
# and returns the record: a model with one field per key of the file (the record's fields, renamed,
# grouped or inlined as ``shared.core.form`` declares), whose result is turned into the record; the
# record's ``__post_init__`` runs then, and an :class:`Invalid` it raises is reported at its field.


_CUSTOM: dict[type, tuple[Any, Callable[[Any], Any]]] = {}


def register_form(cls: type, form: Any, write: Callable[[Any], Any]) -> None:
    """A hand-written form for ``cls`` (a pydantic type whose result is a ``cls``) and how a
    record is written back: for records whose files' form is not field by field, or wraps that
    form (:func:`record_form`, :func:`dump_record`). Forms are built once: register a record's
    form before that of any record holding it is built."""
    _CUSTOM[cls] = (form, write)


def _as_filed(source: Any, handler: GetCoreSchemaHandler) -> Any:
    return handler.generate_schema(_value_type(source, {}))


# ``Annotated[Goods | None, AS_FILED]`` in a hand-written form: a record (or enum ...) as its files write it.
AS_FILED = GetPydanticSchema(_as_filed)


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _file_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields a content file holds (not the ``skip`` ones, texts filled in later)."""
    return [f for f in dataclasses.fields(cls) if f.init and not form_of(f).get("skip")]


def _keys(f: dataclasses.Field[Any]) -> tuple[str, ...]:
    key = form_of(f).get("key", f.name)
    return key if isinstance(key, tuple) else (key,)


def _bounds(meta: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {k: meta[k] for k in names if k in meta}


def _value_type(hint: Any, meta: Mapping[str, Any]) -> Any:
    """The pydantic type of one field's value as the files write it."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _value_type(args[0], meta) | None
    if typing.get_origin(hint) is tuple:
        item = args[0]
        if "by_key" in meta:
            return _by_key_form(item)
        items: Any = list[_value_type(item, _bounds(meta, "ge", "le"))]  # type: ignore[misc]
        if dataclasses.is_dataclass(item) and any(f.name == "id" for f in dataclasses.fields(item)):
            items = Annotated[items, UNIQUE_IDS]
        lengths = _bounds(meta, "min_length", "max_length")
        return Annotated[items, Field(**lengths)] if lengths else items
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return Annotated[hint, by_name(hint, **meta.get("names", {}))]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return form_type(hint)
    bounds = _bounds(meta, "ge", "le", "min_length", "max_length")
    return Annotated[hint, Field(**bounds)] if bounds else hint


@functools.cache
def _by_key_form(pair: type) -> Any:
    """A mapping with one optional count per member of the pair's enum, by lower-case name."""
    key_field, count_field = _file_fields(pair)
    hints = _hints(pair)
    count = (_value_type(hints[count_field.name], form_of(count_field)), 0)
    members: dict[str, Any] = {m.name.lower(): count for m in hints[key_field.name]}
    return create_model(f"{pair.__name__}s", __config__=CONTENT_CONFIG, **members)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return ...


@functools.cache
def form_type(cls: type) -> Any:
    """The pydantic type that validates a file's mapping for a ``cls`` record and returns the record."""
    if cls in _CUSTOM:
        return _CUSTOM[cls][0]
    return record_form(cls)


@functools.cache
def record_form(cls: type) -> Any:
    """``cls``'s form read field by field from its metadata, ``Annotated[model, AfterValidator]``
    (the model has one field per key of the file's mapping), also where a hand-written one is
    registered."""
    hints = _hints(cls)
    top: dict[str, Any] = {}
    groups: dict[str, dict[str, Any]] = {}
    kinds: dict[str, tuple[str, Mapping[Any, tuple[str, ...]]]] = {}
    for f in _file_fields(cls):
        meta = form_of(f)
        if meta.get("inline"):
            inner = _hints(hints[f.name])
            for g in _file_fields(hints[f.name]):
                top[_keys(g)[0]] = (_value_type(inner[g.name], form_of(g)), _default(g))
            continue
        keys = _keys(f)
        for key in keys:
            spec = (_value_type(hints[f.name], meta), None if len(keys) > 1 else _default(f))
            group, _, sub = key.rpartition(".")
            (groups.setdefault(group, {}) if group else top)[sub] = spec
            if "keys" in meta:
                kinds[group] = (sub, meta["keys"])
    for group, members in groups.items():
        model = create_model(f"{cls.__name__}_{group}", __config__=CONTENT_CONFIG, **members)
        required = any(default is ... for _, default in members.values())
        if group in kinds:
            model = Annotated[model, AfterValidator(functools.partial(_kind_keys, *kinds[group]))]
        top[group] = (model, ... if required else None)
    model = create_model(f"{cls.__name__}Form", __config__=CONTENT_CONFIG, **top)
    return Annotated[model, AfterValidator(functools.partial(_record, cls))]


def _kind_keys(kind_key: str, wanted: Mapping[Any, tuple[str, ...]], group: BaseModel) -> BaseModel:
    """The keys given besides ``kind_key`` must be exactly those of the group's kind."""
    kind = getattr(group, kind_key)
    want = wanted[kind]
    given = group.model_fields_set - {kind_key}
    missing = [k for k in want if k not in given]
    extra = sorted(given - set(want))
    problems = [f"needs {', '.join(missing)}"] if missing else []
    problems += [f"takes no {', '.join(extra)}"] if extra else []
    if problems:
        raise ValueError(f"{kind.name.lower()} {'; '.join(problems)}")
    return group


def _record(cls: type, model: BaseModel) -> Any:
    """The record a validated form holds; its ``__post_init__``'s :class:`Invalid` at its field."""
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for f in _file_fields(cls):
        meta = form_of(f)
        if meta.get("inline"):
            inner = hints[f.name]
            values[f.name] = inner(
                **{g.name: _read(getattr(model, _keys(g)[0]), form_of(g)) for g in _file_fields(inner)}
            )
            continue
        given = [v for v in (_get(model, key) for key in _keys(f)) if v is not None]
        values[f.name] = _read(given[0], meta) if given else _default(f)
    try:
        return cls(**values)
    except Invalid as e:
        raise _errors([(_loc(cls, e.field), e.problem)]) from None


def _get(model: BaseModel, key: str) -> Any:
    group, _, sub = key.rpartition(".")
    holder = getattr(model, group) if group else model
    return getattr(holder, sub) if holder is not None else None


def _read(value: Any, meta: Mapping[str, Any]) -> Any:
    """A validated value in the record's terms (lists are tuples; ``by_key`` mappings records)."""
    if isinstance(value, BaseModel):  # a by_key mapping
        pair: type = meta["by_key"]
        key = _hints(pair)[_file_fields(pair)[0].name]
        return tuple(pair(m, n) for m in key if (n := getattr(value, m.name.lower())))
    if isinstance(value, list):
        return tuple(value)
    return value


def _loc(cls: type, name: str) -> Loc:
    """Where a file writes the field ``name`` of ``cls`` (a grouped field: its group)."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            return (_keys(f)[0].split(".")[0],)
    return (name,) if name else ()


# ---------------------------------------------------------------- files of records


# (records of a file, the context) -> (index of the record or None for the whole list, field, problem)
Check = Callable[[tuple[Any, ...], Mapping[str, Any]], Iterable[tuple[int | None, str, str]]]
# (what the file holds as read: its list or its one mapping; the context) -> the same as the records hold it
Before = Callable[[Any, Mapping[str, Any]], Any]


@dataclasses.dataclass(frozen=True)
class File:
    """One content file: ``{key: [records]}``, or one record when ``key`` is empty."""

    name: str  # "cards.yaml"
    record: type  # the record class of its entries
    key: str = ""
    count: int | None = None  # exactly this many records
    check: Check | None = None  # checks across records and files, run once every record is valid
    public: tuple[str, ...] = ()  # a one-record file: the keys front-ends read (every key of a list file)
    # the game's own step from how the file writes a value to how the records do (names for ids),
    # run before validation; it leaves what it does not understand to the validation
    before: Before | None = None

    def schema(self) -> Any:
        before = [BeforeValidator(self._before)] if self.before is not None else []
        if not self.key:
            form = form_type(self.record)
            return TypeAdapter(Annotated[form, *before] if before else form)
        sized = [Field(min_length=self.count, max_length=self.count)] if self.count is not None else []
        checks = [AfterValidator(self._checked)] if self.check is not None else []
        records: Any = _value_type(tuple[self.record, ...], {})  # type: ignore[name-defined]
        extra = [*sized, *checks, *before]
        if extra:
            records = Annotated[records, *extra]
        fields: dict[str, Any] = {self.key: (records, ...)}
        return create_model(self.name, __config__=CONTENT_CONFIG, **fields)

    def _before(self, data: Any, info: ValidationInfo) -> Any:
        """``before`` on the file's data; its :class:`Invalid` is reported at its field (a one-record
        file) or at the list."""
        assert self.before is not None
        try:
            return self.before(data, info.context or {})
        except Invalid as e:
            raise _errors([(_loc(self.record, e.field) if not self.key else (), e.problem)]) from None

    def _checked(self, records: list[Any], info: ValidationInfo) -> list[Any]:
        assert self.check is not None
        found = list(self.check(tuple(records), info.context or {}))
        if found:
            fields = {i: _loc(self.record, name) for i, name, _ in found if i is not None}
            raise _errors([((i, *fields[i]) if i is not None else (), problem) for i, _, problem in found])
        return records


def load_file(directory: Path, file: File, context: Mapping[str, Any] | None = None) -> Any:
    """The records of ``file`` in ``directory`` (a tuple, or the one record), validated."""
    loaded: Any = load(directory / file.name, file.schema(), context)
    return tuple(getattr(loaded, file.key)) if file.key else loaded


def public(file: File, records: Any) -> dict[str, list[Any]]:
    """What front-ends read of a file (``/content``): its records written as the file writes them."""
    if file.key:
        return {file.key: [dump(r) for r in records]}
    written = dump(records)
    return {key: written[key] for key in file.public}


def dump(value: Any) -> Any:
    """A record as its file writes it: the file's keys, enums by lower-case name, default values left
    out (in a group with a kind, exactly that kind's keys)."""
    cls = type(value)
    if cls in _CUSTOM:
        return _CUSTOM[cls][1](value)
    if not dataclasses.is_dataclass(value):
        if isinstance(value, tuple):
            return [dump(v) for v in value]
        return value.name.lower() if isinstance(value, enum.Enum) else value
    return dump_record(value)


def dump_record(value: Any) -> dict[str, Any]:
    """A record written field by field, as :func:`dump` writes one without a hand-written writer."""
    cls = type(value)
    out: dict[str, Any] = {}
    wanted = _kind_wanted(value)
    for f in _file_fields(cls):
        meta, v = form_of(f), getattr(value, f.name)
        if meta.get("inline"):
            out.update(dump(v))
            continue
        keys = _keys(f)
        group = keys[0].rpartition(".")[0]
        if group in wanted:
            keys = tuple(k for k in keys if k.rpartition(".")[2] in wanted[group])
            if not keys:
                continue
        elif _default(f) is not ... and v == _default(f):
            continue
        written = _by_key(v) if "by_key" in meta else dump(v)
        group, _, sub = keys[0].rpartition(".")
        (out.setdefault(group, {}) if group else out)[sub] = written
    return out


def _by_key(pairs: tuple[Any, ...]) -> dict[str, Any]:
    """``(CardCount(VENTURE, 5),)`` -> ``{"venture": 5}``."""
    out = {}
    for pair in pairs:
        key, count = (getattr(pair, f.name) for f in _file_fields(type(pair)))
        out[dump(key)] = count
    return out


def _kind_wanted(value: Any) -> dict[str, tuple[str, ...]]:
    """Per group with a kind: the keys the record's kind takes (its kind key included)."""
    wanted: dict[str, tuple[str, ...]] = {}
    for f in dataclasses.fields(type(value)):
        meta = form_of(f)
        if "keys" in meta:
            group, _, sub = _keys(f)[0].rpartition(".")
            wanted[group] = (sub, *meta["keys"][getattr(value, f.name)])
    return wanted


__all__ = [
    "AS_FILED",
    "CONTENT_CONFIG",
    "UNIQUE_IDS",
    "ContentError",
    "File",
    "Problem",
    "by_name",
    "dump",
    "dump_record",
    "form_type",
    "load",
    "load_file",
    "public",
    "record_form",
    "register_form",
]
