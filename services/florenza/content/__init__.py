"""Florenza's content files, loaded into the typed records of the rules package.

The only module of the game that reads files. Each file holds records of
``services.florenza.rules.content_types``, validated on those records by the generic loader
(``shared.core.content``) as their field metadata declares, in two forms of Florenza's own around it
(``register_form``): every record names the source of each of its values in a ``provenance:``
mapping, and every board setting is a ``{value, provenance}`` pair (docs/rules/florenza.md,
"Provenance in the data"). The anonymous characters, listed apart in their files, have a shorter
form. The checks across files (the component counts of board.yaml, one id space for the characters,
the anonymous tiles on the Life in Florenza cards) follow the files. Anything wrong raises one
:class:`ContentError` naming the file, the entry and the field.
"""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar

import yaml
from pydantic import AfterValidator, BaseModel, Field, create_model

from services.florenza.rules.content_types import (
    FACES,
    LIFE_CARDS,
    Area,
    Artist,
    ArtWork,
    Board,
    Content,
    Face,
    LifeCard,
    Preacher,
    Skill,
    SkillRow,
    Workshop,
)
from services.florenza.rules.goods import Resource
from shared.core.content import (
    CONTENT_CONFIG,
    UNIQUE_IDS,
    ContentError,
    File,
    by_name,
    dump,
    dump_record,
    form_type,
    load,
    load_file,
    public,
    record_form,
    register_form,
)

CONTENT_DIR = Path(__file__).parent
FILES = ("board.yaml", "workshops.yaml", "artists.yaml", "preachers.yaml", "artworks.yaml", "life.yaml")
T = TypeVar("T")

# ---------------------------------------------------------------- provenance

PROVENANCE = re.compile(r"printed \((seed|ref) .+\)|project-defined( \(.+\))?", re.DOTALL)


def is_project_defined(provenance: str) -> bool:
    return provenance.startswith("project-defined")


def _provenance(text: str) -> str:
    if not PROVENANCE.fullmatch(text):
        raise ValueError('provenance is "printed (seed …)", "printed (ref …)" or "project-defined[ (…)]"')
    return text


Provenance = Annotated[str, AfterValidator(_provenance)]


class Sourced(BaseModel, Generic[T]):
    """A board setting: its value and where the value comes from."""

    model_config = CONTENT_CONFIG

    value: T
    provenance: Provenance


def _every_key_sourced(keys: tuple[str, ...], given: dict[str, str]) -> dict[str, str]:
    missing, extra = sorted(set(keys) - set(given)), sorted(set(given) - set(keys))
    problems = [f"misses {', '.join(missing)}"] if missing else []
    problems += [f"names no field {', '.join(extra)}"] if extra else []
    if problems:
        raise ValueError("; ".join(problems))
    return given


def _sources(keys: Iterable[str]) -> Any:
    """A record's ``provenance`` mapping: a source for each of ``keys``, nothing else."""
    every = AfterValidator(functools.partial(_every_key_sourced, tuple(keys)))
    return (Annotated[dict[str, Provenance], every], ...)


def _model(cls: type) -> type[BaseModel]:
    """The model of ``cls``'s field-by-field form: one field per key of the file's mapping."""
    model: type[BaseModel] = typing.get_args(record_form(cls))[0]
    return model


def _sourced(cls: type, nested: tuple[str, ...] = (), write: Callable[[Any], Any] = dump_record) -> None:
    """``cls``'s entries: field by field, every key written (a default too: it has a source), with a
    ``provenance`` of every key but the ``nested`` records (which name their own sources)."""
    model, *checks = typing.get_args(record_form(cls))
    fields: dict[str, Any] = {"provenance": _sources(k for k in model.model_fields if k not in nested)}
    fields |= {k: (f.rebuild_annotation(), ...) for k, f in model.model_fields.items() if not f.is_required()}
    sourced = create_model(f"{cls.__name__}Sourced", __base__=model, **fields)
    register_form(cls, Annotated[sourced, *checks], write)


# ---------------------------------------------------------------- the forms of Florenza's own


def _face(value: int | BaseModel) -> Face:
    return Face(value) if isinstance(value, int) else Face(**value.model_dump())


def _write_face(f: Face) -> dict[str, int]:
    return {"prestige": f.prestige} | ({"church": f.church} if f.church else {})


def _write_character(x: Artist | Preacher) -> dict[str, Any]:
    """A character with ``anonymous`` (front-ends read it; the files list the anonymous ones apart)."""
    out = dump_record(x)
    return {**{k: out.pop(k) for k in ("id", "name", "mark")}, "anonymous": x.anonymous, **out}


# A die face is written as its prestige alone, or as {prestige, church}. Registered in this order: a
# record's form takes the forms of the records it holds.
register_form(Face, Annotated[int | _model(Face), AfterValidator(_face)], _write_face)
_sourced(SkillRow)
_sourced(Artist, nested=("skills",), write=_write_character)
_sourced(Preacher, write=_write_character)
_sourced(Workshop)
_sourced(ArtWork)
_sourced(LifeCard)


