"""Load and validate Florenza's YAML content into the typed records of the rules package.

The only module of the game that reads files. Each file is checked by its pydantic model
(``schema.py``) through :func:`shared.core.content.load`; the checks across files (component counts, one id
space for the characters, the anonymous tiles on the Life in Florenza cards) follow here. Anything
wrong raises :class:`ContentError` naming the file, the entry and the field.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from services.florenza.content.schema import (
    ArtistsFile,
    ArtWorksFile,
    BoardYaml,
    LifeFile,
    PreachersFile,
    Sourced,
    WorkshopsFile,
    _Record,
)
from services.florenza.rules.content_types import Area, Board, Content
from shared.core.content import ContentError, load

if TYPE_CHECKING:
    from services.florenza.rules.rules import FlorenzaRules

CONTENT_DIR = Path(__file__).parent
FILES = ("board.yaml", "workshops.yaml", "artists.yaml", "preachers.yaml", "artworks.yaml", "life.yaml")


def _board(raw: BoardYaml) -> Board:
    v = {name: getattr(raw, name).value for name in type(raw).model_fields}
    goods = {k: v[k].goods() for k in ("starting_resources", "supply", "income")}
    return Board(
        families=tuple(v["families"]),
        rounds=v["rounds"],
        starting_money=v["starting_money"],
        starting_resources=goods["starting_resources"],
        starting_workers=v["starting_workers"],
        workers_per_family=v["workers_per_family"],
        starting_workshops=v["starting_workshops"],
        district_slots=v["district_slots"],
        supply=goods["supply"],
        income=goods["income"],
        income_workers=v["income_workers"],
        income_die=tuple(v["income_die"][face] for face in sorted(v["income_die"])),
        die_compensation=v["die_compensation"],
        market_sell=v["market_sell"],
        market_buy=v["market_buy"],
        market_exchange_give=v["market_exchange_give"],
        opponent_workshop_fee=v["opponent_workshop_fee"],
        prestige_floor=v["prestige_floor"],
        failed_build_penalty=v["failed_build_penalty"],
        failure_penalty=tuple(v["failure_penalty"][a] for a in Area),
        unpaid_artist_penalty=v["unpaid_artist_penalty"],
        palazzo_bonus=v["palazzo_bonus"],
        chiesa_bonus=v["chiesa_bonus"],
        bishop_min_church=v["bishop_min_church"],
        cardinal_church=v["cardinal_church"],
        cardinal_prestige=v["cardinal_prestige"],
        title_final_points=v["title_final_points"],
        resources_per_point=v["resources_per_point"],
        money_per_point=v["money_per_point"],
        unfinished_workshop_penalty=v["unfinished_workshop_penalty"],
        incomplete_work_penalty=v["incomplete_work_penalty"],
        empty_area_penalty=v["empty_area_penalty"],
        bag_draws=tuple(v["bag_draws"][n] for n in sorted(v["bag_draws"])),
        district_pulpits=v["district_pulpits"],
        duomo_pulpits=v["duomo_pulpits"],
        duomo_dice=v["duomo_dice"],
        prestige_flip=v["prestige_flip"],
        church_flip=v["church_flip"],
    )


class _Files:
    """The six files, each validated on its own."""

    def __init__(self, directory: Path) -> None:
        self.board: BoardYaml = load(directory / "board.yaml", BoardYaml)
        self.workshops: WorkshopsFile = load(directory / "workshops.yaml", WorkshopsFile)
        self.artists: ArtistsFile = load(directory / "artists.yaml", ArtistsFile)
        self.preachers: PreachersFile = load(directory / "preachers.yaml", PreachersFile)
        self.works: ArtWorksFile = load(directory / "artworks.yaml", ArtWorksFile)
        self.life: LifeFile = load(directory / "life.yaml", LifeFile)

    def models(self) -> dict[str, BaseModel]:
        return {
            "board.yaml": self.board,
            "workshops.yaml": self.workshops,
            "artists.yaml": self.artists,
            "preachers.yaml": self.preachers,
            "artworks.yaml": self.works,
            "life.yaml": self.life,
        }


def _check_counts(content: Content, files: _Files) -> None:
    """The component counts of board.yaml against the records (the printed inventory)."""
    want = files.board.components.value
    c = content
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


def _check_supply(content: Content) -> None:
    """Five families' starting resources come out of the bank's cubes."""
    b = content.board
    left = b.supply
    for _ in b.families:
        left = left - b.starting_resources
    if not left.is_non_negative:
        raise ContentError(
            "board.yaml", None, "supply", "too few cubes for every family's starting resources"
        )


def load_from(directory: Path) -> Content:
    files = _Files(directory)
    content = Content(
        board=_board(files.board),
        workshops=tuple(w.record() for w in files.workshops.workshops),
        artists=tuple(
            [a.record() for a in files.artists.artists] + [a.record() for a in files.artists.anonymous]
        ),
        preachers=tuple(
            [p.record() for p in files.preachers.preachers] + [p.record() for p in files.preachers.anonymous]
        ),
        works=tuple(w.record() for w in files.works.works),
        life=tuple(c.record() for c in files.life.cards),
    )
    _check_counts(content, files)
    _check_characters(content)
    _check_supply(content)
    return content


def provenance(directory: Path = CONTENT_DIR) -> list[tuple[str, object, str, str]]:
    """Every value's source: (file, entry, field, provenance), entry = the record's id (or number)."""
    out: list[tuple[str, object, str, str]] = []
    for file, model in _Files(directory).models().items():
        out += [(file, entry, field, source) for entry, field, source in _walk(model, None, "")]
    return out


def _walk(model: BaseModel, entry: object, prefix: str) -> Iterator[tuple[object, str, str]]:
    """(entry, field, provenance) of every value under ``model``; rows nested in a record (an
    artist's talents) keep the record's id and a ``skills[0].`` prefix."""
    if isinstance(model, _Record):
        entry = getattr(model, "id", getattr(model, "number", None)) if entry is None else entry
        yield from ((entry, prefix + field, source) for field, source in model.provenance.items())
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, Sourced):
            yield entry, prefix + name, value.provenance
        for i, item in enumerate(value if isinstance(value, list) else []):
            if isinstance(item, _Record):
                nested = isinstance(model, _Record)
                yield from _walk(item, entry if nested else None, f"{prefix}{name}[{i}]." if nested else "")


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def load_rules() -> FlorenzaRules:
    """A ``FlorenzaRules`` over the packaged content."""
    from services.florenza.rules import FlorenzaRules

    return FlorenzaRules(load_content())


__all__ = ["CONTENT_DIR", "FILES", "ContentError", "load_content", "load_from", "load_rules", "provenance"]
