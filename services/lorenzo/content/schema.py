"""The shape of Lorenzo il Magnifico's YAML files, as pydantic models, and their typed records.

One model per kind of YAML mapping, named ``...Yaml``, with the field names the files use; each
turns itself into the frozen dataclass the rules read (``record()``). Every check is a field
constraint or a validator, so :func:`shared.core.content.load` reports it with file, entry and field.
Checks across fields read the fields declared above them (``info.data``);
cross-references to the board (periods, deck sizes) come in through the validation context
``{"board": Board}``: ``board.yaml`` is loaded first.

Where the YAML headers document which keys go with which ``kind`` (leader abilities,
excommunication penalties), the models enforce it (:data:`ABILITY_FIELDS`,
:data:`PENALTY_FIELDS`); ``tables.py`` writes the same keys back for front-ends.

Stricter than the hand-written reader this replaced (the real files pass unchanged, and load to
an equal ``Content``): enum names must be the lower-case member name; an ability or penalty takes
exactly its kind's keys (before, ``every`` and ``value`` were interchangeable and unused keys
ignored); a ``tower`` on a space that is not a tower is refused (before, ignored); the deck size
per card type and period is the board's ``cards_per_tower_per_round * rounds_per_period`` (8)
rather than a literal 8.
"""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionBonus,
    ActionKind,
    Board,
    BonusTile,
    Card,
    CardType,
    Cost,
    Exchange,
    ExcommunicationTile,
    Gain,
    Harvest,
    Immediate,
    ImmediateKind,
    Leader,
    LeaderRequirement,
    PenaltyKind,
    Production,
    Space,
    SpaceKind,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods
from services.lorenzo.rules.queries import MAX_ACTIVATION
from shared.core.content import CONTENT_CONFIG, UNIQUE_IDS, by_name

# Component counts printed in the rulebook's component list.
CARDS, LEADERS, EXCOMMUNICATIONS, BONUS_TILES, PRIVILEGES = 96, 20, 21, 5, 5

Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Text = Annotated[str, Field(min_length=1)]
Activation = Annotated[int, Field(ge=1, le=MAX_ACTIVATION)]  # harvest/production value on a card
CardTypeName = Annotated[CardType, by_name(CardType)]
ActionName = Annotated[ActionKind, by_name(ActionKind)]

# The keys each kind takes besides ``kind`` (documented in the headers of leaders.yaml and
# excommunications.yaml); a missing or extra key is an error, not a silent default.
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


class _Yaml(BaseModel):
    model_config = CONTENT_CONFIG


def _board(info: ValidationInfo) -> Board:
    """The board, loaded before every other file (the loader passes it as context)."""
    board: Board = (info.context or {})["board"]
    return board


def _period_of_the_game(period: int, info: ValidationInfo) -> int:
    periods = _board(info).periods
    if period > periods:
        raise ValueError(f"outside the game's {periods} periods")
    return period


def _check_keys_of_kind(model: BaseModel, kind: str, wanted: tuple[str, ...]) -> None:
    """The keys given besides ``kind`` must be exactly ``wanted``."""
    given = model.model_fields_set - {"kind"}
    missing = [k for k in wanted if k not in given]
    extra = sorted(given - set(wanted))
    problems = [f"needs {', '.join(missing)}"] if missing else []
    problems += [f"takes no {', '.join(extra)}"] if extra else []
    if problems:
        raise ValueError(f"{kind} {'; '.join(problems)}")


# ---------------------------------------------------------------- goods


class GoodsYaml(_Yaml):
    """``{coins: 2, wood: 1}``: absent goods are 0."""

    coins: Count = 0
    wood: Count = 0
    stone: Count = 0
    servants: Count = 0
    military: Count = 0
    faith: Count = 0
    victory: Count = 0

    def record(self) -> Goods:
        return Goods(**{name: getattr(self, name) for name in GOODS_FIELDS})


class GainYaml(GoodsYaml):
    """Goods plus ``privileges: N`` (N different council privileges, at most the 5 there are)."""

    privileges: Annotated[int, Field(ge=0, le=PRIVILEGES)] = 0

    def gain(self) -> Gain:
        return Gain(self.record(), self.privileges)


# ---------------------------------------------------------------- development cards


class CostYaml(_Yaml):
    pay: GoodsYaml = GoodsYaml()
    require_military: Count = 0  # Military Points owned, not paid (ventures)

    def record(self) -> Cost:
        return Cost(self.pay.record(), self.require_military)


class TakeCardYaml(_Yaml):
    type: Annotated[CardType | None, by_name(CardType, any=None)]
    value: Count
    discount: GoodsYaml = GoodsYaml()


