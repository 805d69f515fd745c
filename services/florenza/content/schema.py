"""The shape of Florenza's YAML files, as pydantic models, and their typed records.

One model per kind of YAML mapping, named ``...Yaml``, with the field names the files use; each turns
itself into the frozen dataclass the rules read (``record()``). Every record names the source of each
of its values in ``provenance`` (checked here: every field, nothing else, each one "printed (seed …)",
"printed (ref …)" or "project-defined"); the board's settings are ``{value, provenance}`` pairs.
Cross-file checks (component counts, character ids, the Life in Florenza cards) live in the loader.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Generic, Self, TypeVar

from pydantic import AfterValidator, BaseModel, Field, ValidationInfo, field_validator, model_validator

from services.florenza.rules.content_types import (
    NOTHING,
    Area,
    Artist,
    ArtWork,
    EffectKind,
    Face,
    LifeCard,
    Preacher,
    Reward,
    Skill,
    SkillRow,
    Workshop,
    WorkshopEffect,
)
from services.florenza.rules.goods import GOODS_FIELDS, Goods, Resource
from shared.core.content import CONTENT_CONFIG, UNIQUE_IDS, by_name

T = TypeVar("T")
FACES = 6
LIFE_CARDS = 7

Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Text = Annotated[str, Field(min_length=1)]
Face6 = Annotated[int, Field(ge=1, le=FACES)]
Mark = Annotated[int, Field(ge=1, le=LIFE_CARDS)]
SkillName = Annotated[Skill, by_name(Skill)]
AreaName = Annotated[Area, by_name(Area)]
ResourceName = Annotated[Resource, by_name(Resource)]
KindName = Annotated[EffectKind, by_name(EffectKind)]

PROVENANCE = re.compile(r"printed \((seed|ref) .+\)|project-defined( \(.+\))?", re.DOTALL)


def _provenance(text: str) -> str:
    if not PROVENANCE.fullmatch(text):
        raise ValueError('provenance is "printed (seed …)", "printed (ref …)" or "project-defined[ (…)]"')
    return text


Provenance = Annotated[str, AfterValidator(_provenance)]


def is_project_defined(provenance: str) -> bool:
    return provenance.startswith("project-defined")


class _Yaml(BaseModel):
    model_config = CONTENT_CONFIG


class Sourced(_Yaml, Generic[T]):
    """A board setting: its value and where the value comes from."""

    value: T
    provenance: Provenance


class _Record(_Yaml):
    """A record whose every field names its source; ``NESTED`` fields hold records with their own."""

    NESTED: ClassVar[tuple[str, ...]] = ()
    provenance: dict[str, Provenance]

    @field_validator("provenance")
    @classmethod
    def _every_field_sourced(cls, given: dict[str, str]) -> dict[str, str]:
        wanted = set(cls.model_fields) - {"provenance", *cls.NESTED}
        missing, extra = sorted(wanted - set(given)), sorted(set(given) - wanted)
        problems = [f"misses {', '.join(missing)}"] if missing else []
        problems += [f"names no field {', '.join(extra)}"] if extra else []
        if problems:
            raise ValueError("; ".join(problems))
        return given


# ---------------------------------------------------------------- goods and rewards


class GoodsYaml(_Yaml):
    """``{money: 100, marble: 2}``: absent goods are 0."""

    money: Count = 0
    marble: Count = 0
    wood: Count = 0
    metal: Count = 0
    gold: Count = 0
    fabric: Count = 0
    spices: Count = 0

    def goods(self) -> Goods:
        return Goods(**{name: getattr(self, name) for name in GOODS_FIELDS})


class PriceYaml(GoodsYaml):
    """Goods plus track points (a formula may cost prestige or church influence)."""

    prestige: Count = 0
    church: Count = 0

    def record(self) -> Reward:
        return Reward(self.goods(), self.prestige, self.church)


class RewardYaml(PriceYaml):
    """Goods, track points and workers."""

    workers: Count = 0

    def record(self) -> Reward:
        return Reward(self.goods(), self.prestige, self.church, self.workers)


# ---------------------------------------------------------------- workshops


class EffectYaml(_Yaml):
    """``{kind: gain|convert|income, gain: {...}}``; only ``convert`` takes ``pay``."""

    kind: KindName
    pay: PriceYaml | None = None
    gain: RewardYaml

    @model_validator(mode="after")
    def _pay_only_for_formulas(self) -> Self:
        if (self.kind is EffectKind.CONVERT) != (self.pay is not None):
            raise ValueError("a convert effect has a pay, the others none")
        if self.gain.record() == NOTHING:
            raise ValueError("an effect gives something")
        return self

    def record(self) -> WorkshopEffect:
        pay = self.pay.record() if self.pay is not None else NOTHING
        return WorkshopEffect(self.kind, self.gain.record(), pay)


class WorkshopYaml(_Record):
    id: Positive
    name: Text
    copies: Positive
    starting: bool
    cost: GoodsYaml
    build_prestige: Count
    effect: EffectYaml

    def record(self) -> Workshop:
        return Workshop(
            self.id, self.name, self.copies, self.starting, self.cost.goods(), self.build_prestige,
            self.effect.record(),
        )  # fmt: skip


class WorkshopsFile(_Yaml):
    workshops: Annotated[list[WorkshopYaml], UNIQUE_IDS]


# ---------------------------------------------------------------- characters


class FaceYaml(_Yaml):
    prestige: int = 0
    church: int = 0


class SkillRowYaml(_Record):
    skill: SkillName
    fee: Count
    faces: Annotated[list[int | FaceYaml], Field(min_length=FACES, max_length=FACES)]
    masterpiece_faces: list[Face6]
    masterpiece: Count

    def record(self) -> SkillRow:
        faces = tuple(Face(f) if isinstance(f, int) else Face(f.prestige, f.church) for f in self.faces)
        return SkillRow(self.skill, self.fee, faces, tuple(self.masterpiece_faces), self.masterpiece)


class ArtistYaml(_Record):
    NESTED = ("skills",)
    id: Positive
    name: Text
    mark: Mark
    skills: Annotated[list[SkillRowYaml], Field(min_length=1)]

    @field_validator("skills")
    @classmethod
    def _one_row_per_talent(cls, rows: list[SkillRowYaml]) -> list[SkillRowYaml]:
        if len({r.skill for r in rows}) != len(rows):
            raise ValueError("one row per talent")
        return rows

    def record(self) -> Artist:
        return Artist(self.id, self.name, self.mark, tuple(r.record() for r in self.skills))


class AnonymousArtistYaml(_Record):
    id: Positive
    name: Text
    skill: SkillName

    def record(self) -> Artist:
        """Free (seed 4.3) and without a card, so without a bonus die."""
        return Artist(self.id, self.name, 0, (SkillRow(self.skill, 0, (), (), 0),), anonymous=True)


class ArtistsFile(_Yaml):
    artists: Annotated[list[ArtistYaml], UNIQUE_IDS]
    anonymous: Annotated[list[AnonymousArtistYaml], UNIQUE_IDS]


class PreacherYaml(_Record):
    id: Positive
    name: Text
    mark: Mark
    offering: Count
    faces: Annotated[list[Count], Field(min_length=FACES, max_length=FACES)]

    def record(self) -> Preacher:
        return Preacher(self.id, self.name, self.mark, self.offering, tuple(self.faces))


class AnonymousPreacherYaml(_Record):
    id: Positive
    name: Text
    offering: Count
    faces: Annotated[list[Count], Field(min_length=FACES, max_length=FACES)]

    def record(self) -> Preacher:
        return Preacher(self.id, self.name, 0, self.offering, tuple(self.faces), anonymous=True)


class PreachersFile(_Yaml):
    preachers: Annotated[list[PreacherYaml], UNIQUE_IDS]
    anonymous: Annotated[list[AnonymousPreacherYaml], UNIQUE_IDS]


# ---------------------------------------------------------------- art works and Life in Florenza


class ArtWorkYaml(_Record):
    id: Positive
    name: Text
    area: AreaName
    building: str
    skills: Annotated[list[SkillName], Field(min_length=1)]
    cost: GoodsYaml
    reward: PriceYaml
    income: RewardYaml

    @model_validator(mode="after")
    def _building_only_in_the_city(self) -> Self:
        if (self.area is Area.CITY) != bool(self.building):
            raise ValueError("a city work names its building, no other work does")
        return self

    def record(self) -> ArtWork:
        return ArtWork(
            self.id, self.name, self.area, self.building, tuple(self.skills), self.cost.goods(),
            self.reward.record(), self.income.record(),
        )  # fmt: skip


class ArtWorksFile(_Yaml):
    works: Annotated[list[ArtWorkYaml], UNIQUE_IDS]


class LifeCardYaml(_Record):
    number: Mark
    name: Text
    anonymous: list[Positive]

    def record(self) -> LifeCard:
        return LifeCard(self.number, self.name, tuple(self.anonymous))


class LifeFile(_Yaml):
    cards: list[LifeCardYaml]

    @field_validator("cards")
    @classmethod
    def _seven_in_order(cls, cards: list[LifeCardYaml]) -> list[LifeCardYaml]:
        if [c.number for c in cards] != list(range(1, LIFE_CARDS + 1)):
            raise ValueError(f"the cards are numbered 1 to {LIFE_CARDS}, in order")
        return cards


# ---------------------------------------------------------------- board


class ComponentsYaml(_Yaml):
    workshop_tiles: Positive
    starting_workshops: Positive
    named_artists: Positive
    anonymous_artists: Count
    named_preachers: Positive
    anonymous_preachers: Count
    life_in_florenza_cards: Positive
    palazzo_works: Positive
    chiesa_works: Positive
    main_board_works: Positive
    city_buildings: Positive


def _every_key(keys: list[Any], wanted: list[Any], what: str) -> None:
    if sorted(keys) != sorted(wanted):
        raise ValueError(f"one entry for each {what}: {', '.join(map(str, wanted))}")


class BoardYaml(_Yaml):
    families: Sourced[Annotated[list[Text], Field(min_length=2)]]
    rounds: Sourced[Positive]
    starting_money: Sourced[Count]
    starting_resources: Sourced[GoodsYaml]
    starting_workers: Sourced[Count]
    workers_per_family: Sourced[Positive]
    starting_workshops: Sourced[Positive]
    district_slots: Sourced[Positive]
    supply: Sourced[GoodsYaml]
    bag_draws: Sourced[dict[int, Count]]
    income: Sourced[GoodsYaml]
    income_workers: Sourced[Count]
    income_die: Sourced[dict[int, ResourceName]]
    die_compensation: Sourced[Count]
    opponent_workshop_fee: Sourced[Count]
    prestige_floor: Sourced[int]
    district_pulpits: Sourced[Count]
    duomo_pulpits: Sourced[Count]
    duomo_dice: Sourced[Annotated[int, Field(ge=1, le=2)]]
    market_sell: Sourced[Count]
    market_buy: Sourced[Count]
    market_exchange_give: Sourced[Positive]
    failed_build_penalty: Sourced[Count]
    failure_penalty: Sourced[dict[AreaName, Count]]
    unpaid_artist_penalty: Sourced[Count]
    palazzo_bonus: Sourced[Count]
    chiesa_bonus: Sourced[Count]
    bishop_min_church: Sourced[Count]
    cardinal_church: Sourced[Positive]
    cardinal_prestige: Sourced[Count]
    title_final_points: Sourced[Count]
    resources_per_point: Sourced[Positive]
    money_per_point: Sourced[Positive]
    unfinished_workshop_penalty: Sourced[Count]
    incomplete_work_penalty: Sourced[Count]
    empty_area_penalty: Sourced[Count]
    prestige_flip: Sourced[Positive]
    church_flip: Sourced[Positive]
    components: Sourced[ComponentsYaml]

    @field_validator("income_die")
    @classmethod
    def _six_faces(cls, v: Sourced[dict[int, Resource]]) -> Sourced[dict[int, Resource]]:
        _every_key(list(v.value), list(range(1, FACES + 1)), "die face")
        return v

    @field_validator("failure_penalty")
    @classmethod
    def _every_area(cls, v: Sourced[dict[Area, int]]) -> Sourced[dict[Area, int]]:
        _every_key(list(v.value), list(Area), "area")
        return v

    @field_validator("bag_draws")
    @classmethod
    def _draws_for_every_seat_count(
        cls, v: Sourced[dict[int, int]], info: ValidationInfo
    ) -> Sourced[dict[int, int]]:
        families = info.data.get("families")
        if families is not None:
            _every_key(list(v.value), list(range(2, len(families.value) + 1)), "seat count")
        return v
