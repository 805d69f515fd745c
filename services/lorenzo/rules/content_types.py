"""Typed content of Lorenzo il Magnifico: cards, leaders, excommunication tiles, bonus tiles, board.

Pure data loaded by ``services.lorenzo.content`` from YAML; the rules read these records and never
a file. The same records are the game's components for front-ends: ``GetContent`` serves them with
their English texts filled in (the ``text`` fields, empty in the rules), and ``/content`` writes them
back as the files write them. The field metadata says how the files write a field where they differ
from the record (``key=``, ``shared.core.form``) and what values they may hold (``ge=`` ...).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from services.lorenzo.rules.goods import ZERO, Goods
from shared.core.form import Invalid
from shared.core.wire import message, pb


class CardType(enum.IntEnum):
    TERRITORY = 1
    BUILDING = 2
    CHARACTER = 3
    VENTURE = 4


class ActionKind(enum.IntEnum):
    """What an action does; the first four equal the CardType values (take a card of that type)."""

    TAKE_TERRITORY = 1
    TAKE_BUILDING = 2
    TAKE_CHARACTER = 3
    TAKE_VENTURE = 4
    HARVEST = 5
    PRODUCTION = 6


class SpaceKind(enum.IntEnum):
    TOWER = 1
    MARKET = 2
    COUNCIL = 3
    HARVEST = 4
    PRODUCTION = 5


class ImmediateKind(enum.IntEnum):
    GAIN = 1
    GAIN_PER_CARD = 2
    GAIN_PER_MILITARY = 3
    TAKE_CARD = 4
    HARVEST = 5
    PRODUCTION = 6


class AbilityKind(enum.IntEnum):
    GAIN = 1
    HARVEST = 2
    PRODUCTION = 3
    OCCUPIED_SPACES = 4
    NO_TOWER_FEE = 5
    MEMBER_SIX = 6
    COIN_DISCOUNT = 7
    CHURCH_BONUS = 8
    COLORED_BONUS = 9
    NEUTRAL_BONUS = 10
    COPY = 11
    COLORED_VALUE = 12
    IGNORE_TERRITORY_REQUIREMENT = 13
    DOUBLE_CARD_RESOURCES = 14


class PenaltyKind(enum.IntEnum):
    GAIN_REDUCTION = 1
    ACTION_MODIFIER = 2
    COLORED_MEMBER_MODIFIER = 3
    NO_MARKET = 4
    SERVANT_RATE = 5
    SKIP_FIRST_TURN = 6
    NO_END_POINTS = 7
    LOSE_PER_VICTORY = 8
    LOSE_PER_MILITARY = 9
    LOSE_PER_BUILDING_COST = 10
    LOSE_PER_RESOURCE = 11


_TAKE_ACTION = {t: ActionKind(int(t)) for t in CardType}


def take_action(card_type: CardType) -> ActionKind:
    """The action that takes a card of ``card_type`` (a dict: the rules ask it in their inner loops)."""
    return _TAKE_ACTION[card_type]


# Component counts printed in the rulebook's component list.
CARDS, LEADERS, EXCOMMUNICATIONS, BONUS_TILES, PRIVILEGES = 96, 20, 21, 5, 5
MAX_ACTIVATION = 6  # highest harvest/production activation value printed on a card

# The keys each kind takes besides ``kind`` in leaders.yaml and excommunications.yaml (their
# headers document them); a missing or extra key is an error, not a silent default.
ABILITY_FIELDS: dict[AbilityKind, tuple[str, ...]] = {
    AbilityKind.GAIN: ("gain",),
    AbilityKind.HARVEST: ("value",),
    AbilityKind.PRODUCTION: ("value",),
    AbilityKind.OCCUPIED_SPACES: (),
    AbilityKind.NO_TOWER_FEE: (),
    AbilityKind.MEMBER_SIX: ("value",),
    AbilityKind.COIN_DISCOUNT: ("value",),
    AbilityKind.CHURCH_BONUS: ("gain",),
    AbilityKind.COLORED_BONUS: ("value",),
    AbilityKind.NEUTRAL_BONUS: ("value",),
    AbilityKind.COPY: (),
    AbilityKind.COLORED_VALUE: ("value",),
    AbilityKind.IGNORE_TERRITORY_REQUIREMENT: (),
    AbilityKind.DOUBLE_CARD_RESOURCES: (),
}
PENALTY_FIELDS: dict[PenaltyKind, tuple[str, ...]] = {
    PenaltyKind.GAIN_REDUCTION: ("goods",),
    PenaltyKind.ACTION_MODIFIER: ("action", "value"),
    PenaltyKind.COLORED_MEMBER_MODIFIER: ("value",),
    PenaltyKind.NO_MARKET: (),
    PenaltyKind.SERVANT_RATE: ("value",),
    PenaltyKind.SKIP_FIRST_TURN: (),
    PenaltyKind.NO_END_POINTS: ("type",),
    PenaltyKind.LOSE_PER_VICTORY: ("every",),
    PenaltyKind.LOSE_PER_MILITARY: ("every",),
    PenaltyKind.LOSE_PER_BUILDING_COST: (),
    PenaltyKind.LOSE_PER_RESOURCE: (),
}


@message(name="GainInfo")
class Gain:
    """Goods gained, plus a number of council privileges (each one a different privilege)."""

    goods: Goods = pb(1, default=ZERO, inline=True)  # the files write the goods beside ``privileges``
    privileges: int = pb(2, default=0, ge=0, le=PRIVILEGES)


NO_GAIN = Gain()


@message(name="CostInfo")
class Cost:
    """One way to pay for a card (a card with several lets the player choose: `cost_option`, 1-based)."""

    pay: Goods = pb(1, default=ZERO)  # spent
    require_military: int = pb(
        2, default=0, ge=0
    )  # Military Points that must be owned (not spent) to choose this
    text: str = pb(3, default="", skip=True)


@message(name="ImmediateEffect")
class Immediate:
    """An effect that happens once, when the card is taken (in printed order)."""

    kind: ImmediateKind = pb(1)
    gain: Gain = pb(2, default=NO_GAIN)  # GAIN: the gain; GAIN_PER_*: the gain per unit counted
    # GAIN_PER_CARD: the type counted; TAKE_CARD: the type taken (unset: any)
    card_type: CardType | None = pb(3, default=None)
    # TAKE_CARD, HARVEST, PRODUCTION: the action value; GAIN_PER_MILITARY: every N points
    value: int = pb(4, default=0)
    discount: Goods = pb(5, default=ZERO)  # TAKE_CARD: taken off the card's cost
    text: str = pb(6, default="", skip=True)


@message(name="ExchangeOption")
class Exchange:
    """One production exchange: pay, then gain."""

    pay: Goods = pb(1)
    gain: Gain = pb(2)
    text: str = pb(3, default="", skip=True)


@message(name="ProductionEffect")
class Production:
    """What the card does in a production action of at least `value`."""

    value: int = pb(1, ge=1, le=MAX_ACTIVATION)
    gain: Gain = pb(2, default=NO_GAIN)  # gained outright
    # set: `per_card_gain` for each card of this type owned
    per_card: CardType | None = pb(3, default=None, key="per")
    per_card_gain: Goods = pb(4, default=ZERO, key="gain_per_card")
    # alternatives: at most one per production (ChooseExchange.option, 1-based)
    exchanges: tuple[Exchange, ...] = pb(5, default=(), key="exchange")
    text: str = pb(6, default="", skip=True)

    def __post_init__(self) -> None:
        if (self.per_card is None) != (self.per_card_gain == ZERO):
            raise Invalid("per_card", "gain_per_card and per go together")


@message(name="HarvestEffect")
class Harvest:
    """What the card gives in a harvest action of at least `value`."""

    value: int = pb(1, ge=1, le=MAX_ACTIVATION)
    gain: Gain = pb(2)
    text: str = pb(3, default="", skip=True)


@message(name="ActionBonusEffect")
class ActionBonus:
    """A permanent bonus (characters): more value for one kind of action, maybe a discount."""

    action: ActionKind = pb(1)
    value: int = pb(2)  # added to the action value
    # alternatives off the card's cost (`discount_option`, 1-based; Stonemason: wood OR stone)
    discounts: tuple[Goods, ...] = pb(3, default=(), key="discount")
    text: str = pb(4, default="", skip=True)


@message(name="CardInfo")
class Card:
    """A development card. `LorenzoView.towers` and each player's cards hold these ids."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    card_type: CardType = pb(3, key="type")
    period: int = pb(4, ge=1)  # 1 to 3: the deck it is dealt from
    costs: tuple[Cost, ...] = pb(5, default=())  # alternatives; empty: free (territories)
    immediate: tuple[Immediate, ...] = pb(6, default=())  # in printed order
    harvest: Harvest | None = pb(7, default=None)
    production: Production | None = pb(8, default=None)
    action_bonus: ActionBonus | None = pb(9, default=None)
    no_floor_bonus: bool = pb(10, default=False)  # permanent: no more tower-space bonuses (Preacher)
    end_victory: int = pb(11, default=0, ge=0)  # Victory Points at the end of the game (ventures)
    text: str = pb(12, default="", skip=True)  # the whole card in English

    def __post_init__(self) -> None:
        if not self.costs and self.card_type is not CardType.TERRITORY:
            raise Invalid("costs", "only territories are free")


