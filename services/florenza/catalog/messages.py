"""The typed content clients read through ``GetContent``: every workshop, artist, preacher, art work,
Life in Florenza card, market trade, income die face, track, city building and rule number of
Florenza, with an English text.

These ``@message`` types are rendered into ``florenza.proto`` (the manifest's ``content`` hook) and
filled by ``records.py`` from the validated content. Views, commands and events name components by
id (workshops, characters, works, cards) or by enum (trades, resources); these records say what each
one is. Every ``text`` is worded by the terminal client's labels (``presentation/labels.py``) from
the same numbers, so it never disagrees with them. Enums are the content's own; goods are the view's
``Goods``.

Much of Florenza's content is designed by the project where the seed prints no value
(docs/rules/florenza.md, "Designed values"): each record's ``project_defined`` lists the content
file's fields (as the YAML names them, ``skills[0].fee`` for a talent's fee) whose value is
project-defined rather than printed.
"""

from __future__ import annotations

from services.florenza.rules.content_types import Area, EffectKind, Skill
from services.florenza.rules.goods import ZERO, Goods, Resource
from services.florenza.rules.model import Trade
from shared.core.wire import message, pb


@message
class RewardInfo:
    """Goods plus prestige, church influence and workers: what an effect gives (or a formula takes)."""

    goods: Goods = pb(1, default=ZERO)
    prestige: int = pb(2, default=0)
    church: int = pb(3, default=0)
    workers: int = pb(4, default=0)


@message
class WorkshopInfo:
    """A kind of workshop tile: `ChooseStartingWorkshop`, `PlanWorkshop` and districts hold these ids."""

    id: int = pb(1)
    name: str = pb(2)
    copies: int = pb(3, default=0)  # tiles of this kind (one: a unique workshop)
    starting: bool = pb(4, default=False)  # one tile is set aside for the starting choice
    cost: Goods = pb(5, default=ZERO)  # paid to build it
    build_prestige: int = pb(6, default=0)  # gained when it is built
    effect: EffectKind = pb(7, default=EffectKind.GAIN)
    gain: RewardInfo = pb(8, default=RewardInfo())  # GAIN and CONVERT when worked; INCOME every income step
    pay: RewardInfo = pb(9, default=RewardInfo())  # CONVERT: paid for the gain (nothing if unpaid)
    text: str = pb(10, default="")
    project_defined: tuple[str, ...] = pb(11, default=())  # content fields the project designed


@message
class DieFaceInfo:
    """What one face of an artist's bonus die gives (the prestige may be negative)."""

    prestige: int = pb(1, default=0)
    church: int = pb(2, default=0)


@message
class TalentInfo:
    """One talent of an artist: the fee and the bonus die (anonymous artists: no fee, no die)."""

    skill: Skill = pb(1)
    fee: int = pb(2, default=0)  # fiorini, paid in step 7 with the work's price
    faces: tuple[DieFaceInfo, ...] = pb(3, default=())  # die faces 1 to 6
    masterpiece_faces: tuple[int, ...] = pb(4, default=())  # faces that make a masterpiece
    masterpiece: int = pb(5, default=0)  # prestige of the masterpiece
    text: str = pb(6, default="")


@message
class ArtistInfo:
    """An artist: `HireArtist.artist`, `Presence.character` and the view's characters hold these ids."""

    id: int = pb(1)
    name: str = pb(2)
    mark: int = pb(3, default=0)  # the Life in Florenza card (1..7) it goes under when drawn; 0: anonymous
    anonymous: bool = pb(4, default=False)
    talents: tuple[TalentInfo, ...] = pb(5, default=())
    text: str = pb(6, default="")
    project_defined: tuple[str, ...] = pb(7, default=())  # content fields the project designed


@message
class PreacherInfo:
    """A preacher: `MakeOffering.preacher` and `Presence.character` hold these ids (artists' id space)."""

    id: int = pb(1)
    name: str = pb(2)
    mark: int = pb(3, default=0)  # as for artists
    anonymous: bool = pb(4, default=False)
    offering: int = pb(5, default=0)  # fiorini paid at once
    faces: tuple[int, ...] = pb(6, default=())  # workers gained for die faces 1 to 6
    text: str = pb(7, default="")
    project_defined: tuple[str, ...] = pb(8, default=())  # content fields the project designed


@message
class ArtWorkInfo:
    """An art work space: `HireArtist.work`, `CompleteArtWork.work` and the view's works hold these ids."""

    id: int = pb(1)
    name: str = pb(2)
    area: Area = pb(3)  # PALAZZO and CHIESA: one in every family's district
    building: str = pb(4, default="")  # the city building of a CITY work
    skills: tuple[Skill, ...] = pb(5, default=())  # an artist with any of these may be hired for it
    cost: Goods = pb(6, default=ZERO)  # the work's own price, paid with the artist's fee
    reward: RewardInfo = pb(7, default=RewardInfo())  # on completion
    income: RewardInfo = pb(8, default=RewardInfo())  # every income step while completed
    failure_penalty: int = pb(9, default=0)  # prestige lost when it cannot be paid for
    text: str = pb(10, default="")
    project_defined: tuple[str, ...] = pb(11, default=())  # content fields the project designed


