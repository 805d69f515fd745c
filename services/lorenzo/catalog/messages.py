"""The typed content clients read through ``GetContent``: every component with its costs, effects
and an English text.

These ``@message`` types are rendered into ``lorenzo.proto`` (the manifest's ``content`` hook) and
filled by ``records.py`` from the validated content. Views, commands and events name components by
id; these records say what each id is. Every ``text`` is generated from the same data
(``services/lorenzo/texts.py``, the terminal client's wording too), so it never disagrees with the
numbers next to it. Enums are the content's own (``CardType``,
``ActionKind`` ...), the goods are the view's ``Goods``.
"""

from __future__ import annotations

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionKind,
    CardType,
    ImmediateKind,
    PenaltyKind,
    SpaceKind,
)
from services.lorenzo.rules.goods import ZERO, Goods
from services.lorenzo.rules.model import Privilege
from shared.core.wire import message, pb


@message
class GainInfo:
    """Goods gained, plus a number of council privileges (each one a different privilege)."""

    goods: Goods = pb(1, default=ZERO)
    privileges: int = pb(2, default=0)


@message
class CostInfo:
    """One way to pay for a card (a card with several lets the player choose: `cost_option`, 1-based)."""

    pay: Goods = pb(1, default=ZERO)  # spent
    require_military: int = pb(2, default=0)  # Military Points that must be owned (not spent) to choose this
    text: str = pb(3, default="")


@message
class ImmediateEffect:
    """An effect that happens once, when the card is taken (in printed order)."""

    kind: ImmediateKind = pb(1)
    gain: GainInfo = pb(2, default=GainInfo())  # GAIN: the gain; GAIN_PER_*: the gain per unit counted
    # GAIN_PER_CARD: the type counted; TAKE_CARD: the type taken (unset: any)
    card_type: CardType | None = pb(3, default=None)
    # TAKE_CARD, HARVEST, PRODUCTION: the action value; GAIN_PER_MILITARY: every N points
    value: int = pb(4, default=0)
    discount: Goods = pb(5, default=ZERO)  # TAKE_CARD: taken off the card's cost
    text: str = pb(6, default="")


@message
class HarvestEffect:
    """What the card gives in a harvest action of at least `value`."""

    value: int = pb(1)
    gain: GainInfo = pb(2, default=GainInfo())
    text: str = pb(3, default="")


@message
class ExchangeOption:
    """One production exchange: pay, then gain."""

    pay: Goods = pb(1, default=ZERO)
    gain: GainInfo = pb(2, default=GainInfo())
    text: str = pb(3, default="")


@message
class ProductionEffect:
    """What the card does in a production action of at least `value`."""

    value: int = pb(1)
    gain: GainInfo = pb(2, default=GainInfo())  # gained outright
    per_card: CardType | None = pb(3, default=None)  # set: `per_card_gain` for each card of this type owned
    per_card_gain: Goods = pb(4, default=ZERO)
    # alternatives: at most one per production (ChooseExchange.option, 1-based)
    exchanges: tuple[ExchangeOption, ...] = pb(5, default=())
    text: str = pb(6, default="")


@message
class ActionBonusEffect:
    """A permanent bonus (characters): more value for one kind of action, maybe a discount."""

    action: ActionKind = pb(1)
    value: int = pb(2)  # added to the action value
    # alternatives off the card's cost (`discount_option`, 1-based)
    discounts: tuple[Goods, ...] = pb(3, default=())
    text: str = pb(4, default="")


@message
class CardInfo:
    """A development card. `LorenzoView.towers` and each player's cards hold these ids."""

    id: int = pb(1)
    name: str = pb(2)
    card_type: CardType = pb(3)
    period: int = pb(4)  # 1 to 3: the deck it is dealt from
    costs: tuple[CostInfo, ...] = pb(5, default=())  # alternatives; empty: free (territories)
    immediate: tuple[ImmediateEffect, ...] = pb(6, default=())
    harvest: HarvestEffect | None = pb(7, default=None)
    production: ProductionEffect | None = pb(8, default=None)
    action_bonus: ActionBonusEffect | None = pb(9, default=None)
    no_floor_bonus: bool = pb(10, default=False)  # permanent: no more tower-space bonuses (Preacher)
    end_victory: int = pb(11, default=0)  # Victory Points at the end of the game (ventures)
    text: str = pb(12, default="")  # the whole card in English


@message
class CardCount:
    card_type: CardType = pb(1)
    count: int = pb(2)


@message
class RequirementInfo:
    """What a player must own (not pay) to play a leader."""

    cards: tuple[CardCount, ...] = pb(1, default=())  # at least this many cards of each type
    same_type: int = pb(2, default=0)  # at least this many cards of one type
    goods: Goods = pb(3, default=ZERO)
    text: str = pb(4, default="")