@message
class CardCount:
    card_type: CardType = pb(1)
    count: int = pb(2, ge=0)


@message(name="RequirementInfo")
class LeaderRequirement:
    """What a player must own (not pay) to play a leader."""

    # at least this many cards of each type (``cards: {venture: 5}``, in card-type order)
    cards: tuple[CardCount, ...] = pb(1, default=(), by_key=CardCount)
    same_type: int = pb(2, default=0, ge=0)  # at least this many cards of one type
    goods: Goods = pb(3, default=ZERO)
    text: str = pb(4, default="", skip=True)

    @property
    def counts(self) -> tuple[int, ...]:
        """Cards needed of each type, in card-type order."""
        need = {c.card_type: c.count for c in self.cards}
        return tuple(need.get(t, 0) for t in CardType)


@message(name="LeaderInfo")
class Leader:
    """A Leader card (advanced game). Players' `leaders` in the view hold these ids."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    requirement: LeaderRequirement = pb(3, key="requires")
    # true: used with ActivateLeader once a round; false: permanent once played
    once_per_round: bool = pb(4)
    ability: AbilityKind = pb(5, key="ability.kind", keys=ABILITY_FIELDS)
    gain: Gain = pb(6, default=NO_GAIN, key="ability.gain")  # GAIN, CHURCH_BONUS
    # HARVEST, PRODUCTION, MEMBER_SIX, COIN_DISCOUNT, *_BONUS, COLORED_VALUE
    value: int = pb(7, default=0, key="ability.value")
    ability_text: str = pb(8, default="", skip=True)  # the ability alone
    text: str = pb(9, default="", skip=True)  # requirement and ability


@message(name="ExcommunicationInfo")
class ExcommunicationTile:
    """An excommunication tile: the penalty a player takes for not supporting the Church."""

    id: int = pb(1, ge=1)
    code: str = pb(2, min_length=1)  # as printed: period_number ("2_5")
    period: int = pb(3, ge=1)
    penalty: PenaltyKind = pb(4, key="penalty.kind", keys=PENALTY_FIELDS)
    goods: Goods = pb(5, default=ZERO, key="penalty.goods")  # GAIN_REDUCTION: taken off each gain
    action: ActionKind | None = pb(6, default=None, key="penalty.action")  # ACTION_MODIFIER
    card_type: CardType | None = pb(7, default=None, key="penalty.type")  # NO_END_POINTS
    # the modifier, the servant rate, or "every N" of LOSE_PER_* (``every`` in the file)
    value: int = pb(8, default=0, key=("penalty.value", "penalty.every"))
    text: str = pb(9, default="", skip=True)


@message(name="BonusTileInfo")
class BonusTile:
    """A personal bonus tile: what every harvest and production action gives its owner."""

    id: int = pb(1, ge=1)
    name: str = pb(2, min_length=1)
    advanced: bool = pb(3)  # the advanced side (advanced game) or the standard tile
    harvest: Goods = pb(4)
    production: Goods = pb(5)
    text: str = pb(6, default="", skip=True)


@message(name="SpaceInfo")
class Space:
    """An action space of the board: `PlaceFamilyMember.space` and the view's occupants name these ids,
    and `LorenzoView.towers[id - 1]` is the card on tower space `id`."""

    id: int = pb(1, ge=1)
    kind: SpaceKind = pb(2)
    value: int = pb(3, ge=0)  # the lowest action value allowed here
    tower: CardType | None = pb(4, default=None)  # tower spaces: which tower
    floor: int = pb(5, default=0, ge=0)  # tower spaces: 1 (bottom) to 4
    bonus: Gain = pb(6, default=NO_GAIN)  # gained on placing (a tower floor's bonus, the market's goods)
    capacity: int = pb(7, default=1, ge=0)  # family members it holds; 0: any number
    min_players: int = pb(8, default=2, ge=2)  # covered in matches with fewer players
    modifier: int = pb(
        9, default=0
    )  # added to the action's value (-3 on the large harvest / production spaces)
    name: str = pb(10, default="", skip=True)  # short label: "territory tower floor 2 (3)"
    text: str = pb(11, default="", skip=True)

    def __post_init__(self) -> None:
        is_tower = self.kind is SpaceKind.TOWER
        if is_tower and self.tower is None:
            raise Invalid("tower", "a tower space names its tower")
        if not is_tower and self.tower is not None:
            raise Invalid("tower", "only tower spaces name a tower")


@message(name="BoardInfo")
class Board:
    """The board's numbers: turn and period structure, tracks and end-game tables."""

    periods: int = pb(1, ge=1)
    rounds_per_period: int = pb(2, ge=1)
    occupied_tower_fee: int = pb(3, ge=0)  # coins to place in a tower where any member stands
    max_cards_per_type: int = pb(4, ge=1)
    # Military Points owned to take a 1st, 2nd ... territory
    territory_slot_military: tuple[int, ...] = pb(5)
    # Faith Points to avoid excommunication, per period
    vatican_faith_required: tuple[int, ...] = pb(6)
    # Victory Points for 0, 1, 2 ... Faith Points (more counts as the last)
    faith_victory: tuple[int, ...] = pb(7)
    # end game: for 0, 1, 2 ... territories owned
    territory_victory: tuple[int, ...] = pb(8, key="end_game.territory_victory")
    # end game: for 0, 1, 2 ... characters owned
    character_victory: tuple[int, ...] = pb(9, key="end_game.character_victory")
    # end game: first and second on the military track
    military_victory: tuple[int, ...] = pb(10, key="end_game.military_victory")
    # end game: 1 Victory Point per this many resources
    resources_per_victory: int = pb(11, ge=1, key="end_game.resources_per_victory")
    setup_goods: Goods = pb(12, key="setup.goods")  # every player's goods at the start
    coins_by_turn_order: tuple[int, ...] = pb(
        13, key="setup.coins_by_turn_order"
    )  # starting coins by turn order
    cards_per_tower_per_round: int = pb(15, ge=1)  # cards dealt to each tower in a round
    # served beside the board (`LorenzoContent.spaces`, `LorenzoContent.privileges`): empty on the wire
    spaces: tuple[Space, ...] = pb(16)
    privileges: tuple[Goods, ...] = pb(17, min_length=PRIVILEGES, max_length=PRIVILEGES)
    text: str = pb(14, default="", skip=True)

    def __post_init__(self) -> None:
        _length(
            self.territory_slot_military,
            "territory_slot_military",
            "max_cards_per_type",
            self.max_cards_per_type,
        )
        _length(self.vatican_faith_required, "vatican_faith_required", "periods", self.periods)
        for name in ("territory_victory", "character_victory"):
            values = getattr(self, name)
            _length(values, name, "max_cards_per_type", self.max_cards_per_type, extra=1, named=True)

    @property
    def rounds(self) -> int:
        return self.periods * self.rounds_per_period


