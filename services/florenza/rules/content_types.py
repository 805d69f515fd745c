"""Typed content of Florenza: workshops, artists, preachers, art works, Life in Florenza cards, board.

Pure data loaded by ``services.florenza.content`` from YAML; the rules read these records and never a
file. Every effect is data (a kind with parameters), so the printed values can replace the
project-defined ones without a code change. The same records are the game's components for
front-ends: ``GetContent`` serves them with the fields the rules leave empty filled in (``text``,
``project_defined``, an art work's ``failure_penalty``), and ``/content`` writes them back as the
files write them. The field metadata says how the files write a field where they differ from the
record (``key=``, ``shared.core.form``) and what values they may hold (``ge=`` ...).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from services.florenza.rules.goods import ZERO, Goods, Resource
from shared.core.form import Invalid
from shared.core.wire import message, pb

FACES = 6  # faces of a die (an artist's bonus die, a preacher's, the income die)
LIFE_CARDS = 7  # Life in Florenza cards I to VII


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


@message(name="RewardInfo")
class Reward:
    """Goods plus prestige, church influence and workers: what an effect gives (or a formula takes)."""

    goods: Goods = pb(1, default=ZERO, inline=True)  # the files write the goods beside the points
    prestige: int = pb(2, default=0, ge=0)
    church: int = pb(3, default=0, ge=0)
    workers: int = pb(4, default=0, ge=0)

    @property
    def is_empty(self) -> bool:
        return self == NOTHING


NOTHING = Reward()

# The keys a workshop's ``effect`` takes besides ``kind``, for each kind.
EFFECT_KEYS = {EffectKind.GAIN: ("gain",), EffectKind.CONVERT: ("pay", "gain"), EffectKind.INCOME: ("gain",)}


@message(name="WorkshopInfo")
class Workshop:
    """A kind of workshop tile: `ChooseStartingWorkshop`, `PlanWorkshop` and districts hold these ids;
    the id is the number printed on it (seed 5: "Boscaiuolo (3)")."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    copies: int = pb(3, ge=1)  # tiles of this kind among the 45; one copy = "unique" (seed 4.2 hint)
    starting: bool = pb(4)  # one tile set aside for the starting choice (seed 5)
    cost: Goods = pb(5)  # paid to build it (black side)
    build_prestige: int = pb(6, ge=0)  # prestige shown on the black side, gained when built (seed 6)
    # what a built one does (seed 6): GAIN and CONVERT when worked in step 6, INCOME (purple, never
    # worked) every income step (seed 1.3, 4.1)
    effect: EffectKind = pb(7, key="effect.kind", keys=EFFECT_KEYS)
    gain: Reward = pb(8, key="effect.gain")  # what the effect gives
    pay: Reward = pb(9, default=NOTHING, key="effect.pay")  # CONVERT: paid for the gain (nothing if unpaid)
    text: str = pb(10, default="", skip=True)
    project_defined: tuple[str, ...] = pb(11, default=(), skip=True)  # content fields the project designed

    def __post_init__(self) -> None:
        if self.gain == NOTHING:
            raise Invalid("gain", "an effect gives something")
        if self.pay.workers:
            raise Invalid("pay", "a formula's price takes no workers")

    @property
    def is_unique(self) -> bool:
        return self.copies == 1

    @property
    def is_purple(self) -> bool:
        return self.effect is EffectKind.INCOME


@message(name="DieFaceInfo")
class Face:
    """What one face of an artist's bonus die gives (the prestige may be negative, seed 7.2)."""

    prestige: int = pb(1, default=0)
    church: int = pb(2, default=0)


@message(name="TalentInfo")
class SkillRow:
    """One talent of an artist: the fee and the bonus die (seed 4.3, 7.2, 7.3; anonymous artists: no
    fee, no die)."""

    skill: Skill = pb(1)
    fee: int = pb(2, ge=0)  # fiorini, paid in step 7 on top of the work's cost
    faces: tuple[Face, ...] = pb(3, min_length=FACES, max_length=FACES)  # die faces 1..6
    masterpiece_faces: tuple[int, ...] = pb(4, ge=1, le=FACES)  # faces on a yellow ground: a masterpiece
    masterpiece: int = pb(5, ge=0)  # prestige of the masterpiece
    text: str = pb(6, default="", skip=True)