# The forms of an immediate effect: the keys each one takes.
EFFECTS = (
    ("gain",),
    ("gain_per_card", "per"),
    ("gain_per", "every_military"),
    ("take_card",),
    ("harvest",),
    ("production",),
)


class ImmediateYaml(_Yaml):
    """One immediate effect: exactly one of the forms in :data:`EFFECTS`."""

    gain: GainYaml | None = None
    gain_per_card: GoodsYaml | None = None
    per: CardTypeName | None = None
    gain_per: GoodsYaml | None = None
    every_military: Positive | None = None
    take_card: TakeCardYaml | None = None
    harvest: Count | None = None
    production: Count | None = None

    @model_validator(mode="after")
    def _one_effect(self) -> Self:
        given = {k for k in type(self).model_fields if getattr(self, k) is not None}
        if given not in [set(form) for form in EFFECTS]:
            forms = " | ".join(" + ".join(form) for form in EFFECTS)
            raise ValueError(f"an immediate effect is one of: {forms}")
        return self

    def record(self) -> Immediate:
        if self.gain is not None:
            return Immediate(ImmediateKind.GAIN, self.gain.gain())
        if self.gain_per_card is not None:
            return Immediate(ImmediateKind.GAIN_PER_CARD, Gain(self.gain_per_card.record()), self.per)
        if self.gain_per is not None and self.every_military is not None:
            gain = Gain(self.gain_per.record())
            return Immediate(ImmediateKind.GAIN_PER_MILITARY, gain, value=self.every_military)
        if self.take_card is not None:
            t = self.take_card
            return Immediate(
                ImmediateKind.TAKE_CARD, card_type=t.type, value=t.value, discount=t.discount.record()
            )
        if self.harvest is not None:
            return Immediate(ImmediateKind.HARVEST, value=self.harvest)
        assert self.production is not None  # _one_effect
        return Immediate(ImmediateKind.PRODUCTION, value=self.production)


class HarvestYaml(_Yaml):
    value: Activation
    gain: GainYaml = GainYaml()

    def record(self) -> Harvest:
        return Harvest(self.value, self.gain.gain())


class ExchangeYaml(_Yaml):
    pay: GoodsYaml = GoodsYaml()
    gain: GainYaml = GainYaml()

    def record(self) -> Exchange:
        return Exchange(self.pay.record(), self.gain.gain())


class ProductionYaml(_Yaml):
    value: Activation
    gain: GainYaml = GainYaml()
    gain_per_card: GoodsYaml | None = None
    per: Annotated[CardTypeName | None, Field(validate_default=True)] = None
    exchange: list[ExchangeYaml] = []  # alternatives, at most one per activation

    @field_validator("per")
    @classmethod
    def _per_goes_with_gain_per_card(cls, per: CardType | None, info: ValidationInfo) -> CardType | None:
        if (per is None) != (info.data.get("gain_per_card") is None):
            raise ValueError("gain_per_card and per go together")
        return per

    def record(self) -> Production:
        per_card_gain = self.gain_per_card.record() if self.gain_per_card else Goods()
        exchanges = tuple(x.record() for x in self.exchange)
        return Production(self.value, self.gain.gain(), self.per, per_card_gain, exchanges)


class ActionBonusYaml(_Yaml):
    action: ActionName
    value: int
    discount: list[GoodsYaml] = []  # alternatives (Stonemason: wood OR stone)

    def record(self) -> ActionBonus:
        return ActionBonus(self.action, self.value, tuple(d.record() for d in self.discount))


class CardYaml(_Yaml):
    id: Positive
    name: Text
    type: CardTypeName
    period: Positive
    costs: Annotated[list[CostYaml], Field(validate_default=True)] = []  # alternatives
    immediate: list[ImmediateYaml] = []  # in order
    harvest: HarvestYaml | None = None
    production: ProductionYaml | None = None
    action_bonus: ActionBonusYaml | None = None
    no_floor_bonus: bool = False  # Preacher
    end_victory: Count = 0  # ventures

    @field_validator("period")
    @classmethod
    def _in_the_game(cls, period: int, info: ValidationInfo) -> int:
        return _period_of_the_game(period, info)

    @field_validator("costs")
    @classmethod
    def _only_territories_are_free(cls, costs: list[CostYaml], info: ValidationInfo) -> list[CostYaml]:
        if not costs and info.data.get("type", CardType.TERRITORY) is not CardType.TERRITORY:
            raise ValueError("only territories are free")
        return costs

    def record(self) -> Card:
        return Card(
            id=self.id,
            name=self.name,
            card_type=self.type,
            period=self.period,
            costs=tuple(c.record() for c in self.costs),
            immediate=tuple(e.record() for e in self.immediate),
            harvest=self.harvest.record() if self.harvest else None,
            production=self.production.record() if self.production else None,
            action_bonus=self.action_bonus.record() if self.action_bonus else None,
            no_floor_bonus=self.no_floor_bonus,
            end_victory=self.end_victory,
        )