def _anonymous(name: str, keys: Mapping[str, type], record: Callable[..., Any]) -> Any:
    """The form of an anonymous character: ``keys``, each validated as the record class it names
    validates it, with a provenance; ``record`` makes the character of their values, in order."""
    fields: dict[str, Any] = {"provenance": _sources(keys)}
    fields |= {k: (_model(cls).model_fields[k].rebuild_annotation(), ...) for k, cls in keys.items()}
    model = create_model(name, __config__=CONTENT_CONFIG, **fields)
    return Annotated[model, AfterValidator(lambda m: record(*(getattr(m, k) for k in keys)))]


def _anonymous_artist(ident: int, name: str, skill: Skill) -> Artist:
    """Free (seed 4.3) and without a card, so without a bonus die."""
    return Artist(ident, name, 0, (SkillRow(skill, 0, (), (), 0),), anonymous=True)


def _anonymous_preacher(ident: int, name: str, offering: int, faces: list[int]) -> Preacher:
    return Preacher(ident, name, 0, offering, tuple(faces), anonymous=True)


ANONYMOUS_ARTIST = _anonymous(
    "AnonymousArtist", {"id": Artist, "name": Artist, "skill": SkillRow}, _anonymous_artist
)
ANONYMOUS_PREACHER = _anonymous(
    "AnonymousPreacher", dict.fromkeys(("id", "name", "offering", "faces"), Preacher), _anonymous_preacher
)


def _keyed(key: Any, value: Any, wanted: Callable[[dict[Any, Any]], Iterable[Any]], what: str) -> Any:
    """A tuple that board.yaml writes as a mapping, one entry for each of the keys ``wanted``
    (given the mapping), validated into its values in the keys' order."""

    def every_key(given: dict[Any, Any]) -> list[Any]:
        keys = list(wanted(given))
        if sorted(given) != sorted(keys):
            raise ValueError(f"one entry for each {what}: {', '.join(map(str, keys))}")
        return [given[k] for k in keys]

    return Annotated[dict[key, value], AfterValidator(every_key)]


Count = Annotated[int, Field(ge=0)]
BOARD_MAPPINGS = {
    "income_die": _keyed(
        int, Annotated[Resource, by_name(Resource)], lambda _: range(1, FACES + 1), "die face"
    ),
    "bag_draws": _keyed(int, Count, lambda given: range(2, 2 + len(given)), "seat count"),  # 2, 3 ... seats
    "failure_penalty": _keyed(Annotated[Area, by_name(Area)], Count, lambda _: list(Area), "area"),
}


def _register_board() -> None:
    """Every board setting is a ``{value, provenance}`` pair around what the field-by-field form
    validates (:data:`BOARD_MAPPINGS`: the tuples written as mappings)."""
    model, *checks = typing.get_args(record_form(Board))
    types = {k: BOARD_MAPPINGS.get(k) or info.rebuild_annotation() for k, info in model.model_fields.items()}
    fields: dict[str, Any] = {k: (Sourced[t], ...) for k, t in types.items()}  # type: ignore[valid-type]
    sourced = create_model("BoardSourced", __config__=CONTENT_CONFIG, **fields)

    def values(m: BaseModel) -> Any:
        return model.model_construct(**{k: getattr(m, k).value for k in types})

    register_form(Board, Annotated[sourced, AfterValidator(values), *checks], dump_record)


_register_board()


# ---------------------------------------------------------------- files


def _numbered(cards: tuple[Any, ...], _: Mapping[str, Any]) -> Iterator[tuple[int | None, str, str]]:
    if [c.number for c in cards] != list(range(1, LIFE_CARDS + 1)):
        yield None, "", f"the cards are numbered 1 to {LIFE_CARDS}, in order"


BOARD = File(
    "board.yaml",
    Board,
    public=(
        "families",
        "rounds",
        "district_slots",
        "market_sell",
        "market_buy",
        "market_exchange_give",
        "income_die",
    ),
)
WORKSHOPS = File("workshops.yaml", Workshop, "workshops")
WORKS = File("artworks.yaml", ArtWork, "works")
LIFE = File("life.yaml", LifeCard, "cards", check=_numbered)


def _characters(directory: Path, name: str, key: str, named: type, anonymous: Any) -> tuple[Any, ...]:
    """The named characters of a file (its list ``key``), then the anonymous ones (``anonymous``)."""

    def listed(form: Any) -> Any:
        return (Annotated[list[form], UNIQUE_IDS], ...)

    lists: dict[str, Any] = {key: listed(form_type(named)), "anonymous": listed(anonymous)}
    loaded: Any = load(directory / name, create_model(name, __config__=CONTENT_CONFIG, **lists))
    return (*getattr(loaded, key), *loaded.anonymous)