def _length(values: tuple[int, ...], name: str, of: str, n: int, extra: int = 0, named: bool = False) -> None:
    """``values`` hold one entry per unit of the field ``of`` (``n``), plus ``extra``."""
    if len(values) != n + extra:
        where = f"{name}: " if named else ""
        raise Invalid(name, f"{where}{len(values)} values where {of} {n} needs {n + extra}")


@dataclass(frozen=True)
class Content:
    """Every component of the game, with id lookups built once."""

    cards: tuple[Card, ...]
    leaders: tuple[Leader, ...]
    excommunications: tuple[ExcommunicationTile, ...]
    bonus_tiles: tuple[BonusTile, ...]
    board: Board
    card: dict[int, Card] = field(init=False, repr=False, compare=False)
    leader: dict[int, Leader] = field(init=False, repr=False, compare=False)
    tile: dict[int, ExcommunicationTile] = field(init=False, repr=False, compare=False)
    bonus_tile: dict[int, BonusTile] = field(init=False, repr=False, compare=False)
    space: dict[int, Space] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", {c.id: c for c in self.cards})
        object.__setattr__(self, "leader", {x.id: x for x in self.leaders})
        object.__setattr__(self, "tile", {t.id: t for t in self.excommunications})
        object.__setattr__(self, "bonus_tile", {t.id: t for t in self.bonus_tiles})
        object.__setattr__(self, "space", {s.id: s for s in self.board.spaces})


def content_counts(content: Content) -> dict[str, int]:
    """Component counts per family (for ``tabula content lorenzo --json``)."""
    by_type = {t.name.lower(): sum(1 for c in content.cards if c.card_type is t) for t in CardType}
    return {
        "development_cards": len(content.cards),
        **{f"{name}_cards": n for name, n in by_type.items()},
        "leaders": len(content.leaders),
        "excommunication_tiles": len(content.excommunications),
        "personal_bonus_tiles": len(content.bonus_tiles),
        "advanced_bonus_tiles": sum(1 for t in content.bonus_tiles if t.advanced),
        "board_spaces": len(content.board.spaces),
        "council_privileges": len(content.board.privileges),
    }