class CardsYaml(_Yaml):
    """``cards.yaml``: 8 cards of each type per period (the deck dealt over a period's rounds)."""

    cards: Annotated[list[CardYaml], UNIQUE_IDS, Field(min_length=CARDS, max_length=CARDS)]

    @field_validator("cards")
    @classmethod
    def _decks(cls, cards: list[CardYaml], info: ValidationInfo) -> list[CardYaml]:
        board = _board(info)
        per_deck = board.cards_per_tower_per_round * board.rounds_per_period
        for card_type in CardType:
            for period in range(1, board.periods + 1):
                n = sum(1 for c in cards if c.type is card_type and c.period == period)
                if n != per_deck:
                    name = card_type.name.lower()
                    raise ValueError(f"{name} cards of period {period}: {n}, not {per_deck}")
        return cards

    def records(self) -> tuple[Card, ...]:
        return tuple(c.record() for c in self.cards)


# ---------------------------------------------------------------- leaders


class CardCountsYaml(_Yaml):
    territory: Count = 0
    building: Count = 0
    character: Count = 0
    venture: Count = 0

    def record(self) -> tuple[int, int, int, int]:
        """Counts in CardType order."""
        return (self.territory, self.building, self.character, self.venture)


class RequiresYaml(_Yaml):
    """What a player must own (not spend) to play the leader."""

    cards: CardCountsYaml = CardCountsYaml()
    same_type: Count = 0
    goods: GoodsYaml = GoodsYaml()

    def record(self) -> LeaderRequirement:
        return LeaderRequirement(self.cards.record(), self.same_type, self.goods.record())


class AbilityYaml(_Yaml):
    kind: Annotated[AbilityKind, by_name(AbilityKind)]
    gain: GainYaml = GainYaml()
    value: int = 0

    @model_validator(mode="after")
    def _keys_of_kind(self) -> Self:
        _check_keys_of_kind(self, self.kind.name.lower(), ABILITY_FIELDS[self.kind])
        return self


class LeaderYaml(_Yaml):
    id: Positive
    name: Text
    requires: RequiresYaml
    once_per_round: bool = False  # true: a leader action once per round; false: permanent
    ability: AbilityYaml

    def record(self) -> Leader:
        return Leader(
            id=self.id,
            name=self.name,
            requirement=self.requires.record(),
            once_per_round=self.once_per_round,
            ability=self.ability.kind,
            gain=self.ability.gain.gain(),
            value=self.ability.value,
        )


class LeadersYaml(_Yaml):
    leaders: Annotated[list[LeaderYaml], UNIQUE_IDS, Field(min_length=LEADERS, max_length=LEADERS)]

    def records(self) -> tuple[Leader, ...]:
        return tuple(x.record() for x in self.leaders)


# ---------------------------------------------------------------- excommunication tiles


class PenaltyYaml(_Yaml):
    kind: Annotated[PenaltyKind, by_name(PenaltyKind)]
    goods: GoodsYaml = GoodsYaml()
    action: ActionName | None = None
    type: CardTypeName | None = None
    value: int | None = None
    every: int | None = None  # lose_per_*: one point lost per ``every``

    @model_validator(mode="after")
    def _keys_of_kind(self) -> Self:
        _check_keys_of_kind(self, self.kind.name.lower(), PENALTY_FIELDS[self.kind])
        return self


class ExcommunicationYaml(_Yaml):
    id: Positive
    code: Text
    period: Positive
    penalty: PenaltyYaml

    @field_validator("period")
    @classmethod
    def _in_the_game(cls, period: int, info: ValidationInfo) -> int:
        return _period_of_the_game(period, info)

    def record(self) -> ExcommunicationTile:
        p = self.penalty
        return ExcommunicationTile(
            id=self.id,
            code=self.code,
            period=self.period,
            penalty=p.kind,
            goods=p.goods.record(),
            action=p.action,
            card_type=p.type,
            value=p.value if p.value is not None else p.every or 0,
        )


class ExcommunicationsYaml(_Yaml):
    tiles: Annotated[
        list[ExcommunicationYaml],
        UNIQUE_IDS,
        Field(min_length=EXCOMMUNICATIONS, max_length=EXCOMMUNICATIONS),
    ]

    def records(self) -> tuple[ExcommunicationTile, ...]:
        return tuple(t.record() for t in self.tiles)


# ---------------------------------------------------------------- personal bonus tiles


class BonusTileYaml(_Yaml):
    id: Positive
    name: Text
    advanced: bool = False
    harvest: GoodsYaml = GoodsYaml()
    production: GoodsYaml = GoodsYaml()

    def record(self) -> BonusTile:
        return BonusTile(self.id, self.name, self.advanced, self.harvest.record(), self.production.record())


