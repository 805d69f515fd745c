"""Typed content of Florenza: workshops, artists, preachers, art works, Life in Florenza cards, board.

Pure data built by ``services.florenza.content`` from YAML; the rules read these records and never a
file. Every effect is data (a kind with parameters), so the printed values can replace the
project-defined ones without a code change.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from services.florenza.rules.goods import ZERO, Goods, Resource


class Skill(enum.IntEnum):
    """An artist's talent (seed 4.3: painting, sculpture, architecture)."""

    PAINTING = 1
    SCULPTURE = 2
    ARCHITECTURE = 3


class Area(enum.IntEnum):
    """Where an art work is: the family's Palazzo or Chiesa, a city building, or the Duomo."""

    PALAZZO = 1
    CHIESA = 2
    CITY = 3
    DUOMO = 4


DISTRICT_AREAS = (Area.PALAZZO, Area.CHIESA)


class EffectKind(enum.IntEnum):
    """What a built workshop does (seed 6: goods, money, prestige, church influence, or a formula)."""

    GAIN = 1  # worked in step 6: receive ``gain``
    CONVERT = 2  # worked in step 6: pay ``pay``, receive ``gain`` (the "formula"); nothing if unpaid
    INCOME = 3  # purple: never worked; ``gain`` every income step (seed 1.3, 4.1)


@dataclass(frozen=True, slots=True)
class Reward:
    """Goods plus track points and workers: what an effect gives (or, for a formula, takes)."""

    goods: Goods = ZERO
    prestige: int = 0
    church: int = 0
    workers: int = 0

    @property
    def is_empty(self) -> bool:
        return self == NOTHING


NOTHING = Reward()


@dataclass(frozen=True, slots=True)
class WorkshopEffect:
    kind: EffectKind
    gain: Reward
    pay: Reward = NOTHING  # CONVERT only


@dataclass(frozen=True, slots=True)
class Workshop:
    """One kind of workshop tile; ``id`` is the number printed on it (seed 5: "Boscaiuolo (3)")."""

    id: int
    name: str
    copies: int  # tiles of this kind among the 45; one copy = "unique" (seed 4.2 hint)
    starting: bool  # one tile set aside for the starting choice (seed 5)
    cost: Goods  # paid to build it (black side)
    build_prestige: int  # prestige shown on the black side, gained when built (seed 6)
    effect: WorkshopEffect

    @property
    def is_unique(self) -> bool:
        return self.copies == 1

    @property
    def is_purple(self) -> bool:
        return self.effect.kind is EffectKind.INCOME


@dataclass(frozen=True, slots=True)
class Face:
    """What one face of an artist's bonus die gives (negative prestige is possible, seed 7.2)."""

    prestige: int
    church: int = 0


@dataclass(frozen=True, slots=True)
class SkillRow:
    """One talent of an artist: the fee and the bonus-die row (seed 4.3, 7.2, 7.3)."""

    skill: Skill
    fee: int  # fiorini, paid in step 7 on top of the work's cost
    faces: tuple[Face, ...]  # die faces 1..6 (the flipped card's values)
    masterpiece_faces: tuple[int, ...]  # faces shown on a yellow ground: a masterpiece
    masterpiece: int  # prestige of the masterpiece


@dataclass(frozen=True, slots=True)
class Artist:
    id: int
    name: str
    mark: int  # Life in Florenza card (1..7) a drawn tile goes under; 0 for the anonymous ones
    rows: tuple[SkillRow, ...]
    anonymous: bool = False

    @property
    def skills(self) -> tuple[Skill, ...]:
        return tuple(r.skill for r in self.rows)

    def row(self, skill: Skill) -> SkillRow:
        return next(r for r in self.rows if r.skill is skill)


@dataclass(frozen=True, slots=True)
class Preacher:
    id: int
    name: str
    mark: int  # as for artists; 0 for the anonymous ones
    offering: int  # fiorini paid at once (seed 4.5)
    faces: tuple[int, ...]  # workers per die face 1..6
    anonymous: bool = False


@dataclass(frozen=True, slots=True)
class ArtWork:
    """An art work space. District works (Palazzo, Chiesa) exist once per family district."""

    id: int
    name: str
    area: Area
    building: str  # the city building ("" in a district or the Duomo)
    skills: tuple[Skill, ...]  # an artist with any of these may be hired
    cost: Goods  # the work's own price, paid in step 7 with the artist's fee
    reward: Reward  # prestige and church influence on completion (seed 7.1)
    income: Reward = NOTHING  # every income step while completed (seed 1.3)

    @property
    def in_district(self) -> bool:
        return self.area in DISTRICT_AREAS


@dataclass(frozen=True, slots=True)
class LifeCard:
    number: int  # I..VII as 1..7
    name: str
    anonymous: tuple[int, ...]  # anonymous character tiles whose picture is on this card (seed 2.3)