@message
class LifeCardInfo:
    """A Life in Florenza card (`Presence.card`): named characters drawn with its mark go under it."""

    number: int = pb(1)  # I..VII as 1..7
    name: str = pb(2)
    anonymous: tuple[int, ...] = pb(3, default=())  # anonymous characters pictured on it (always present)
    text: str = pb(4, default="")
    project_defined: tuple[str, ...] = pb(5, default=())  # content fields the project designed


@message
class MarketTradeInfo:
    """A market trade (`MarketTraded.trade`) with what it takes and gives; each once per visit."""

    trade: Trade = pb(1)
    pay_money: int = pb(2, default=0)
    pay_cubes: int = pb(3, default=0)  # resource cubes given (EXCHANGE: all of one kind)
    get_money: int = pb(4, default=0)
    get_cubes: int = pb(5, default=0)  # resource cubes received (EXCHANGE: of another kind)
    text: str = pb(6, default="")
    project_defined: tuple[str, ...] = pb(7, default=())  # content fields the project designed


@message
class IncomeDieFaceInfo:
    """A face of the income die (`IncomeDieRolled.face`): the resource every family takes."""

    face: int = pb(1)
    resource: Resource = pb(2)
    compensation: int = pb(3, default=0)  # fiorini instead, for a family the supply cannot serve
    text: str = pb(4, default="")
    project_defined: tuple[str, ...] = pb(5, default=())  # content fields the project designed


@message
class TrackInfo:
    """A track of the progress board; the engine keeps plain integers, the board flips its marker."""

    name: str = pb(1)  # "prestige" or "church influence"
    flip: int = pb(2, default=0)  # above this the marker shows its other side
    text: str = pb(3, default="")
    project_defined: tuple[str, ...] = pb(4, default=())  # content fields the project designed


@message
class BuildingInfo:
    """A city building of the main board and its art works (`ArtWorkInfo.building`)."""

    name: str = pb(1)
    works: tuple[int, ...] = pb(2, default=())
    text: str = pb(3, default="")


@message
class BoardInfo:
    """The rule numbers of setup, income, placement, art works, titles and final scoring."""

    families: tuple[str, ...] = pb(1, default=())
    rounds: int = pb(2, default=0)
    starting_money: int = pb(3, default=0)
    starting_resources: Goods = pb(4, default=ZERO)
    starting_workers: int = pb(5, default=0)
    workers_per_family: int = pb(6, default=0)
    starting_workshops: int = pb(7, default=0)
    district_slots: int = pb(8, default=0)
    supply: Goods = pb(9, default=ZERO)  # the bank's resource cubes
    income: Goods = pb(10, default=ZERO)  # every family, every income step
    income_workers: int = pb(11, default=0)
    bag_draws: tuple[int, ...] = pb(12, default=())  # characters drawn each round, for 2, 3, 4, 5 seats
    opponent_workshop_fee: int = pb(13, default=0)  # prestige paid to work an opponent's workshop
    prestige_floor: int = pb(14, default=0)  # below it a family may not work an opponent's workshop
    failed_build_penalty: int = pb(15, default=0)  # prestige lost for a planned workshop not built
    unpaid_artist_penalty: int = pb(16, default=0)  # extra prestige lost for an artist not paid
    palazzo_bonus: int = pb(17, default=0)  # prestige for a completed Palazzo
    chiesa_bonus: int = pb(18, default=0)  # church influence for a completed Chiesa
    district_pulpits: int = pb(19, default=0)
    duomo_pulpits: int = pb(20, default=0)
    duomo_dice: int = pb(21, default=0)  # dice rolled in the Duomo (one kept)
    bishop_min_church: int = pb(22, default=0)
    cardinal_church: int = pb(23, default=0)
    cardinal_prestige: int = pb(24, default=0)
    title_final_points: int = pb(25, default=0)
    resources_per_point: int = pb(26, default=0)
    money_per_point: int = pb(27, default=0)
    unfinished_workshop_penalty: int = pb(28, default=0)
    incomplete_work_penalty: int = pb(29, default=0)
    empty_area_penalty: int = pb(30, default=0)  # for a Palazzo or Chiesa without a completed work
    text: str = pb(31, default="")
    project_defined: tuple[str, ...] = pb(32, default=())  # content fields the project designed


@message
class FlorenzaContent:
    """Every component of Florenza, as the rules read it, with English texts."""

    workshops: tuple[WorkshopInfo, ...] = pb(1, default=())
    artists: tuple[ArtistInfo, ...] = pb(2, default=())
    preachers: tuple[PreacherInfo, ...] = pb(3, default=())
    works: tuple[ArtWorkInfo, ...] = pb(4, default=())
    life: tuple[LifeCardInfo, ...] = pb(5, default=())
    trades: tuple[MarketTradeInfo, ...] = pb(6, default=())
    income_die: tuple[IncomeDieFaceInfo, ...] = pb(7, default=())
    tracks: tuple[TrackInfo, ...] = pb(8, default=())
    buildings: tuple[BuildingInfo, ...] = pb(9, default=())
    board: BoardInfo | None = pb(10, default=None)