class BonusTilesYaml(_Yaml):
    tiles: Annotated[list[BonusTileYaml], UNIQUE_IDS, Field(min_length=BONUS_TILES, max_length=BONUS_TILES)]

    def records(self) -> tuple[BonusTile, ...]:
        return tuple(t.record() for t in self.tiles)


# ---------------------------------------------------------------- board


class SpaceYaml(_Yaml):
    id: Positive
    kind: Annotated[SpaceKind, by_name(SpaceKind)]
    tower: Annotated[CardTypeName | None, Field(validate_default=True)] = None
    floor: Count = 0
    value: Count  # minimum action value
    bonus: GainYaml = GainYaml()
    capacity: Count = 1  # 0 = unlimited
    min_players: Annotated[int, Field(ge=2)] = 2
    modifier: int = 0  # action value modifier (large spaces -3)

    @field_validator("tower")
    @classmethod
    def _towers_name_their_tower(cls, tower: CardType | None, info: ValidationInfo) -> CardType | None:
        if "kind" not in info.data:  # already reported
            return tower
        is_tower = info.data["kind"] is SpaceKind.TOWER
        if is_tower and tower is None:
            raise ValueError("a tower space names its tower")
        if not is_tower and tower is not None:
            raise ValueError("only tower spaces name a tower")
        return tower

    def record(self) -> Space:
        return Space(
            id=self.id,
            kind=self.kind,
            value=self.value,
            tower=self.tower,
            floor=self.floor,
            bonus=self.bonus.gain(),
            capacity=self.capacity,
            min_players=self.min_players,
            modifier=self.modifier,
        )


class SetupYaml(_Yaml):
    goods: GoodsYaml = GoodsYaml()
    coins_by_turn_order: list[int]


class EndGameYaml(_Yaml):
    territory_victory: list[int]  # by card count 0..max
    character_victory: list[int]
    military_victory: list[int]  # first, second
    resources_per_victory: Positive


def _length(values: list[int], info: ValidationInfo, of: str, extra: int = 0, name: str = "") -> None:
    """``values`` hold one entry per unit of the field ``of`` (declared above), plus ``extra``."""
    n = info.data.get(of)
    if n is not None and len(values) != n + extra:
        where = f"{name}: " if name else ""
        raise ValueError(f"{where}{len(values)} values where {of} {n} needs {n + extra}")


class BoardYaml(_Yaml):
    spaces: Annotated[list[SpaceYaml], UNIQUE_IDS]
    privileges: Annotated[list[GoodsYaml], Field(min_length=PRIVILEGES, max_length=PRIVILEGES)]
    occupied_tower_fee: Count
    max_cards_per_type: Positive
    territory_slot_military: list[int]  # one per territory slot
    setup: SetupYaml
    periods: Positive
    rounds_per_period: Positive
    cards_per_tower_per_round: Positive
    vatican_faith_required: list[int]  # one per period
    faith_victory: list[int]  # by faith points 0..15
    end_game: EndGameYaml

    @field_validator("territory_slot_military")
    @classmethod
    def _one_per_slot(cls, v: list[int], info: ValidationInfo) -> list[int]:
        _length(v, info, "max_cards_per_type")
        return v

    @field_validator("vatican_faith_required")
    @classmethod
    def _one_per_period(cls, v: list[int], info: ValidationInfo) -> list[int]:
        _length(v, info, "periods")
        return v

    @field_validator("end_game")
    @classmethod
    def _one_per_card_count(cls, end: EndGameYaml, info: ValidationInfo) -> EndGameYaml:
        for field in ("territory_victory", "character_victory"):
            _length(getattr(end, field), info, "max_cards_per_type", extra=1, name=field)
        return end

    def record(self) -> Board:
        end = self.end_game
        return Board(
            spaces=tuple(s.record() for s in self.spaces),
            privileges=tuple(p.record() for p in self.privileges),
            occupied_tower_fee=self.occupied_tower_fee,
            max_cards_per_type=self.max_cards_per_type,
            territory_slot_military=tuple(self.territory_slot_military),
            setup_goods=self.setup.goods.record(),
            coins_by_turn_order=tuple(self.setup.coins_by_turn_order),
            periods=self.periods,
            rounds_per_period=self.rounds_per_period,
            cards_per_tower_per_round=self.cards_per_tower_per_round,
            vatican_faith_required=tuple(self.vatican_faith_required),
            faith_victory=tuple(self.faith_victory),
            territory_victory=tuple(end.territory_victory),
            character_victory=tuple(end.character_victory),
            military_victory=tuple(end.military_victory),
            resources_per_victory=end.resources_per_victory,
        )