def _check_counts(content: Content) -> None:
    """The component counts of board.yaml against the records (the printed inventory)."""
    want, c = content.board.components, content
    found = {
        ("workshops.yaml", "workshop_tiles"): sum(w.copies for w in c.workshops),
        ("workshops.yaml", "starting_workshops"): sum(1 for w in c.workshops if w.starting),
        ("artists.yaml", "named_artists"): sum(1 for a in c.artists if not a.anonymous),
        ("artists.yaml", "anonymous_artists"): sum(1 for a in c.artists if a.anonymous),
        ("preachers.yaml", "named_preachers"): sum(1 for p in c.preachers if not p.anonymous),
        ("preachers.yaml", "anonymous_preachers"): sum(1 for p in c.preachers if p.anonymous),
        ("life.yaml", "life_in_florenza_cards"): len(c.life),
        ("artworks.yaml", "palazzo_works"): sum(1 for w in c.works if w.area is Area.PALAZZO),
        ("artworks.yaml", "chiesa_works"): sum(1 for w in c.works if w.area is Area.CHIESA),
        ("artworks.yaml", "main_board_works"): len(c.public_works),
        ("artworks.yaml", "city_buildings"): len({w.building for w in c.works if w.area is Area.CITY}),
    }
    for (file, name), n in found.items():
        if n != getattr(want, name):
            raise ContentError(
                file, None, "", f"{n} {name.replace('_', ' ')}, board.yaml says {getattr(want, name)}"
            )


def _check_characters(content: Content) -> None:
    """One id space for the 48 tiles; each anonymous tile pictured on exactly one Life card."""
    ids = [a.id for a in content.artists] + [p.id for p in content.preachers]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ContentError("preachers.yaml", twice[0], "id", "an artist has the same id")
    pictured = [x for card in content.life for x in card.anonymous]
    anonymous = sorted(content.anonymous_characters)
    if sorted(pictured) != anonymous:
        raise ContentError("life.yaml", None, "cards", f"the anonymous tiles {anonymous} go on one card each")


def load_from(directory: Path) -> Content:
    """Load content from a directory of the same six YAML files (tests use this for malformed files)."""
    content = Content(
        board=load_file(directory, BOARD),
        workshops=load_file(directory, WORKSHOPS),
        artists=_characters(directory, "artists.yaml", "artists", Artist, ANONYMOUS_ARTIST),
        preachers=_characters(directory, "preachers.yaml", "preachers", Preacher, ANONYMOUS_PREACHER),
        works=load_file(directory, WORKS),
        life=load_file(directory, LIFE),
    )
    _check_counts(content)
    _check_characters(content)
    return content


def provenance(directory: Path = CONTENT_DIR) -> list[tuple[str, object, str, str]]:
    """Every value's source: (file, entry, field, provenance), entry = the record's id (or number),
    None for the board's settings. The files are validated first."""
    load_from(directory)
    out: list[tuple[str, object, str, str]] = []
    for name in FILES:
        data = yaml.safe_load((directory / name).read_text(encoding="utf-8"))
        if name == BOARD.name:
            out += [(name, None, key, setting["provenance"]) for key, setting in data.items()]
            continue
        out += [(name, *row) for entries in data.values() for entry in entries for row in _sources_of(entry)]
    return out


def _sources_of(
    entry: dict[str, Any], prefix: str = "", ident: object = None
) -> Iterator[tuple[object, str, str]]:
    """(entry, field, provenance) of a record's values; the records nested in it (an artist's
    talents) keep the record's id and a ``skills[0].`` prefix."""
    ident = entry.get("id", entry.get("number")) if ident is None else ident
    yield from ((ident, prefix + key, source) for key, source in entry["provenance"].items())
    for key, value in entry.items():
        for i, item in enumerate(value if isinstance(value, list) else []):
            if isinstance(item, dict) and "provenance" in item:
                yield from _sources_of(item, f"{prefix}{key}[{i}].", ident)


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def tables(content: Content) -> dict[str, dict[str, Any]]:
    """Every component of ``content`` as its file writes it, keyed by file and list: what front-ends
    read (``/content``: names for the ids of views). Plain JSON values; zero goods and default values
    are left out, as the files leave them out, and so is provenance (the data's audit trail,
    ``tabula content``, docs/rules/florenza.md); the named and anonymous characters are one list,
    each with ``anonymous``, and the board holds the numbers a player reads off the boards."""
    return {
        "board": {"board": public(BOARD, content.board)},
        "workshops": public(WORKSHOPS, content.workshops),
        "artists": {"artists": [dump(a) for a in content.artists]},
        "preachers": {"preachers": [dump(p) for p in content.preachers]},
        "artworks": public(WORKS, content.works),
        "life": public(LIFE, content.life),
    }


__all__ = [
    "CONTENT_DIR",
    "FILES",
    "PROVENANCE",
    "ContentError",
    "is_project_defined",
    "load_content",
    "load_from",
    "provenance",
    "tables",
]