@message
class LeaderInfo:
    """A Leader card (advanced game). Players' `leaders` in the view hold these ids."""

    id: int = pb(1)
    name: str = pb(2)
    ability: AbilityKind = pb(5)
    requirement: RequirementInfo = pb(3, default=RequirementInfo())
    # true: used with ActivateLeader once a round; false: permanent once played
    once_per_round: bool = pb(4, default=False)
    gain: GainInfo = pb(6, default=GainInfo())  # GAIN, CHURCH_BONUS
    value: int = pb(7, default=0)  # HARVEST, PRODUCTION, MEMBER_SIX, COIN_DISCOUNT, *_BONUS, COLORED_VALUE
    ability_text: str = pb(8, default="")  # the ability alone
    text: str = pb(9, default="")  # requirement and ability


@message
class ExcommunicationInfo:
    """An excommunication tile: the penalty a player takes for not supporting the Church."""

    id: int = pb(1)
    code: str = pb(2)  # as printed: period_number ("2_5")
    period: int = pb(3)
    penalty: PenaltyKind = pb(4)
    goods: Goods = pb(5, default=ZERO)  # GAIN_REDUCTION: taken off each gain
    action: ActionKind | None = pb(6, default=None)  # ACTION_MODIFIER
    card_type: CardType | None = pb(7, default=None)  # NO_END_POINTS
    value: int = pb(8, default=0)  # the modifier, the servant rate, or "every N" of LOSE_PER_*
    text: str = pb(9, default="")


@message
class BonusTileInfo:
    """A personal bonus tile: what every harvest and production action gives its owner."""

    id: int = pb(1)
    name: str = pb(2)
    advanced: bool = pb(3)  # the advanced side (advanced game) or the standard tile
    harvest: Goods = pb(4, default=ZERO)
    production: Goods = pb(5, default=ZERO)
    text: str = pb(6, default="")


@message
class SpaceInfo:
    """An action space of the board: `PlaceFamilyMember.space` and the view's occupants name these ids,
    and `LorenzoView.towers[id - 1]` is the card on tower space `id`."""

    id: int = pb(1)
    kind: SpaceKind = pb(2)
    value: int = pb(3)  # the lowest action value allowed here
    tower: CardType | None = pb(4, default=None)  # tower spaces: which tower
    floor: int = pb(5, default=0)  # tower spaces: 1 (bottom) to 4
    # gained on placing (a tower floor's bonus, the market's goods)
    bonus: GainInfo = pb(6, default=GainInfo())
    capacity: int = pb(7, default=1)  # family members it holds; 0: any number
    min_players: int = pb(8, default=2)  # covered in matches with fewer players
    # added to the action's value (-3 on the large harvest / production spaces)
    modifier: int = pb(9, default=0)
    name: str = pb(10, default="")  # short label: "territory tower floor 2 (3)"
    text: str = pb(11, default="")


@message
class PrivilegeInfo:
    """A council privilege, as `ChooseCouncilPrivileges` names it."""

    privilege: Privilege = pb(1)
    goods: Goods = pb(2, default=ZERO)
    text: str = pb(3, default="")


@message
class BoardInfo:
    """The board's numbers: turn and period structure, tracks and end-game tables."""

    periods: int = pb(1)
    rounds_per_period: int = pb(2)
    occupied_tower_fee: int = pb(3)  # coins to place in a tower where any member stands
    max_cards_per_type: int = pb(4)
    # Military Points owned to take a 1st, 2nd ... territory
    territory_slot_military: tuple[int, ...] = pb(5, default=())
    # Faith Points to avoid excommunication, per period
    vatican_faith_required: tuple[int, ...] = pb(6, default=())
    # Victory Points for 0, 1, 2 ... Faith Points (more counts as the last)
    faith_victory: tuple[int, ...] = pb(7, default=())
    territory_victory: tuple[int, ...] = pb(8, default=())  # end game: for 0, 1, 2 ... territories owned
    character_victory: tuple[int, ...] = pb(9, default=())  # end game: for 0, 1, 2 ... characters owned
    military_victory: tuple[int, ...] = pb(10, default=())  # end game: first and second on the military track
    resources_per_victory: int = pb(11, default=0)  # end game: 1 Victory Point per this many resources
    setup_goods: Goods = pb(12, default=ZERO)  # every player's goods at the start
    coins_by_turn_order: tuple[int, ...] = pb(13, default=())  # starting coins by turn order
    text: str = pb(14, default="")


@message
class LorenzoContent:
    """Every component of Lorenzo il Magnifico, as the rules read it, with English texts."""

    cards: tuple[CardInfo, ...] = pb(1, default=())
    leaders: tuple[LeaderInfo, ...] = pb(2, default=())
    excommunications: tuple[ExcommunicationInfo, ...] = pb(3, default=())
    bonus_tiles: tuple[BonusTileInfo, ...] = pb(4, default=())
    spaces: tuple[SpaceInfo, ...] = pb(5, default=())
    privileges: tuple[PrivilegeInfo, ...] = pb(6, default=())  # in printed order
    board: BoardInfo | None = pb(7, default=None)