@message(name="ArtistInfo")
class Artist:
    """An artist: `HireArtist.artist`, `Presence.character` and the view's characters hold these ids."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    # the Life in Florenza card (1..7) a drawn tile goes under; 0 for the anonymous ones
    mark: int = pb(3, ge=1, le=LIFE_CARDS)
    talents: tuple[SkillRow, ...] = pb(5, key="skills", min_length=1)  # one per talent
    anonymous: bool = pb(
        4, default=False, skip=True
    )  # always in Florence, no card (listed apart in the file)
    text: str = pb(6, default="", skip=True)
    project_defined: tuple[str, ...] = pb(7, default=(), skip=True)  # content fields the project designed

    def __post_init__(self) -> None:
        if len({r.skill for r in self.talents}) != len(self.talents):
            raise Invalid("talents", "one row per talent")

    @property
    def skills(self) -> tuple[Skill, ...]:
        return tuple(r.skill for r in self.talents)

    def row(self, skill: Skill) -> SkillRow:
        return next(r for r in self.talents if r.skill is skill)


@message(name="PreacherInfo")
class Preacher:
    """A preacher: `MakeOffering.preacher` and `Presence.character` hold these ids (artists' id space)."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    mark: int = pb(3, ge=1, le=LIFE_CARDS)  # as for artists; 0 for the anonymous ones
    offering: int = pb(5, ge=0)  # fiorini paid at once (seed 4.5)
    faces: tuple[int, ...] = pb(6, ge=0, min_length=FACES, max_length=FACES)  # workers for die faces 1..6
    anonymous: bool = pb(4, default=False, skip=True)  # as for artists
    text: str = pb(7, default="", skip=True)
    project_defined: tuple[str, ...] = pb(8, default=(), skip=True)  # content fields the project designed


@message(name="ArtWorkInfo")
class ArtWork:
    """An art work space: `HireArtist.work`, `CompleteArtWork.work` and the view's works hold these ids.
    District works (Palazzo, Chiesa) exist once per family district."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    area: Area = pb(3)  # PALAZZO and CHIESA: one in every family's district
    skills: tuple[Skill, ...] = pb(5, min_length=1)  # an artist with any of these may be hired for it
    cost: Goods = pb(6)  # the work's own price, paid in step 7 with the artist's fee
    reward: Reward = pb(7)  # prestige and church influence on completion (seed 7.1)
    building: str = pb(4, default="")  # the city building of a CITY work ("" elsewhere)
    income: Reward = pb(8, default=NOTHING)  # every income step while completed (seed 1.3)
    failure_penalty: int = pb(
        9, default=0, skip=True
    )  # prestige lost when it cannot be paid for (the board's)
    text: str = pb(10, default="", skip=True)
    project_defined: tuple[str, ...] = pb(11, default=(), skip=True)  # content fields the project designed

    def __post_init__(self) -> None:
        if (self.area is Area.CITY) != bool(self.building):
            raise Invalid("building", "a city work names its building, no other work does")
        if self.reward.workers:
            raise Invalid("reward", "a completed work gives no workers")

    @property
    def in_district(self) -> bool:
        return self.area in DISTRICT_AREAS


@message(name="LifeCardInfo")
class LifeCard:
    """A Life in Florenza card (`Presence.card`): named characters drawn with its mark go under it."""

    number: int = pb(1, ge=1, le=LIFE_CARDS)  # I..VII as 1..7
    name: str = pb(2, min_length=1)
    # anonymous character tiles whose picture is on this card (seed 2.3): always present
    anonymous: tuple[int, ...] = pb(3, ge=1)
    text: str = pb(4, default="", skip=True)
    project_defined: tuple[str, ...] = pb(5, default=(), skip=True)  # content fields the project designed


@message(name="ComponentsInfo")
class Components:
    """The printed component counts the loader checks the content files against."""

    workshop_tiles: int = pb(1, ge=1)
    starting_workshops: int = pb(2, ge=1)
    named_artists: int = pb(3, ge=1)
    anonymous_artists: int = pb(4, ge=0)
    named_preachers: int = pb(5, ge=1)
    anonymous_preachers: int = pb(6, ge=0)
    life_in_florenza_cards: int = pb(7, ge=1)
    palazzo_works: int = pb(8, ge=1)
    chiesa_works: int = pb(9, ge=1)
    main_board_works: int = pb(10, ge=1)
    city_buildings: int = pb(11, ge=1)


@message(name="BoardInfo")
class Board:
    """The rule numbers of setup, income, placement, art works, titles and final scoring (see board.yaml)."""

    families: tuple[str, ...] = pb(1, min_length=2)
    rounds: int = pb(2, ge=1)
    starting_money: int = pb(3, ge=0)
    starting_resources: Goods = pb(4)
    starting_workers: int = pb(5, ge=0)
    workers_per_family: int = pb(6, ge=1)
    starting_workshops: int = pb(7, ge=1)
    district_slots: int = pb(8, ge=1)
    supply: Goods = pb(9)  # the bank's resource cubes
    income: Goods = pb(10)  # every family, every income step
    income_workers: int = pb(11, ge=0)
    income_die: tuple[Resource, ...] = pb(33)  # face 1..6 -> resource (``{1: marble, ...}`` in the file)
    die_compensation: int = pb(34, ge=0)  # fiorini instead, for a family the supply cannot serve
    market_sell: int = pb(35, ge=0)
    market_buy: int = pb(36, ge=0)
    market_exchange_give: int = pb(37, ge=1)
    opponent_workshop_fee: int = pb(13, ge=0)  # prestige paid to work an opponent's workshop
    prestige_floor: int = pb(14)  # below it a family may not work an opponent's workshop
    failed_build_penalty: int = pb(15, ge=0)  # prestige lost for a planned workshop not built
    # prestige lost for a work not paid for, by Area value (index area - 1; ``{palazzo: 1, ...}``)
    failure_penalty: tuple[int, ...] = pb(38, ge=0)
    unpaid_artist_penalty: int = pb(16, ge=0)  # extra prestige lost for an artist not paid
    palazzo_bonus: int = pb(17, ge=0)  # prestige for a completed Palazzo
    chiesa_bonus: int = pb(18, ge=0)  # church influence for a completed Chiesa
    bishop_min_church: int = pb(22, ge=0)
    cardinal_church: int = pb(23, ge=1)
    cardinal_prestige: int = pb(24, ge=0)
    title_final_points: int = pb(25, ge=0)
    resources_per_point: int = pb(26, ge=1)
    money_per_point: int = pb(27, ge=1)
    unfinished_workshop_penalty: int = pb(28, ge=0)
    incomplete_work_penalty: int = pb(29, ge=0)
    empty_area_penalty: int = pb(30, ge=0)  # for a Palazzo or Chiesa without a completed work
    # characters drawn each round, for 2, 3, 4, 5 seats (index seats - 2; ``{2: 6, ...}``)
    bag_draws: tuple[int, ...] = pb(12, ge=0)
    district_pulpits: int = pb(19, ge=0)
    duomo_pulpits: int = pb(20, ge=0)
    duomo_dice: int = pb(21, ge=1, le=2)  # dice rolled in the Duomo (one kept)
    prestige_flip: int = pb(39, ge=1)  # above this the prestige marker shows its other side
    church_flip: int = pb(40, ge=1)  # above this the church marker shows its other side
    components: Components = pb(41)
    text: str = pb(31, default="", skip=True)
    project_defined: tuple[str, ...] = pb(32, default=(), skip=True)  # content fields the project designed

    def __post_init__(self) -> None:
        if not all(self.families):
            raise Invalid("families", "every family has a name")
        seats = range(2, len(self.families) + 1)
        if len(self.bag_draws) != len(seats):
            raise Invalid("bag_draws", f"one entry for each seat count: {', '.join(map(str, seats))}")
        left = self.supply
        for _ in self.families:
            left = left - self.starting_resources
        if not left.is_non_negative:
            raise Invalid("supply", "too few cubes for every family's starting resources")

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
