"""Derived values: member and action values, discounts, penalties and leader abilities in force."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionKind,
    CardType,
    Content,
    ExcommunicationTile,
    Leader,
    PenaltyKind,
    Space,
    SpaceKind,
    take_action,
)
from services.lorenzo.rules.goods import ZERO, Goods
from services.lorenzo.rules.model import COLORED, Member, PlayedLeader, PlayerState, State


class Holder(Protocol):
    """What leader abilities and penalties read of a player: a ``PlayerState``, or a seat's view."""

    @property
    def played(self) -> tuple[PlayedLeader, ...]: ...
    @property
    def excommunications(self) -> tuple[int, ...]: ...
    @property
    def six_member(self) -> Member | None: ...


def ability(c: Content, p: Holder, kind: AbilityKind) -> Leader | None:
    """The played leader (or Lorenzo de' Medici's copy) giving ``kind``, if any."""
    if not p.played:
        return None
    for pl in p.played:
        leader = c.leader[pl.copied if pl.copied is not None else pl.leader]
        if leader.ability is kind:
            return leader
    return None


def effective_leader(c: Content, leader_id: int, copied: int | None) -> Leader:
    return c.leader[copied if copied is not None else leader_id]


def penalties(c: Content, p: Holder, kind: PenaltyKind) -> list[ExcommunicationTile]:
    if not p.excommunications:
        return []
    return [c.tile[t] for t in p.excommunications if c.tile[t].penalty is kind]


def has_penalty(c: Content, p: PlayerState, kind: PenaltyKind) -> bool:
    return any(c.tile[t].penalty is kind for t in p.excommunications)


def servant_rate(c: Content, p: PlayerState) -> int:
    """Servants per +1 (excommunication 2_6: two)."""
    rate = 1
    for t in penalties(c, p, PenaltyKind.SERVANT_RATE):
        rate = max(rate, t.value)
    return rate


def member_value(c: Content, s: State, p: PlayerState, member: Member) -> int:
    """A member's value before servants and action bonuses (dice, leaders, excommunication 1_7)."""
    return die_value(c, s.dice, p, member)


def die_value(c: Content, dice: Sequence[int], p: Holder, member: Member) -> int:
    """``member_value`` from the dice rolled (black, white, orange) and what ``p`` holds."""
    if member is Member.NEUTRAL:
        bonus = ability(c, p, AbilityKind.NEUTRAL_BONUS)
        return bonus.value if bonus else 0
    if p.six_member is member:
        six = ability(c, p, AbilityKind.MEMBER_SIX)
        value = six.value if six else 6
    else:
        fixed = ability(c, p, AbilityKind.COLORED_VALUE)
        value = fixed.value if fixed else dice[COLORED.index(member)]
    plus = ability(c, p, AbilityKind.COLORED_BONUS)
    if plus:
        value += plus.value
    for t in penalties(c, p, PenaltyKind.COLORED_MEMBER_MODIFIER):
        value += t.value
    return value


def action_modifier(c: Content, p: PlayerState, action: ActionKind, servants_only: bool = False) -> int:
    """Character bonuses (unless only servants may raise the action) plus excommunication modifiers."""
    total = 0
    if not servants_only:
        for cid in p.characters:
            bonus = c.card[cid].action_bonus
            if bonus is not None and bonus.action is action:
                total += bonus.value
    for t in penalties(c, p, PenaltyKind.ACTION_MODIFIER):
        if t.action is action:
            total += t.value
    return total


def discounts(c: Content, p: PlayerState, card_type: CardType) -> tuple[Goods, tuple[Goods, ...]]:
    """Fixed discount and the alternatives to choose from (Stonemason: wood OR stone)."""
    fixed: Goods = ZERO
    options: tuple[Goods, ...] = ()
    action = take_action(card_type)
    for cid in p.characters:
        bonus = c.card[cid].action_bonus
        if bonus is None or bonus.action is not action or not bonus.discounts:
            continue
        if len(bonus.discounts) == 1:
            fixed = fixed + bonus.discounts[0]
        elif not options:
            options = bonus.discounts
    return fixed, options


def reduce_gain(c: Content, p: PlayerState, goods: Goods) -> Goods:
    """Excommunications 1_1..1_4: each source gives one fewer of the named goods (never below 0)."""
    for t in penalties(c, p, PenaltyKind.GAIN_REDUCTION):
        goods = goods - t.goods
    return goods.floor0()


def meets_requirement(c: Content, p: PlayerState, leader: Leader) -> bool:
    req = leader.requirement
    counts = (len(p.territories), len(p.buildings), len(p.characters), len(p.ventures))
    if any(have < need for have, need in zip(counts, req.counts, strict=True)):
        return False
    if req.same_type and max(counts) < req.same_type:
        return False
    return p.goods.covers(req.goods)


def faith_required(c: Content, s: State) -> int:
    return c.board.vatican_faith_required[s.period - 1]