@dataclass(frozen=True, slots=True)
class Board:
    """The rule numbers: setup, income, market, penalties, titles, scoring (see board.yaml)."""

    families: tuple[str, ...]
    rounds: int
    starting_money: int
    starting_resources: Goods
    starting_workers: int
    workers_per_family: int
    starting_workshops: int
    district_slots: int
    supply: Goods
    income: Goods
    income_workers: int
    income_die: tuple[Resource, ...]  # face 1..6 -> resource
    die_compensation: int
    market_sell: int
    market_buy: int
    market_exchange_give: int
    opponent_workshop_fee: int
    prestige_floor: int
    failed_build_penalty: int
    failure_penalty: tuple[int, ...]  # by Area value (index area - 1)
    unpaid_artist_penalty: int
    palazzo_bonus: int
    chiesa_bonus: int
    bishop_min_church: int
    cardinal_church: int
    cardinal_prestige: int
    title_final_points: int
    resources_per_point: int
    money_per_point: int
    unfinished_workshop_penalty: int
    incomplete_work_penalty: int
    empty_area_penalty: int
    bag_draws: tuple[int, ...]  # by seats, index seats - 2
    district_pulpits: int
    duomo_pulpits: int
    duomo_dice: int
    prestige_flip: int
    church_flip: int

    def failure(self, area: Area) -> int:
        return self.failure_penalty[area - 1]

    def draws(self, seats: int) -> int:
        return self.bag_draws[seats - 2]


@dataclass(frozen=True)
class Content:
    """Every component of the game, with id lookups built once."""

    board: Board
    workshops: tuple[Workshop, ...]
    artists: tuple[Artist, ...]
    preachers: tuple[Preacher, ...]
    works: tuple[ArtWork, ...]
    life: tuple[LifeCard, ...]
    workshop: dict[int, Workshop] = field(init=False, repr=False, compare=False)
    artist: dict[int, Artist] = field(init=False, repr=False, compare=False)
    preacher: dict[int, Preacher] = field(init=False, repr=False, compare=False)
    work: dict[int, ArtWork] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "workshop", {w.id: w for w in self.workshops})
        object.__setattr__(self, "artist", {a.id: a for a in self.artists})
        object.__setattr__(self, "preacher", {p.id: p for p in self.preachers})
        object.__setattr__(self, "work", {w.id: w for w in self.works})

    @property
    def named_characters(self) -> tuple[int, ...]:
        """The 40 tiles that go into the cloth bag (seed 2.1)."""
        return tuple(
            [a.id for a in self.artists if not a.anonymous]
            + [p.id for p in self.preachers if not p.anonymous]
        )

    @property
    def anonymous_characters(self) -> tuple[int, ...]:
        return tuple(
            [a.id for a in self.artists if a.anonymous] + [p.id for p in self.preachers if p.anonymous]
        )

    def mark(self, character: int) -> int:
        found = self.artist.get(character)
        return found.mark if found is not None else self.preacher[character].mark

    @property
    def district_works(self) -> tuple[ArtWork, ...]:
        return tuple(w for w in self.works if w.in_district)

    @property
    def public_works(self) -> tuple[ArtWork, ...]:
        return tuple(w for w in self.works if not w.in_district)


def content_counts(content: Content) -> dict[str, int]:
    """Component counts per family (for ``tabula content florenza --json``)."""
    named = [a for a in content.artists if not a.anonymous]
    works = content.works
    return {
        "workshop_kinds": len(content.workshops),
        "workshop_tiles": sum(w.copies for w in content.workshops),
        "starting_workshops": sum(1 for w in content.workshops if w.starting),
        "unique_workshops": sum(1 for w in content.workshops if w.is_unique),
        "purple_workshops": sum(w.copies for w in content.workshops if w.is_purple),
        "named_artists": len(named),
        "anonymous_artists": len(content.artists) - len(named),
        "named_preachers": sum(1 for p in content.preachers if not p.anonymous),
        "anonymous_preachers": sum(1 for p in content.preachers if p.anonymous),
        "character_tiles": len(content.artists) + len(content.preachers),
        "palazzo_works": sum(1 for w in works if w.area is Area.PALAZZO),
        "chiesa_works": sum(1 for w in works if w.area is Area.CHIESA),
        "city_works": sum(1 for w in works if w.area is Area.CITY),
        "duomo_works": sum(1 for w in works if w.area is Area.DUOMO),
        "city_buildings": len({w.building for w in works if w.area is Area.CITY}),
        "life_in_florenza_cards": len(content.life),
        "income_die_faces": len(content.board.income_die),
        "resource_cubes": content.board.supply.resource_count,
    }