def faith_victory(c: Content, faith: int) -> int:
    table = c.board.faith_victory
    return table[min(faith, len(table) - 1)]


class SeatCache:
    """Values derived from one state for one seat, computed once per ``decide`` / ``legal_commands`` call
    (and lazily where only some are needed): member values, action modifiers, discounts, leader abilities,
    excommunication penalties and board occupancy. Valid only for the state it was built from."""

    __slots__ = (
        "_discounts",
        "_floor_bonus",
        "_modifiers",
        "_space_modifiers",
        "_values",
        "coin_discount",
        "colored_areas",
        "content",
        "ignore_territory_requirement",
        "no_fee",
        "no_floor_bonus",
        "no_market",
        "occupied_spaces",
        "occupied_towers",
        "player",
        "rate",
        "seat",
        "state",
        "taken",
    )

    def __init__(self, c: Content, s: State, seat: int) -> None:
        p = s.players[seat]
        self.content = c
        self.state = s
        self.seat = seat
        self.player = p
        self.rate = servant_rate(c, p)
        self.occupied_spaces = ability(c, p, AbilityKind.OCCUPIED_SPACES) is not None  # Ludovico Ariosto
        self.no_fee = ability(c, p, AbilityKind.NO_TOWER_FEE) is not None  # Filippo Brunelleschi
        self.coin_discount = ability(c, p, AbilityKind.COIN_DISCOUNT)  # Pico della Mirandola
        self.ignore_territory_requirement = (  # Cesare Borgia
            ability(c, p, AbilityKind.IGNORE_TERRITORY_REQUIREMENT) is not None
        )
        self.no_market = has_penalty(c, p, PenaltyKind.NO_MARKET)
        self.no_floor_bonus = any(c.card[x].no_floor_bonus for x in p.characters)  # Preacher
        # members per space; (kind, tower) areas holding a coloured member of this seat; occupied towers
        self.taken: dict[int, int] = {}
        self.colored_areas: set[tuple[SpaceKind, CardType | None]] = set()
        self.occupied_towers: set[CardType] = set()
        for o in s.occupants:
            space = c.space[o.space]
            self.taken[o.space] = self.taken.get(o.space, 0) + 1
            if space.tower is not None:
                self.occupied_towers.add(space.tower)
            if o.seat == seat and o.member is not Member.NEUTRAL:
                self.colored_areas.add((space.kind, space.tower))
        self._values: dict[Member, int] = {}
        self._modifiers: dict[ActionKind, int] = {}
        self._space_modifiers: dict[int, int] = {}
        self._discounts: dict[CardType, tuple[Goods, tuple[Goods, ...]]] = {}
        self._floor_bonus: dict[int, Goods] = {}

    def member_value(self, member: Member) -> int:
        value = self._values.get(member)
        if value is None:
            value = self._values[member] = member_value(self.content, self.state, self.player, member)
        return value

    def action_modifier(self, action: ActionKind) -> int:
        """``action_modifier`` with character bonuses (not the servants-only leader actions)."""
        value = self._modifiers.get(action)
        if value is None:
            value = self._modifiers[action] = action_modifier(self.content, self.player, action)
        return value

    def space_modifier(self, space: Space) -> int:
        """What acting on ``space`` adds to a member's value (``action_modifier`` and the modifier of the
        large harvest / production spaces)."""
        value = self._space_modifiers.get(space.id)
        if value is None:
            match space.kind:
                case SpaceKind.TOWER:
                    assert space.tower is not None
                    value = self.action_modifier(take_action(space.tower))
                case SpaceKind.HARVEST:
                    value = self.action_modifier(ActionKind.HARVEST) + space.modifier
                case SpaceKind.PRODUCTION:
                    value = self.action_modifier(ActionKind.PRODUCTION) + space.modifier
                case SpaceKind.MARKET | SpaceKind.COUNCIL:
                    value = 0
            self._space_modifiers[space.id] = value
        return value

    def discounts(self, card_type: CardType) -> tuple[Goods, tuple[Goods, ...]]:
        value = self._discounts.get(card_type)
        if value is None:
            value = self._discounts[card_type] = discounts(self.content, self.player, card_type)
        return value

    def floor_bonus(self, space: Space) -> Goods:
        """Goods the floor bonus of ``space`` gives this seat (none for the Preacher, excommunications)."""
        value = self._floor_bonus.get(space.id)
        if value is None:
            p = self.player
            goods = ZERO if self.no_floor_bonus else space.bonus.goods
            if p.excommunications:
                goods = reduce_gain(self.content, p, goods)
            value = self._floor_bonus[space.id] = ZERO if goods == ZERO else goods  # ``is ZERO``: none
        return value

    def has_colored_in_area(self, space: Space) -> bool:
        """One coloured member per player per tower and per harvest / production area (neutral: free)."""
        if space.kind in (SpaceKind.MARKET, SpaceKind.COUNCIL):
            return False
        return (space.kind, space.tower) in self.colored_areas
